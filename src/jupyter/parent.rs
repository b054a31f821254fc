//! The kernel ends with the Jupyter server that started it (`JPY_PARENT_PID`).

use std::path::Path;
use std::time::Duration;

use tokio::sync::mpsc;

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
pub(super) async fn watch_parent(exit: mpsc::UnboundedSender<()>) {
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
