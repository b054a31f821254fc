//! File paths inside a string literal, completed as IPython does: the names in the typed
//! directory (relative to a base directory, or absolute) that start with the typed part,
//! directories with a trailing `/`, hidden names only when the typed part starts with `.`.

use std::path::Path;

/// Directory listings longer than this are cut: a completion menu of more names helps no
/// one, and listing a huge directory on every Tab would stall the prompt.
const MAX_ENTRIES: usize = 1000;

/// Completions of the path typed so far (`typed`, the string's text before the cursor),
/// listed relative to `base`: the byte offset within `typed` where the replaced part starts,
/// and the candidates, sorted. None when there is nothing to offer.
pub fn complete_path(typed: &str, base: &Path) -> Option<(usize, Vec<String>)> {
    if typed.contains(['\n', '\\']) {
        return None;
    }
    let split = typed.rfind('/').map_or(0, |i| i + 1);
    let (dir, partial) = typed.split_at(split);
    let listing = if dir.is_empty() {
        base.to_path_buf()
    } else {
        base.join(dir)
    };
    let hidden = partial.starts_with('.');
    let mut out: Vec<String> = std::fs::read_dir(&listing)
        .ok()?
        .filter_map(|entry| entry.ok())
        .take(MAX_ENTRIES)
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            if !name.starts_with(partial) || (name.starts_with('.') && !hidden) {
                return None;
            }
            // A symlink to a directory completes as one: follow it.
            let is_dir = std::fs::metadata(entry.path()).is_ok_and(|m| m.is_dir());
            Some(if is_dir { format!("{name}/") } else { name })
        })
        .collect();
    if out.is_empty() {
        return None;
    }
    out.sort();
    Some((split, out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_in_the_typed_directory_with_directories_marked() {
        let dir = std::env::temp_dir().join(format!("ragtag-paths-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("data/nested")).unwrap();
        for f in [
            "data/rows.jsonl",
            "data/rt.npz",
            "data/.hidden.npy",
            "dates.txt",
            ".env",
        ] {
            std::fs::write(dir.join(f), b"").unwrap();
        }
        let got = |typed: &str| complete_path(typed, &dir);
        assert_eq!(
            got("da"),
            Some((0, vec!["data/".to_string(), "dates.txt".to_string()]))
        );
        assert_eq!(
            got("data/"),
            Some((
                5,
                vec!["nested/".into(), "rows.jsonl".into(), "rt.npz".into()]
            ))
        );
        assert_eq!(
            got("data/r"),
            Some((5, vec!["rows.jsonl".into(), "rt.npz".into()]))
        );
        assert_eq!(got("data/."), Some((5, vec![".hidden.npy".into()])));
        assert_eq!(got("."), Some((0, vec![".env".into()])));
        assert_eq!(got("data/zz"), None);
        assert_eq!(got("no/such/dir/"), None);
        let abs = format!("{}/data/rt", dir.display());
        assert_eq!(got(&abs), Some((abs.len() - 2, vec!["rt.npz".into()])));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
