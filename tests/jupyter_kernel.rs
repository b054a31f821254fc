//! Drives `ragtag jupyter kernel` over ZeroMQ the way a Jupyter frontend does: a connection
//! file with free loopback ports, HMAC-SHA256-signed messages on shell and control, IOPub
//! subscribed, heartbeats. Every wait has a timeout, so a hang fails instead of blocking.
#![allow(clippy::disallowed_methods)] // test inputs: sizes are constants here
#![cfg(feature = "jupyter")]

mod kernel_common;
use kernel_common::client::*;

use std::time::{Duration, Instant};

use serde_json::{json, Value};
use zeromq::{DealerSocket, Socket, SocketRecv, SocketSend, ZmqMessage};

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

    let r = k
        .shell("is_complete_request", json!({"code": "x = [1,"}))
        .await;
    assert_eq!(r["content"]["status"], "incomplete");

    let r = k
        .shell(
            "complete_request",
            json!({"code": "x = dig", "cursor_pos": 7}),
        )
        .await;
    assert_eq!(r["content"]["matches"], json!(["digits"]));
    assert_eq!(r["content"]["cursor_start"], 4);

    let r = k
        .shell(
            "inspect_request",
            json!({"code": "tf.ragged.constant", "cursor_pos": 3, "detail_level": 0}),
        )
        .await;
    assert_eq!(r["content"]["found"], true);
    assert!(r["content"]["data"]["text/plain"]
        .as_str()
        .unwrap()
        .contains("tf.ragged.constant("));

    // A request ragtag does not implement still gets an answer.
    let r = k
        .request(
            Channel::Control,
            "debug_request",
            json!({"command": "initialize"}),
        )
        .await;
    assert_eq!(r["header"]["msg_type"], "debug_reply");
    assert_eq!(r["content"]["status"], "error");

    k.shutdown().await;
}

/// Sends `code` to run and waits until the kernel says it has started it; returns the
/// request's id.
async fn start_cell(k: &mut Kernel, code: &str) -> String {
    let id = k
        .send(
            Channel::Shell,
            "execute_request",
            json!({"code": code, "silent": false, "store_history": true,
                   "user_expressions": {}, "allow_stdin": false, "stop_on_error": true}),
        )
        .await;
    loop {
        let msg = within("execute_input", k.iopub.recv()).await.unwrap();
        let msg = k.parse(msg);
        if msg["parent_header"]["msg_id"] == id && msg["header"]["msg_type"] == "execute_input" {
            return id;
        }
    }
}

#[tokio::test]
async fn interrupt_stops_a_long_cell_and_names_survive() {
    let mut k = Kernel::start("interrupt").await;
    let (reply, _) = k.execute("kept = tf.constant([1, 2, 3])").await;
    assert_eq!(reply["content"]["status"], "ok");

    // About 10^10 steps: it only ends if the interrupt works.
    let code = "total = 0\nfor i in range(100000):\n    for j in range(100000):\n        total = total + 1";
    let id = start_cell(&mut k, code).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let started = Instant::now();
    let r = k
        .request(Channel::Control, "interrupt_request", json!({}))
        .await;
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
async fn interrupt_stops_one_long_operation_part_way() {
    let mut k = Kernel::start("interrupt-op").await;
    let (reply, _) = k.execute("big = tf.range(10**8)").await;
    assert_eq!(reply["content"]["status"], "ok");
    // One operation: formatting 3·10^7 numbers takes a second or more; only an interrupt checked
    // inside the operation ends it early.
    let code = "w = tf.strings.as_string(big[:3 * 10**7])";
    let id = start_cell(&mut k, code).await;
    tokio::time::sleep(Duration::from_millis(20)).await;
    let r = k
        .request(Channel::Control, "interrupt_request", json!({}))
        .await;
    assert_eq!(r["content"]["status"], "ok");
    let reply = k.reply(Channel::Shell).await;
    assert_eq!(reply["parent_header"]["msg_id"], id);
    assert_eq!(reply["content"]["ename"], "KeyboardInterrupt", "{reply}");
    let (reply, _) = k.execute("w").await;
    assert_eq!(
        reply["content"]["ename"], "NameError",
        "the interrupted statement assigned w"
    );
    let (reply, _) = k.execute("big.shape").await;
    assert_eq!(reply["content"]["status"], "ok");
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

/// The code of every execute request in the robustness tests: were a forged, replayed or
/// malformed one executed, `n` would count it.
const BUMP: &str = "n = n + 1";

fn execute_content(code: &str) -> Value {
    json!({"code": code, "silent": false, "store_history": true,
           "user_expressions": {}, "allow_stdin": false, "stop_on_error": false})
}

/// A correctly signed message that does not parse, of kind `kind % MALFORMED_KINDS`: the
/// msg_id its reply names as parent (empty when the header has none), its frames, the reply's
/// msg_type and a phrase of the error.
const MALFORMED_KINDS: usize = 10;

fn malformed(k: &mut Kernel, kind: usize) -> (String, Vec<Vec<u8>>, &'static str, &'static str) {
    let to_json = |v: &Value| v.to_string().into_bytes();
    let (mut id, mut parts) = k.frames("execute_request", execute_content(BUMP));
    let mut header: Value = serde_json::from_slice(&parts[0]).unwrap();
    let (reply, phrase) = match kind % MALFORMED_KINDS {
        0 => {
            parts[3] = to_json(&json!({"code": 5}));
            ("execute_reply", "`code` must be a string, not the number 5")
        }
        1 => {
            // Cut short: not JSON at all.
            parts[3] = br#"{"code": "n = n + 1", "silent": fal"#.to_vec();
            ("execute_reply", "content is not JSON")
        }
        2 => {
            header.as_object_mut().unwrap().remove("msg_type");
            parts[0] = to_json(&header);
            ("error", "the header has no `msg_type`")
        }
        3 => {
            header["msg_type"] = json!("complete_request");
            parts[0] = to_json(&header);
            parts[3] = to_json(&json!({"code": BUMP, "cursor_pos": "end"}));
            (
                "complete_reply",
                "`cursor_pos` must be a non-negative integer",
            )
        }
        4 => {
            header["msg_type"] = json!("history_request");
            parts[0] = to_json(&header);
            parts[3] = to_json(&json!({"hist_access_type": 3, "output": false, "raw": true}));
            ("history_reply", "`hist_access_type` must be a string")
        }
        5 => {
            header.as_object_mut().unwrap().remove("msg_id");
            parts[0] = to_json(&header);
            // Without its msg_id, only the metadata keeps it from being a replay of the
            // previous one of this kind.
            parts[2] = to_json(&json!({"sent": id}));
            id = String::new();
            ("execute_reply", "the header has no `msg_id`")
        }
        6 => {
            header["msg_type"] = json!("inspect_request");
            parts[0] = to_json(&header);
            parts[3] = b"[]".to_vec();
            ("inspect_reply", "content must be an object, not an array")
        }
        7 => {
            parts[3] = to_json(&json!({"code": BUMP, "silent": "no"}));
            (
                "execute_reply",
                "`silent` must be a boolean, not the string \"no\"",
            )
        }
        8 => {
            parts[2] = b"{metadata".to_vec();
            ("execute_reply", "metadata is not JSON")
        }
        _ => {
            header["msg_type"] = json!("kernel_info_request");
            parts[0] = to_json(&header);
            parts[3] = b"5".to_vec();
            (
                "kernel_info_reply",
                "content must be an object, not the number 5",
            )
        }
    };
    let frames = k.signed(parts);
    (id, frames, reply, phrase)
}

/// Checks an error reply to a malformed message.
fn assert_malformed_reply(reply: &Value, id: &str, msg_type: &str, phrase: &str) {
    assert_eq!(reply["parent_header"]["msg_id"], id, "{reply}");
    assert_eq!(reply["header"]["msg_type"], msg_type, "{reply}");
    let c = &reply["content"];
    assert_eq!(c["status"], "error", "{reply}");
    assert_eq!(c["ename"], "ValueError", "{reply}");
    let evalue = c["evalue"].as_str().unwrap();
    assert!(evalue.contains(phrase), "{evalue:?} lacks {phrase:?}");
    assert!(
        c["traceback"].as_array().is_some_and(|t| !t.is_empty()),
        "{reply}"
    );
    if msg_type == "execute_reply" {
        assert!(c["execution_count"].is_u64(), "{reply}");
    }
}

/// The value of `name`, shown as plain text.
async fn value_of(k: &mut Kernel, name: &str) -> String {
    let (reply, out) = k.execute(name).await;
    assert_eq!(reply["content"]["status"], "ok", "{reply}");
    let result = out
        .iter()
        .find(|m| m["header"]["msg_type"] == "execute_result")
        .expect("an execute_result");
    result["content"]["data"]["text/plain"]
        .as_str()
        .unwrap()
        .to_string()
}

#[tokio::test]
async fn malformed_but_signed_requests_get_error_replies() {
    let mut k = Kernel::start("malformed").await;
    k.execute("n = 0").await;
    for kind in 0..MALFORMED_KINDS {
        let (id, frames, reply_type, phrase) = malformed(&mut k, kind);
        k.send_frames(Channel::Shell, frames).await;
        let reply = k.reply(Channel::Shell).await;
        assert_malformed_reply(&reply, &id, reply_type, phrase);
        // Between busy and idle on IOPub, like any request.
        let out = k.outputs(&id).await;
        assert_eq!(types(&out), ["status", "status"], "kind {kind}");
        assert_eq!(out[0]["content"]["execution_state"], "busy");
    }
    // On control too, and a malformed shutdown shuts nothing down.
    let (id, parts) = k.frames("shutdown_request", json!({"restart": "yes"}));
    let frames = k.signed(parts);
    k.send_frames(Channel::Control, frames).await;
    let reply = k.reply(Channel::Control).await;
    assert_malformed_reply(&reply, &id, "shutdown_reply", "`restart` must be a boolean");
    // An unknown request is answered too (ipykernel would only log it).
    let reply = k.shell("frobnicate_request", json!({})).await;
    assert_eq!(reply["header"]["msg_type"], "frobnicate_reply");
    assert_eq!(reply["content"]["ename"], "NotImplementedError");
    // Nothing ran, and the session lives on with its names.
    assert_eq!(value_of(&mut k, "n").await, "0");
    k.shutdown().await;
}

#[tokio::test]
async fn fields_the_protocol_makes_optional_get_their_defaults() {
    let mut k = Kernel::start("defaults").await;
    // execute_request with nothing but code: not silent, stored in history.
    let id = k
        .send(
            Channel::Shell,
            "execute_request",
            json!({"code": "abc = 41"}),
        )
        .await;
    let reply = k.reply(Channel::Shell).await;
    assert_eq!(reply["content"]["status"], "ok", "{reply}");
    assert_eq!(
        types(&k.outputs(&id).await),
        ["status", "execute_input", "status"]
    );
    let id = k
        .send(
            Channel::Shell,
            "execute_request",
            json!({"code": "abc + 1"}),
        )
        .await;
    let reply = k.reply(Channel::Shell).await;
    assert_eq!(reply["content"]["status"], "ok");
    let out = k.outputs(&id).await;
    assert_eq!(out[2]["content"]["data"]["text/plain"], "42");

    // complete_request without cursor_pos completes at the end of the code.
    let r = k.shell("complete_request", json!({"code": "x = ab"})).await;
    let matches = r["content"]["matches"].as_array().unwrap();
    assert!(matches.contains(&json!("abc")), "{r}");
    assert_eq!(r["content"]["cursor_start"], 4);
    assert_eq!(r["content"]["cursor_end"], 6);
    // inspect_request without detail_level (nor cursor_pos).
    let r = k
        .shell("inspect_request", json!({"code": "tf.ragged.constant"}))
        .await;
    assert_eq!(r["content"]["status"], "ok", "{r}");
    assert_eq!(r["content"]["found"], true);

    // history_request: tail without n, range without start or stop, search without unique
    // or n.
    let history = |r: &Value| r["content"]["history"].clone();
    let r = k
        .shell("history_request", json!({"hist_access_type": "tail"}))
        .await;
    assert_eq!(
        history(&r),
        json!([[1, 1, "abc = 41"], [1, 2, "abc + 1"]]),
        "{r}"
    );
    let r = k
        .shell("history_request", json!({"hist_access_type": "range"}))
        .await;
    assert_eq!(
        history(&r),
        json!([[1, 1, "abc = 41"], [1, 2, "abc + 1"]]),
        "{r}"
    );
    let r = k.shell("history_request",
        json!({"hist_access_type": "search", "pattern": "abc +*", "output": false, "raw": true})).await;
    assert_eq!(history(&r), json!([[1, 2, "abc + 1"]]), "{r}");

    // shutdown_request without restart, on shell: the kernel exits cleanly.
    let reply = k.shutdown_via(Channel::Shell, json!({})).await;
    assert_eq!(reply["content"]["restart"], false);
}

#[tokio::test]
async fn replayed_messages_are_dropped() {
    let mut k = Kernel::start("replay").await;
    k.execute("n = 0").await;
    let (_, parts) = k.frames("execute_request", execute_content(BUMP));
    let frames = k.signed(parts);
    k.send_frames(Channel::Shell, frames.clone()).await;
    let reply = k.reply(Channel::Shell).await;
    assert_eq!(reply["content"]["status"], "ok");
    // The same message again, on shell and on control: neither is answered nor run.
    k.send_frames(Channel::Shell, frames.clone()).await;
    k.send_frames(Channel::Control, frames).await;
    assert!(k
        .reply_within(Channel::Shell, Duration::from_millis(700))
        .await
        .is_none());
    assert!(k
        .reply_within(Channel::Control, Duration::from_millis(100))
        .await
        .is_none());
    assert_eq!(value_of(&mut k, "n").await, "1");
    assert_eq!(k.log().matches("replayed").count(), 2, "{}", k.log());
    k.shutdown().await;
}

/// 1,000 valid executes with 100 badly signed, 100 replayed and 100 malformed-but-signed
/// messages among them: every valid one is answered, in order; no forged or replayed one
/// runs; every malformed one gets an error reply between busy and idle; memory stays flat.
#[tokio::test]
async fn a_flood_of_good_forged_replayed_and_malformed_messages() {
    enum Sent {
        /// Expect an execute_reply ok to this msg_id.
        Valid(String),
        /// Expect an error reply: parent msg_id, msg_type, phrase.
        Malformed(String, &'static str, &'static str),
    }
    let mut k = Kernel::start("flood").await;
    k.execute("n = 0").await;
    let mut valid_frames: Vec<Vec<Vec<u8>>> = Vec::new();
    let mut plan = Vec::new();
    for i in 0..1000usize {
        plan.push(0);
        if i % 10 == 9 {
            plan.extend([1, 2, 3]);
        }
    }
    assert_eq!(plan.len(), 1300);
    let (mut forged, mut replayed, mut bad, mut count) = (0, 0, 0, None::<u64>);
    let mut rss_early = None;
    let mut processed = 0;
    for window in plan.chunks(100) {
        let mut expect = Vec::new();
        for &what in window {
            match what {
                0 => {
                    let (id, parts) = k.frames("execute_request", execute_content(BUMP));
                    let frames = k.signed(parts);
                    valid_frames.push(frames.clone());
                    k.send_frames(Channel::Shell, frames).await;
                    expect.push(Sent::Valid(id));
                }
                1 => {
                    // A signature of other bytes, or none.
                    let (_, parts) = k.frames("execute_request", execute_content(BUMP));
                    let mut frames = k.signed(parts);
                    frames[1] = if forged % 4 == 3 {
                        Vec::new()
                    } else {
                        let mut other = frames.clone();
                        other[5] = execute_content("n = n + 1000").to_string().into_bytes();
                        let refs: Vec<&[u8]> = other[2..6].iter().map(|p| p.as_slice()).collect();
                        sign(&k.key, &refs).into_bytes()
                    };
                    forged += 1;
                    k.send_frames(Channel::Shell, frames).await;
                }
                2 => {
                    // The latest valid message, or one from long before.
                    let back = if replayed % 2 == 0 {
                        1
                    } else {
                        37.min(valid_frames.len())
                    };
                    let frames = valid_frames[valid_frames.len() - back].clone();
                    replayed += 1;
                    k.send_frames(Channel::Shell, frames).await;
                }
                _ => {
                    let (id, frames, reply_type, phrase) = malformed(&mut k, bad);
                    bad += 1;
                    k.send_frames(Channel::Shell, frames).await;
                    expect.push(Sent::Malformed(id, reply_type, phrase));
                }
            }
        }
        for sent in &expect {
            let reply = k.reply(Channel::Shell).await;
            match sent {
                Sent::Valid(id) => {
                    assert_eq!(&reply["parent_header"]["msg_id"], id, "{reply}");
                    assert_eq!(reply["header"]["msg_type"], "execute_reply");
                    assert_eq!(reply["content"]["status"], "ok", "{reply}");
                    let n = reply["content"]["execution_count"].as_u64().unwrap();
                    if let Some(before) = count {
                        assert_eq!(n, before + 1, "execution counts in order");
                    }
                    count = Some(n);
                }
                Sent::Malformed(id, reply_type, phrase) => {
                    assert_malformed_reply(&reply, id, reply_type, phrase)
                }
            }
        }
        // Every reply's busy and idle, through the last one's idle.
        let mut states: std::collections::HashMap<String, Vec<String>> = Default::default();
        let last = expect
            .iter()
            .rev()
            .map(|sent| match sent {
                Sent::Valid(id) | Sent::Malformed(id, ..) => id.clone(),
            })
            .find(|id| !id.is_empty())
            .unwrap();
        loop {
            let msg = within("IOPub", k.iopub.recv()).await.unwrap();
            let msg = k.parse(msg);
            if msg["header"]["msg_type"] != "status" {
                continue;
            }
            let parent = msg["parent_header"]["msg_id"]
                .as_str()
                .unwrap_or("")
                .to_string();
            let state = msg["content"]["execution_state"]
                .as_str()
                .unwrap()
                .to_string();
            let done = parent == last && state == "idle";
            states.entry(parent).or_default().push(state);
            if done {
                break;
            }
        }
        for sent in &expect {
            if let Sent::Malformed(id, ..) = sent {
                if !id.is_empty() {
                    assert_eq!(states[id.as_str()], ["busy", "idle"], "{id}");
                }
            }
        }
        processed += window.len();
        if processed == 200 {
            rss_early = Some(k.rss_kib());
        }
    }
    assert_eq!((forged, replayed, bad), (100, 100, 100));
    assert_eq!(value_of(&mut k, "n").await, "1000");
    let (early, late) = (rss_early.unwrap(), k.rss_kib());
    eprintln!("kernel VmRSS: {early} KiB after 200 messages, {late} KiB after 1300");
    assert!(
        late < early + 20 * 1024,
        "the kernel grew from {early} KiB to {late} KiB"
    );
    let log = k.log();
    assert_eq!(log.matches("replayed").count(), 100);
    assert_eq!(log.matches("wrong or empty signature").count(), 100);
    k.shutdown().await;
}

/// A cell printing in a loop: its text arrives whole and in order, joined into a few stream
/// messages rather than one per print (which piled up hundreds of MB in IOPub's queue).
#[tokio::test]
async fn a_printing_loop_sends_its_text_in_few_messages() {
    let mut k = Kernel::start("prints").await;
    let before = k.rss_kib();
    let lines = 100_000;
    let (reply, out) = k
        .execute(&format!("for i in range({lines}):\n    print(i)\n'done'"))
        .await;
    assert_eq!(reply["content"]["status"], "ok", "{reply}");
    let streams: Vec<&Value> = out
        .iter()
        .filter(|m| m["header"]["msg_type"] == "stream")
        .collect();
    let text: String = streams
        .iter()
        .map(|m| m["content"]["text"].as_str().unwrap())
        .collect();
    let expected: String = (0..lines).map(|i| format!("{i}\n")).collect();
    assert!(text == expected, "the printed text, {} bytes", text.len());
    assert!(streams.len() < 1000, "{} stream messages", streams.len());
    // The result still comes after the text, and last.
    assert_eq!(types(&out[out.len() - 2..]), ["execute_result", "status"]);
    let after = k.rss_kib();
    eprintln!(
        "{} stream messages; kernel VmRSS {before} KiB before, {after} KiB after",
        streams.len()
    );
    // The loop's range alone holds 100,000 values; the output must add little to that.
    assert!(after < before + 40 * 1024, "{before} KiB -> {after} KiB");
    k.shutdown().await;
}

/// Requests sent while a long cell runs wait in a bounded queue: a client flooding the shell
/// socket cannot make the kernel hold them all in memory, and every one is still answered,
/// in order, once the cell ends.
#[tokio::test]
async fn requests_sent_during_a_long_cell_wait_in_bounded_memory() {
    let mut k = Kernel::start("backlog").await;
    let long = "total = 0\nfor i in range(100000):\n    for j in range(100000):\n        total = total + 1";
    let (id, parts) = k.frames("execute_request", execute_content(long));
    let frames = k.signed(parts);
    k.send_frames(Channel::Shell, frames).await;
    loop {
        let msg = within("execute_input", k.iopub.recv()).await.unwrap();
        let msg = k.parse(msg);
        if msg["parent_header"]["msg_id"] == id && msg["header"]["msg_type"] == "execute_input" {
            break;
        }
    }
    // Once the cell has settled in.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let before = k.rss_kib();
    // A second client floods the shell socket from its own task (its sends may wait once
    // the kernel stops reading).
    let count = 50_000;
    let mut ids = Vec::with_capacity(count);
    let mut messages = Vec::with_capacity(count);
    for _ in 0..count {
        let (id, parts) = k.frames("kernel_info_request", json!({}));
        ids.push(id);
        messages.push(k.signed(parts));
    }
    let mut flooder = DealerSocket::new();
    within(
        "a second shell connection",
        connect_retrying(&mut flooder, &format!("tcp://127.0.0.1:{}", k.shell_port)),
    )
    .await;
    let sent = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let progress = sent.clone();
    let client = tokio::spawn(async move {
        for frames in messages {
            flooder.send(zmq_message(frames)).await.unwrap();
            progress.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
        let mut replies = Vec::with_capacity(count);
        for _ in 0..count {
            replies.push(within("a flooded reply", flooder.recv()).await.unwrap());
        }
        replies
    });
    // Until everything is sent, or the kernel stops taking more (its queue is full).
    let deadline = Instant::now() + WAIT;
    let mut last = 0;
    loop {
        tokio::time::sleep(Duration::from_millis(500)).await;
        let now = sent.load(std::sync::atomic::Ordering::SeqCst);
        if now == count || now == last || Instant::now() > deadline {
            break;
        }
        last = now;
    }
    let sent = sent.load(std::sync::atomic::Ordering::SeqCst);
    // Sent is not yet read: let the kernel take in what it will, until its memory settles.
    let mut during = k.rss_kib();
    for _ in 0..40 {
        tokio::time::sleep(Duration::from_millis(250)).await;
        let now = k.rss_kib();
        let settled = now < during + 256;
        during = during.max(now);
        if settled {
            break;
        }
    }
    eprintln!(
        "kernel VmRSS {before} KiB as the cell started, {during} KiB with {sent} of {count} \
         requests sent"
    );
    k.send(Channel::Control, "interrupt_request", json!({}))
        .await;
    k.reply(Channel::Control).await;
    let reply = k.reply(Channel::Shell).await;
    assert_eq!(reply["content"]["ename"], "KeyboardInterrupt", "{reply}");
    let replies = client.await.unwrap();
    for (msg, id) in replies.into_iter().zip(&ids) {
        let reply = k.parse(msg);
        assert_eq!(&reply["parent_header"]["msg_id"], id);
        assert_eq!(reply["content"]["status"], "ok");
    }
    assert!(
        during < before + 8 * 1024,
        "the kernel grew from {before} KiB to {during} KiB holding waiting requests"
    );
    k.shutdown().await;
}
