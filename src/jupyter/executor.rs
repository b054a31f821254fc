//! The evaluation thread: it owns the [`Session`] and runs jobs (cells, completion,
//! inspection) one at a time, while the socket tasks stay free to answer control requests.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use jupyter_protocol::{JupyterMessage, JupyterMessageContent};
use ragtag::Session;
use tokio::sync::oneshot;

use super::replies::lost;

type Job = Box<dyn FnOnce(&mut Session) + Send>;

/// The evaluation thread, which owns the session.
pub(super) struct Executor {
    jobs: std::sync::mpsc::Sender<Job>,
    /// The session's cancel flag, set by interrupt and shutdown requests.
    pub(super) cancel: Arc<AtomicBool>,
}

impl Executor {
    pub(super) fn start() -> Result<Executor, String> {
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
    pub(super) async fn run<R: Send + 'static>(
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

    /// The reply made on the session by `f`, or an error reply if the evaluation thread lost
    /// the job.
    pub(super) async fn reply<R: Into<JupyterMessageContent> + Send + 'static>(
        &self,
        msg: &JupyterMessage,
        f: impl FnOnce(&mut Session) -> R + Send + 'static,
    ) -> JupyterMessageContent {
        self.run(f).await.map_or_else(|| lost(msg), Into::into)
    }

    pub(super) fn interrupt(&self) {
        self.cancel.store(true, Ordering::SeqCst);
    }
}
