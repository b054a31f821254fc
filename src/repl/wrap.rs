//! Word wrapping for text the REPL prints itself (help pages, `:help`): lines longer than
//! the terminal break between words, each continuation indented under its line's text, so
//! the terminal never cuts a word in two.

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

#[cfg(test)]
mod tests {
    use super::wrap;

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
