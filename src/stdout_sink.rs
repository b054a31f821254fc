//! The sink of `ragtag run` and `-c`: displayed values and printed text go to standard
//! output as they happen, and `input()` reads standard input.

use std::io::Write;

use ragtag::eval::Sink;
use ragtag::render::{json, Format, Options};
use ragtag::value::Value;

/// Writes displayed values and printed text to standard output as they happen.
pub(crate) struct StdoutSink {
    pub(crate) format: Format,
    pub(crate) options: Options,
}

impl Sink for StdoutSink {
    fn shows_none(&self) -> bool {
        self.format == Format::Json
    }
    fn display(&mut self, value: &Value) {
        let text = ragtag::render::render(value, self.format, &self.options);
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{text}");
    }
    fn print(&mut self, text: &str) {
        let mut out = std::io::stdout().lock();
        if self.format == Format::Json {
            let _ = writeln!(out, "{}", json::print_json(text));
        } else {
            let _ = write!(out, "{text}");
        }
    }
    fn render_options(&self) -> Options {
        self.options
    }
    fn picture(&mut self, svg: &str, text: &str) {
        if self.format == Format::Svg {
            self.print(svg);
        } else {
            let note = ragtag::render::svg::TEXT_NOTE;
            self.print(&format!("{text}\n{note}\n"));
        }
    }
    fn print_stderr(&mut self, text: &str) {
        let _ = std::io::stdout().flush();
        let _ = write!(std::io::stderr().lock(), "{text}");
    }
    fn input(&mut self, prompt: &str) -> Result<Option<String>, ragtag::diagnostic::Error> {
        if self.format == Format::Json {
            self.print(prompt);
            return ragtag::eval::read_stdin_line("");
        }
        ragtag::eval::read_stdin_line(prompt)
    }
    fn restyle(&mut self, format: Format, options: &Options) {
        (self.format, self.options) = (format, *options);
    }
}
