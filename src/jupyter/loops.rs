//! The control and shell loops: each request is answered in order, between a `busy` and an
//! `idle` status. Control never waits for evaluation; shell hands cells, completion and
//! inspection to the evaluation thread and aborts the rest of a failed "Run All".

use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use jupyter_protocol::{
    CommInfoReply, InterruptReply, JupyterMessage, JupyterMessageContent, ReplyStatus,
    ShutdownReply, Status,
};
use tokio::sync::mpsc;

use super::decode::Incoming;
use super::executor::Executor;
use super::handlers;
use super::replies::{guarded, internal_error, malformed, unsupported};
use super::transport::{Replies, Requests, Router};
use super::Publisher;

/// What handling a request produced: the reply, if any, and whether the kernel should stop.
type Answer = (Option<JupyterMessageContent>, bool);

/// The answer to one request on the control socket; never waits for evaluation.
fn answer_control(incoming: &Incoming, cancel: &AtomicBool) -> Answer {
    let msg = match incoming {
        Incoming::Malformed { msg, problem } => {
            return (Some(malformed(msg, problem, None)), false)
        }
        Incoming::Request(msg) => msg,
    };
    match &msg.content {
        JupyterMessageContent::KernelInfoRequest(_) => {
            (Some(handlers::kernel_info().into()), false)
        }
        JupyterMessageContent::InterruptRequest(_) => {
            cancel.store(true, Ordering::SeqCst);
            (Some(InterruptReply::new().into()), false)
        }
        JupyterMessageContent::ShutdownRequest(req) => {
            cancel.store(true, Ordering::SeqCst);
            let reply = ShutdownReply {
                restart: req.restart,
                status: ReplyStatus::Ok,
                error: None,
            };
            (Some(reply.into()), true)
        }
        _ => (unsupported(msg), false),
    }
}

/// Answers one request between a `busy` and an `idle` status: the reply `answer` makes (an
/// error reply should it panic) goes out on `replies`. True when the kernel should stop.
async fn serve_one(
    out: &Publisher,
    replies: &mut Replies,
    msg: &JupyterMessage,
    answer: impl Future<Output = Answer>,
) -> bool {
    out.send(Status::busy(), msg);
    let (reply, stop) = guarded(answer)
        .await
        .unwrap_or_else(|panic| (Some(internal_error(msg, &panic)), false));
    if let Some(reply) = reply {
        replies.send(JupyterMessage::new(reply, Some(msg))).await;
    }
    out.send(Status::idle(), msg);
    stop
}

/// Answers requests on the control socket, one at a time, each between `busy` and `idle`.
pub(super) async fn control_loop(
    control: Router,
    out: Publisher,
    cancel: Arc<AtomicBool>,
    exit: mpsc::UnboundedSender<()>,
) {
    let (mut requests, mut control) = control.split();
    loop {
        let incoming = requests.recv().await;
        let answer = async { answer_control(&incoming, &cancel) };
        if serve_one(&out, &mut control, incoming.message(), answer).await {
            let _ = exit.send(());
            return;
        }
    }
}

/// How many shell requests may wait, decoded, while the shell loop is busy. Beyond that the
/// kernel stops reading the socket, and ZeroMQ and TCP hold the rest back at the sender: a
/// client flooding the kernel during a long cell cannot make it hold every request in memory
/// (50,000 waiting requests took 28 MB), and none is lost.
const SHELL_QUEUE: usize = 1024;

/// Reads shell requests as they arrive, stamped with their arrival time, while the shell
/// loop may be busy with an earlier one. (With more than [`SHELL_QUEUE`] waiting, a request
/// is stamped when it is read, a little after it arrived.)
async fn read_loop(mut requests: Requests, queue: mpsc::Sender<(Instant, Incoming)>) {
    loop {
        let incoming = requests.recv().await;
        if queue.send((Instant::now(), incoming)).await.is_err() {
            return;
        }
    }
}

/// What the shell loop keeps between requests.
struct Shell {
    out: Publisher,
    executor: Executor,
    /// After a failed cell with `stop_on_error`, execute requests that arrived before it
    /// failed (the rest of a "Run All") are answered `aborted` instead of run, as IPython
    /// does. Arrival time, not a timeout, decides: a request sent after the frontend saw the
    /// failure always runs.
    abort_before: Option<Instant>,
}

impl Shell {
    /// The answer to one shell request.
    async fn answer(&mut self, incoming: &Incoming) -> Answer {
        let msg = match incoming {
            Incoming::Malformed { msg, problem } => {
                let count = if msg.header.msg_type == "execute_request" {
                    let count = self.executor.run(|s| s.execution_count()).await;
                    Some(count.unwrap_or(0))
                } else {
                    None
                };
                return (Some(malformed(msg, problem, count)), false);
            }
            Incoming::Request(msg) => msg,
        };
        let (executor, out) = (&self.executor, &self.out);
        let reply: JupyterMessageContent = match &msg.content {
            JupyterMessageContent::ExecuteRequest(_) if self.abort_before.is_some() => {
                handlers::aborted(0).into()
            }
            JupyterMessageContent::ExecuteRequest(req) => {
                let (code, silent) = (req.code.clone(), req.silent);
                let stop_on_error = req.stop_on_error;
                let (parent, publisher) = (msg.clone(), out.clone());
                let reply = executor
                    .run(move |s| handlers::execute(s, &code, silent, &parent, &publisher))
                    .await;
                let failed = reply.as_ref().is_none_or(|r| r.status != ReplyStatus::Ok);
                if failed && stop_on_error {
                    self.abort_before = Some(Instant::now());
                }
                // Outputs first: a frontend may stop listening once it has the reply.
                out.flush().await;
                match reply {
                    Some(reply) => reply.into(),
                    None => internal_error(msg, "the evaluation thread lost the cell"),
                }
            }
            JupyterMessageContent::KernelInfoRequest(_) => handlers::kernel_info().into(),
            JupyterMessageContent::IsCompleteRequest(req) => {
                let code = req.code.clone();
                // On the evaluation thread, whose stack is sized for deeply nested code.
                executor
                    .reply(msg, move |_| handlers::is_complete(&code))
                    .await
            }
            JupyterMessageContent::CompleteRequest(req) => {
                let (code, cursor) = (req.code.clone(), req.cursor_pos);
                executor
                    .reply(msg, move |s| handlers::complete(s, &code, cursor))
                    .await
            }
            JupyterMessageContent::InspectRequest(req) => {
                let (code, cursor) = (req.code.clone(), req.cursor_pos);
                executor
                    .reply(msg, move |s| handlers::inspect(s, &code, cursor))
                    .await
            }
            JupyterMessageContent::HistoryRequest(req) => {
                let req = req.clone();
                executor
                    .reply(msg, move |s| super::history::history(s, &req))
                    .await
            }
            JupyterMessageContent::CommInfoRequest(_) => CommInfoReply::default().into(),
            JupyterMessageContent::ShutdownRequest(req) => {
                executor.interrupt();
                let reply = ShutdownReply {
                    restart: req.restart,
                    status: ReplyStatus::Ok,
                    error: None,
                };
                return (Some(reply.into()), true);
            }
            _ => return (unsupported(msg), false),
        };
        (Some(reply), false)
    }
}

/// Answers requests on the shell socket, one at a time, in order, each between `busy` and
/// `idle`.
pub(super) async fn shell_loop(
    shell: Router,
    out: Publisher,
    executor: Executor,
    exit: mpsc::UnboundedSender<()>,
) {
    let (requests, mut replies) = shell.split();
    let (queue, mut incoming) = mpsc::channel(SHELL_QUEUE);
    tokio::spawn(read_loop(requests, queue));
    let mut shell = Shell {
        out: out.clone(),
        executor,
        abort_before: None,
    };
    while let Some((arrived, incoming)) = incoming.recv().await {
        if shell.abort_before.is_some_and(|t| arrived >= t) {
            shell.abort_before = None;
        }
        let answer = shell.answer(&incoming);
        if serve_one(&out, &mut replies, incoming.message(), answer).await {
            let _ = exit.send(());
            return;
        }
    }
}
