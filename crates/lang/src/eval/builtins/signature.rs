//! A builtin's parameters, read from the signature its table entry writes
//! (`(pylist, dtype=None, *, axis=0)`).

/// One parameter of a builtin, parsed from its signature.
#[derive(Debug, Clone, PartialEq)]
pub struct ParamSpec {
    /// The name.
    pub name: String,
    /// True when it has no default.
    pub required: bool,
    /// True for `*args` and `**kwargs`.
    pub variadic: bool,
    /// True for `**kwargs`: it collects the keyword arguments no other parameter names.
    pub keywords: bool,
    /// True after a bare `*` or `*args`: only a keyword argument reaches it.
    pub keyword_only: bool,
    /// True before a `/`: only a positional argument reaches it.
    pub positional_only: bool,
}

/// Splits `(a, b=1, *rest, c=None)` into parameters.
pub(super) fn parse_sig(sig: &str) -> Vec<ParamSpec> {
    let inner = sig.trim().trim_start_matches('(').trim_end_matches(')');
    let mut out = Vec::new();
    let mut depth = 0;
    let mut cur = String::new();
    let mut parts = Vec::new();
    // The quote a string default is open in (`sep=','` holds a comma).
    let mut quote: Option<char> = None;
    for c in inner.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') => depth -= 1,
            (None, ',') if depth == 0 => {
                parts.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    parts.push(cur);
    let mut after_star = false;
    for p in parts {
        let p = p.trim();
        if p == "/" {
            out.iter_mut()
                .for_each(|q: &mut ParamSpec| q.positional_only = true);
            continue;
        }
        if p == "*" {
            after_star = true;
            continue;
        }
        if p.is_empty() {
            continue;
        }
        let variadic = p.starts_with('*');
        let keywords = p.starts_with("**");
        let (name, default) = match p.split_once('=') {
            Some((n, _)) => (n.trim(), true),
            None => (p, false),
        };
        out.push(ParamSpec {
            name: name.trim_start_matches('*').to_string(),
            required: !default && !variadic,
            variadic,
            keywords,
            keyword_only: after_star && !variadic,
            positional_only: false,
        });
        after_star |= variadic;
    }
    out
}
