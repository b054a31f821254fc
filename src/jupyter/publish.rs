//! The IOPub queue: a [`Publisher`] handle any thread can send through, and the task that
//! writes the queue to the socket in order, joining printed text that arrives in quick
//! succession into one stream message.

use std::time::{Duration, Instant};

use jupyter_protocol::{JupyterMessage, JupyterMessageContent, Stdio};
use tokio::sync::{mpsc, oneshot};

use super::transport::IoPub;

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
    /// A publisher and the task that sends what it queues on `iopub`.
    pub(super) fn start(iopub: IoPub) -> (Publisher, tokio::task::JoinHandle<()>) {
        let (queue, rx) = mpsc::unbounded_channel();
        (Publisher { queue }, tokio::spawn(publish_loop(iopub, rx)))
    }
    /// Queues `content` as a child of `parent`.
    pub fn send(&self, content: impl Into<JupyterMessageContent>, parent: &JupyterMessage) {
        let msg = JupyterMessage::new(content.into(), Some(parent));
        let _ = self.queue.send(Publish::Message(Box::new(msg)));
    }
    /// Queues `content` with no parent (the `starting` status).
    pub(super) fn send_orphan(&self, content: impl Into<JupyterMessageContent>) {
        let msg = JupyterMessage::new(content.into(), None);
        let _ = self.queue.send(Publish::Message(Box::new(msg)));
    }
    /// Waits until everything queued so far is on the wire.
    pub(super) async fn flush(&self) {
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
