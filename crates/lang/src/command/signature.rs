//! Help text for a front end that does not wrap it well (a notebook's output area breaks
//! long lines mid-word, `row_splits_dtype=tf.i|nt64`): a signature breaks between its
//! arguments, continuations under the first argument; prose breaks between words.

use unicode_width::UnicodeWidthStr;

/// `text` with every line wider than `width` columns broken: a signature line
/// (`name(args)`) after the comma between two arguments, its continuations aligned under the
/// first argument; any other line between words, its continuations at its indentation. A
/// word or argument wider than the room left stays whole.
pub fn wrap_help(text: &str, width: usize) -> String {
    let width = width.max(20);
    let mut out: Vec<String> = Vec::new();
    for line in text.split('\n') {
        if line.width() <= width {
            out.push(line.to_string());
        } else if let Some((head, args, tail)) = signature(line) {
            wrap_signature(head, &args, tail, width, &mut out);
        } else {
            wrap_words(line, width, &mut out);
        }
    }
    out.join("\n")
}

/// A line that is a call signature: the name and `(`, the arguments split at the commas
/// outside brackets and strings, and `)` with whatever follows it (`-> T`).
fn signature(line: &str) -> Option<(&str, Vec<&str>, &str)> {
    let open = line.find('(')?;
    let name = line[..open].trim_start();
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '.')
    {
        return None;
    }
    let (mut depth, mut quote, mut start) = (0usize, None, open + 1);
    let mut args = Vec::new();
    for (i, c) in line.char_indices().skip_while(|&(i, _)| i <= open) {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ',') if depth == 0 => {
                args.push(line[start..=i].trim());
                start = i + 1;
            }
            (None, ')') if depth == 0 => {
                args.push(line[start..i].trim());
                return Some((&line[..=open], args, &line[i..]));
            }
            (None, ')' | ']' | '}') => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

fn wrap_signature(head: &str, args: &[&str], tail: &str, width: usize, out: &mut Vec<String>) {
    let indent = head.width();
    // Under the first argument, unless that leaves too little room: then four columns in.
    let hang = if indent <= width / 2 { indent } else { 4 };
    let mut line = head.to_string();
    let mut fresh = true;
    for (i, arg) in args.iter().enumerate() {
        let last = i + 1 == args.len();
        let piece_width = arg.width() + if last { tail.width() } else { 0 };
        if !fresh && line.width() + 1 + piece_width > width {
            out.push(std::mem::take(&mut line));
            line = std::iter::repeat_n(' ', hang).collect();
            fresh = true;
        }
        if !fresh {
            line.push(' ');
        }
        line.push_str(arg);
        fresh = false;
    }
    line.push_str(tail);
    out.push(line);
}

fn wrap_words(line: &str, width: usize, out: &mut Vec<String>) {
    let body = line.trim_start_matches(' ');
    let indent = &line[..line.len() - body.len()];
    let mut current = indent.to_string();
    let mut empty = true;
    for word in body.split(' ').filter(|w| !w.is_empty()) {
        if !empty && current.width() + 1 + word.width() > width {
            out.push(std::mem::take(&mut current));
            current = indent.to_string();
            empty = true;
        }
        if !empty {
            current.push(' ');
        }
        current.push_str(word);
        empty = false;
    }
    out.push(current);
}

#[cfg(test)]
mod tests {
    use super::wrap_help;

    #[test]
    fn a_signature_breaks_between_arguments_under_the_first() {
        let sig = "tf.ragged.constant(pylist, dtype=None, ragged_rank=None, inner_shape=None, name=None, row_splits_dtype=tf.int64)";
        assert_eq!(
            wrap_help(sig, 80),
            "tf.ragged.constant(pylist, dtype=None, ragged_rank=None, inner_shape=None,\n                   name=None, row_splits_dtype=tf.int64)"
        );
        // Brackets and strings keep their commas.
        let sig =
            "f(a=[1, 2, 3], b='x, y', c=(1, 2), ddddddddddddddddddddddddddddddddddddddddd=None)";
        let got = wrap_help(sig, 40);
        assert_eq!(
            got,
            "f(a=[1, 2, 3], b='x, y', c=(1, 2),\n  ddddddddddddddddddddddddddddddddddddddddd=None)"
        );
    }

    #[test]
    fn prose_breaks_between_words_and_short_lines_stay() {
        let text = "short\n  one two three four five six seven eight nine ten eleven twelve\n";
        assert_eq!(
            wrap_help(text, 30),
            "short\n  one two three four five six\n  seven eight nine ten eleven\n  twelve\n"
        );
        for line in wrap_help(&["word"; 50].join(" "), 80).lines() {
            assert!(line.len() <= 80, "{line}");
        }
    }
}
