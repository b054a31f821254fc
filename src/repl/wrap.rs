//! Word wrapping for text the REPL prints itself (help pages, `:help`): lines longer than
//! the terminal break between words, each continuation indented under its line's text, so
//! the terminal never cuts a word in two. Prose ([`reflow`]: lesson explanations, `:help`,
//! help pages) is re-wrapped as paragraphs to the terminal's width, with no hanging indent.

use unicode_width::UnicodeWidthStr;

/// `text` with every line wider than `width` columns broken at spaces. A continuation
/// starts at the line's own indentation plus four columns (at most half the width); a
/// single word wider than the room left stays whole on a line of its own.
pub fn wrap(text: &str, width: usize) -> String {
    let width = width.max(20);
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if line.width() <= width {
            out.push_str(line);
            continue;
        }
        let body = line.trim_start_matches(' ');
        let indent = line.len() - body.len();
        let hang: String = std::iter::repeat_n(' ', (indent + 4).min(width / 2)).collect();
        let mut used = indent;
        out.push_str(&line[..indent]);
        // Each word with the spaces before it; the spaces go where a line breaks.
        let mut rest = body;
        let mut first = true;
        while !rest.is_empty() {
            let gap = rest.len() - rest.trim_start_matches(' ').len();
            let after = &rest[gap..];
            let end = after.find(' ').unwrap_or(after.len());
            let word = &after[..end];
            rest = &after[end..];
            if word.is_empty() {
                break;
            }
            let w = word.width();
            if !first && used + gap + w > width {
                out.push('\n');
                out.push_str(&hang);
                used = hang.len();
            } else {
                out.extend(std::iter::repeat_n(' ', gap));
                used += gap;
            }
            out.push_str(word);
            used += w;
            first = false;
        }
    }
    out
}

/// Whether `line` reads as prose a paragraph may run on with: it starts at the margin with
/// a letter, a digit or an opening quote, bracket or backtick, and has no box-drawing
/// characters nor runs of spaces (the columns of a table, an aligned listing).
fn is_prose(line: &str) -> bool {
    let t = line.trim_end();
    let Some(first) = t.chars().next() else {
        return false;
    };
    (first.is_alphanumeric() || "`(\"'*_".contains(first) || list_marker(t).is_some())
        && !t.starts_with(">>>")
        && !t.starts_with("...")
        && !t.contains("  ")
        && !t.chars().any(|c| ('\u{2500}'..='\u{259f}').contains(&c))
}

/// The width of a list item's marker (`- `, `* `, `1. `, `12) `), None for other lines.
fn list_marker(line: &str) -> Option<usize> {
    if line.starts_with("- ") || line.starts_with("* ") {
        return Some(2);
    }
    let digits = line.len() - line.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = &line[digits..];
    (digits > 0 && digits < 4 && (rest.starts_with(". ") || rest.starts_with(") ")))
        .then_some(digits + 2)
}

/// `words` laid out in lines of at most `width` columns: the first after `first`, the
/// others after `rest` (a list item's continuation lines sit under its text).
fn fill(words: &[&str], first: &str, rest: &str, width: usize, out: &mut Vec<String>) {
    let mut line = String::from(first);
    let mut used = first.width();
    let mut empty = true;
    for w in words {
        let ww = w.width();
        if !empty && used + 1 + ww > width {
            out.push(std::mem::replace(&mut line, rest.to_string()));
            used = rest.width();
            empty = true;
        }
        if !empty {
            line.push(' ');
            used += 1;
        }
        line.push_str(w);
        used += ww;
        empty = false;
    }
    out.push(line);
}

/// How wide a line of prose is when the line after it continues its paragraph.
const RUNS_ON: usize = 60;

/// `text` with its prose re-wrapped to `width` columns: consecutive prose lines (see
/// [`is_prose`], each but the last at least [`RUNS_ON`] wide) are one paragraph, filled with no hanging indent; a blank line or a list
/// item (`- `, `1. `) starts a new one, and a list item's lines sit under its text. Every
/// other line (indented code, examples, tables) stays as it is, broken by [`wrap`] only
/// when wider than the terminal. A paragraph is one paragraph at any width.
pub fn reflow(text: &str, width: usize) -> String {
    let width = width.max(20);
    let mut out: Vec<String> = Vec::new();
    // The paragraph being gathered: its words and its list marker (with the spaces after).
    let mut words: Vec<&str> = Vec::new();
    let mut marker = String::new();
    // Whether the last line read was wide enough for the next to continue it: prose is
    // written about ninety columns wide, so a short line (a title, `x: value` lines of a
    // listing) ends its paragraph.
    let mut runs_on = false;
    let flush = |words: &mut Vec<&str>, marker: &mut String, out: &mut Vec<String>| {
        if !words.is_empty() {
            let hang: String = std::iter::repeat_n(' ', marker.width()).collect();
            fill(words, marker, &hang, width, out);
            words.clear();
        }
        marker.clear();
    };
    for line in text.split('\n') {
        let item_rest = (!marker.is_empty() && !words.is_empty())
            .then(|| {
                line.strip_prefix(&std::iter::repeat_n(' ', marker.width()).collect::<String>())
            })
            .flatten()
            .filter(|r| is_prose(r) && list_marker(r).is_none());
        let wide = line.width() >= RUNS_ON;
        if let Some(r) = item_rest.filter(|_| runs_on) {
            words.extend(r.split_whitespace());
        } else if is_prose(line) {
            if !runs_on {
                flush(&mut words, &mut marker, &mut out);
            }
            if let Some(m) = list_marker(line) {
                flush(&mut words, &mut marker, &mut out);
                marker = line[..m].to_string();
                words.extend(line[m..].split_whitespace());
            } else {
                words.extend(line.split_whitespace());
            }
        } else {
            flush(&mut words, &mut marker, &mut out);
            out.push(wrap(line.trim_end(), width));
        }
        runs_on = wide;
    }
    flush(&mut words, &mut marker, &mut out);
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::{reflow, wrap};

    const LESSON: &str = "Lesson 1: constructing ragged tensors\n\nA ragged tensor is a tensor whose rows may have different lengths. The simplest way to make\none is tf.ragged.constant, which takes a nested Python list. ragtag shows it as a table: one\ntable row per tensor row, its length, and its values; cells past a row's end are absent (·),\nbecause nothing is stored here.\n\n    code = stays(as, written)\n- a list item that goes on for a while, long enough to need a second line at sixty\n- another\n1. numbered\n";

    #[test]
    fn a_paragraph_is_one_paragraph_at_every_width() {
        for width in [40, 60, 80, 200] {
            let got = reflow(LESSON, width);
            for line in got.lines() {
                assert!(line.chars().count() <= width, "{line:?} at {width}:\n{got}");
            }
            let paras: Vec<&str> = got.split("\n\n").collect();
            assert_eq!(paras.len(), 3, "at {width}:\n{got}");
            assert!(
                paras[1].lines().all(|l| !l.starts_with(' ')),
                "no hanging indent at {width}:\n{got}"
            );
            assert_eq!(
                paras[1].split_whitespace().collect::<Vec<_>>(),
                LESSON
                    .split("\n\n")
                    .nth(1)
                    .unwrap()
                    .split_whitespace()
                    .collect::<Vec<_>>()
            );
            assert!(got.contains("\n    code = stays(as, written)\n"), "{got}");
            assert!(got.contains("\n- another\n1. numbered\n"), "{got}");
            assert!(got.ends_with('\n'));
        }
        // At 400 columns each paragraph is one line; at 60 the list item's second line
        // sits under its text.
        let wide = reflow(LESSON, 400);
        assert_eq!(
            wide.split("\n\n").nth(1).unwrap().lines().count(),
            1,
            "{wide}"
        );
        let narrow = reflow(LESSON, 60);
        assert!(narrow.contains("\n  a second line at sixty\n"), "{narrow}");
    }

    #[test]
    fn tables_examples_and_listings_stay_as_written() {
        let text = "tf.ragged.constant(pylist, dtype=None)\n\nA ragged tensor.\n\nExamples:\n  >>> tf.ragged.constant([[1], []])\nRaggedTensor  dtype=int32  shape=[2, None]\n┌─────┬─────┐\n│ row ┆ len │\n>>> x = 1\n";
        let got = reflow(text, 80);
        assert_eq!(got, text);
    }

    #[test]
    fn an_indented_line_continues_a_list_item() {
        let item = "- one two three four five six seven eight nine ten eleven twelve";
        let got = reflow(&format!("{item}\n  thirteen\n\nnext\n"), 200);
        assert_eq!(got, format!("{item} thirteen\n\nnext\n"));
    }

    #[test]
    fn short_lines_end_their_paragraph() {
        let text = "a RaggedTensor value; `help(name)` describes a builtin\ntf.RaggedTensor members: values, row_splits\n";
        assert_eq!(reflow(text, 80), text);
    }

    #[test]
    fn long_lines_break_between_words_under_their_indent() {
        let text = "  :set rows=N width=N unicode=on|off   table limits and style\nshort\n";
        let got = wrap(text, 30);
        for line in got.lines() {
            assert!(line.chars().count() <= 30, "{line:?} in\n{got}");
        }
        assert_eq!(
            got.split_whitespace().collect::<Vec<_>>(),
            text.split_whitespace().collect::<Vec<_>>()
        );
        assert!(
            got.contains("unicode=on|off   table"),
            "inner spacing kept: {got}"
        );
        assert!(
            got.lines().nth(1).is_some_and(|l| l.starts_with("      ")),
            "{got}"
        );
        assert!(got.ends_with("short\n"));
    }

    #[test]
    fn short_lines_and_long_words_stay_whole() {
        assert_eq!(wrap("a b\n", 40), "a b\n");
        let word: String = std::iter::repeat_n('x', 50).collect();
        assert_eq!(wrap(&format!("a {word}"), 20), format!("a\n    {word}"));
    }
}
