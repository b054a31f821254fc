//! The kernel ends with the Jupyter server that started it: jupyter_client names itself in
//! `JPY_PARENT_PID`, and a kernel whose server was killed outright must not linger.
#![cfg(all(feature = "jupyter", target_os = "linux"))]

use crate::kernel_common::{connection_file, KillOnDrop};

use std::io::BufRead;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const WAIT: Duration = Duration::from_secs(30);

/// A kernel whose Jupyter server dies (here a shell standing in for it, killed outright)
/// notices within seconds and exits instead of lingering.
#[test]
fn the_kernel_exits_when_its_server_dies() {
    let (dir, file, _) = connection_file("orphan", "orphan");
    let log = dir.join("kernel.log");
    // The shell starts the kernel as jupyter_client would, prints its pid, and waits.
    let mut server = KillOnDrop(
        Command::new("sh")
            .arg("-c")
            .arg(r#"JPY_PARENT_PID=$$ "$0" jupyter kernel -f "$1" </dev/null >/dev/null 2>"$2" & echo $!; wait"#)
            .arg(env!("CARGO_BIN_EXE_ragtag"))
            .arg(&file)
            .arg(&log)
            .stdout(Stdio::piped())
            .spawn()
            .expect("start sh"),
    );
    let mut line = String::new();
    std::io::BufReader::new(server.0.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let pid: u32 = line.trim().parse().expect("the kernel's pid");
    let proc_dir = std::path::PathBuf::from(format!("/proc/{pid}"));
    // Ended means gone, or a zombie nobody has reaped yet.
    let ended = || match std::fs::read_to_string(proc_dir.join("stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
    };
    // Let the kernel start, and check it stays up while its server lives.
    std::thread::sleep(Duration::from_millis(1500));
    assert!(!ended(), "the kernel ended while its server was alive");
    drop(server);
    let deadline = Instant::now() + WAIT;
    while !ended() {
        if Instant::now() > deadline {
            // Do not leave it running.
            let _ = Command::new("kill").arg(pid.to_string()).status();
            panic!("the kernel outlived its server");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(text.contains("has exited"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
