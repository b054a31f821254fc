//! "Did you mean …?": the closest known name to a misspelt one.

/// The candidate closest to `name`, if it is close enough to be a likely typo
/// (at most a third of the name's length, and at least one edit allowed).
///
/// The distance is strsim's optimal string alignment, by chars: insertions, deletions,
/// substitutions and swaps of two neighbours (`axsi` → `axis` is one edit: the most common
/// typo). Its rows are as long as the candidate, so a long misspelt name costs time, not
/// memory.
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (name.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .filter(|c| *c != name)
        .map(|c| (strsim::osa_distance(name, c), c))
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
        assert_eq!(strsim::osa_distance("kitten", "sitting"), 3);
        assert_eq!(
            closest("row_lenghts", ["row_lengths", "row_splits"]),
            Some("row_lengths")
        );
        assert_eq!(closest("zzz", ["row_lengths"]), None);
        assert_eq!(strsim::osa_distance("axsi", "axis"), 1);
        assert_eq!(closest("axsi", ["axis", "keepdims"]), Some("axis"));
    }
}
