//! The Jupyter kernel (protocol 5.3): `ragtag jupyter install|uninstall|kernel -f FILE`.
//!
//! Shape: a single-threaded tokio runtime serves the sockets — one task each for shell,
//! control, IOPub and heartbeat — while one evaluation thread owns the [`Session`]. The
//! control task never waits for evaluation, so interrupt_request and shutdown_request are
//! answered while a cell runs; interrupting sets the session's cancel flag, which the
//! evaluator polls. Everything published on IOPub goes through one queue, so a cell's outputs
//! keep their order and all arrive before its reply and the `idle` status.

mod complete;
mod decode;
mod handlers;
mod install;
mod transport;

use std::any::Any;
use std::future::Future;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::pin::Pin;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use jupyter_protocol::{
    CommInfoReply, InterruptReply, JupyterMessage, JupyterMessageContent, ReplyStatus,
    ShutdownReply, Status, Stdio, UnknownMessage,
};
use ragtag::Session;
use tokio::sync::{mpsc, oneshot};

use decode::Incoming;
pub use install::{install, uninstall};
use transport::{IoPub, Requests, Router};

/// One thing for the IOPub task to do.
enum Publish {
    Message(Box<JupyterMessage>),
    /// Answer once everything queued before has been sent.
    Flush(oneshot::Sender<()>),
}

/// A handle that queues messages for IOPub; usable from any thread.
#[derive(Clone)]
pub struct Publisher {
    queue: mpsc::UnboundedSender<Publish>,
}

impl Publisher {
    /// Queues `content` as a child of `parent`.
    pub fn send(&self, content: impl Into<JupyterMessageContent>, parent: &JupyterMessage) {
        let msg = JupyterMessage::new(content.into(), Some(parent));
        let _ = self.queue.send(Publish::Message(Box::new(msg)));
    }
    /// Queues `content` with no parent (the `starting` status).
    fn send_orphan(&self, content: impl Into<JupyterMessageContent>) {
        let msg = JupyterMessage::new(content.into(), None);
        let _ = self.queue.send(Publish::Message(Box::new(msg)));
    }
    /// Waits until everything queued so far is on the wire.
    async fn flush(&self) {
        let (tx, rx) = oneshot::channel();
        if self.queue.send(Publish::Flush(tx)).is_ok() {
            let _ = rx.await;
        }
    }
}

/// The shortest time between two stream messages: printed text arriving sooner is joined into
/// one message, as ipykernel's buffered streams do. A cell printing in a loop then sends a few
/// dozen messages a second instead of one per print — hundreds of thousands of small messages
/// would pile up in IOPub's queue (hundreds of MB) and be dropped there once it is full.
const STREAM_INTERVAL: Duration = Duration::from_millis(50);

/// Printed text held back to join later prints, and when the last stream message went out.
#[derive(Default)]
struct Streams {
    held: Option<Box<JupyterMessage>>,
    last: Option<Instant>,
}

impl Streams {
    /// Appends `msg`'s text to the held message if it continues the same stream of the same
    /// request.
    fn join(&mut self, msg: &JupyterMessage) -> bool {
        let Some(held) = self.held.as_mut() else {
            return false;
        };
        let same_parent = held.parent_header.as_ref().map(|h| &h.msg_id)
            == msg.parent_header.as_ref().map(|h| &h.msg_id);
        match (&mut held.content, &msg.content) {
            (
                JupyterMessageContent::StreamContent(held),
                JupyterMessageContent::StreamContent(more),
            ) if same_parent
                && matches!(
                    (&held.name, &more.name),
                    (Stdio::Stdout, Stdio::Stdout) | (Stdio::Stderr, Stdio::Stderr)
                ) =>
            {
                held.text.push_str(&more.text);
                true
            }
            _ => false,
        }
    }

    /// Sends a stream message now.
    async fn send(&mut self, iopub: &mut IoPub, msg: Box<JupyterMessage>) {
        iopub.send(*msg).await;
        self.last = Some(Instant::now());
    }

    /// Sends the held text, if any.
    async fn release(&mut self, iopub: &mut IoPub) {
        if let Some(msg) = self.held.take() {
            self.send(iopub, msg).await;
        }
    }
}

async fn publish_loop(mut iopub: IoPub, mut queue: mpsc::UnboundedReceiver<Publish>) {
    let mut streams = Streams::default();
    loop {
        let item = if streams.held.is_some() {
            let due = streams
                .last
                .map_or_else(Instant::now, |t| t + STREAM_INTERVAL);
            tokio::select! {
                item = queue.recv() => item,
                () = tokio::time::sleep_until(due.into()) => {
                    streams.release(&mut iopub).await;
                    continue;
                }
            }
        } else {
            queue.recv().await
        };
        let Some(item) = item else {
            streams.release(&mut iopub).await;
            return;
        };
        match item {
            Publish::Message(msg)
                if matches!(msg.content, JupyterMessageContent::StreamContent(_)) =>
            {
                if streams.join(&msg) {
                    continue;
                }
                // Another stream, or another request's: what was held goes first.
                streams.release(&mut iopub).await;
                if streams.last.is_none_or(|t| t.elapsed() >= STREAM_INTERVAL) {
                    streams.send(&mut iopub, msg).await;
                } else {
                    streams.held = Some(msg);
                }
            }
            Publish::Message(msg) => {
                // Everything else keeps its place after the text printed before it.
                streams.release(&mut iopub).await;
                iopub.send(*msg).await;
            }
            Publish::Flush(done) => {
                streams.release(&mut iopub).await;
                let _ = done.send(());
            }
        }
    }
}

type Job = Box<dyn FnOnce(&mut Session) + Send>;

/// The evaluation thread, which owns the session.
struct Executor {
    jobs: std::sync::mpsc::Sender<Job>,
    cancel: Arc<AtomicBool>,
}

impl Executor {
    fn start() -> Result<Executor, String> {
        let (jobs, queue) = std::sync::mpsc::channel::<Job>();
        let (flag_tx, flag_rx) = std::sync::mpsc::channel();
        std::thread::Builder::new()
            .name("ragtag-session".into())
            // Each input evaluates on a thread of its own (`ragtag::guard`); this one holds
            // the session and runs completion and inspection.
            .stack_size(64 << 20)
            .spawn(move || {
                let mut session = Session::new();
                session.options.color = false;
                let _ = flag_tx.send(session.cancel_flag());
                for job in queue {
                    // A panic outside execute (completion, inspection) only loses its reply.
                    let _ = catch_unwind(AssertUnwindSafe(|| job(&mut session)));
                }
            })
            .map_err(|e| format!("cannot start the evaluation thread: {e}"))?;
        let cancel = flag_rx
            .recv()
            .map_err(|_| "the evaluation thread did not start".to_string())?;
        Ok(Executor { jobs, cancel })
    }

    /// Runs `f` on the session and waits for its result without blocking the runtime.
    async fn run<R: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Session) -> R + Send + 'static,
    ) -> Option<R> {
        let (tx, rx) = oneshot::channel();
        let job: Job = Box::new(move |s| {
            let _ = tx.send(f(s));
        });
        self.jobs.send(job).ok()?;
        rx.await.ok()
    }

    fn interrupt(&self) {
        self.cancel.store(true, Ordering::SeqCst);
    }
}

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
fn unsupported(msg: &JupyterMessage) -> Option<JupyterMessageContent> {
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
fn malformed(
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
fn internal_error(msg: &JupyterMessage, what: &str) -> JupyterMessageContent {
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
fn panic_text(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into())
}

/// A future whose panics, at any of its polls, end it with `Err` instead of unwinding into
/// the task that awaits it.
struct CatchUnwind<F>(Pin<Box<F>>);

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
fn guarded<F: Future>(f: F) -> CatchUnwind<F> {
    CatchUnwind(Box::pin(f))
}

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

/// Answers requests on the control socket, one at a time, each between `busy` and `idle`.
async fn control_loop(
    control: Router,
    out: Publisher,
    cancel: Arc<AtomicBool>,
    exit: mpsc::UnboundedSender<()>,
) {
    let (mut requests, mut control) = control.split();
    loop {
        let incoming = requests.recv().await;
        let msg = incoming.message();
        out.send(Status::busy(), msg);
        let (reply, stop) = guarded(async { answer_control(&incoming, &cancel) })
            .await
            .unwrap_or_else(|panic| (Some(internal_error(msg, &panic)), false));
        if let Some(reply) = reply {
            control.send(JupyterMessage::new(reply, Some(msg))).await;
        }
        out.send(Status::idle(), msg);
        if stop {
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
                    .run(move |_| handlers::is_complete(&code))
                    .await
                    .map_or_else(|| lost(msg), Into::into)
            }
            JupyterMessageContent::CompleteRequest(req) => {
                let (code, cursor) = (req.code.clone(), req.cursor_pos);
                executor
                    .run(move |s| handlers::complete(s, &code, cursor))
                    .await
                    .map_or_else(|| lost(msg), Into::into)
            }
            JupyterMessageContent::InspectRequest(req) => {
                let (code, cursor) = (req.code.clone(), req.cursor_pos);
                executor
                    .run(move |s| handlers::inspect(s, &code, cursor))
                    .await
                    .map_or_else(|| lost(msg), Into::into)
            }
            JupyterMessageContent::HistoryRequest(req) => {
                let req = req.clone();
                executor
                    .run(move |s| handlers::history(s, &req))
                    .await
                    .map_or_else(|| lost(msg), Into::into)
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
async fn shell_loop(
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
        let msg = incoming.message();
        out.send(Status::busy(), msg);
        if shell.abort_before.is_some_and(|t| arrived >= t) {
            shell.abort_before = None;
        }
        let (reply, stop) = guarded(shell.answer(&incoming))
            .await
            .unwrap_or_else(|panic| (Some(internal_error(msg, &panic)), false));
        if let Some(reply) = reply {
            replies.send(JupyterMessage::new(reply, Some(msg))).await;
        }
        out.send(Status::idle(), msg);
        if stop {
            let _ = exit.send(());
            return;
        }
    }
}

/// The error reply to a request the evaluation thread lost (it panicked outside a cell).
fn lost(msg: &JupyterMessage) -> JupyterMessageContent {
    internal_error(msg, "the evaluation thread failed")
}

/// Which process the kernel lives no longer than, per Jupyter's convention: jupyter_client
/// puts its own pid in `JPY_PARENT_PID` when it starts a kernel that should not outlive it
/// (and leaves it out, or sets 0 or 1, for an independent one).
#[cfg(unix)]
enum Watch {
    /// The parent named is the real one: when it dies the kernel is re-parented, so the
    /// parent pid changes.
    Parent(u32),
    /// A wrapper (a shell script …) stands between them: watch the named process itself.
    Process(u32),
}

#[cfg(unix)]
fn watch_from_env() -> Option<Watch> {
    let declared: u32 = std::env::var("JPY_PARENT_PID").ok()?.trim().parse().ok()?;
    if declared <= 1 {
        return None;
    }
    Some(if std::os::unix::process::parent_id() == declared {
        Watch::Parent(declared)
    } else {
        Watch::Process(declared)
    })
}

#[cfg(unix)]
impl Watch {
    fn alive(&self) -> bool {
        match *self {
            Watch::Parent(pid) => std::os::unix::process::parent_id() == pid,
            // Without /proc there is no safe way to ask; keep running.
            Watch::Process(pid) => {
                !Path::new("/proc/self").exists() || Path::new(&format!("/proc/{pid}")).exists()
            }
        }
    }
}

/// Ends the kernel once the Jupyter server that started it has gone, so a crashed or killed
/// server leaves no kernel behind. Polling once a second needs no signal handling and no
/// unsafe code.
async fn watch_parent(exit: mpsc::UnboundedSender<()>) {
    #[cfg(unix)]
    if let Some(watch) = watch_from_env() {
        let mut tick = tokio::time::interval(Duration::from_secs(1));
        loop {
            tick.tick().await;
            if !watch.alive() {
                let (Watch::Parent(pid) | Watch::Process(pid)) = watch;
                eprintln!(
                    "ragtag kernel: the process that started it (pid {pid}) has exited; \
                     shutting down"
                );
                let _ = exit.send(());
                return;
            }
        }
    }
    #[cfg(not(unix))]
    let _ = exit;
}

async fn serve(connection_file: &Path) -> Result<(), String> {
    let info = transport::read_connection_file(connection_file)?;
    let session_id = uuid::Uuid::new_v4().to_string();
    let sockets = transport::bind(&info, &session_id).await?;
    let (queue, rx) = mpsc::unbounded_channel();
    let out = Publisher { queue };
    let mut iopub = tokio::spawn(publish_loop(sockets.iopub, rx));
    let mut heartbeat = tokio::spawn(sockets.heartbeat.run());
    out.send_orphan(Status::starting());
    let executor = Executor::start()?;
    let (exit, mut exit_rx) = mpsc::unbounded_channel();
    let mut control = tokio::spawn(control_loop(
        sockets.control,
        out.clone(),
        executor.cancel.clone(),
        exit.clone(),
    ));
    tokio::spawn(watch_parent(exit.clone()));
    let mut shell = tokio::spawn(shell_loop(sockets.shell, out.clone(), executor, exit));
    // Kept open so frontends can connect; ragtag never asks for input.
    let _stdin = sockets.stdin;
    // The socket loops end only on shutdown. Should one fail anyway, a kernel that answers
    // heartbeats but no requests would look alive to Jupyter forever: exit instead, so Jupyter
    // reports the kernel dead and restarts it.
    let stopped = tokio::select! {
        _ = exit_rx.recv() => None,
        r = &mut shell => Some(("shell", r)),
        r = &mut control => Some(("control", r)),
        r = &mut iopub => Some(("iopub", r)),
        r = &mut heartbeat => Some(("heartbeat", r)),
    };
    if let Some((name, result)) = stopped {
        // A loop that ended because it asked for the shutdown is no failure.
        if exit_rx.try_recv().is_err() {
            let why = match result {
                Err(e) if e.is_panic() => panic_text(&*e.into_panic()),
                Err(e) => e.to_string(),
                Ok(()) => "it ended".into(),
            };
            return Err(format!(
                "the {name} loop stopped ({why}); exiting so that Jupyter restarts the kernel"
            ));
        }
    }
    out.flush().await;
    // Let the last replies leave the socket buffers before the process ends.
    tokio::time::sleep(Duration::from_millis(50)).await;
    Ok(())
}

/// Runs the kernel until a shutdown_request; what Jupyter launches.
pub fn run_kernel(connection_file: &Path) -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("ragtag kernel: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(serve(connection_file)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ragtag kernel: {e}");
            ExitCode::FAILURE
        }
    }
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
