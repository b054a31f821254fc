//! Colour for a report on a terminal: removed lines red, added lines green, hunk headers
//! cyan, and within a changed line the characters that really changed in reverse video, so
//! a one-character change in a wide table row stands out. The character diff is `similar`'s
//! (the crate insta uses for the same purpose).

use similar::{ChangeTag, TextDiff};

const RED: &str = "\x1b[31m";
const GREEN: &str = "\x1b[32m";
const CYAN: &str = "\x1b[36m";
const REVERSE: &str = "\x1b[7m";
const NO_REVERSE: &str = "\x1b[27m";
const RESET: &str = "\x1b[0m";

/// Above this many characters in a pair of lines, the pair is coloured whole without
/// looking for the characters that changed (the character diff is quadratic at worst).
const MAX_INLINE_CHARS: usize = 2000;

/// A removed line and an added line, with their changed characters in reverse video.
fn inline_pair(old: &str, new: &str, out: &mut String) {
    let diff = TextDiff::from_chars(old, new);
    let (mut o, mut n) = (format!("{RED}-"), format!("{GREEN}+"));
    for change in diff.iter_all_changes() {
        let text = change.value();
        match change.tag() {
            ChangeTag::Equal => {
                o.push_str(text);
                n.push_str(text);
            }
            ChangeTag::Delete => o.push_str(&format!("{REVERSE}{text}{NO_REVERSE}")),
            ChangeTag::Insert => n.push_str(&format!("{REVERSE}{text}{NO_REVERSE}")),
        }
    }
    out.push_str(&format!("{o}{RESET}\n"));
    out.push_str(&format!("{n}{RESET}\n"));
}

/// True for a line of a unified diff's body that removes (`-`) or adds (`+`), as opposed
/// to its `---`/`+++` header.
fn is_change(line: &str, sign: char) -> bool {
    let header = if sign == '-' { "---" } else { "+++" };
    line.starts_with(sign) && !line.starts_with(header)
}

/// `report` (as [`super::FileResult::report`] writes it) with ANSI colours.
pub fn colourize(report: &str) -> String {
    let lines: Vec<&str> = report.lines().collect();
    let mut out = String::new();
    let mut k = 0;
    while k < lines.len() {
        let line = lines[k];
        if is_change(line, '-') {
            // A run of removed lines, then a run of added ones: pair them up in order.
            let removed: Vec<&str> = lines[k..]
                .iter()
                .take_while(|l| is_change(l, '-'))
                .copied()
                .collect();
            let added: Vec<&str> = lines[k + removed.len()..]
                .iter()
                .take_while(|l| is_change(l, '+'))
                .copied()
                .collect();
            let paired = removed.len().min(added.len());
            for (r, a) in removed.iter().zip(&added) {
                if r.len() + a.len() <= MAX_INLINE_CHARS {
                    inline_pair(&r[1..], &a[1..], &mut out);
                } else {
                    out.push_str(&format!("{RED}{r}{RESET}\n{GREEN}{a}{RESET}\n"));
                }
            }
            for r in &removed[paired..] {
                out.push_str(&format!("{RED}{r}{RESET}\n"));
            }
            for a in &added[paired..] {
                out.push_str(&format!("{GREEN}{a}{RESET}\n"));
            }
            k += removed.len() + added.len();
            continue;
        }
        if is_change(line, '+') {
            out.push_str(&format!("{GREEN}{line}{RESET}\n"));
        } else if line.starts_with("@@") {
            out.push_str(&format!("{CYAN}{line}{RESET}\n"));
        } else if line.starts_with("FAIL") {
            out.push_str(&format!("{RED}{line}{RESET}\n"));
        } else {
            out.push_str(line);
            out.push('\n');
        }
        k += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_changed_characters_are_highlighted() {
        let report = "FAIL t.rtt\n--- a\n+++ b\n@@ -1,2 +1,2 @@\n x\n-│ 0.5 ┆ 1 │\n+│ 0.6 ┆ 1 │\n";
        let c = colourize(report);
        assert!(
            c.contains(&format!("{RED}-│ 0.{REVERSE}5{NO_REVERSE} ┆ 1 │{RESET}")),
            "{c:?}"
        );
        assert!(
            c.contains(&format!("{GREEN}+│ 0.{REVERSE}6{NO_REVERSE} ┆ 1 │{RESET}")),
            "{c:?}"
        );
        assert!(c.contains("--- a\n+++ b\n"), "{c:?}");
        assert!(c.contains(&format!("{CYAN}@@")), "{c:?}");
    }
}
