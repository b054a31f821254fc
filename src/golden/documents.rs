//! Markdown files as transcripts: the ```` ```ragtag ```` fenced blocks of a `.md` file —
//! `>>>` inputs and their expected output, as in a `.rtt` file — run as one transcript.
//!
//! The Markdown is read as a transcript of the same lines: every line outside a ragtag
//! block (the fences included) becomes a comment `# md| LINE`, so line numbers in reports
//! and diffs are the Markdown file's own, the prose shows as context in a diff, and a
//! blessed transcript turns back into the Markdown by removing the prefix again.
//! (Notebooks: [`super::notebook`].)

use std::path::Path;

/// The prefix of a Markdown line outside a ragtag block, in the transcript read from it.
const MD_PREFIX: &str = "# md|";

/// The fence that opens a ragtag block (any longer run of backticks or an info string after
/// `ragtag` also opens one).
const FENCE: &str = "```";

/// True for a path whose extension is `ext`.
fn has_extension(path: &Path, ext: &str) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

/// True for a Markdown file.
pub fn is_markdown(path: &Path) -> bool {
    has_extension(path, "md") || has_extension(path, "markdown")
}

/// True for a Jupyter notebook.
pub fn is_notebook(path: &Path) -> bool {
    has_extension(path, "ipynb")
}

/// True when a fence line opens a ragtag block: ```` ```ragtag ````.
fn opens_ragtag(line: &str) -> bool {
    let t = line.trim_start();
    let info = t.trim_start_matches('`');
    t.len() - info.len() >= FENCE.len()
        && info
            .split(|c: char| c.is_whitespace() || c == ',' || c == '{')
            .next()
            .is_some_and(|w| w == "ragtag")
}

/// True when Markdown text holds at least one ragtag block (a directory search picks up
/// only such `.md` files).
pub fn has_ragtag_block(text: &str) -> bool {
    text.lines().any(opens_ragtag)
}

/// The transcript read from Markdown text: ragtag blocks as they are, every other line as
/// a `# md| ` comment.
pub fn markdown_to_transcript(text: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for line in text.split_inclusive('\n') {
        let (body, eol) = match line.strip_suffix('\n') {
            Some(b) => (b, "\n"),
            None => (line, ""),
        };
        let (body, cr) = match body.strip_suffix('\r') {
            Some(b) => (b, "\r"),
            None => (body, ""),
        };
        if inside && body.trim_start().starts_with(FENCE) {
            inside = false;
        } else if inside {
            out.push_str(body);
            out.push_str(cr);
            out.push_str(eol);
            continue;
        } else if opens_ragtag(body) {
            inside = true;
        }
        out.push_str(MD_PREFIX);
        if !body.is_empty() {
            out.push(' ');
            out.push_str(body);
        }
        out.push_str(cr);
        out.push_str(eol);
    }
    out
}

/// The Markdown a (blessed) transcript read from Markdown stands for: the `# md| ` prefixes
/// removed.
pub fn transcript_to_markdown(text: &str) -> String {
    text.split_inclusive('\n')
        .map(|line| match line.strip_prefix(MD_PREFIX) {
            Some(rest) => rest.strip_prefix(' ').unwrap_or(rest).to_string(),
            None => line.to_string(),
        })
        .collect()
}

/// The transcript text of a file: a `.rtt` as it is, the ragtag blocks of a Markdown file,
/// the code cells and outputs of a notebook.
pub fn transcript_text(path: &Path, text: String) -> std::io::Result<String> {
    if is_markdown(path) {
        Ok(markdown_to_transcript(&text))
    } else if is_notebook(path) {
        super::notebook::notebook_to_transcript(&text)
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
    } else {
        Ok(text)
    }
}

/// The file a (blessed) transcript read from `path` is written back as: Markdown with its
/// prose restored, a notebook with its code cells' outputs replaced, a `.rtt` as it is.
pub fn file_text(path: &Path, transcript: &str) -> std::io::Result<String> {
    if is_markdown(path) {
        Ok(transcript_to_markdown(transcript))
    } else if is_notebook(path) {
        let original = std::fs::read_to_string(path)?;
        super::notebook::with_outputs(&original, transcript)
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
    } else {
        Ok(transcript.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_reads_as_a_transcript_of_the_same_lines_and_back() {
        let md =
            "# Title\n\nSome prose.\n\n```ragtag\n>>> 1 + 1\n2\n```\n\n```python\n>>> 3\n```\n";
        let t = markdown_to_transcript(md);
        assert_eq!(t.lines().count(), md.lines().count());
        assert!(
            t.contains("# md| ```ragtag\n>>> 1 + 1\n2\n# md| ```\n"),
            "{t}"
        );
        assert!(t.contains("# md| >>> 3\n"), "a python block is prose: {t}");
        assert_eq!(transcript_to_markdown(&t), md);
        assert!(has_ragtag_block(md));
        assert!(!has_ragtag_block("```python\n>>> 1\n```\n"));
        let parsed = super::super::parse(&t).unwrap();
        assert_eq!(parsed.entries.len(), 1);
        assert_eq!(parsed.entries[0].line + 1, 6);
    }
}
