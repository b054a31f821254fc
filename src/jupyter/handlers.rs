//! What the kernel answers: kernel_info, is_complete, complete, inspect, and execute — which
//! streams a cell's printed text and displayed values to IOPub in the order they happen.

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};

use jupyter_protocol::{
    ClearOutput, CodeMirrorMode, CompleteReply, DisplayData, ErrorOutput, ExecuteInput,
    ExecuteReply, ExecuteResult, ExecutionCount, InspectReply, IsCompleteReply, JupyterMessage,
    KernelInfoReply, LanguageInfo, Media, MediaType, Payload, ReplyError, ReplyStatus,
    StreamContent, Transient,
};
use ragtag::command::{self, Outcome};
use ragtag::diagnostic::Style;
use ragtag::eval::Sink;
use ragtag::render::grid::Display;
use ragtag::render::{self, html, json, table, Format, Options};
use ragtag::syntax::{completeness, Completeness};
use ragtag::value::Value;
use ragtag::Session;

use super::Publisher;

/// The MIME type of DESIGN's JSON object for a value. It is not `application/json` because
/// JupyterLab, Notebook 7 and VS Code all rank `application/json` above `text/html` and would
/// show a JSON tree instead of the table; `:format json` adds `application/json` on purpose.
pub const RAGTAG_JSON: &str = "application/vnd.ragtag+json";

/// Width of tables and diagnostics in notebooks, where the output area is about as wide as a
/// terminal.
const WIDTH: usize = 100;

/// The reply to kernel_info_request (on shell and on control).
pub fn kernel_info() -> KernelInfoReply {
    KernelInfoReply {
        status: ReplyStatus::Ok,
        protocol_version: "5.3".into(),
        implementation: "ragtag".into(),
        implementation_version: env!("CARGO_PKG_VERSION").into(),
        // The language is Python-shaped, so frontends highlight it as Python.
        language_info: LanguageInfo {
            name: "python".into(),
            version: "3".into(),
            mimetype: Some("text/x-python".into()),
            file_extension: Some(".py".into()),
            pygments_lexer: Some("python3".into()),
            codemirror_mode: Some(CodeMirrorMode::CustomMode {
                name: "python".into(),
                version: 3,
            }),
            nbconvert_exporter: Some("python".into()),
        },
        banner: format!(
            "ragtag {} — ragged, sparse and LoD tensors with TensorFlow's names.\n\
             :help lists the commands and builtins; Shift-Tab on a name shows its help.",
            env!("CARGO_PKG_VERSION")
        ),
        help_links: Vec::new(),
        debugger: false,
        error: None,
    }
}

/// The reply to is_complete_request.
pub fn is_complete(code: &str) -> IsCompleteReply {
    if command::cell::is_line_command(code) {
        return IsCompleteReply::complete();
    }
    if command::help_query(code).is_some() {
        return IsCompleteReply::complete();
    }
    match completeness(code) {
        Completeness::Complete => IsCompleteReply::complete(),
        // As Python's console: `1 +` is invalid at once, not a wait for more.
        Completeness::Incomplete
            if !command::continuation::continues(code.trim_end_matches('\n')) =>
        {
            IsCompleteReply::invalid()
        }
        Completeness::Incomplete => IsCompleteReply::incomplete(indent_hint(code)),
        Completeness::Invalid => IsCompleteReply::invalid(),
    }
}

/// The indentation the next line of an incomplete input starts with, as IPython suggests
/// it: four more spaces after a block header (`if x:`), else the last line's own.
fn indent_hint(code: &str) -> String {
    let Some(last) = code.lines().rev().find(|l| !l.trim().is_empty()) else {
        return String::new();
    };
    let indent = last.len() - last.trim_start_matches([' ', '\t']).len();
    let mut hint = last[..indent].to_string();
    let code_part = last.split('#').next().unwrap_or(last).trim_end();
    if code_part.ends_with(':') {
        hint.push_str("    ");
    }
    hint
}

/// The reply to complete_request (`cursor` in code points).
pub fn complete(session: &Session, code: &str, cursor: usize) -> CompleteReply {
    let (matches, cursor_start, cursor_end) = super::complete::complete(session, code, cursor);
    CompleteReply {
        matches,
        cursor_start,
        cursor_end,
        ..Default::default()
    }
}

/// The reply to inspect_request: the help of the builtin or name under the cursor; for a
/// name holding a value, its kind, then its header and how it is stored.
pub fn inspect(session: &Session, code: &str, cursor: usize) -> InspectReply {
    match super::complete::inspect(session, code, cursor) {
        Some(text) => InspectReply {
            found: true,
            data: Media::new(vec![MediaType::Plain(text)]),
            ..Default::default()
        },
        None => InspectReply::default(),
    }
}

/// Whether a value is shown as a table (tensors of every kind, or tuples, lists and dicts
/// holding them);
/// numbers, strings, shapes and dtypes say everything in their text form.
fn has_table(v: &Value) -> bool {
    match v {
        Value::Array(_) | Value::Sparse(_) | Value::Lod(_) => true,
        Value::List(_) => {
            v.is_literal_display() || ragtag::value::subscript_items(v).iter().any(has_table)
        }
        Value::Tuple(items) => items.iter().any(has_table),
        // A dict of tensors (what reading several Parquet columns gives): a table per key.
        Value::Dict(d) => d.values().iter().any(has_table),
        _ => false,
    }
}

/// The MIME bundle of a displayed value.
pub fn media(v: &Value, format: Format, opts: &Options) -> Media {
    // A picture's text form is the value's table, not the SVG source.
    let plain = if format == Format::Svg {
        Format::Table
    } else {
        format
    };
    let mut content = vec![MediaType::Plain(render::render(v, plain, opts))];
    match format {
        Format::Table | Format::Html => {
            if has_table(v) {
                content.push(MediaType::Html(html::to_html(v, opts)));
            }
        }
        Format::Json => content.push(MediaType::Json(json::to_json(v))),
        Format::Svg => content.push(MediaType::Svg(render::svg::to_svg(v))),
        Format::Tf => {}
    }
    content.push(MediaType::Other((RAGTAG_JSON.into(), json::to_json(v))));
    Media::new(content)
}

/// The width help text printed into a notebook is wrapped to: a notebook's output area
/// breaks longer lines wherever they reach its edge, mid-word.
const HELP_WIDTH: usize = 80;

/// Sends what a cell produces to IOPub as it happens. A displayed value is held back until the
/// next output or the end of the cell: the last one becomes the cell's `execute_result`, the
/// others `display_data`, so the order on IOPub is exactly the order of the cell.
struct KernelSink<'a> {
    out: &'a Publisher,
    parent: &'a JupyterMessage,
    format: Format,
    options: Options,
    pending: Option<Value>,
    /// A `silent` request publishes nothing.
    silent: bool,
    /// Help pages (`x?`, `x??`) for the pager, sent in the execute_reply's payload.
    pages: Vec<String>,
    /// The cell's new contents (`%load FILE`), sent as a `set_next_input` payload.
    next_input: Option<String>,
}

impl KernelSink<'_> {
    /// The media of a displayed value, drawn on an evaluation thread (whose stack is checked
    /// while drawing deeply nested values); a failure to draw is shown as text.
    fn draw(&self, v: Value) -> Media {
        let (format, options) = (self.format, self.options);
        ragtag::guard::run(move || media(&v, format, &options)).unwrap_or_else(|crash| {
            Media::new(vec![MediaType::Plain(format!(
                "InternalError: ragtag failed to draw this value (a bug): {}",
                crash.message
            ))])
        })
    }

    fn flush_display(&mut self) {
        if let Some(v) = self.pending.take() {
            let data = self.draw(v);
            self.out.send(DisplayData::new(data), self.parent);
        }
    }
    fn finish(&mut self, count: usize) {
        if let Some(v) = self.pending.take() {
            let result = ExecuteResult {
                execution_count: ExecutionCount::new(count),
                data: self.draw(v),
                metadata: Default::default(),
                // `{}` rather than null: the message schema wants an object.
                transient: Some(Transient::default()),
            };
            self.out.send(result, self.parent);
        }
    }
}

impl Sink for KernelSink<'_> {
    fn display(&mut self, value: &Value) {
        if self.silent {
            return;
        }
        self.flush_display();
        self.pending = Some(value.clone());
    }
    fn print(&mut self, text: &str) {
        self.flush_display();
        if !text.is_empty() && !self.silent {
            self.out.send(StreamContent::stdout(text), self.parent);
        }
    }
    fn print_stderr(&mut self, text: &str) {
        self.flush_display();
        if !text.is_empty() && !self.silent {
            self.out.send(StreamContent::stderr(text), self.parent);
        }
    }
    /// `help(x)` prints its page, as IPython's does, so a notebook keeps it (one run
    /// headless by nbclient too); `x?` has the pager.
    fn page(&mut self, text: &str) {
        self.print(&command::signature::wrap_help(text, HELP_WIDTH));
    }
    /// `input()` cannot ask the notebook for a line: this kernel sends no input_request.
    fn input(&mut self, _prompt: &str) -> Result<Option<String>, ragtag::diagnostic::Error> {
        Err(ragtag::diagnostic::Error::new(
            ragtag::engine::ExceptionClass::RuntimeError,
            "input() cannot read a line in the Jupyter kernel: ragtag's kernel does not ask \
             the notebook for input",
        )
        .with_hint("set the value in the cell instead, or run the code with `ragtag run`, whose input() reads standard input"))
    }
    /// `%load FILE` replaces the cell, as IPython's `set_next_input(replace=True)` does.
    fn next_input(&mut self, text: &str) -> bool {
        self.next_input = Some(text.to_string());
        true
    }
    /// `display(x)` is display_data at once, never the cell's execute_result.
    fn display_now(&mut self, value: &Value) {
        self.flush_display();
        if !self.silent {
            let data = self.draw(value.clone());
            self.out.send(DisplayData::new(data), self.parent);
        }
    }
    fn clear_output(&mut self, wait: bool) {
        self.flush_display();
        if !self.silent {
            self.out.send(ClearOutput { wait }, self.parent);
        }
    }
    fn render_options(&self) -> Options {
        self.options
    }
    fn restyle(&mut self, format: Format, options: &Options) {
        // A value held back was produced under the old settings.
        self.flush_display();
        (self.format, self.options) = (format, *options);
    }
    /// An explanation becomes display_data: the HTML table, with the text table as its
    /// plain-text form.
    fn show(&mut self, display: &Display, opts: &Options) {
        self.flush_display();
        if self.silent {
            return;
        }
        let data = Media::new(vec![
            MediaType::Plain(table::to_text(display, opts)),
            MediaType::Html(html::display_html(display)),
        ]);
        self.out.send(DisplayData::new(data), self.parent);
    }
    /// A picture becomes display_data: the SVG, with the value's table as plain text.
    fn picture(&mut self, svg: &str, text: &str) {
        self.flush_display();
        if !self.silent {
            let data = Media::new(vec![
                MediaType::Plain(text.to_string()),
                MediaType::Svg(svg.to_string()),
            ]);
            self.out.send(DisplayData::new(data), self.parent);
        }
    }
}

/// The text of a panic's payload.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into())
}

/// Runs one execute_request's code in the session, publishing its input, outputs and any error
/// on IOPub, and returns the execute_reply. A panic becomes an error; the kernel lives on.
pub fn execute(
    session: &mut Session,
    code: &str,
    silent: bool,
    parent: &JupyterMessage,
    out: &Publisher,
) -> ExecuteReply {
    // A silent request is not numbered: IPython leaves the counter alone for them too.
    let count = session.execution_count() + usize::from(!silent);
    if !silent {
        out.send(
            ExecuteInput {
                code: code.to_string(),
                execution_count: ExecutionCount::new(count),
            },
            parent,
        );
    }
    let mut sink = KernelSink {
        out,
        parent,
        format: session.format,
        options: session.options,
        pending: None,
        silent,
        pages: Vec::new(),
        next_input: None,
    };
    let mut run = |session: &mut Session| {
        catch_unwind(AssertUnwindSafe(|| {
            if let Some((expr, detailed)) = command::help_query(code) {
                let page = command::help_page(session, expr, detailed, &mut sink)?;
                sink.pages.push(page);
                return Ok(());
            }
            // Code, with any meta-command, magic or shell lines run where they stand.
            match command::cell::run_cell(session, code, None, &mut sink)? {
                // An empty text must not flush the value held back as the cell's result.
                Outcome::Text(text) if text.is_empty() => {}
                Outcome::Text(text) => sink.print(&text),
                Outcome::Quit => sink.print("use the frontend's Shut Down to stop the kernel\n"),
            }
            Ok(())
        }))
    };
    let result = if silent {
        session.silently(run)
    } else {
        run(session)
    };
    let error = match result {
        Ok(Ok(())) => {
            sink.finish(count);
            None
        }
        Ok(Err(e)) => {
            sink.flush_display();
            let report = session.render_error(&e, Style::Plain, WIDTH);
            Some(ReplyError {
                ename: e.class.name().to_string(),
                evalue: e.message.clone(),
                traceback: report.trim_end().lines().map(str::to_string).collect(),
            })
        }
        Err(payload) => {
            sink.flush_display();
            let msg = panic_message(&*payload);
            Some(ReplyError {
                ename: "InternalError".into(),
                evalue: format!("ragtag failed inside: {msg}"),
                traceback: vec![
                    format!("InternalError: ragtag failed inside: {msg}"),
                    "This is a bug in ragtag, not in your code; the kernel is still running."
                        .into(),
                ],
            })
        }
    };
    // Jupyter's pager shows one page.
    let mut payload = if sink.pages.is_empty() || silent {
        Vec::new()
    } else {
        vec![Payload::Page {
            data: Media::new(vec![MediaType::Plain(sink.pages.join("\n"))]),
            start: 0,
        }]
    };
    if let Some(text) = sink.next_input.take().filter(|_| !silent) {
        payload.push(Payload::SetNextInput {
            text,
            replace: true,
        });
    }
    match error {
        None => ExecuteReply {
            status: ReplyStatus::Ok,
            execution_count: ExecutionCount::new(count),
            payload,
            user_expressions: Some(HashMap::new()),
            error: None,
        },
        Some(err) => {
            if !silent {
                out.send(
                    ErrorOutput {
                        ename: err.ename.clone(),
                        evalue: err.evalue.clone(),
                        traceback: err.traceback.clone(),
                    },
                    parent,
                );
            }
            ExecuteReply {
                status: ReplyStatus::Error,
                execution_count: ExecutionCount::new(count),
                payload: Vec::new(),
                user_expressions: Some(HashMap::new()),
                error: Some(Box::new(err)),
            }
        }
    }
}

/// The reply to an execute_request skipped because an earlier cell failed.
pub fn aborted(count: usize) -> ExecuteReply {
    ExecuteReply {
        status: ReplyStatus::Aborted,
        execution_count: ExecutionCount::new(count),
        payload: Vec::new(),
        user_expressions: Some(HashMap::new()),
        error: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn is_complete_follows_the_parser() {
        use jupyter_protocol::IsCompleteReplyStatus as S;
        assert_eq!(is_complete("1 + 2").status, S::Complete);
        assert_eq!(is_complete("x = [1,").status, S::Incomplete);
        assert_eq!(is_complete("x ]").status, S::Invalid);
        assert_eq!(is_complete(":vars").status, S::Complete);
        assert_eq!(is_complete("rt?").status, S::Complete);
        assert_eq!(is_complete("1 +").status, S::Invalid);
        let r = is_complete("for i in range(3):");
        assert_eq!((r.status, r.indent.as_str()), (S::Incomplete, "    "));
        let r = is_complete("if x:\n    y = [1,");
        assert_eq!((r.status, r.indent.as_str()), (S::Incomplete, "    "));
        assert_eq!(is_complete("x = [1,").indent, "");
    }

    #[test]
    fn media_has_table_html_and_json() {
        let mut s = Session::new();
        let mut sink = ragtag::session::Collect::default();
        s.execute("tf.ragged.constant([[1, 2], []])", &mut sink)
            .unwrap();
        let Some(ragtag::session::Output::Value(v)) = sink.outputs.pop() else {
            panic!()
        };
        let m = serde_json::to_value(media(&v, Format::Table, &Options::default())).unwrap();
        assert!(m["text/plain"].as_str().unwrap().contains("RaggedTensor"));
        assert!(m["text/html"].as_str().unwrap().contains("<table"));
        assert_eq!(m[RAGTAG_JSON]["kind"], "ragged");
        assert!(m.get("application/json").is_none());
        let m = serde_json::to_value(media(&Value::Int(3), Format::Table, &Options::default()))
            .unwrap();
        assert_eq!(m["text/plain"], "3");
        assert!(m.get("text/html").is_none());
        // A dict of tensors and a list of tensors: an HTML table per entry, not box text.
        for code in [
            "{'a': tf.constant([1, 2]), 'b': tf.ragged.constant([[1], []])}",
            "x = tf.constant([1])\n[x, x]",
        ] {
            s.execute(code, &mut sink).unwrap();
            let Some(ragtag::session::Output::Value(v)) = sink.outputs.pop() else {
                panic!("{code}")
            };
            let m = serde_json::to_value(media(&v, Format::Table, &Options::default())).unwrap();
            let html = m["text/html"].as_str().unwrap_or_default();
            assert!(html.matches("<table").count() >= 2, "{code}: {m}");
        }
    }
}
