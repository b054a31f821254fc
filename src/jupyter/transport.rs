//! The only part of the kernel that knows ZeroMQ: it binds the five sockets a connection file
//! names, signs outgoing and verifies incoming messages (HMAC-SHA256, via jupyter-zmq-client),
//! drops anything badly signed or replayed, and echoes heartbeats.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use jupyter_protocol::{ConnectionInfo, JupyterMessage};
use jupyter_zmq_client::{
    create_kernel_control_connection, create_kernel_iopub_connection,
    create_kernel_shell_connection, create_kernel_stdin_connection, KernelIoPubConnection,
    KernelShellConnection, RawMessage, RouterRecvConnection, RouterSendConnection, RuntimeError,
};
use zeromq::{Socket, SocketRecv, SocketSend, ZmqMessage};

use super::decode::{self, Digests, Incoming, DIGEST_HISTORY};

/// The signatures seen on every socket, shared as jupyter_client's session shares its
/// digest history: a message captured on shell is a replay on control too.
type SharedDigests = Arc<Mutex<Digests>>;

/// Reads and checks a connection file.
pub fn read_connection_file(path: &Path) -> Result<ConnectionInfo, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read connection file {}: {e}", path.display()))?;
    let info: ConnectionInfo = serde_json::from_str(&text)
        .map_err(|e| format!("bad connection file {}: {e}", path.display()))?;
    // An empty key means the frontend turned signing off; any other scheme we cannot check.
    if !info.key.is_empty() && info.signature_scheme != "hmac-sha256" {
        return Err(format!(
            "unsupported signature_scheme '{}' (ragtag signs with hmac-sha256)",
            info.signature_scheme
        ));
    }
    Ok(info)
}

/// A ROUTER socket (shell, control or stdin) whose peers send requests.
pub struct Router {
    conn: KernelShellConnection,
    name: &'static str,
    digests: SharedDigests,
}

impl Router {
    /// Splits the socket into a receiving and a replying half, so one task can keep
    /// reading requests while another answers them.
    pub fn split(self) -> (Requests, Replies) {
        let (tx, rx) = self.conn.split();
        (
            Requests {
                conn: rx,
                name: self.name,
                digests: self.digests,
            },
            Replies {
                conn: tx,
                name: self.name,
            },
        )
    }
}

/// The receiving half of a ROUTER socket.
pub struct Requests {
    conn: RouterRecvConnection,
    name: &'static str,
    digests: SharedDigests,
}

/// The signature frame of a multipart message: the one after the `<IDS|MSG>` delimiter.
fn signature(frames: &ZmqMessage) -> Option<Vec<u8>> {
    let mut frames = frames.iter();
    frames.find(|f| f.as_ref() == b"<IDS|MSG>")?;
    frames.next().map(|f| f.to_vec())
}

impl Requests {
    /// The next correctly signed message that is not a replay, decoded (well-formed or not:
    /// a malformed one is answered with an error). Others are logged and dropped, so a
    /// forged or replayed request is never executed and never answered.
    pub async fn recv(&mut self) -> Incoming {
        loop {
            let frames = match self.conn.socket.recv().await {
                Ok(frames) => frames,
                Err(e) => {
                    eprintln!("ragtag kernel: {} socket: {e}", self.name);
                    // A broken peer must not turn this loop into a busy spin.
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            };
            let sig = signature(&frames);
            let raw = match RawMessage::from_multipart(frames, &self.conn.mac) {
                Ok(raw) => raw,
                Err(RuntimeError::VerifyError(_)) | Err(RuntimeError::DecodeError(_)) => {
                    eprintln!(
                        "ragtag kernel: dropped a message on {} with a wrong or empty signature",
                        self.name
                    );
                    continue;
                }
                Err(RuntimeError::MissingHmac) => {
                    eprintln!(
                        "ragtag kernel: dropped a message on {} without a signature frame",
                        self.name
                    );
                    continue;
                }
                Err(e) => {
                    eprintln!(
                        "ragtag kernel: dropped a malformed message on {}: {e}",
                        self.name
                    );
                    continue;
                }
            };
            // Without a key nothing is signed, and there is nothing to recognise a replay by.
            if self.conn.mac.is_some() {
                let fresh = match (sig, self.digests.lock()) {
                    (Some(sig), Ok(mut digests)) => digests.insert(&sig),
                    (Some(sig), Err(poisoned)) => poisoned.into_inner().insert(&sig),
                    (None, _) => true,
                };
                if !fresh {
                    eprintln!(
                        "ragtag kernel: dropped a replayed message on {} (its signature was \
                         seen before)",
                        self.name
                    );
                    continue;
                }
            }
            match catch_unwind(AssertUnwindSafe(|| decode::decode(raw))) {
                Ok(incoming) => return incoming,
                Err(_) => eprintln!(
                    "ragtag kernel: dropped a message on {} that could not be decoded",
                    self.name
                ),
            }
        }
    }
}

/// The replying half of a ROUTER socket.
pub struct Replies {
    conn: RouterSendConnection,
    name: &'static str,
}

impl Replies {
    /// Sends a reply (its ZeroMQ identities route it to the requester).
    pub async fn send(&mut self, msg: JupyterMessage) {
        if let Err(e) = self.conn.send(msg).await {
            eprintln!("ragtag kernel: cannot reply on {}: {e}", self.name);
        }
    }
}

/// The IOPub PUB socket, on which every output and status change is broadcast.
pub struct IoPub {
    conn: KernelIoPubConnection,
}

impl IoPub {
    /// Publishes one message to every subscriber.
    pub async fn send(&mut self, mut msg: JupyterMessage) {
        // On PUB the identity frames are subscription topics; the requester's ROUTER
        // identity means nothing there, so use IPython's `kernel.<topic>` style.
        let topic = format!("kernel.{}", msg.header.msg_type);
        msg.zmq_identities = vec![topic.into_bytes().into()];
        if let Err(e) = self.conn.send(msg).await {
            eprintln!("ragtag kernel: cannot publish on iopub: {e}");
        }
    }
}

/// The heartbeat REP socket: every ping is echoed back unchanged.
pub struct Heartbeat {
    socket: zeromq::RepSocket,
}

impl Heartbeat {
    /// Echoes pings until the process ends.
    pub async fn run(mut self) {
        loop {
            match self.socket.recv().await {
                Ok(ping) => {
                    if let Err(e) = self.socket.send(ping).await {
                        eprintln!("ragtag kernel: heartbeat: {e}");
                    }
                }
                Err(e) => {
                    eprintln!("ragtag kernel: heartbeat: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            }
        }
    }
}

/// The kernel's sockets, bound and ready.
pub struct Sockets {
    /// Requests from frontends: execute, complete, inspect …
    pub shell: Router,
    /// Interrupt, shutdown and kernel_info, answered even while a cell runs.
    pub control: Router,
    /// Bound so frontends can connect; ragtag never asks for input.
    pub stdin: Router,
    /// Outputs and status.
    pub iopub: IoPub,
    /// Liveness pings.
    pub heartbeat: Heartbeat,
}

/// Binds every socket the connection file names.
pub async fn bind(info: &ConnectionInfo, session_id: &str) -> Result<Sockets, String> {
    let err = |what: &str, e: RuntimeError| format!("cannot bind the {what} socket: {e}");
    let shell = create_kernel_shell_connection(info, session_id)
        .await
        .map_err(|e| err("shell", e))?;
    let control = create_kernel_control_connection(info, session_id)
        .await
        .map_err(|e| err("control", e))?;
    let stdin = create_kernel_stdin_connection(info, session_id)
        .await
        .map_err(|e| err("stdin", e))?;
    let iopub = create_kernel_iopub_connection(info, session_id)
        .await
        .map_err(|e| err("iopub", e))?;
    let digests = Arc::new(Mutex::new(Digests::new(DIGEST_HISTORY)));
    // jupyter-zmq-client's heartbeat answers "pong"; the protocol asks for an echo.
    let mut hb = zeromq::RepSocket::new();
    hb.bind(&info.hb_url())
        .await
        .map_err(|e| format!("cannot bind the heartbeat socket: {e}"))?;
    Ok(Sockets {
        shell: Router {
            conn: shell,
            name: "shell",
            digests: digests.clone(),
        },
        control: Router {
            conn: control,
            name: "control",
            digests: digests.clone(),
        },
        stdin: Router {
            conn: stdin,
            name: "stdin",
            digests: digests.clone(),
        },
        iopub: IoPub { conn: iopub },
        heartbeat: Heartbeat { socket: hb },
    })
}
