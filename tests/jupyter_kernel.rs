//! Drives `ragtag jupyter kernel` over ZeroMQ the way a Jupyter frontend does: a connection
//! file with free loopback ports, HMAC-SHA256-signed messages on shell and control, IOPub
//! subscribed, heartbeats. Every wait has a timeout, so a hang fails instead of blocking.
#![cfg(feature = "jupyter")]

mod kernel_common;
use kernel_common::{connection_file, KillOnDrop};

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use hmac::{Hmac, KeyInit, Mac};
use serde_json::{json, Value};
use sha2::Sha256;
use zeromq::{DealerSocket, ReqSocket, Socket, SocketRecv, SocketSend, SubSocket, ZmqMessage};

const DELIMITER: &[u8] = b"<IDS|MSG>";
/// Long enough for a debug build on a busy machine, short enough to fail a hang promptly.
const WAIT: Duration = Duration::from_secs(30);

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn sign(key: &[u8], parts: &[&[u8]]) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("any key length");
    for p in parts {
        mac.update(p);
    }
    hex(&mac.finalize().into_bytes())
}

#[derive(Clone, Copy)]
enum Channel {
    Shell,
    Control,
}

/// Connects, retrying while the kernel has not bound the port yet: the pure-Rust ZeroMQ
/// client fails at once where libzmq would keep trying.
async fn connect_retrying<S: Socket>(socket: &mut S, url: &str) {
    loop {
        match socket.connect(url).await {
            Ok(()) => return,
            Err(_) => tokio::time::sleep(Duration::from_millis(20)).await,
        }
    }
}

struct Kernel {
    child: KillOnDrop,
    key: Vec<u8>,
    session: String,
    shell: DealerSocket,
    control: DealerSocket,
    iopub: SubSocket,
    hb: ReqSocket,
    counter: usize,
    dir: std::path::PathBuf,
}

impl Drop for Kernel {
    fn drop(&mut self) {
        let _ = self.child.0.kill();
        let _ = self.child.0.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

async fn within<T>(what: &str, f: impl std::future::Future<Output = T>) -> T {
    tokio::time::timeout(WAIT, f)
        .await
        .unwrap_or_else(|_| panic!("timed out waiting for {what}"))
}

impl Kernel {
    async fn start(name: &str) -> Kernel {
        let key = format!("ragtag-test-key-{name}");
        let (dir, file, ports) = connection_file(name, &key);
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
        let child = KillOnDrop(child);
        let url = |p: u16| format!("tcp://127.0.0.1:{p}");
        let mut shell = DealerSocket::new();
        let mut control = DealerSocket::new();
        let mut iopub = SubSocket::new();
        let mut hb = ReqSocket::new();
        within("the kernel's sockets", async {
            connect_retrying(&mut shell, &url(ports[0])).await;
            connect_retrying(&mut iopub, &url(ports[1])).await;
            connect_retrying(&mut control, &url(ports[3])).await;
            connect_retrying(&mut hb, &url(ports[4])).await;
        })
        .await;
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
        };
        k.wait_for_iopub().await;
        k
    }

    /// A subscription takes effect a little after connecting; until an IOPub message arrives,
    /// ask for kernel_info (as jupyter_client does).
    async fn wait_for_iopub(&mut self) {
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

    fn frames(&mut self, msg_type: &str, content: Value) -> (String, Vec<Vec<u8>>) {
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

    async fn send_frames(&mut self, channel: Channel, frames: Vec<Vec<u8>>) {
        let msg = ZmqMessage::try_from(
            frames
                .into_iter()
                .map(bytes::Bytes::from)
                .collect::<Vec<_>>(),
        )
        .unwrap();
        let socket = match channel {
            Channel::Shell => &mut self.shell,
            Channel::Control => &mut self.control,
        };
        within("sending", socket.send(msg)).await.unwrap();
    }

    /// Sends a correctly signed request; returns its msg_id.
    async fn send(&mut self, channel: Channel, msg_type: &str, content: Value) -> String {
        let (id, parts) = self.frames(msg_type, content);
        let refs: Vec<&[u8]> = parts.iter().map(|p| p.as_slice()).collect();
        let sig = sign(&self.key, &refs);
        let mut frames = vec![DELIMITER.to_vec(), sig.into_bytes()];
        frames.extend(parts);
        self.send_frames(channel, frames).await;
        id
    }

    /// Parses a message and checks the kernel signed it with our key.
    fn parse(&self, msg: ZmqMessage) -> Value {
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

    async fn reply(&mut self, channel: Channel) -> Value {
        let socket = match channel {
            Channel::Shell => &mut self.shell,
            Channel::Control => &mut self.control,
        };
        let msg = within("a reply", socket.recv()).await.unwrap();
        self.parse(msg)
    }

    /// The IOPub messages a request caused, through its `idle` status.
    async fn outputs(&mut self, parent: &str) -> Vec<Value> {
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
    async fn execute(&mut self, code: &str) -> (Value, Vec<Value>) {
        self.execute_with(code, false).await
    }

    async fn execute_with(&mut self, code: &str, silent: bool) -> (Value, Vec<Value>) {
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

    async fn shutdown(mut self) {
        let id = self
            .send(
                Channel::Control,
                "shutdown_request",
                json!({"restart": false}),
            )
            .await;
        let reply = self.reply(Channel::Control).await;
        assert_eq!(reply["parent_header"]["msg_id"], id);
        assert_eq!(reply["content"]["status"], "ok");
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(status) = self.child.0.try_wait().unwrap() {
                assert!(status.success(), "kernel exit status {status}");
                return;
            }
            assert!(Instant::now() < deadline, "the kernel did not exit");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

fn types(outputs: &[Value]) -> Vec<String> {
    outputs
        .iter()
        .map(|m| m["header"]["msg_type"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn kernel_info_execute_print_error_and_shutdown() {
    let mut k = Kernel::start("basic").await;

    // Heartbeat echoes.
    within("heartbeat", k.hb.send(ZmqMessage::from("ping-42")))
        .await
        .unwrap();
    let echo = within("heartbeat", k.hb.recv()).await.unwrap();
    assert_eq!(echo.get(0).unwrap().as_ref(), b"ping-42");

    for channel in [Channel::Shell, Channel::Control] {
        k.send(channel, "kernel_info_request", json!({})).await;
        let info = k.reply(channel).await;
        let c = &info["content"];
        assert_eq!(info["header"]["msg_type"], "kernel_info_reply");
        assert_eq!(c["status"], "ok");
        assert_eq!(c["protocol_version"], "5.3");
        assert_eq!(c["implementation"], "ragtag");
        assert_eq!(c["language_info"]["name"], "python");
        assert_eq!(c["language_info"]["mimetype"], "text/x-python");
        assert_eq!(c["language_info"]["file_extension"], ".py");
        assert_eq!(c["language_info"]["codemirror_mode"]["name"], "python");
    }

    let (reply, out) = k
        .execute("digits = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])")
        .await;
    assert_eq!(reply["content"]["status"], "ok");
    assert_eq!(types(&out), ["status", "execute_input", "status"]);

    let (reply, out) = k.execute("digits + 3").await;
    assert_eq!(reply["content"]["status"], "ok");
    assert_eq!(
        types(&out),
        ["status", "execute_input", "execute_result", "status"]
    );
    assert_eq!(out[0]["content"]["execution_state"], "busy");
    let data = &out[2]["content"]["data"];
    assert!(data["text/html"].as_str().unwrap().contains("<table"));
    assert!(data["text/plain"]
        .as_str()
        .unwrap()
        .contains("RaggedTensor"));
    let value = &data["application/vnd.ragtag+json"];
    assert_eq!(value["kind"], "ragged");
    assert_eq!(
        value["value"],
        json!([[6, 4, 7, 4], [], [8, 12, 5], [9], []])
    );
    assert_eq!(
        out[2]["content"]["execution_count"],
        reply["content"]["execution_count"]
    );

    // Printed text arrives in order, before the cell's result.
    let (reply, out) = k.execute("print('hello, world')\nprint(1)\n2 + 3").await;
    assert_eq!(reply["content"]["status"], "ok");
    assert_eq!(
        types(&out),
        [
            "status",
            "execute_input",
            "stream",
            "stream",
            "execute_result",
            "status"
        ]
    );
    assert_eq!(out[2]["content"]["name"], "stdout");
    assert_eq!(out[2]["content"]["text"], "hello, world\n");
    assert_eq!(out[4]["content"]["data"]["text/plain"], "5");

    let (reply, out) = k.execute("tf.ragged.constant([[1, 2], [[3]]])").await;
    assert_eq!(reply["content"]["status"], "error");
    assert_eq!(reply["content"]["ename"], "ValueError");
    assert_eq!(types(&out), ["status", "execute_input", "error", "status"]);
    assert_eq!(out[2]["content"]["ename"], "ValueError");
    let traceback = out[2]["content"]["traceback"].as_array().unwrap();
    assert!(traceback
        .iter()
        .any(|l| l.as_str().unwrap().contains("<cell")));

    // A silent request publishes nothing but its status, and is not numbered.
    let (before, _) = k.execute("1").await;
    let before = before["content"]["execution_count"].as_u64().unwrap();
    let (reply, out) = k
        .execute_with("print('quiet')\nquiet = 1\nquiet", true)
        .await;
    assert_eq!(reply["content"]["status"], "ok");
    assert_eq!(reply["content"]["execution_count"], before);
    assert_eq!(types(&out), ["status", "status"]);
    let (reply, _) = k.execute_with(":format tf", true).await;
    assert_eq!(reply["content"]["execution_count"], before);
    let (reply, out) = k.execute("quiet").await;
    assert_eq!(reply["content"]["execution_count"], before + 1);
    assert_eq!(out[1]["content"]["execution_count"], before + 1);
    assert_eq!(out[2]["content"]["data"]["text/plain"], "1");
    k.execute(":format table").await;

    // explain(x) shows its tables as HTML, with the text table as plain text.
    let (reply, out) = k.execute("explain(digits)").await;
    assert_eq!(reply["content"]["status"], "ok");
    assert_eq!(
        types(&out),
        ["status", "execute_input", "display_data", "status"]
    );
    let data = &out[2]["content"]["data"];
    assert!(data["text/plain"]
        .as_str()
        .unwrap()
        .contains("value_rowids"));
    let html = data["text/html"].as_str().unwrap();
    assert!(
        html.contains("<table") && html.contains("row_splits"),
        "{html}"
    );

    // A meta-command runs in a cell.
    let (reply, out) = k.execute(":vars").await;
    assert_eq!(reply["content"]["status"], "ok");
    assert!(out[2]["content"]["text"]
        .as_str()
        .unwrap()
        .contains("digits"));

    let id = k
        .send(
            Channel::Shell,
            "is_complete_request",
            json!({"code": "x = [1,"}),
        )
        .await;
    let r = k.reply(Channel::Shell).await;
    assert_eq!(r["parent_header"]["msg_id"], id);
    assert_eq!(r["content"]["status"], "incomplete");

    k.send(
        Channel::Shell,
        "complete_request",
        json!({"code": "x = dig", "cursor_pos": 7}),
    )
    .await;
    let r = k.reply(Channel::Shell).await;
    assert_eq!(r["content"]["matches"], json!(["digits"]));
    assert_eq!(r["content"]["cursor_start"], 4);

    k.send(
        Channel::Shell,
        "inspect_request",
        json!({"code": "tf.ragged.constant", "cursor_pos": 3, "detail_level": 0}),
    )
    .await;
    let r = k.reply(Channel::Shell).await;
    assert_eq!(r["content"]["found"], true);
    assert!(r["content"]["data"]["text/plain"]
        .as_str()
        .unwrap()
        .contains("tf.ragged.constant("));

    // A request ragtag does not implement still gets an answer.
    let id = k
        .send(
            Channel::Control,
            "debug_request",
            json!({"command": "initialize"}),
        )
        .await;
    let r = k.reply(Channel::Control).await;
    assert_eq!(r["parent_header"]["msg_id"], id);
    assert_eq!(r["header"]["msg_type"], "debug_reply");
    assert_eq!(r["content"]["status"], "error");

    k.shutdown().await;
}

#[tokio::test]
async fn interrupt_stops_a_long_cell_and_names_survive() {
    let mut k = Kernel::start("interrupt").await;
    let (reply, _) = k.execute("kept = tf.constant([1, 2, 3])").await;
    assert_eq!(reply["content"]["status"], "ok");

    // About 10^10 steps: it only ends if the interrupt works.
    let code = "total = 0\nfor i in range(100000):\n    for j in range(100000):\n        total = total + 1";
    let id = k
        .send(
            Channel::Shell,
            "execute_request",
            json!({"code": code, "silent": false, "store_history": true,
                   "user_expressions": {}, "allow_stdin": false, "stop_on_error": true}),
        )
        .await;
    // Wait until the cell is running.
    loop {
        let msg = within("execute_input", k.iopub.recv()).await.unwrap();
        let msg = k.parse(msg);
        if msg["parent_header"]["msg_id"] == id && msg["header"]["msg_type"] == "execute_input" {
            break;
        }
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let started = Instant::now();
    k.send(Channel::Control, "interrupt_request", json!({}))
        .await;
    let r = k.reply(Channel::Control).await;
    assert_eq!(r["header"]["msg_type"], "interrupt_reply");
    assert_eq!(r["content"]["status"], "ok");
    let reply = k.reply(Channel::Shell).await;
    assert_eq!(reply["parent_header"]["msg_id"], id);
    assert_eq!(reply["content"]["status"], "error");
    assert_eq!(reply["content"]["ename"], "KeyboardInterrupt");
    assert!(started.elapsed() < Duration::from_secs(10));
    let out = k.outputs(&id).await;
    assert!(types(&out).contains(&"error".to_string()));

    let (reply, out) = k.execute("kept").await;
    assert_eq!(reply["content"]["status"], "ok");
    assert_eq!(
        out[2]["content"]["data"]["application/vnd.ragtag+json"]["value"],
        json!([1, 2, 3])
    );
    k.shutdown().await;
}

#[tokio::test]
async fn badly_signed_messages_are_dropped() {
    let mut k = Kernel::start("signature").await;
    let content = json!({"code": "forged = 1", "silent": false, "store_history": true,
                         "user_expressions": {}, "allow_stdin": false, "stop_on_error": true});
    // A wrong signature, then none at all.
    #[allow(clippy::disallowed_methods)] // a fixed-size test string
    for sig in ["0".repeat(64), String::new()] {
        let (_, parts) = k.frames("execute_request", content.clone());
        let mut frames = vec![DELIMITER.to_vec(), sig.into_bytes()];
        frames.extend(parts);
        k.send_frames(Channel::Shell, frames).await;
    }
    assert!(
        tokio::time::timeout(Duration::from_millis(700), k.shell.recv())
            .await
            .is_err(),
        "a forged request was answered"
    );
    // Still alive, and the forged code never ran.
    let (reply, _) = k.execute("forged").await;
    assert_eq!(reply["content"]["status"], "error");
    assert_eq!(reply["content"]["ename"], "NameError");
    // Both drops were logged.
    let log = std::fs::read_to_string(k.dir.join("kernel.log")).unwrap();
    assert_eq!(log.matches("wrong or empty signature").count(), 2, "{log}");
    k.shutdown().await;
}
