//! The reply to history_request: the session's cells by `tail`, `range` or `search`, the
//! last one a glob over whole cells as IPython's history search is.

use jupyter_protocol::{HistoryEntry, HistoryReply, HistoryRequest};
use ragtag::Session;

/// Whether `text` matches the glob `pattern` as a whole: `*` matches any run of characters,
/// `?` any one; everything else (brackets included, which ragtag code is full of) stands for
/// itself.
fn glob_match(pattern: &str, text: &str) -> bool {
    let (p, t): (Vec<char>, Vec<char>) = (pattern.chars().collect(), text.chars().collect());
    let (mut i, mut j) = (0, 0);
    // Where the last `*` was, and how much of the text it has swallowed so far.
    let mut star: Option<(usize, usize)> = None;
    while j < t.len() {
        if i < p.len() && (p[i] == '?' || (p[i] != '*' && p[i] == t[j])) {
            i += 1;
            j += 1;
        } else if i < p.len() && p[i] == '*' {
            star = Some((i, j));
            i += 1;
        } else if let Some((si, sj)) = star {
            // Let the `*` take one more character and try again.
            i = si + 1;
            j = sj + 1;
            star = Some((si, sj + 1));
        } else {
            return false;
        }
    }
    p[i..].iter().all(|&c| c == '*')
}

/// The reply to history_request: the session's cells, by `tail`, `range` or `search` (a glob
/// over whole cells, the last `n` matches, each source once with `unique`). Outputs are not
/// kept, so with `output` each input is paired with "".
pub fn history(session: &Session, req: &HistoryRequest) -> HistoryReply {
    let cells: Vec<(usize, &str)> = session
        .sources()
        .iter()
        .filter_map(|(name, src)| {
            let n = name
                .strip_prefix("<cell ")?
                .strip_suffix('>')?
                .parse()
                .ok()?;
            Some((n, src.as_str()))
        })
        .collect();
    let (chosen, output): (Vec<(usize, &str)>, bool) = match req {
        HistoryRequest::Tail { n, output, .. } => {
            let n = usize::try_from(*n).unwrap_or(0);
            (cells[cells.len().saturating_sub(n)..].to_vec(), *output)
        }
        HistoryRequest::Range {
            start,
            stop,
            output,
            ..
        } => {
            let (start, stop) = (*start as i64, *stop as i64);
            let chosen = cells
                .iter()
                .filter(|(i, _)| (*i as i64) >= start && (stop <= 0 || (*i as i64) < stop))
                .copied()
                .collect();
            (chosen, *output)
        }
        HistoryRequest::Search {
            pattern,
            unique,
            output,
            n,
            ..
        } => {
            let mut found: Vec<(usize, &str)> = cells
                .iter()
                .filter(|(_, src)| glob_match(pattern, src))
                .copied()
                .collect();
            if *unique {
                // The latest cell of each source, as IPython keeps.
                let mut seen = std::collections::HashSet::new();
                found.reverse();
                found.retain(|(_, src)| seen.insert(*src));
                found.reverse();
            }
            let n = usize::try_from(*n).unwrap_or(0);
            found.drain(..found.len().saturating_sub(n));
            (found, *output)
        }
    };
    // Session 1: ragtag keeps no history across kernel restarts.
    HistoryReply::new(
        chosen
            .into_iter()
            .map(|(i, src)| {
                if output {
                    HistoryEntry::InputOutput(1, i, (src.to_string(), String::new()))
                } else {
                    HistoryEntry::Input(1, i, src.to_string())
                }
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_search_globs_whole_cells() {
        assert!(glob_match("abc*", "abc = [1, 2]"));
        assert!(glob_match("*[1, 2]", "abc = [1, 2]"));
        assert!(glob_match("a?c*2]", "abc = [1, 2]"));
        assert!(!glob_match("abc", "abc = 1"));
        assert!(glob_match("*", ""));
        assert!(glob_match("**b*", "ab"));
        assert!(!glob_match("?", ""));
        assert!(glob_match("é*ü", "é … ü"));
    }
}
