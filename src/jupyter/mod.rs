//! The Jupyter kernel (protocol 5.3): `ragtag jupyter install|uninstall|kernel -f FILE`.
//!
//! Shape: a single-threaded tokio runtime serves the sockets — one task each for shell,
//! control, IOPub and heartbeat ([`loops`], [`publish`], [`transport`]) — while one evaluation
//! thread ([`executor`]) owns the [`Session`](ragtag::Session). The control task never waits
//! for evaluation, so interrupt_request and shutdown_request are answered while a cell runs;
//! interrupting sets the session's cancel flag, which the evaluator polls. Everything
//! published on IOPub goes through one queue, so a cell's outputs keep their order and all
//! arrive before its reply and the `idle` status. Requests are decoded in [`decode`],
//! answered in [`handlers`] (completion and inspection in [`complete`]), and failures become
//! error replies in [`replies`].

mod complete;
mod decode;
mod executor;
mod handlers;
mod history;
mod install;
mod loops;
mod parent;
mod publish;
mod replies;
mod transport;

use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use jupyter_protocol::Status;
use tokio::sync::mpsc;

use executor::Executor;
pub use install::{install, uninstall};
pub use publish::Publisher;

async fn serve(connection_file: &Path) -> Result<(), String> {
    let info = transport::read_connection_file(connection_file)?;
    let session_id = uuid::Uuid::new_v4().to_string();
    let sockets = transport::bind(&info, &session_id).await?;
    let (out, mut iopub) = Publisher::start(sockets.iopub);
    let mut heartbeat = tokio::spawn(sockets.heartbeat.run());
    out.send_orphan(Status::starting());
    let executor = Executor::start()?;
    let (exit, mut exit_rx) = mpsc::unbounded_channel();
    let mut control = tokio::spawn(loops::control_loop(
        sockets.control,
        out.clone(),
        executor.cancel.clone(),
        exit.clone(),
    ));
    tokio::spawn(parent::watch_parent(exit.clone()));
    let mut shell = tokio::spawn(loops::shell_loop(
        sockets.shell,
        out.clone(),
        executor,
        exit,
    ));
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
                Err(e) if e.is_panic() => replies::panic_text(&*e.into_panic()),
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
