//! From a correctly signed message's frames to a request the kernel can answer: the header,
//! metadata and content are parsed here, the fields the messaging spec makes optional get
//! their defaults, and anything that still does not make a request becomes [`Incoming::Malformed`]
//! — which the kernel answers with an error reply instead of dropping. Replayed signatures are
//! remembered here too ([`Digests`]), as jupyter_client's `Session.digest_history` does.

use std::collections::{HashSet, VecDeque};

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

/// How many signatures are remembered to recognise replays: jupyter_client's default
/// `digest_history_size`. At 32 bytes each, in a set and a queue, that stays below about
/// 7 MB however long the kernel runs.
pub const DIGEST_HISTORY: usize = 1 << 16;

/// The signatures of the last [`DIGEST_HISTORY`] accepted messages. A signature covers the
/// header, whose msg_id is unique, so seeing one twice means the message was captured and
/// sent again.
pub struct Digests {
    seen: HashSet<[u8; 32]>,
    order: VecDeque<[u8; 32]>,
    capacity: usize,
}

impl Digests {
    pub fn new(capacity: usize) -> Digests {
        Digests {
            seen: HashSet::new(),
            order: VecDeque::new(),
            capacity: capacity.max(1),
        }
    }

    /// Records `signature` (the hex frame of a verified message); false if it was already
    /// seen — a replay. When full, the oldest signature is forgotten.
    pub fn insert(&mut self, signature: &[u8]) -> bool {
        let Some(digest) = decode_hex(signature) else {
            // Cannot happen after verification (HMAC-SHA256 is 64 hex digits); accept rather
            // than drop a message the key vouches for.
            return true;
        };
        if self.seen.contains(&digest) {
            return false;
        }
        // Forget the oldest first, so neither collection ever outgrows its capacity.
        if self.order.len() >= self.capacity {
            if let Some(old) = self.order.pop_front() {
                self.seen.remove(&old);
            }
        }
        self.seen.insert(digest);
        self.order.push_back(digest);
        true
    }
}

fn decode_hex(text: &[u8]) -> Option<[u8; 32]> {
    if text.len() != 64 {
        return None;
    }
    let digit = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    let mut out = [0u8; 32];
    for (i, pair) in text.chunks(2).enumerate() {
        out[i] = digit(pair[0])? << 4 | digit(pair[1])?;
    }
    Some(out)
}

/// A short description of a JSON value's kind, for error messages.
fn kind(v: &Value) -> String {
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

/// What kind of value a content field holds.
#[derive(Clone, Copy)]
enum Kind {
    Str,
    Bool,
    /// A non-negative integer (a cursor position, a detail level).
    Count,
    /// An integer that fits an i32 (history numbers may be negative).
    Int,
    /// An object whose values are strings (user_expressions).
    StrMap,
}

/// A content field's default when it is missing or null.
enum Fallback {
    /// The request makes no sense without it.
    Required,
    /// Left out (the typed request has an optional field).
    Absent,
    To(Value),
    /// `store_history`: true unless the request is silent.
    NotSilent,
    /// `cursor_pos`: the end of `code`, as jupyter_client's `complete` and `inspect` assume.
    EndOfCode,
}

/// The content fields of each request the kernel reads, with their kinds and defaults, after
/// the messaging spec (5.3) and what ipykernel assumes when a field is left out.
fn schema(msg_type: &str, content: &Map<String, Value>) -> Vec<(&'static str, Kind, Fallback)> {
    use Fallback::*;
    use Kind::*;
    match msg_type {
        "execute_request" => vec![
            ("code", Str, Required),
            ("silent", Bool, To(Value::from(false))),
            ("store_history", Bool, NotSilent),
            ("user_expressions", StrMap, To(Value::Object(Map::new()))),
            ("allow_stdin", Bool, To(Value::from(false))),
            ("stop_on_error", Bool, To(Value::from(true))),
        ],
        "complete_request" => vec![("code", Str, Required), ("cursor_pos", Count, EndOfCode)],
        "inspect_request" => vec![
            ("code", Str, Required),
            ("cursor_pos", Count, EndOfCode),
            ("detail_level", Count, To(Value::from(0))),
        ],
        "is_complete_request" => vec![("code", Str, Required)],
        "history_request" => {
            let mut fields = vec![
                ("hist_access_type", Str, Required),
                ("output", Bool, To(Value::from(false))),
                ("raw", Bool, To(Value::from(true))),
            ];
            // Only the fields of the access type asked for: the others may hold anything.
            match content.get("hist_access_type").and_then(Value::as_str) {
                Some("range") => fields.extend([
                    ("session", Int, Absent),
                    // IPython's `get_range` starts at the first cell and runs to the end
                    // (a stop of 0 here).
                    ("start", Int, To(Value::from(1))),
                    ("stop", Int, To(Value::from(0))),
                ]),
                // IPython's `get_tail` returns the last 10 cells by default.
                Some("tail") => fields.push(("n", Int, To(Value::from(10)))),
                Some("search") => fields.extend([
                    ("pattern", Str, To(Value::from("*"))),
                    ("unique", Bool, To(Value::from(false))),
                    // No limit.
                    ("n", Int, To(Value::from(i32::MAX))),
                ]),
                _ => {}
            }
            fields
        }
        "shutdown_request" => vec![("restart", Bool, To(Value::from(false)))],
        "comm_info_request" => vec![("target_name", Str, Absent)],
        _ => Vec::new(),
    }
}

/// Checks the content of a `msg_type` message against [`schema`] and fills in defaults.
fn complete_content(msg_type: &str, content: &mut Map<String, Value>) -> Result<(), String> {
    for (field, kind, default) in schema(msg_type, content) {
        let given = content.get(field).filter(|v| !v.is_null());
        let Some(value) = given else {
            let value = match default {
                Fallback::Required => {
                    return Err(format!("{msg_type} content has no `{field}`"));
                }
                Fallback::Absent => {
                    content.remove(field);
                    continue;
                }
                Fallback::To(v) => v,
                Fallback::NotSilent => {
                    let silent = content.get("silent").and_then(Value::as_bool);
                    Value::Bool(!silent.unwrap_or(false))
                }
                Fallback::EndOfCode => {
                    let code = content.get("code").and_then(Value::as_str).unwrap_or("");
                    Value::from(code.chars().count())
                }
            };
            content.insert(field.into(), value);
            continue;
        };
        let fits = match kind {
            Kind::Str => value.is_string(),
            Kind::Bool => value.is_boolean(),
            Kind::Count => value.as_u64().is_some_and(|n| usize::try_from(n).is_ok()),
            Kind::Int => value.as_i64().is_some_and(|n| i32::try_from(n).is_ok()),
            Kind::StrMap => value
                .as_object()
                .is_some_and(|m| m.values().all(Value::is_string)),
        };
        if !fits {
            let wanted = match kind {
                Kind::Str => "a string",
                Kind::Bool => "a boolean",
                Kind::Count => "a non-negative integer",
                Kind::Int => "an integer between -2147483648 and 2147483647",
                Kind::StrMap => "an object of strings",
            };
            return Err(format!(
                "{msg_type} content `{field}` must be {wanted}, not {}",
                kind_of_field(value)
            ));
        }
    }
    if msg_type == "history_request" {
        let access = content.get("hist_access_type").and_then(Value::as_str);
        if !matches!(access, Some("range" | "tail" | "search")) {
            return Err(format!(
                "history_request content `hist_access_type` must be \"range\", \"tail\" or \
                 \"search\", not {}",
                content
                    .get("hist_access_type")
                    .map_or("nothing".into(), |v| {
                        v.as_str().map_or_else(|| kind(v), |s| format!("{s:?}"))
                    })
            ));
        }
    }
    Ok(())
}

fn kind_of_field(v: &Value) -> String {
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
    if let Err(problem) = complete_content(&msg_type, &mut content) {
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

    #[test]
    fn digests_catch_replays_and_stay_bounded() {
        let sig = |i: u32| format!("{i:064x}").into_bytes();
        let mut d = Digests::new(4);
        assert!(d.insert(&sig(1)));
        assert!(!d.insert(&sig(1)), "a replay");
        for i in 2..=6 {
            assert!(d.insert(&sig(i)));
        }
        assert_eq!(d.order.len(), 4);
        // The oldest were forgotten; the last four are still recognised.
        assert!(d.insert(&sig(1)));
        assert!(!d.insert(&sig(6)));
        assert_eq!(d.order.len(), 4);
        assert_eq!(d.seen.len(), 4);
        assert!(
            d.order.capacity() < 8,
            "the queue never outgrows its capacity"
        );
        // At the kernel's size: three times as many messages as it remembers.
        let mut d = Digests::new(DIGEST_HISTORY);
        for i in 0..3 * DIGEST_HISTORY as u32 {
            assert!(d.insert(&sig(i)));
        }
        assert_eq!(
            (d.order.len(), d.seen.len()),
            (DIGEST_HISTORY, DIGEST_HISTORY)
        );
        assert!(d.order.capacity() <= DIGEST_HISTORY);
        assert!(!d.insert(&sig(3 * DIGEST_HISTORY as u32 - 1)));
    }
}
