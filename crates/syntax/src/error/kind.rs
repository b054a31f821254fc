//! [`SyntaxErrorKind`]: every syntax error ragtag reports, with the Python class users see,
//! a one-line summary and an input that raises it (the error catalogue is built from these).

use std::sync::LazyLock;

/// Which syntax error a [`SyntaxError`](super::SyntaxError) is. The message text stays in
/// the error; the kind names the rule that was broken. Every variant's `example` raises it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SyntaxErrorKind {
    /// A `'…'` or `"…"` string not closed on its line: `s = 'abc`.
    UnterminatedString,
    /// A `'''…'''` or `"""…"""` string still open at the end of the input: `s = '''abc`.
    UnterminatedTripleQuotedString,
    /// A bracket still open at the end of the input: `print(1, 2`.
    UnclosedBracket,
    /// A closing bracket with no open one: `x = 1)`.
    UnmatchedCloser,
    /// A closing bracket of the wrong shape: `x = (1, 2]`.
    MismatchedCloser,
    /// More than 100 brackets open at once: `x = ((((…1…))))` with 101 `(`.
    TooManyBrackets,
    /// An expression too deep to convert: more than 100 nested `lambda`s or `else`
    /// branches, or brackets and operator chains together past the tree's depth limit:
    /// `f = lambda: lambda: …` with 101 `lambda`s.
    NestedTooDeeply,
    /// One chain of more than 200 operators or trailers: `x = 1+1+…+1` with 201 `+`.
    ExpressionTooLong,
    /// A line indented deeper than the block it is in: `x = 1` then `  y = 2`.
    UnexpectedIndent,
    /// A block header with no indented body: `if True:` then `x = 1` unindented.
    ExpectedIndentedBlock,
    /// A dedent to a column no enclosing block starts at: `if True:`, `    x = 1`, `  y = 2`.
    UnindentMismatch,
    /// Indentation that tabs and spaces make ambiguous: `if True:`, a tab and `x = 1`,
    /// then eight spaces and `y = 2`.
    InconsistentTabs,
    /// More than 100 nested blocks: 101 `if True:` lines, each indented one more level.
    TooDeeplyIndented,
    /// Something other than what must come next: `for x in: pass` (an iterable is missing).
    ExpectedToken,
    /// A token that cannot continue the statement, where nothing in particular was
    /// expected: `x = 1 2`.
    UnexpectedToken,
    /// The input stops where more was required, past anything that could be named: a
    /// decorator with no definition after it, `@property`.
    UnexpectedEndOfInput,
    /// `else`, `elif`, `except` or `finally` with no `if` or `try` before it: `else: pass`.
    MisplacedClause,
    /// A Python statement ragtag does not have (`async`, `await`): `async def f(): pass`.
    UnsupportedStatement,
    /// `del` of something that is neither a name nor a subscript: `del 1`.
    CannotDelete,
    /// An assignment to something that is not a name or a tuple or list of names: `1 = x`.
    CannotAssign,
    /// A parameter name used twice: `def f(a, a): pass`.
    DuplicateParameter,
    /// A parameter without a default after one with a default: `def f(a=1, b): pass`.
    NonDefaultAfterDefault,
    /// Parameters in an order Python refuses: `/` after `*`, a bare `*` with no named
    /// parameter after it, anything after `**kwargs`: `def f(*): pass`.
    ParameterOrder,
    /// A starred expression where it cannot unpack: two in one target list, alone left of
    /// `=`, as a comprehension's element: `*a, *b = [1, 2]`.
    StarredMisuse,
    /// A `global` or `nonlocal` declaration Python refuses: `nonlocal` at top level or
    /// naming no variable of an enclosing function, a parameter declared global:
    /// `def f():` then `    nonlocal x`.
    ScopeDeclaration,
    /// `not …` as the operand of a tighter operator, unparenthesised: `1 + not x`.
    BareNot,
    /// A keyword argument given twice: `print(sep='a', sep='b')`.
    RepeatedKeywordArgument,
    /// A positional argument after a keyword argument: `print(sep='a', 1)`.
    PositionalAfterKeyword,
    /// A malformed number literal: a digit its base does not have, leading zeros, a stray
    /// `_` or letter: `x = 0b2`.
    InvalidNumber,
    /// A malformed f-string: `f'{}'`, `f'{x'`, `f'}'`, `f'{x!z}'`.
    FString,
    /// A `\x`, `\u` or `\U` escape with too few hex digits or naming no character:
    /// `s = '\x4'`.
    InvalidEscape,
    /// The bytes U+0001 and U+0002 (which ragtag uses internally) in the source:
    /// `x = \u{1}\u{2}` written with the raw control characters.
    ControlCharacter,
    /// A bytes literal holding a character that is not ASCII (`b'é'`), or bytes and str
    /// literals written next to each other (`b'a' 'b'`): CPython's two bytes-literal errors.
    NonUtf8Bytes,
}

/// 101 nested brackets: one more than the pre-pass allows.
static TOO_MANY_BRACKETS: LazyLock<String> =
    LazyLock::new(|| format!("x = {}1{}", "(".repeat(101), ")".repeat(101)));

/// 101 nested `lambda`s: one more level than the pre-pass allows.
static NESTED_LAMBDAS: LazyLock<String> =
    LazyLock::new(|| format!("f = {}0", "lambda: ".repeat(101)));

/// One chain of 201 `+`: one operator more than a chain may hold.
static LONG_CHAIN: LazyLock<String> = LazyLock::new(|| format!("x = 1{}", "+1".repeat(201)));

/// 102 nested `if` blocks, the innermost holding `pass`: one level deeper than allowed.
static DEEP_BLOCKS: LazyLock<String> = LazyLock::new(|| {
    let mut src = String::new();
    for level in 0..102 {
        src.push_str(&" ".repeat(level));
        src.push_str("if True:\n");
    }
    src.push_str(&" ".repeat(102));
    src.push_str("pass\n");
    src
});

impl SyntaxErrorKind {
    /// Every kind, in the order of the catalogue.
    pub const ALL: [SyntaxErrorKind; 33] = [
        Self::UnterminatedString,
        Self::UnterminatedTripleQuotedString,
        Self::UnclosedBracket,
        Self::UnmatchedCloser,
        Self::MismatchedCloser,
        Self::TooManyBrackets,
        Self::NestedTooDeeply,
        Self::ExpressionTooLong,
        Self::UnexpectedIndent,
        Self::ExpectedIndentedBlock,
        Self::UnindentMismatch,
        Self::InconsistentTabs,
        Self::TooDeeplyIndented,
        Self::ExpectedToken,
        Self::UnexpectedToken,
        Self::UnexpectedEndOfInput,
        Self::MisplacedClause,
        Self::UnsupportedStatement,
        Self::CannotDelete,
        Self::CannotAssign,
        Self::DuplicateParameter,
        Self::NonDefaultAfterDefault,
        Self::ParameterOrder,
        Self::StarredMisuse,
        Self::ScopeDeclaration,
        Self::BareNot,
        Self::RepeatedKeywordArgument,
        Self::PositionalAfterKeyword,
        Self::InvalidNumber,
        Self::FString,
        Self::InvalidEscape,
        Self::ControlCharacter,
        Self::NonUtf8Bytes,
    ];

    /// The Python exception class of this error: `SyntaxError`, or for the indentation
    /// kinds the subclass Python raises for the same input (`IndentationError`, and
    /// `TabError` for mixed tabs and spaces).
    pub fn class_name(self) -> &'static str {
        use SyntaxErrorKind as K;
        match self {
            K::UnexpectedIndent
            | K::ExpectedIndentedBlock
            | K::UnindentMismatch
            | K::TooDeeplyIndented => "IndentationError",
            K::InconsistentTabs => "TabError",
            _ => "SyntaxError",
        }
    }

    /// A short ragtag program that raises exactly this kind of error.
    pub fn example(self) -> &'static str {
        use SyntaxErrorKind as K;
        match self {
            K::UnterminatedString => "s = 'abc",
            K::UnterminatedTripleQuotedString => "s = '''abc",
            K::UnclosedBracket => "print(1, 2",
            K::UnmatchedCloser => "x = 1)",
            K::MismatchedCloser => "x = (1, 2]",
            K::TooManyBrackets => TOO_MANY_BRACKETS.as_str(),
            K::NestedTooDeeply => NESTED_LAMBDAS.as_str(),
            K::ExpressionTooLong => LONG_CHAIN.as_str(),
            K::UnexpectedIndent => "x = 1\n  y = 2",
            K::ExpectedIndentedBlock => "if True:\nx = 1",
            K::UnindentMismatch => "if True:\n    x = 1\n  y = 2",
            K::InconsistentTabs => "if True:\n\tx = 1\n        y = 2",
            K::TooDeeplyIndented => DEEP_BLOCKS.as_str(),
            K::ExpectedToken => "for x in: pass",
            K::UnexpectedToken => "x = 1 2",
            K::UnexpectedEndOfInput => "@property",
            K::MisplacedClause => "else: pass",
            K::UnsupportedStatement => "async def f(): pass",
            K::CannotDelete => "del 1",
            K::CannotAssign => "1 = x",
            K::DuplicateParameter => "def f(a, a): pass",
            K::NonDefaultAfterDefault => "def f(a=1, b): pass",
            K::ParameterOrder => "def f(*): pass",
            K::StarredMisuse => "*a, *b = [1, 2]",
            K::ScopeDeclaration => "def f():\n    nonlocal x",
            K::BareNot => "1 + not x",
            K::RepeatedKeywordArgument => "print(sep='a', sep='b')",
            K::PositionalAfterKeyword => "print(sep='a', 1)",
            K::InvalidNumber => "x = 0b2",
            K::FString => "f'{}'",
            K::InvalidEscape => "s = '\\x4'",
            K::ControlCharacter => "x = \u{1}\u{2}",
            K::NonUtf8Bytes => "b'é'",
        }
    }

    /// When this error happens, in one line.
    pub fn summary(self) -> &'static str {
        use SyntaxErrorKind as K;
        match self {
            K::UnterminatedString => "a quoted string is not closed on its line",
            K::UnterminatedTripleQuotedString => {
                "a triple-quoted string is still open at the end of the input"
            }
            K::UnclosedBracket => "a bracket is still open at the end of the input",
            K::UnmatchedCloser => "a closing bracket has no open bracket to close",
            K::MismatchedCloser => "a closing bracket does not match the open one",
            K::TooManyBrackets => "more than 100 brackets are open at once",
            K::NestedTooDeeply => {
                "an expression nests deeper than the parser allows (lambdas, conditionals, \
                 brackets and operators together)"
            }
            K::ExpressionTooLong => "one chain holds more than 200 operators or trailers",
            K::UnexpectedIndent => "a line is indented deeper than the block it is in",
            K::ExpectedIndentedBlock => "a block header (`if …:`, `def …:`) has no indented body",
            K::UnindentMismatch => "a line dedents to a column no enclosing block starts at",
            K::InconsistentTabs => "tabs and spaces make a line's indentation ambiguous",
            K::TooDeeplyIndented => "more than 100 blocks are nested",
            K::ExpectedToken => "something other than what must come next is found",
            K::UnexpectedToken => "a token cannot continue the statement",
            K::UnexpectedEndOfInput => "the input ends where more is required",
            K::MisplacedClause => {
                "`else`, `elif`, `except` or `finally` has no `if` or `try` before it"
            }
            K::UnsupportedStatement => {
                "a Python statement ragtag does not have (`yield`, `async`, `await`)"
            }
            K::CannotDelete => "`del` is given something other than a name or a subscript",
            K::CannotAssign => {
                "the left of `=` is not a name, subscript, attribute or a tuple or list of them"
            }
            K::DuplicateParameter => "a function has two parameters of the same name",
            K::NonDefaultAfterDefault => "a parameter without a default follows one with a default",
            K::ParameterOrder => {
                "parameters come in an order Python refuses (`/` after `*`, a bare `*` last, \
                 something after `**kwargs`)"
            }
            K::StarredMisuse => "a starred expression stands where it cannot unpack",
            K::ScopeDeclaration => {
                "a `global` or `nonlocal` declaration names nothing it can refer to"
            }
            K::BareNot => "`not …` is an operand of a tighter operator without parentheses",
            K::RepeatedKeywordArgument => "a call gives the same keyword argument twice",
            K::PositionalAfterKeyword => "a call has a positional argument after a keyword one",
            K::InvalidNumber => {
                "a malformed number literal (a digit its base does not have, leading zeros)"
            }
            K::FString => {
                "an f-string is malformed (an empty `{}`, a lone `}`, a bad `!` conversion)"
            }
            K::InvalidEscape => "a `\\x`, `\\u` or `\\U` escape is malformed",
            K::ControlCharacter => "the source holds the control characters U+0001 or U+0002",
            K::NonUtf8Bytes => {
                "a bytes literal holds a non-ASCII character, or is joined to a str literal"
            }
        }
    }
}
