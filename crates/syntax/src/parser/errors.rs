//! Choosing and wording syntax errors: the earlier of the pre-pass's and the grammar's, in words rather than rule names.

use super::*;

pub(super) type Pairs<'i> = pest::iterators::Pairs<'i, Rule>;

/// Combines the pre-pass's verdict with the grammar's: the earlier problem wins, the
/// pre-pass on a tie; then marks the error incomplete when it is at the end of the input.
pub(super) fn settle<'i>(
    src: &str,
    cleaned: &Cleaned,
    result: Result<Pairs<'i>, pest::error::Error<Rule>>,
) -> Result<Pairs<'i>, SyntaxError> {
    let grammar = match result {
        Ok(pairs) => match &cleaned.error {
            None => return Ok(pairs),
            Some(_) => None,
        },
        Err(e) => Some(grammar_error(e, &cleaned.text)),
    };
    let (at, mut err) = match (cleaned.error.clone(), grammar) {
        (Some(pre), Some(g)) if g.0 < pre.0 => g,
        (Some(pre), _) => pre,
        (None, Some(g)) => g,
        (None, None) => unreachable!("settle is only reached with an error"),
    };
    // Pre-pass errors about the end of the input (open brackets, strings, blocks) come
    // marked as incomplete already.
    let at_end = err.incomplete || at >= cleaned.text.trim_end().len();
    err.incomplete = at_end && (cleaned.open || !ends_with_blank_line(src));
    Err(err)
}

/// What a rule that failed to match stands for, in words.
pub(super) enum Expect {
    /// An operator or trailer: the parser had a complete operand here.
    Operator,
    /// Something to list after "expected".
    Word(u8, &'static str),
    /// Nothing worth telling.
    Nothing,
}

pub(super) fn describe(rule: Rule) -> Expect {
    use Expect::{Nothing, Operator, Word};
    use Rule as R;
    match rule {
        R::expr
        | R::or_test
        | R::primary
        | R::lambda_expr
        | R::paren
        | R::list_display
        | R::dict_display
        | R::strings
        | R::ellipsis
        | R::float
        | R::int
        | R::const_true
        | R::const_false
        | R::const_none
        | R::op_neg
        | R::op_pos
        | R::op_invert
        | R::op_not
        | R::testlist
        | R::expr_line
        | R::star_arg
        | R::dstar_arg
        | R::star_expr
        | R::kwarg
        | R::slice_stop => Word(0, "an expression"),
        R::index_item => Word(1, "an index"),
        R::dict_item => Word(1, "a `key: value` pair"),
        R::name | R::from_name => Word(2, "a name"),
        R::params
        | R::param
        | R::param_star
        | R::param_kwargs
        | R::param_slash
        | R::def_params
        | R::def_param
        | R::def_param_star
        | R::def_param_kwargs => Word(2, "a parameter name"),
        R::target_list | R::target_paren | R::target_bracket | R::target_star => {
            Word(2, "a loop variable")
        }
        R::import_as | R::dotted_name => Word(2, "a module name"),
        R::statement
        | R::inline_block
        | R::expr_stmt
        | R::pass_stmt
        | R::return_stmt
        | R::raise_stmt
        | R::assert_stmt
        | R::import_stmt
        | R::from_import
        | R::if_stmt
        | R::for_stmt
        | R::while_stmt
        | R::del_stmt
        | R::break_stmt
        | R::continue_stmt
        | R::global_stmt
        | R::nonlocal_stmt
        | R::try_stmt
        | R::def_stmt
        | R::decorated
        | R::class_stmt
        | R::with_stmt => Word(3, "a statement"),
        R::block => Word(3, "an indented block"),
        R::program => Word(3, "a statement"),
        R::expression => Word(0, "an expression"),
        R::if_clause | R::comp_if => Word(4, "`if`"),
        R::elif_clause => Word(4, "`elif`"),
        R::else_clause => Word(4, "`else`"),
        R::except_clause => Word(4, "`except`"),
        R::finally_clause => Word(4, "`finally`"),
        R::try_clause => Word(4, "`try`"),
        R::comp_for => Word(4, "`for`"),
        R::slice_tail | R::slice_step => Word(5, "`:`"),
        R::trailing_comma => Word(5, "`,`"),
        R::kw_as => Word(4, "`as`"),
        R::kw_def => Word(4, "`def`"),
        R::kw_class => Word(4, "`class`"),
        R::kw_with => Word(4, "`with`"),
        R::kw_elif => Word(4, "`elif`"),
        R::kw_else => Word(4, "`else`"),
        R::kw_except => Word(4, "`except`"),
        R::kw_finally => Word(4, "`finally`"),
        R::kw_for => Word(4, "`for`"),
        R::kw_from => Word(4, "`from`"),
        R::kw_if => Word(4, "`if`"),
        R::kw_import => Word(4, "`import`"),
        R::kw_in => Word(4, "`in`"),
        R::kw_lambda => Word(0, "an expression"),
        // The guards before the statements that start with a keyword.
        R::kw_pass | R::compound_start | R::keyword_start => Word(4, "`pass`"),
        R::kw_raise => Word(4, "`raise`"),
        R::kw_assert => Word(3, "a statement"),
        R::kw_return => Word(4, "`return`"),
        R::kw_try => Word(4, "`try`"),
        R::kw_while => Word(4, "`while`"),
        R::kw_del => Word(4, "`del`"),
        R::kw_break => Word(4, "`break`"),
        R::kw_continue => Word(4, "`continue`"),
        R::kw_global => Word(4, "`global`"),
        R::kw_nonlocal => Word(4, "`nonlocal`"),
        R::EOI => Word(9, "end of input"),
        R::call | R::attribute | R::subscription | R::aug_assign | R::op_start => Operator,
        r if is_infix(r) => Operator,
        _ => Nothing,
    }
}

pub(super) fn is_infix(rule: Rule) -> bool {
    binop(rule).is_some() || matches!(rule, Rule::op_and | Rule::op_or)
}

/// Literal tokens worth naming when the grammar expected them.
pub(super) fn describe_token(token: &str) -> Option<(u8, &'static str)> {
    Some(match token {
        "(" => (6, "`(`"),
        ")" => (6, "`)`"),
        "]" => (6, "`]`"),
        "}" => (6, "`}`"),
        ":" => (5, "`:`"),
        "import" => (4, "`import`"),
        "in" => (4, "`in`"),
        "else" => (4, "`else`"),
        "as" => (4, "`as`"),
        "," => (5, "`,`"),
        _ => return None,
    })
}

use crate::{KEYWORDS, UNSUPPORTED_KEYWORDS as UNSUPPORTED};

/// Turns pest's error into a readable [`SyntaxError`], with the offset it occurred at.
pub(super) fn grammar_error(e: pest::error::Error<Rule>, text: &str) -> (usize, SyntaxError) {
    let at = match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    if let ErrorVariant::CustomError { message } = &e.variant {
        // Pest stops itself before its recursion exhausts the thread's stack. The pre-pass's
        // limits keep that from happening on an ordinary stack; on a small one it still can.
        let e = match message.as_str() {
            "stack limit reached" | "call limit reached" => SyntaxError::new(
                SyntaxErrorKind::NestedTooDeeply,
                "input nested too deeply to parse",
                point(text, at),
            )
            .hint("split it into several statements"),
            _ => SyntaxError::new(
                SyntaxErrorKind::UnexpectedToken,
                message.clone(),
                point(text, at),
            ),
        };
        return (at, e);
    }
    let (at, words, after_operand) = expectations(&e, at);
    let words = simplify(words, after_operand);
    (at, word_error(text, at, &words, after_operand))
}

/// What pest expected, in words, where; and whether a complete operand preceded that point.
pub(super) fn expectations(
    e: &pest::error::Error<Rule>,
    at: usize,
) -> (usize, Vec<(u8, &'static str)>, bool) {
    // Literal tokens pest tried at its furthest position (rules only count at `at`).
    let (token_at, tokens) = match e.parse_attempts() {
        Some(a) => {
            let tokens: Vec<String> = a.expected_tokens().iter().map(|t| t.to_string()).collect();
            (a.max_position, tokens)
        }
        None => (at, Vec::new()),
    };
    let described = |punct_only: bool| -> Vec<(u8, &'static str)> {
        let words = tokens.iter().filter_map(|t| describe_token(t));
        words.filter(|w| !punct_only || w.0 >= 5).collect()
    };
    if token_at > at && !described(false).is_empty() {
        // The furthest attempt was a literal inside a rule that started earlier (`def f`).
        return (token_at, described(false), false);
    }
    let mut after_operand = false;
    let mut words = Vec::new();
    if let ErrorVariant::ParsingError { positives, .. } = &e.variant {
        for rule in positives {
            match describe(*rule) {
                Expect::Operator => after_operand = true,
                Expect::Word(rank, w) => words.push((rank, w)),
                Expect::Nothing => {}
            }
        }
    }
    if token_at == at {
        words.extend(described(true));
    }
    (at, words, after_operand)
}

/// Sorts the expectations and drops the ones a broader one already covers.
pub(super) fn simplify(
    mut words: Vec<(u8, &'static str)>,
    after_operand: bool,
) -> Vec<(u8, &'static str)> {
    let has = |words: &[(u8, &str)], w: &str| words.iter().any(|x| x.1 == w);
    if after_operand {
        // What could continue the operand (`x if …`, `x(…)`) is implied by "unexpected".
        words.retain(|x| !matches!(x.1, "`if`" | "`(`"));
    }
    if has(&words, "`)`") {
        // A generator expression as a call's argument (`f(x for x in xs)`) is rare: the
        // missing `,` or `)` is the likely mistake.
        words.retain(|x| x.1 != "`for`");
    }
    if ["`pass`", "`return`", "`raise`"]
        .iter()
        .any(|w| has(&words, w))
    {
        // Everything a line can start with.
        const STARTS: &[&str] = &[
            "an expression",
            "`from`",
            "`import`",
            "`pass`",
            "`raise`",
            "`return`",
            "`if`",
            "`for`",
            "`try`",
            "`def`",
        ];
        words.retain(|x| !STARTS.contains(&x.1));
        words.push((3, "a statement"));
    }
    if ["an expression", "an index", "a statement"]
        .iter()
        .any(|w| has(&words, w))
    {
        words.retain(|x| !matches!(x.1, "a name" | "`(`"));
    }
    if has(&words, "an index") {
        words.retain(|x| !matches!(x.1, "an expression" | "`:`"));
    }
    if has(&words, "a `key: value` pair") {
        words.retain(|x| x.1 != "an expression");
    }
    words.sort();
    words.dedup_by_key(|w| w.1);
    words
}

/// The message for an error at `at`, given what was expected there.
pub(super) fn word_error(
    text: &str,
    at: usize,
    words: &[(u8, &str)],
    after_operand: bool,
) -> SyntaxError {
    let at_end = at >= text.trim_end().len();
    let found = found_at(text, at);
    let word = found.trim_matches('`');
    let span = match word.chars().next() {
        Some(c) if found.starts_with('`') && (c.is_alphanumeric() || c == '_') => {
            Span::new(at, at + word.len())
        }
        _ => point(text, at),
    };
    if found.starts_with('`') && word.starts_with(|c: char| c.is_ascii_digit()) {
        if let Some(message) = bad_number(word) {
            return SyntaxError::new(SyntaxErrorKind::InvalidNumber, message, span);
        }
    }
    if matches!(word, "else" | "elif" | "except" | "finally") && !after_operand {
        let opener = if word == "except" || word == "finally" {
            "a `try:`"
        } else {
            "an `if …:`"
        };
        return SyntaxError::new(
            SyntaxErrorKind::MisplacedClause,
            format!("unexpected `{word}`"),
            span,
        )
        .hint(format!(
            "`{word}` must follow {opener} block at the same indentation"
        ));
    }
    if UNSUPPORTED.contains(&word) {
        return SyntaxError::new(
            SyntaxErrorKind::UnsupportedStatement,
            format!("`{word}` is not supported"),
            span,
        )
        .hint(
            "ragtag understands expressions, assignments, `import`, `def`, `class`, `with`, `if`, \
             `for`, `while`, `try`, `return`, `raise`, `assert`, `del`, `break`, `continue`, `global`, \
             `nonlocal` and `pass`",
        );
    }
    let vague = words.iter().all(|x| matches!(x.1, "`,`" | "end of input"));
    let list: Vec<&str> = words
        .iter()
        .map(|x| x.1)
        .filter(|w| *w != "end of input")
        .collect();
    // After a complete operand with nothing specific expected, "unexpected X" says more.
    let unexpected = list.is_empty() || (after_operand && vague && !at_end);
    if !unexpected {
        return match at_end {
            true => SyntaxError::new(
                SyntaxErrorKind::ExpectedToken,
                format!("expected {}", join_or(&list)),
                span,
            ),
            false => SyntaxError::new(
                SyntaxErrorKind::ExpectedToken,
                format!("expected {}, found {found}", join_or(&list)),
                span,
            ),
        };
    }
    if at_end {
        return SyntaxError::new(
            SyntaxErrorKind::UnexpectedEndOfInput,
            "unexpected end of input",
            span,
        );
    }
    let err = SyntaxError::new(
        SyntaxErrorKind::UnexpectedToken,
        format!("unexpected {}", found.trim_start_matches("a ")),
        span,
    );
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let operand_like = word
        .chars()
        .next()
        .is_some_and(|c| c.is_alphanumeric() || "_'\"([{".contains(c));
    if after_operand && text[line_start..at].trim() == "print" {
        err.hint("`print` is a function: write `print(…)`")
    } else if after_operand && operand_like && !KEYWORDS.contains(&word) {
        err.hint("perhaps a `,` or an operator is missing before it")
    } else {
        err
    }
}

/// "a", "a or b", "a, b or c".
pub(super) fn join_or(words: &[&str]) -> String {
    match words {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// What is wrong with a word that starts with a digit but is no number, in CPython's words
/// (`None`: it is a well-formed number, just in the wrong place).
fn bad_number(word: &str) -> Option<String> {
    let lower = word.to_ascii_lowercase();
    let based = |prefix: &str, ok: fn(char) -> bool, name: &str| {
        let body = &lower[prefix.len()..];
        let stray = body.starts_with("__") || body.ends_with('_') || body.contains("__");
        match body.chars().find(|&c| c != '_' && !ok(c)) {
            Some(c) if c.is_ascii_digit() => Some(format!("invalid digit '{c}' in {name} literal")),
            Some(_) => Some(format!("invalid {name} literal")),
            None if body.trim_matches('_').is_empty() || stray => {
                Some(format!("invalid {name} literal"))
            }
            None => None,
        }
    };
    if lower.starts_with("0x") {
        return based("0x", |c| c.is_ascii_hexdigit(), "hexadecimal");
    }
    if lower.starts_with("0b") {
        return based("0b", |c| matches!(c, '0' | '1'), "binary");
    }
    if lower.starts_with("0o") {
        return based("0o", |c| matches!(c, '0'..='7'), "octal");
    }
    let plain = word.chars().all(|c| c.is_ascii_digit() || c == '_');
    if plain
        && word.len() > 1
        && word.starts_with('0')
        && word.chars().any(|c| c != '0' && c != '_')
    {
        return Some(
            "leading zeros in decimal integer literals are not permitted; use an 0o prefix for \
             octal integers"
                .to_string(),
        );
    }
    let stray = word.contains("__") || word.ends_with('_');
    let number = word.replace('_', "");
    let readable = number.parse::<f64>().is_ok() || number.chars().all(|c| c.is_ascii_digit());
    (stray || !readable).then(|| "invalid decimal literal".to_string())
}

/// The token at `at`, for "found …": a word, one character, or "end of line/input".
pub(super) fn found_at(text: &str, at: usize) -> String {
    if at >= text.trim_end().len() {
        return "end of input".to_owned();
    }
    let rest = &text[at..];
    let Some(c) = rest.chars().next() else {
        return "end of input".to_owned();
    };
    if c == '\n' || c == '\r' {
        return "end of line".to_owned();
    }
    if c.is_alphanumeric() || c == '_' {
        let word: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        return format!("`{word}`");
    }
    if c == '\'' || c == '"' {
        return "a string".to_owned();
    }
    format!("`{c}`")
}
