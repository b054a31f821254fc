//! "Did you mean …?": the closest known name to a misspelt one.

/// Edit distance between two strings (by chars) counting insertions, deletions,
/// substitutions and swaps of two neighbours (`axsi` → `axis` is one edit: the most common
/// typo).
pub fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let w = b.len() + 1;
    // d[i * w + j]: the distance between a[..i] and b[..j].
    #[allow(clippy::disallowed_methods)] // two names: short strings
    let mut d = vec![0usize; (a.len() + 1) * w];
    for i in 0..=a.len() {
        for j in 0..=b.len() {
            d[i * w + j] = if i == 0 || j == 0 {
                i + j
            } else {
                let cost = usize::from(a[i - 1] != b[j - 1]);
                let mut best = (d[(i - 1) * w + j - 1] + cost)
                    .min(d[(i - 1) * w + j] + 1)
                    .min(d[i * w + j - 1] + 1);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    best = best.min(d[(i - 2) * w + j - 2] + 1);
                }
                best
            };
        }
    }
    d[a.len() * w + b.len()]
}

/// The candidate closest to `name`, if it is close enough to be a likely typo
/// (at most a third of the name's length, and at least one edit allowed).
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (name.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .filter(|c| *c != name)
        .map(|c| (distance(name, c), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, c)| (*d, c.len(), *c))
        .map(|(_, c)| c)
}

/// Adds "did you mean …?" to `err` when one of `candidates` is close to `name`; `show`
/// writes the suggestion as the user would type it (`tf.{s}`, `.{s}`). Whether it did.
pub fn did_you_mean<'a>(
    err: &mut crate::diagnostic::Error,
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    show: impl FnOnce(&str) -> String,
) -> bool {
    let Some(s) = closest(name, candidates) else {
        return false;
    };
    err.hint = Some(format!("did you mean `{}`?", show(s)));
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_typos() {
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(
            closest("row_lenghts", ["row_lengths", "row_splits"]),
            Some("row_lengths")
        );
        assert_eq!(closest("zzz", ["row_lengths"]), None);
        assert_eq!(distance("axsi", "axis"), 1);
        assert_eq!(closest("axsi", ["axis", "keepdims"]), Some("axis"));
    }
}
