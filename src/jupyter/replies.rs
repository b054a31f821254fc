//! Replies for requests that could not be answered normally — unsupported, malformed, or
//! failed inside ragtag — and the guard that turns a handler's panic into such a reply.

use std::any::Any;
use std::future::Future;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::pin::Pin;
use std::task::{Context, Poll};

use jupyter_protocol::{JupyterMessage, JupyterMessageContent, UnknownMessage};

/// The msg_type answering a `msg_type` message: `X_reply` for `X_request`. Anything else
/// (no msg_type at all, or a message that is not a request) is answered, when it must be,
/// with an `error` message: the protocol has no reply type for it.
fn reply_type(msg_type: &str) -> String {
    match msg_type.strip_suffix("_request") {
        Some(kind) if !kind.is_empty() => format!("{kind}_reply"),
        _ => "error".into(),
    }
}

/// An error reply to `msg`: `status: "error"` with an exception's name, value and traceback.
fn error_reply(msg: &JupyterMessage, ename: &str, evalue: &str) -> JupyterMessageContent {
    JupyterMessageContent::UnknownMessage(UnknownMessage {
        msg_type: reply_type(&msg.header.msg_type),
        content: serde_json::json!({
            "status": "error",
            "ename": ename,
            "evalue": evalue,
            "traceback": [format!("{ename}: {evalue}")],
        }),
    })
}

/// Replies to a request type the kernel does not implement (debug_request …), so no
/// frontend waits forever; other messages (comm_open …) need no answer. ipykernel only logs
/// an unknown request, leaving its sender waiting; ragtag answers every request instead.
pub(super) fn unsupported(msg: &JupyterMessage) -> Option<JupyterMessageContent> {
    msg.header.msg_type.strip_suffix("_request")?;
    Some(error_reply(
        msg,
        "NotImplementedError",
        &format!("ragtag does not implement {}", msg.header.msg_type),
    ))
}

/// The reply to a correctly signed message whose header or content does not parse: the
/// request's reply type with `status: "error"`, naming the problem. An execute_reply also
/// carries the execution count (unchanged: nothing ran).
pub(super) fn malformed(
    msg: &JupyterMessage,
    problem: &str,
    execution_count: Option<usize>,
) -> JupyterMessageContent {
    let mut reply = error_reply(msg, "ValueError", &format!("malformed message: {problem}"));
    if let (JupyterMessageContent::UnknownMessage(m), Some(n)) = (&mut reply, execution_count) {
        m.content["execution_count"] = n.into();
    }
    reply
}

/// The error reply to a request whose handling failed inside ragtag (a panic, or the
/// evaluation thread gone): the kernel keeps serving.
pub(super) fn internal_error(msg: &JupyterMessage, what: &str) -> JupyterMessageContent {
    error_reply(
        msg,
        "InternalError",
        &format!(
            "ragtag failed while answering {}: {what}; this is a bug in ragtag, and the \
             kernel is still running",
            msg.header.msg_type
        ),
    )
}

/// The text of a panic's payload.
pub(super) fn panic_text(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into())
}

/// A future whose panics, at any of its polls, end it with `Err` instead of unwinding into
/// the task that awaits it.
pub(super) struct CatchUnwind<F>(Pin<Box<F>>);

impl<F: Future> Future for CatchUnwind<F> {
    type Output = Result<F::Output, String>;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let inner = self.0.as_mut();
        match catch_unwind(AssertUnwindSafe(|| inner.poll(cx))) {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(v)) => Poll::Ready(Ok(v)),
            Err(payload) => Poll::Ready(Err(panic_text(&*payload))),
        }
    }
}

/// Runs one request's handling so that a panic in it costs only that request's answer,
/// never the socket's loop (a panicking tokio task would leave the kernel deaf).
pub(super) fn guarded<F: Future>(f: F) -> CatchUnwind<F> {
    CatchUnwind(Box::pin(f))
}

/// The error reply to a request the evaluation thread lost (it panicked outside a cell).
pub(super) fn lost(msg: &JupyterMessage) -> JupyterMessageContent {
    internal_error(msg, "the evaluation thread failed")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_in_a_handler_becomes_an_error_not_a_dead_loop() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let ok = guarded(async { 7 }).await;
            assert_eq!(ok, Ok(7));
            // A panic after the handler has already waited once.
            let failed = guarded(async {
                tokio::task::yield_now().await;
                let v: Vec<u8> = Vec::new();
                v[3]
            })
            .await;
            let err = failed.unwrap_err();
            assert!(err.contains("index out of bounds"), "{err}");
        });
    }

    #[test]
    fn replies_are_named_after_their_requests() {
        assert_eq!(reply_type("execute_request"), "execute_reply");
        assert_eq!(reply_type("frobnicate_request"), "frobnicate_reply");
        assert_eq!(reply_type(""), "error");
        assert_eq!(reply_type("_request"), "error");
        assert_eq!(reply_type("comm_msg"), "error");
    }
}
