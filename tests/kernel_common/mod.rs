//! What the kernel tests share: a connection file on free loopback ports, a child process
//! that is killed when the test ends, however it ends, and a Jupyter client ([`client`]).

pub mod client;

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::Child;

/// Kills the process when dropped, so a failing test leaves no kernel running (a left-over
/// kernel would also hold the test's output open).
pub struct KillOnDrop(pub Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A connection file for a kernel: five free loopback ports (every listener is held until
/// all are chosen, so none repeats) and `key` for HMAC-SHA256. Returns its directory (for
/// logs), the file, and the ports: shell, iopub, stdin, control, heartbeat.
pub fn connection_file(name: &str, key: &str) -> (PathBuf, PathBuf, Vec<u16>) {
    let listeners: Vec<_> = (0..5)
        .map(|_| TcpListener::bind("127.0.0.1:0").unwrap())
        .collect();
    let ports: Vec<u16> = listeners
        .iter()
        .map(|l| l.local_addr().unwrap().port())
        .collect();
    drop(listeners);
    let dir = std::env::temp_dir().join(format!("ragtag-kernel-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("connection.json");
    let info = serde_json::json!({
        "ip": "127.0.0.1", "transport": "tcp",
        "shell_port": ports[0], "iopub_port": ports[1], "stdin_port": ports[2],
        "control_port": ports[3], "hb_port": ports[4],
        "key": key, "signature_scheme": "hmac-sha256", "kernel_name": "ragtag",
    });
    std::fs::write(&file, info.to_string()).unwrap();
    (dir, file, ports)
}
