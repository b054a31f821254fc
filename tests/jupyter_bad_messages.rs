//! The kernel against bad messages: forged signatures, correctly signed requests that do not
//! parse, replays, and a flood of all of them mixed with good requests. None may run, crash
//! the kernel, or go unanswered when it is a request the key vouches for.
#![allow(clippy::disallowed_methods)] // test inputs: sizes are constants here
#![cfg(feature = "jupyter")]

use crate::kernel_common::client::*;

use std::time::Duration;

use serde_json::{json, Value};
use zeromq::SocketRecv;

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
