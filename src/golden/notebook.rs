//! Jupyter notebooks as transcripts, and converting between the two
//! (`ragtag test --convert FILE.rtt` writes `FILE.ipynb`, `--convert FILE.ipynb` writes
//! `FILE.rtt`).
//!
//! A notebook reads as a transcript of its cells in order: a Markdown cell becomes comment
//! lines (`# ` before each line), a code cell an input (`>>> ` its first line, `... ` the
//! others; blank lines are left out, as a blank `... ` line would read as the `...`
//! wildcard) whose expected output is the text its outputs show — streams, the `text/plain`
//! of results and displays, and an error's traceback, which marks the input `# raises
//! ClassName`. Blessing a notebook rewrites the outputs of its code cells and nothing else.
//!
//! Output lines are escaped as a transcript's are (`\#`, `\...`), since a notebook's
//! outputs are literal text — except in a notebook converted from a transcript, marked
//! `"ragtag": {"transcript": true}` in its metadata, whose outputs keep the transcript's
//! lines as written, wildcards included, so the two convert back and forth unchanged.

use serde_json::{json, Value};

use super::parse::{escape, parse, unescape, Transcript};

/// A cell's source (a string or a list of strings) as one string.
fn joined(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts.iter().filter_map(Value::as_str).collect(),
        _ => String::new(),
    }
}

/// A string as a notebook stores it: a list of lines, each but the last ending in `\n`.
fn split(text: &str) -> Value {
    Value::Array(
        text.split_inclusive('\n')
            .map(|l| Value::String(l.to_string()))
            .collect(),
    )
}

/// The code lines of a cell that become an input: without blank lines.
fn code_lines(source: &str) -> Vec<&str> {
    source
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.trim().is_empty())
        .collect()
}

/// Removes terminal colour codes from a traceback line.
fn plain(line: &str) -> String {
    let mut out = String::new();
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' && chars.peek() == Some(&'[') {
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// The text a code cell's outputs show, and the class of the error among them.
fn output_text(outputs: &[Value]) -> (String, Option<String>) {
    let mut text = String::new();
    let mut error = None;
    for o in outputs {
        let piece = match o["output_type"].as_str() {
            Some("stream") => joined(&o["text"]),
            Some("execute_result" | "display_data") => joined(&o["data"]["text/plain"]),
            Some("error") => {
                error = o["ename"].as_str().map(String::from);
                let lines: Vec<String> = o["traceback"]
                    .as_array()
                    .map(|t| t.iter().filter_map(Value::as_str).map(plain).collect())
                    .unwrap_or_default();
                lines.join("\n")
            }
            _ => String::new(),
        };
        if !text.is_empty() && !text.ends_with('\n') && !piece.is_empty() {
            text.push('\n');
        }
        text.push_str(&piece);
    }
    (text, error)
}

/// True for a notebook converted from a transcript: its outputs are written as in one.
fn as_written(nb: &Value) -> bool {
    nb["metadata"]["ragtag"]["transcript"] == true
}

fn cells(nb: &Value) -> Result<&Vec<Value>, String> {
    nb["cells"]
        .as_array()
        .ok_or_else(|| "not a Jupyter notebook (no \"cells\" list)".to_string())
}

/// The transcript a notebook's text reads as.
pub fn notebook_to_transcript(text: &str) -> Result<String, String> {
    let nb: Value = serde_json::from_str(text).map_err(|e| format!("not a notebook: {e}"))?;
    let raw = as_written(&nb);
    let mut out = String::new();
    for cell in cells(&nb)? {
        let source = joined(&cell["source"]);
        match cell["cell_type"].as_str() {
            Some("markdown") => {
                for line in source.lines() {
                    let line = line.trim_end();
                    out.push_str(if line.is_empty() { "#" } else { "# " });
                    out.push_str(line);
                    out.push('\n');
                }
            }
            Some("code") => {
                let code = code_lines(&source);
                let Some((first, rest)) = code.split_first() else {
                    continue;
                };
                let outputs = cell["outputs"].as_array().cloned().unwrap_or_default();
                let (shown, error) = output_text(&outputs);
                out.push_str(">>> ");
                out.push_str(first);
                if let Some(class) = error.filter(|_| !first.contains("# raises")) {
                    out.push_str(&format!("  # raises {class}"));
                }
                out.push('\n');
                for l in rest {
                    out.push_str("... ");
                    out.push_str(l);
                    out.push('\n');
                }
                let lines: Vec<&str> = shown.lines().collect();
                let keep = lines
                    .iter()
                    .rposition(|l| !l.trim().is_empty())
                    .map_or(0, |i| i + 1);
                for l in &lines[..keep] {
                    let l = l.trim_end();
                    out.push_str(&if raw { l.to_string() } else { escape(l) });
                    out.push('\n');
                }
                out.push('\n');
            }
            _ => {}
        }
    }
    Ok(out)
}

/// The outputs of a code cell whose expected output (as written in a transcript) is
/// `lines`: an error with those lines as its traceback when the input is marked `# raises`,
/// else one stream of text (none when there is no output).
fn outputs_of(t: &Transcript, k: usize, raw: bool) -> Value {
    let entry = &t.entries[k];
    let lines: Vec<String> = t
        .expected_raw(entry)
        .iter()
        .map(|l| {
            if raw {
                l.clone()
            } else {
                unescape(l).to_string()
            }
        })
        .collect();
    if let Some(class) = &entry.raises {
        return json!([{
            "ename": class,
            "evalue": "",
            "output_type": "error",
            "traceback": lines,
        }]);
    }
    if lines.is_empty() {
        return json!([]);
    }
    json!([{
        "name": "stdout",
        "output_type": "stream",
        "text": split(&format!("{}\n", lines.join("\n"))),
    }])
}

/// A notebook's text with the outputs of its code cells replaced by the expected outputs
/// of the (blessed) transcript read from it.
pub fn with_outputs(original: &str, transcript: &str) -> Result<String, String> {
    let mut nb: Value =
        serde_json::from_str(original).map_err(|e| format!("not a notebook: {e}"))?;
    let t = parse(transcript).map_err(|e| e.to_string())?;
    let raw = as_written(&nb);
    let cells = nb["cells"]
        .as_array_mut()
        .ok_or_else(|| "not a Jupyter notebook (no \"cells\" list)".to_string())?;
    let mut k = 0;
    for cell in cells.iter_mut() {
        if cell["cell_type"] != "code" || code_lines(&joined(&cell["source"])).is_empty() {
            continue;
        }
        if k >= t.entries.len() {
            return Err("the notebook has more code cells than its transcript".into());
        }
        cell["outputs"] = outputs_of(&t, k, raw);
        k += 1;
    }
    let mut text = serde_json::to_string_pretty(&nb).map_err(|e| e.to_string())?;
    text.push('\n');
    Ok(text)
}

/// The notebook a transcript's text converts to: its comments as Markdown cells, each
/// input a code cell with its expected output, for the ragtag kernel.
pub fn transcript_to_notebook(text: &str) -> Result<String, String> {
    let t = parse(text).map_err(|e| e.to_string())?;
    let mut cells = Vec::new();
    let mut markdown: Vec<String> = Vec::new();
    let flush = |markdown: &mut Vec<String>, cells: &mut Vec<Value>| {
        if !markdown.is_empty() {
            cells.push(json!({
                "cell_type": "markdown",
                "id": format!("cell-{:03}", cells.len() + 1),
                "metadata": {},
                "source": split(&markdown.join("\n")),
            }));
            markdown.clear();
        }
    };
    let mut i = 0;
    let mut k = 0;
    while i < t.lines.len() {
        if let Some(entry) = t.entries.get(k).filter(|e| e.line == i) {
            flush(&mut markdown, &mut cells);
            let source: Vec<&str> = t.lines[entry.line..entry.output.start]
                .iter()
                .map(|l| {
                    l.strip_prefix(">>> ")
                        .or_else(|| l.strip_prefix("... "))
                        .or_else(|| l.strip_prefix(">>>"))
                        .or_else(|| l.strip_prefix("..."))
                        .unwrap_or(l)
                })
                .collect();
            cells.push(json!({
                "cell_type": "code",
                "execution_count": k + 1,
                "id": format!("cell-{:03}", cells.len() + 1),
                "metadata": {},
                "outputs": outputs_of(&t, k, true),
                "source": split(&source.join("\n")),
            }));
            i = entry.output.end;
            k += 1;
            continue;
        }
        let line = &t.lines[i];
        if let Some(comment) = line.strip_prefix('#') {
            markdown.push(comment.strip_prefix(' ').unwrap_or(comment).to_string());
        } else {
            flush(&mut markdown, &mut cells);
        }
        i += 1;
    }
    flush(&mut markdown, &mut cells);
    let nb = json!({
        "cells": cells,
        "metadata": {
            "kernelspec": {"display_name": "ragtag", "language": "python", "name": "ragtag"},
            "language_info": {"name": "python"},
            "ragtag": {"transcript": true},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    });
    let mut text = serde_json::to_string_pretty(&nb).map_err(|e| e.to_string())?;
    text.push('\n');
    Ok(text)
}

/// `ragtag test --convert FILE`: writes `FILE.ipynb` from `FILE.rtt`, or `FILE.rtt` from
/// `FILE.ipynb`, beside it; an existing file of that name is left alone (an error).
pub fn convert(path: &std::path::Path) -> Result<std::path::PathBuf, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let (converted, ext) = if super::documents::is_notebook(path) {
        (notebook_to_transcript(&text), super::EXTENSION)
    } else if path.extension().is_some_and(|e| e == super::EXTENSION) {
        (transcript_to_notebook(&text), "ipynb")
    } else {
        return Err(format!(
            "{}: --convert takes a transcript (.rtt) or a notebook (.ipynb)",
            path.display()
        ));
    };
    let converted = converted.map_err(|e| format!("{}: {e}", path.display()))?;
    let target = path.with_extension(ext);
    if target.exists() {
        return Err(format!(
            "{} exists; it is left as it is (move it away to convert again)",
            target.display()
        ));
    }
    super::write_atomic(&target, &converted).map_err(|e| format!("{}: {e}", target.display()))?;
    Ok(target)
}

/// [`convert`] for the command line: says what it wrote, or why not.
pub fn run_convert(path: &std::path::Path) -> std::process::ExitCode {
    match convert(path) {
        Ok(target) => {
            println!("wrote {}", target.display());
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("ragtag: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_transcript_round_trips_through_a_notebook() {
        let rtt = "# A title\n# ragtag: rtol=1e-3\n>>> x = 1\n\n>>> for i in range(2):\n...     print(i)\n0\n1\n\n# More prose\n>>> y  # raises NameError\n  × NameError: name 'y' is not defined\n...\n\n>>> print('# not a comment')\n\\# not a comment\n\n";
        let nb = transcript_to_notebook(rtt).unwrap();
        let back = notebook_to_transcript(&nb).unwrap();
        assert_eq!(back, rtt);
        // Blessing writes the outputs back into the cells.
        let blessed = rtt.replace("0\n1\n", "0\n2\n");
        let again = with_outputs(&nb, &blessed).unwrap();
        assert_eq!(notebook_to_transcript(&again).unwrap(), blessed);
    }
}
