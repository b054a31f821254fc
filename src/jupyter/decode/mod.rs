//! From a correctly signed message's frames to a request the kernel can answer: the header,
//! metadata and content are parsed here, the fields the messaging spec makes optional get
//! their defaults, and anything that still does not make a request becomes [`Incoming::Malformed`]
//! — which the kernel answers with an error reply instead of dropping. The fields each request
//! type needs are in [`content`]; replayed signatures are remembered in [`digests`].

mod content;
mod digests;

pub use digests::{Digests, DIGEST_HISTORY};

use jupyter_protocol::{Header, JupyterMessage, JupyterMessageContent, UnknownMessage};
use jupyter_zmq_client::RawMessage;
use serde_json::{Map, Value};

/// A correctly signed message, decoded.
pub enum Incoming {
    /// A request (or other message) with a well-formed header and content.
    Request(JupyterMessage),
    /// A message whose header or content does not make a valid message. `msg` carries the
    /// header as far as it could be read (missing strings empty), so a reply can name it as
    /// its parent, and its content as an [`UnknownMessage`] of the header's `msg_type`.
    Malformed {
        msg: JupyterMessage,
        /// What is wrong, for the error reply.
        problem: String,
    },
}

impl Incoming {
    /// The message, well-formed or not.
    pub fn message(&self) -> &JupyterMessage {
        match self {
            Incoming::Request(msg) | Incoming::Malformed { msg, .. } => msg,
        }
    }
}

/// A short description of a JSON value's kind, for error messages.
pub(super) fn kind(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(_) => "a string".into(),
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
    }
}

/// The header as far as it can be read: every string field the protocol names, empty when
/// missing or not a string (the date, when unreadable, becomes the epoch).
fn lenient_header(header: Option<&Map<String, Value>>) -> Header {
    let text = |key: &str| {
        header
            .and_then(|h| h.get(key))
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    let mut fields = Map::new();
    for key in ["msg_id", "username", "session", "msg_type", "version"] {
        fields.insert(key.into(), Value::String(text(key)));
    }
    if let Some(date) = header.and_then(|h| h.get("date")) {
        fields.insert("date".into(), date.clone());
    }
    serde_json::from_value(Value::Object(fields.clone())).unwrap_or_else(|_| {
        fields.remove("date");
        serde_json::from_value(Value::Object(fields)).expect("a header of strings")
    })
}

pub(super) fn kind_of_field(v: &Value) -> String {
    match v {
        Value::String(s) if s.chars().count() <= 40 => format!("the string {s:?}"),
        _ => kind(v),
    }
}

/// Decodes the frames after the signature (header, parent header, metadata, content and any
/// buffers) of a message whose signature has been checked.
pub fn decode(raw: RawMessage) -> Incoming {
    let RawMessage {
        zmq_identities: identities,
        jparts: parts,
    } = raw;
    let part = |i: usize| parts.get(i).map_or(&[][..], |p| &p[..]);
    let header_json: Result<Value, String> = serde_json::from_slice(part(0))
        .map_err(|e| format!("the message header is not JSON ({e})"));
    let header_map = header_json.as_ref().ok().and_then(Value::as_object);
    let header = lenient_header(header_map);
    let parent_header = serde_json::from_slice::<Header>(part(1)).ok();
    let malformed = |content: Value, problem: String| Incoming::Malformed {
        msg: JupyterMessage {
            zmq_identities: identities.clone(),
            header: header.clone(),
            parent_header: parent_header.clone(),
            metadata: Value::Object(Map::new()),
            content: JupyterMessageContent::UnknownMessage(UnknownMessage {
                msg_type: header.msg_type.clone(),
                content,
            }),
            buffers: Vec::new(),
            channel: None,
        },
        problem,
    };
    // The header first: without a msg_type there is no knowing what was asked.
    let header_map = match (&header_json, header_map) {
        (Err(e), _) => return malformed(Value::Null, e.clone()),
        (Ok(v), None) => {
            return malformed(
                Value::Null,
                format!("the message header must be an object, not {}", kind(v)),
            )
        }
        (Ok(_), Some(map)) => map,
    };
    for field in ["msg_type", "msg_id"] {
        match header_map.get(field) {
            Some(Value::String(s)) if !s.is_empty() => {}
            Some(v) => {
                return malformed(
                    Value::Null,
                    format!(
                        "the header's `{field}` must be a non-empty string, not {}",
                        kind_of_field(v)
                    ),
                )
            }
            None => return malformed(Value::Null, format!("the header has no `{field}`")),
        }
    }
    let metadata = match serde_json::from_slice::<Value>(part(2)) {
        Ok(v @ Value::Object(_)) => v,
        Ok(v) => {
            return malformed(
                Value::Null,
                format!("the message metadata must be an object, not {}", kind(&v)),
            )
        }
        Err(e) => {
            return malformed(
                Value::Null,
                format!("the message metadata is not JSON ({e})"),
            )
        }
    };
    let msg_type = header.msg_type.clone();
    let mut content = match serde_json::from_slice::<Value>(part(3)) {
        Ok(Value::Object(map)) => map,
        Ok(v) => {
            let problem = format!("{msg_type} content must be an object, not {}", kind(&v));
            return malformed(v, problem);
        }
        Err(e) => return malformed(Value::Null, format!("{msg_type} content is not JSON ({e})")),
    };
    if let Err(problem) = content::complete_content(&msg_type, &mut content) {
        return malformed(Value::Object(content), problem);
    }
    let typed =
        JupyterMessageContent::from_type_and_content(&msg_type, Value::Object(content.clone()));
    match typed {
        Ok(content) => Incoming::Request(JupyterMessage {
            zmq_identities: identities,
            header,
            parent_header,
            metadata,
            content,
            buffers: parts.get(4..).map_or_else(Vec::new, <[_]>::to_vec),
            channel: None,
        }),
        Err(e) => malformed(Value::Object(content), format!("malformed {msg_type}: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jupyter_protocol::HistoryRequest;
    use serde_json::json;

    fn header(msg_type: &str) -> Value {
        json!({"msg_id": "m1", "username": "u", "session": "s", "date": "2024-01-01T00:00:00Z",
               "msg_type": msg_type, "version": "5.3"})
    }

    fn raw(header: &[u8], content: &[u8]) -> RawMessage {
        RawMessage {
            zmq_identities: vec![b"peer".to_vec().into()],
            jparts: vec![
                header.to_vec().into(),
                b"{}".to_vec().into(),
                b"{}".to_vec().into(),
                content.to_vec().into(),
            ],
        }
    }

    fn decode_json(msg_type: &str, content: Value) -> Incoming {
        decode(raw(
            header(msg_type).to_string().as_bytes(),
            content.to_string().as_bytes(),
        ))
    }

    fn request(incoming: Incoming) -> JupyterMessageContent {
        match incoming {
            Incoming::Request(msg) => {
                assert_eq!(msg.zmq_identities.len(), 1);
                msg.content
            }
            Incoming::Malformed { problem, .. } => panic!("malformed: {problem}"),
        }
    }

    fn problem(incoming: Incoming) -> (JupyterMessage, String) {
        match incoming {
            Incoming::Malformed { msg, problem } => (msg, problem),
            Incoming::Request(msg) => panic!("decoded: {:?}", msg.content),
        }
    }

    #[test]
    fn execute_request_fields_default_as_ipykernel_assumes() {
        let JupyterMessageContent::ExecuteRequest(req) =
            request(decode_json("execute_request", json!({"code": "1 + 1"})))
        else {
            panic!()
        };
        assert_eq!(req.code, "1 + 1");
        assert!(!req.silent && req.store_history && req.stop_on_error && !req.allow_stdin);
        assert_eq!(req.user_expressions, Some(Default::default()));
        // store_history follows silent; null counts as left out.
        let JupyterMessageContent::ExecuteRequest(req) = request(decode_json(
            "execute_request",
            json!({"code": "x", "silent": true, "stop_on_error": null}),
        )) else {
            panic!()
        };
        assert!(req.silent && !req.store_history && req.stop_on_error);
    }

    #[test]
    fn completion_inspection_and_shutdown_defaults() {
        let JupyterMessageContent::CompleteRequest(req) =
            request(decode_json("complete_request", json!({"code": "x = dïg"})))
        else {
            panic!()
        };
        assert_eq!(req.cursor_pos, 7, "the end of the code, in code points");
        let JupyterMessageContent::InspectRequest(req) = request(decode_json(
            "inspect_request",
            json!({"code": "tf.constant", "cursor_pos": 3}),
        )) else {
            panic!()
        };
        assert_eq!((req.cursor_pos, req.detail_level), (3, Some(0)));
        let JupyterMessageContent::ShutdownRequest(req) =
            request(decode_json("shutdown_request", json!({})))
        else {
            panic!()
        };
        assert!(!req.restart);
    }

    #[test]
    fn history_request_defaults_per_access_type() {
        let h = |content: Value| match request(decode_json("history_request", content)) {
            JupyterMessageContent::HistoryRequest(h) => h,
            other => panic!("{other:?}"),
        };
        assert!(matches!(
            h(json!({"hist_access_type": "tail"})),
            HistoryRequest::Tail {
                n: 10,
                output: false,
                ..
            }
        ));
        assert!(matches!(
            h(json!({"hist_access_type": "search", "pattern": "x*", "output": true})),
            HistoryRequest::Search {
                unique: false,
                n: i32::MAX,
                output: true,
                ..
            }
        ));
        assert!(matches!(
            h(json!({"hist_access_type": "range"})),
            HistoryRequest::Range {
                session: None,
                start: 1,
                stop: 0,
                ..
            }
        ));
        let (_, p) = problem(decode_json("history_request", json!({"n": 3})));
        assert!(p.contains("hist_access_type"), "{p}");
        let (_, p) = problem(decode_json(
            "history_request",
            json!({"hist_access_type": "sideways"}),
        ));
        assert!(p.contains("\"sideways\""), "{p}");
        let (_, p) = problem(decode_json(
            "history_request",
            json!({"hist_access_type": "tail", "n": 1e12}),
        ));
        assert!(p.contains("`n` must be an integer"), "{p}");
    }

    #[test]
    fn content_that_does_not_parse_is_malformed_with_its_header_kept() {
        let (msg, p) = problem(decode_json("execute_request", json!({"code": 5})));
        assert_eq!(
            p,
            "execute_request content `code` must be a string, not the number 5"
        );
        assert_eq!(msg.header.msg_id, "m1");
        assert_eq!(msg.header.msg_type, "execute_request");
        let (_, p) = problem(decode_json("execute_request", json!({})));
        assert_eq!(p, "execute_request content has no `code`");
        let (_, p) = problem(decode_json(
            "complete_request",
            json!({"code": "x", "cursor_pos": -1}),
        ));
        assert!(p.contains("non-negative integer"), "{p}");
        let (_, p) = problem(decode_json("kernel_info_request", json!([1])));
        assert_eq!(
            p,
            "kernel_info_request content must be an object, not an array"
        );
        let (_, p) = problem(decode(raw(
            header("execute_request").to_string().as_bytes(),
            b"code = 1",
        )));
        assert!(p.starts_with("execute_request content is not JSON"), "{p}");
        let (_, p) = problem(decode_json(
            "execute_request",
            json!({"code": "x", "user_expressions": {"a": 1}}),
        ));
        assert!(
            p.contains("`user_expressions` must be an object of strings"),
            "{p}"
        );
    }

    #[test]
    fn a_header_without_its_type_or_id_is_malformed() {
        let mut h = header("execute_request");
        h.as_object_mut().unwrap().remove("msg_type");
        let (msg, p) = problem(decode(raw(h.to_string().as_bytes(), b"{}")));
        assert_eq!(p, "the header has no `msg_type`");
        assert_eq!(
            (msg.header.msg_id.as_str(), msg.header.msg_type.as_str()),
            ("m1", "")
        );
        let mut h = header("execute_request");
        h["msg_id"] = json!(7);
        let (msg, p) = problem(decode(raw(h.to_string().as_bytes(), b"{}")));
        assert_eq!(
            p,
            "the header's `msg_id` must be a non-empty string, not the number 7"
        );
        assert_eq!(msg.header.msg_type, "execute_request");
        let (_, p) = problem(decode(raw(b"[]", b"{}")));
        assert_eq!(p, "the message header must be an object, not an array");
        let (_, p) = problem(decode(raw(b"\xff", b"{}")));
        assert!(p.starts_with("the message header is not JSON"), "{p}");
        // Fields ipykernel does not need may be missing.
        let h = json!({"msg_id": "m2", "msg_type": "kernel_info_request"});
        let Incoming::Request(msg) = decode(raw(h.to_string().as_bytes(), b"{}")) else {
            panic!()
        };
        assert_eq!(msg.header.session, "");
    }

    #[test]
    fn unknown_types_decode_as_unknown_messages() {
        let content = request(decode_json("frobnicate_request", json!({"x": 1})));
        assert!(
            matches!(content, JupyterMessageContent::UnknownMessage(m) if m.msg_type == "frobnicate_request")
        );
    }
}
