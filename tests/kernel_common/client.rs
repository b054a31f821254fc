//! A Jupyter client for the kernel tests: starts `ragtag jupyter kernel` on a connection
//! file, connects shell, control, IOPub and heartbeat over ZeroMQ, signs requests with
//! HMAC-SHA256 and checks the kernel's signatures. Every wait has a timeout, so a hang fails
//! instead of blocking.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use hmac::{Hmac, KeyInit, Mac};
use serde_json::{json, Value};
use sha2::Sha256;
use zeromq::{DealerSocket, ReqSocket, Socket, SocketRecv, SocketSend, SubSocket, ZmqMessage};

use super::{connection_file, KillOnDrop};

pub const DELIMITER: &[u8] = b"<IDS|MSG>";
/// Long enough for a debug build on a busy machine, short enough to fail a hang promptly.
pub const WAIT: Duration = Duration::from_secs(30);

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

pub fn sign(key: &[u8], parts: &[&[u8]]) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("any key length");
    for p in parts {
        mac.update(p);
    }
    hex(&mac.finalize().into_bytes())
}

#[derive(Clone, Copy)]
pub enum Channel {
    Shell,
    Control,
}

/// Connects, retrying while the kernel has not bound the port yet: the pure-Rust ZeroMQ
/// client fails at once where libzmq would keep trying.
pub async fn connect_retrying<S: Socket>(socket: &mut S, url: &str) {
    loop {
        match socket.connect(url).await {
            Ok(()) => return,
            Err(_) => tokio::time::sleep(Duration::from_millis(20)).await,
        }
    }
}

/// [`connect_retrying`] that gives up, with the exit status, once the kernel has exited.
async fn connect_while_alive<S: Socket>(
    socket: &mut S,
    url: &str,
    child: &mut KillOnDrop,
) -> Result<(), String> {
    loop {
        if let Ok(Some(status)) = child.0.try_wait() {
            return Err(status.to_string());
        }
        match socket.connect(url).await {
            Ok(()) => return Ok(()),
            Err(_) => tokio::time::sleep(Duration::from_millis(20)).await,
        }
    }
}

pub struct Kernel {
    pub child: KillOnDrop,
    pub key: Vec<u8>,
    pub session: String,
    pub shell: DealerSocket,
    pub control: DealerSocket,
    pub iopub: SubSocket,
    pub hb: ReqSocket,
    pub counter: usize,
    pub dir: std::path::PathBuf,
    pub shell_port: u16,
}

impl Drop for Kernel {
    fn drop(&mut self) {
        let _ = self.child.0.kill();
        let _ = self.child.0.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

pub async fn within<T>(what: &str, f: impl std::future::Future<Output = T>) -> T {
    tokio::time::timeout(WAIT, f)
        .await
        .unwrap_or_else(|_| panic!("timed out waiting for {what}"))
}

impl Kernel {
    /// Starts a kernel and connects to it. A kernel that exits before its sockets answer
    /// (another process took one of its ports between choosing and binding it) is started
    /// again on fresh ports, up to three times.
    pub async fn start(name: &str) -> Kernel {
        let mut why = String::new();
        for attempt in 0..3 {
            match Kernel::try_start(name, attempt).await {
                Ok(k) => return k,
                Err(e) => why = e,
            }
        }
        panic!("the kernel did not start in three tries; the last: {why}");
    }

    async fn try_start(name: &str, attempt: usize) -> Result<Kernel, String> {
        let key = format!("ragtag-test-key-{name}");
        let (dir, file, ports) = connection_file(&format!("{name}-{attempt}"), &key);
        let log = std::fs::File::create(dir.join("kernel.log")).unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_ragtag"))
            // As jupyter_client does: the kernel ends if this test process dies.
            .env("JPY_PARENT_PID", std::process::id().to_string())
            .args(["jupyter", "kernel", "-f"])
            .arg(&file)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("start the kernel");
        let mut child = KillOnDrop(child);
        let url = |p: u16| format!("tcp://127.0.0.1:{p}");
        let mut shell = DealerSocket::new();
        let mut control = DealerSocket::new();
        let mut iopub = SubSocket::new();
        let mut hb = ReqSocket::new();
        let connected = tokio::time::timeout(WAIT, async {
            connect_while_alive(&mut shell, &url(ports[0]), &mut child).await?;
            connect_while_alive(&mut iopub, &url(ports[1]), &mut child).await?;
            connect_while_alive(&mut control, &url(ports[3]), &mut child).await?;
            connect_while_alive(&mut hb, &url(ports[4]), &mut child).await
        })
        .await;
        let log = || std::fs::read_to_string(dir.join("kernel.log")).unwrap_or_default();
        match connected {
            Ok(Ok(())) => {}
            Ok(Err(exit)) => {
                let why = format!(
                    "the kernel exited ({exit}) before its sockets answered: {}",
                    log()
                );
                let _ = std::fs::remove_dir_all(&dir);
                return Err(why);
            }
            Err(_) => panic!(
                "timed out waiting for the kernel's sockets; its log: {}",
                log()
            ),
        }
        iopub.subscribe("").await.unwrap();
        let mut k = Kernel {
            child,
            key: key.into_bytes(),
            session: format!("test-session-{name}"),
            shell,
            control,
            iopub,
            hb,
            counter: 0,
            dir,
            shell_port: ports[0],
        };
        k.wait_for_iopub().await;
        Ok(k)
    }

    /// A subscription takes effect a little after connecting; until an IOPub message arrives,
    /// ask for kernel_info (as jupyter_client does).
    pub async fn wait_for_iopub(&mut self) {
        let deadline = Instant::now() + WAIT;
        loop {
            assert!(Instant::now() < deadline, "IOPub never delivered a message");
            let id = self
                .send(Channel::Shell, "kernel_info_request", json!({}))
                .await;
            let reply = self.reply(Channel::Shell).await;
            assert_eq!(reply["parent_header"]["msg_id"], id);
            if let Ok(Ok(_)) =
                tokio::time::timeout(Duration::from_millis(300), self.iopub.recv()).await
            {
                // Drain what is left of this request's status messages.
                while let Ok(Ok(_)) =
                    tokio::time::timeout(Duration::from_millis(100), self.iopub.recv()).await
                {
                }
                return;
            }
        }
    }

    pub fn frames(&mut self, msg_type: &str, content: Value) -> (String, Vec<Vec<u8>>) {
        self.counter += 1;
        let id = format!("{}-{}", self.session, self.counter);
        let header = json!({
            "msg_id": id, "username": "test", "session": self.session,
            "date": "2024-01-01T00:00:00.000000Z", "msg_type": msg_type, "version": "5.3",
        });
        let parts: Vec<Vec<u8>> = [header, json!({}), json!({}), content]
            .iter()
            .map(|v| v.to_string().into_bytes())
            .collect();
        (id, parts)
    }

    pub async fn send_frames(&mut self, channel: Channel, frames: Vec<Vec<u8>>) {
        let msg = zmq_message(frames);
        let socket = match channel {
            Channel::Shell => &mut self.shell,
            Channel::Control => &mut self.control,
        };
        within("sending", socket.send(msg)).await.unwrap();
    }

    /// Sends a correctly signed request; returns its msg_id.
    pub async fn send(&mut self, channel: Channel, msg_type: &str, content: Value) -> String {
        let (id, parts) = self.frames(msg_type, content);
        let frames = self.signed(parts);
        self.send_frames(channel, frames).await;
        id
    }

    /// Sends a correctly signed request and returns its reply, checking that it answers it.
    pub async fn request(&mut self, channel: Channel, msg_type: &str, content: Value) -> Value {
        let id = self.send(channel, msg_type, content).await;
        let reply = self.reply(channel).await;
        assert_eq!(reply["parent_header"]["msg_id"], id, "{reply}");
        reply
    }

    /// [`Kernel::request`] on the shell channel.
    pub async fn shell(&mut self, msg_type: &str, content: Value) -> Value {
        self.request(Channel::Shell, msg_type, content).await
    }

    /// The frames of a message made of `parts` (header, parent header, metadata, content),
    /// correctly signed.
    pub fn signed(&self, parts: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
        let refs: Vec<&[u8]> = parts.iter().map(|p| p.as_slice()).collect();
        let sig = sign(&self.key, &refs);
        let mut frames = vec![DELIMITER.to_vec(), sig.into_bytes()];
        frames.extend(parts);
        frames
    }

    /// The next reply on `channel`, or None if none comes within `wait`.
    pub async fn reply_within(&mut self, channel: Channel, wait: Duration) -> Option<Value> {
        let socket = match channel {
            Channel::Shell => &mut self.shell,
            Channel::Control => &mut self.control,
        };
        let msg = tokio::time::timeout(wait, socket.recv())
            .await
            .ok()?
            .unwrap();
        Some(self.parse(msg))
    }

    /// The kernel process's resident memory, in KiB.
    pub fn rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.0.id()))
            .expect("the kernel's /proc status");
        let line = status
            .lines()
            .find(|l| l.starts_with("VmRSS:"))
            .expect("VmRSS");
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    }

    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.join("kernel.log")).unwrap()
    }

    /// Parses a message and checks the kernel signed it with our key.
    pub fn parse(&self, msg: ZmqMessage) -> Value {
        let frames = msg.into_vec();
        let at = frames
            .iter()
            .position(|f| f.as_ref() == DELIMITER)
            .expect("delimiter");
        let sig = std::str::from_utf8(&frames[at + 1]).unwrap();
        let parts: Vec<&[u8]> = frames[at + 2..at + 6].iter().map(|f| f.as_ref()).collect();
        assert_eq!(sig, sign(&self.key, &parts), "the kernel's signature");
        let j = |i: usize| serde_json::from_slice::<Value>(parts[i]).unwrap();
        json!({"header": j(0), "parent_header": j(1), "metadata": j(2), "content": j(3)})
    }

    pub async fn reply(&mut self, channel: Channel) -> Value {
        let socket = match channel {
            Channel::Shell => &mut self.shell,
            Channel::Control => &mut self.control,
        };
        let msg = within("a reply", socket.recv()).await.unwrap();
        self.parse(msg)
    }

    /// The IOPub messages a request caused, through its `idle` status.
    pub async fn outputs(&mut self, parent: &str) -> Vec<Value> {
        let mut out = Vec::new();
        loop {
            let msg = within("IOPub output", self.iopub.recv()).await.unwrap();
            let msg = self.parse(msg);
            if msg["parent_header"]["msg_id"] != parent {
                continue;
            }
            let idle = msg["header"]["msg_type"] == "status"
                && msg["content"]["execution_state"] == "idle";
            out.push(msg);
            if idle {
                return out;
            }
        }
    }

    /// Executes `code`; returns the reply and the IOPub messages.
    pub async fn execute(&mut self, code: &str) -> (Value, Vec<Value>) {
        self.execute_with(code, false).await
    }

    pub async fn execute_with(&mut self, code: &str, silent: bool) -> (Value, Vec<Value>) {
        let id = self
            .send(
                Channel::Shell,
                "execute_request",
                json!({"code": code, "silent": silent, "store_history": !silent,
                       "user_expressions": {}, "allow_stdin": false, "stop_on_error": true}),
            )
            .await;
        let reply = self.reply(Channel::Shell).await;
        assert_eq!(reply["parent_header"]["msg_id"], id);
        let outputs = self.outputs(&id).await;
        (reply, outputs)
    }

    pub async fn shutdown(self) {
        self.shutdown_via(Channel::Control, json!({"restart": false}))
            .await;
    }

    /// Sends a shutdown_request on `channel`, checks the reply and that the kernel exits
    /// cleanly; returns the reply.
    pub async fn shutdown_via(mut self, channel: Channel, content: Value) -> Value {
        let id = self.send(channel, "shutdown_request", content).await;
        let reply = self.reply(channel).await;
        assert_eq!(reply["parent_header"]["msg_id"], id);
        assert_eq!(reply["content"]["status"], "ok");
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(status) = self.child.0.try_wait().unwrap() {
                assert!(status.success(), "kernel exit status {status}");
                return reply;
            }
            assert!(Instant::now() < deadline, "the kernel did not exit");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// The content of an execute_request running `code`, stored in history, that does not stop
/// the requests after it when it fails.
pub fn execute_content(code: &str) -> Value {
    json!({"code": code, "silent": false, "store_history": true,
           "user_expressions": {}, "allow_stdin": false, "stop_on_error": false})
}

/// A ZeroMQ message of `frames`.
pub fn zmq_message(frames: Vec<Vec<u8>>) -> ZmqMessage {
    ZmqMessage::try_from(
        frames
            .into_iter()
            .map(bytes::Bytes::from)
            .collect::<Vec<_>>(),
    )
    .unwrap()
}

/// The message types of `outputs`, in order.
pub fn types(outputs: &[Value]) -> Vec<String> {
    outputs
        .iter()
        .map(|m| m["header"]["msg_type"].as_str().unwrap().to_string())
        .collect()
}
