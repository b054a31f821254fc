//! Drives `ragtag jupyter kernel` over ZeroMQ the way a Jupyter frontend does: a connection
//! file with free loopback ports, HMAC-SHA256-signed messages on shell and control, IOPub
//! subscribed, heartbeats (the client is tests/kernel_common/client.rs): every request type,
//! interrupts, defaults of optional fields, stream batching and the bounded shell queue. Bad
//! messages have their own file, tests/jupyter_bad_messages.rs.
#![allow(clippy::disallowed_methods)] // test inputs: sizes are constants here
#![cfg(feature = "jupyter")]

use crate::kernel_common::client::*;

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

#[tokio::test]
async fn help_pages_displays_clearing_and_stderr_as_ipython_sends_them() {
    let mut k = Kernel::start("notebook").await;
    let (reply, _) = k.execute("rt = tf.ragged.constant([[1, 2], [3]])").await;
    assert_eq!(reply["content"]["status"], "ok");

    // help(x) prints its page, as IPython's does, so a notebook keeps it.
    let (reply, out) = k.execute("help(tf.ragged.constant)").await;
    assert_eq!(reply["content"]["payload"], json!([]), "{reply}");
    assert_eq!(types(&out), ["status", "execute_input", "stream", "status"]);
    assert_eq!(out[2]["content"]["name"], "stdout");
    let text = out[2]["content"]["text"].as_str().unwrap();
    assert!(text.contains("Examples:"), "{text}");

    // x? and x?? open the pager: one page payload, nothing printed.
    for (code, needle) in [
        ("tf.ragged.constant?", "Examples:"),
        ("rt?", "RaggedTensor  dtype=int32"),
        ("rt??", "row_splits"),
    ] {
        let (reply, out) = k.execute(code).await;
        assert_eq!(reply["content"]["status"], "ok", "{code}");
        let payload = &reply["content"]["payload"];
        assert_eq!(
            payload.as_array().map(Vec::len),
            Some(1),
            "{code}: {payload}"
        );
        assert_eq!(payload[0]["source"], "page");
        assert_eq!(payload[0]["start"], 0);
        let text = payload[0]["data"]["text/plain"].as_str().unwrap();
        assert!(text.contains(needle), "{code}: {text}");
        assert_eq!(types(&out), ["status", "execute_input", "status"], "{code}");
    }

    // display(x) is display_data where it is called; the cell's last value stays its result.
    let (_, out) = k
        .execute("display(rt)\nclear_output(wait=True)\n1 + 1")
        .await;
    assert_eq!(
        types(&out),
        [
            "status",
            "execute_input",
            "display_data",
            "clear_output",
            "execute_result",
            "status"
        ]
    );
    assert!(out[2]["content"]["data"]["text/html"]
        .as_str()
        .unwrap()
        .contains("<table"));
    assert_eq!(out[3]["content"]["wait"], true);

    // print(…, file=sys.stderr) is the stderr stream.
    let (_, out) = k
        .execute("import sys\nprint('out')\nprint('err', file=sys.stderr)")
        .await;
    let streams: Vec<(&str, &str)> = out
        .iter()
        .filter(|m| m["header"]["msg_type"] == "stream")
        .map(|m| {
            (
                m["content"]["name"].as_str().unwrap(),
                m["content"]["text"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(streams, [("stdout", "out\n"), ("stderr", "err\n")]);
}

#[tokio::test]
async fn magics_and_commands_run_on_their_own_lines_in_a_cell() {
    let mut k = Kernel::start("notebook").await;
    let (reply, out) = k
        .execute("x = tf.constant([1, 2])\n:format json\n%who\n!echo hi\nx")
        .await;
    assert_eq!(reply["content"]["status"], "ok", "{reply}");
    assert_eq!(reply["content"]["execution_count"], 1);
    let texts: Vec<&str> = out
        .iter()
        .filter(|m| m["header"]["msg_type"] == "stream")
        .map(|m| m["content"]["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts.concat(), "x\t \nhi\n");
    let result = out
        .iter()
        .find(|m| m["header"]["msg_type"] == "execute_result")
        .unwrap();
    assert!(
        result["content"]["data"]["application/json"].is_object(),
        "{result}"
    );
    let (reply, out) = k.execute("%time 1 + 1").await;
    assert_eq!(reply["content"]["execution_count"], 2);
    assert_eq!(
        types(&out),
        [
            "status",
            "execute_input",
            "stream",
            "execute_result",
            "status"
        ]
    );
    assert!(out[2]["content"]["text"]
        .as_str()
        .unwrap()
        .starts_with("CPU times: user "));
    k.shutdown().await;
}

/// The text of a cell's stdout stream messages, joined.
fn stdout_of(out: &[Value]) -> String {
    out.iter()
        .filter(|m| m["header"]["msg_type"] == "stream" && m["content"]["name"] == "stdout")
        .map(|m| m["content"]["text"].as_str().unwrap())
        .collect()
}

#[tokio::test]
async fn cell_magics_history_and_load_as_ipython_runs_them() {
    let mut k = Kernel::start("notebook").await;
    // %%time times the cell and shows its last value as the result.
    let (reply, out) = k.execute("%%time\nx = 40\nx + 2").await;
    assert_eq!(reply["content"]["status"], "ok", "{reply}");
    assert!(stdout_of(&out).starts_with("CPU times: user "), "{out:?}");
    let result = out
        .iter()
        .find(|m| m["header"]["msg_type"] == "execute_result")
        .unwrap();
    assert_eq!(result["content"]["data"]["text/plain"], "42");
    // %%timeit: setup on its line, the timed code below.
    let (reply, out) = k.execute("%%timeit -n 3 -r 2 y = [1]\ny + [2]").await;
    assert_eq!(reply["content"]["status"], "ok", "{reply}");
    assert!(
        stdout_of(&out).ends_with(" per loop (mean ± std. dev. of 2 runs, 3 loops each)\n"),
        "{out:?}"
    );
    // %history: this session's cells, numbered as their prompts.
    let (_, out) = k.execute("%history -n -l 1").await;
    assert_eq!(
        stdout_of(&out),
        "   2:\n%%timeit -n 3 -r 2 y = [1]\ny + [2]\n"
    );
    // %load replaces the cell with the file's code (set_next_input), and runs nothing.
    let dir = std::env::temp_dir().join(format!("ragtag-kernel-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("code.rtg");
    std::fs::write(&file, "z = 7\nprint(z)\n").unwrap();
    let (reply, out) = k.execute(&format!("%load {}", file.display())).await;
    assert_eq!(reply["content"]["status"], "ok", "{reply}");
    assert_eq!(
        reply["content"]["payload"],
        json!([{
            "source": "set_next_input",
            "text": format!("# %load {}\nz = 7\nprint(z)\n", file.display()),
            "replace": true
        }])
    );
    assert_eq!(stdout_of(&out), "");
    let (reply, _) = k.execute("z").await;
    assert_eq!(reply["content"]["ename"], "NameError", "{reply}");
    let _ = std::fs::remove_dir_all(&dir);
    k.shutdown().await;
}

#[tokio::test]
async fn help_in_a_cell_is_wrapped_at_argument_boundaries() {
    let mut k = Kernel::start("notebook").await;
    let (_, out) = k.execute("help(tf.ragged.constant)").await;
    let text = stdout_of(&out);
    for line in text.lines() {
        assert!(line.chars().count() <= 80, "{line:?} in\n{text}");
    }
    // Arguments stay whole, continuations under the first argument.
    assert!(text.contains("row_splits_dtype=tf.int64)"), "{text}");
    assert!(
        text.lines()
            .nth(1)
            .is_some_and(|l| l.starts_with("                   ")),
        "{text}"
    );
    k.shutdown().await;
}
