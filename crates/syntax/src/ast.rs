//! The typed syntax tree that the parser produces and the evaluator walks. Every node carries
//! the byte span of its source text, so an error found later can point at its operand.

use std::fmt;
use std::sync::Arc;

use ragtag_engine::columns::ListLiteral;

pub use crate::ident::Ident;

/// A byte range `[start, end)` in one source (a REPL line, a notebook cell, a script).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// Offset of the first byte.
    pub start: usize,
    /// Offset one past the last byte.
    pub end: usize,
}

impl Span {
    /// A span covering `start..end`.
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }
    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
    /// Length in bytes.
    pub fn len(self) -> usize {
        self.end - self.start
    }
    /// True for a zero-length span.
    pub fn is_empty(self) -> bool {
        self.start == self.end
    }
}

impl From<Span> for miette::SourceSpan {
    fn from(s: Span) -> Self {
        (s.start, s.len()).into()
    }
}

/// A whole input: a script, a REPL entry or a notebook cell.
#[derive(Debug, Clone, PartialEq)]
pub struct Program {
    /// The statements in order.
    pub body: Vec<Stmt>,
}

/// A statement with its span.
#[derive(Debug, Clone, PartialEq)]
pub struct Stmt {
    /// What kind of statement.
    pub kind: StmtKind,
    /// Where it is.
    pub span: Span,
}

/// The statements of the language.
#[derive(Debug, Clone, PartialEq)]
pub enum StmtKind {
    /// A bare expression; its value is displayed when it is not `None`.
    Expr(Expr),
    /// `a = b = expr` or `a, b = expr`: each target in turn receives the value.
    Assign {
        /// The targets left of each `=`, leftmost first.
        targets: Vec<Target>,
        /// The value assigned.
        value: Expr,
    },
    /// `import a.b as c` / `from a import b`: accepted; the well-known names are always bound.
    Import {
        /// The dotted module path as written.
        module: String,
        /// The `as` name, if any.
        alias: Option<String>,
    },
    /// `from a import *`: binds every public name of the module (at module level only).
    ImportAll {
        /// The dotted module path as written.
        module: String,
    },
    /// `pass`.
    Pass,
    /// `break` (leaves the innermost loop).
    Break,
    /// `continue` (starts the innermost loop's next iteration).
    Continue,
    /// `del a, b[0]`: names or subscripts.
    Del(Vec<Expr>),
    /// `while cond: body`.
    While {
        /// The condition, tested before each iteration.
        cond: Expr,
        /// The loop body.
        body: Vec<Stmt>,
        /// `else:` statements, run when the condition is false (not after a `break`).
        orelse: Vec<Stmt>,
    },
    /// `def name(params): body`, with any decorators already dropped.
    Def {
        /// The function's name.
        name: String,
        /// Its parameters.
        params: Vec<Param>,
        /// Its body.
        body: Vec<Stmt>,
        /// The return annotation (`-> T`), if any.
        returns: Option<Box<Expr>>,
    },
    /// `return expr?`.
    Return(Option<Expr>),
    /// `try: body` followed by `except` clauses (and an optional `finally`).
    Try {
        /// The guarded statements.
        body: Vec<Stmt>,
        /// The handlers, in order.
        handlers: Vec<Handler>,
        /// `else:` statements, run when the body raised nothing (not under `handlers`).
        orelse: Vec<Stmt>,
        /// `finally:` statements, if any.
        finally: Vec<Stmt>,
    },
    /// `raise expr? (from cause)?`.
    Raise(Option<Expr>, Option<Expr>),
    /// `assert test` or `assert test, message`.
    Assert {
        /// The condition that must hold.
        test: Expr,
        /// The message of the AssertionError when it does not.
        msg: Option<Expr>,
    },
    /// `if cond: body elif …: … else: …`, with elif chains nested into `orelse`.
    If {
        /// The condition.
        cond: Expr,
        /// Statements when true.
        body: Vec<Stmt>,
        /// Statements when false.
        orelse: Vec<Stmt>,
    },
    /// `x += value` and the other twelve augmented assignments, to a name, a subscript or an
    /// attribute: `x = x op value`, `x` (and a subscript's object and index) evaluated once.
    AugAssign {
        /// The name, subscript or attribute assigned.
        target: Target,
        /// The operator (`+` for `+=`).
        op: BinOp,
        /// The right operand.
        value: Expr,
    },
    /// `global a, b`: the names are the module's in this function body.
    Global(Vec<String>),
    /// `nonlocal a, b`: the names are the enclosing function's in this function body.
    Nonlocal(Vec<String>),
    /// `for target in iter: body`.
    For {
        /// The loop variable(s).
        target: Target,
        /// The iterated value.
        iter: Expr,
        /// The loop body.
        body: Vec<Stmt>,
        /// `else:` statements, run when the items ran out (not after a `break`).
        orelse: Vec<Stmt>,
    },
    /// `class Name(bases…): body`.
    Class {
        /// The class's name.
        name: String,
        /// The base classes and keywords, written as a call's arguments.
        bases: Vec<Arg>,
        /// The class body: its assignments and defs make the class's attributes.
        body: Vec<Stmt>,
    },
    /// `with a as x, b: body`: each item's `__enter__` value is bound to its target; its
    /// `__exit__` runs when the body ends, however it ends.
    With {
        /// The context managers with their `as` targets, in order.
        items: Vec<(Expr, Option<Target>)>,
        /// The body.
        body: Vec<Stmt>,
    },
    /// `@decorator` lines before a `def` or a `class`: the definition runs, then each
    /// decorator (innermost first) is applied to the name it bound.
    Decorated {
        /// The decorators, top first.
        decorators: Vec<Expr>,
        /// The `def` or `class` statement.
        def: Box<Stmt>,
    },
    /// `match subject:` and its `case` clauses: the first case whose pattern matches (and
    /// whose guard holds) runs.
    Match {
        /// The value matched.
        subject: Expr,
        /// The clauses, in order.
        cases: Vec<crate::pattern::MatchCase>,
    },
    /// `target: annotation` or `target: annotation = value` (PEP 526).
    AnnAssign {
        /// A name, attribute or subscript.
        target: Target,
        /// The annotation, evaluated at module and class level.
        annotation: Expr,
        /// The value assigned, if any.
        value: Option<Expr>,
        /// Whether the target is a plain name not in parentheses: only then is it recorded
        /// in `__annotations__`.
        simple: bool,
    },
}

/// One `except [Class[, Class…]] [as name]:` clause.
#[derive(Debug, Clone, PartialEq)]
pub struct Handler {
    /// The classes it catches (empty: catches everything).
    pub classes: Vec<Expr>,
    /// The `as` name.
    pub name: Option<String>,
    /// The handler body.
    pub body: Vec<Stmt>,
    /// Where the `except` line is.
    pub span: Span,
}

/// An assignment target.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    /// A plain name.
    Name(Ident, Span),
    /// `a, b` or `(a, b)` or `[a, b]`: unpacks a sequence; at most one item is
    /// [`Target::Starred`].
    Tuple(Vec<Target>, Span),
    /// `obj[index]`: sets an item of a list or dict.
    Subscript(Box<Expr>, Vec<Index>, Span),
    /// `obj.name`: sets an attribute.
    Attr(Box<Expr>, String, Span),
    /// `*rest` inside a tuple or list target: receives a list of the items left over.
    Starred(Box<Target>, Span),
}

impl Target {
    /// The source span of the target.
    pub fn span(&self) -> Span {
        match self {
            Target::Name(_, s)
            | Target::Tuple(_, s)
            | Target::Starred(_, s)
            | Target::Subscript(_, _, s)
            | Target::Attr(_, _, s) => *s,
        }
    }

    /// A subscript or attribute target as the expression that reads it.
    pub fn as_expr(&self) -> Option<Expr> {
        let (kind, span) = match self {
            Target::Subscript(x, index, s) => (ExprKind::Subscript(x.clone(), index.clone()), *s),
            Target::Attr(x, name, s) => (ExprKind::Attr(x.clone(), name.clone()), *s),
            Target::Name(..) | Target::Tuple(..) | Target::Starred(..) => return None,
        };
        Some(Expr { kind, span })
    }
}

/// A parameter of a `lambda` or `def`.
#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    /// The parameter's name.
    pub name: String,
    /// Its default value, if any.
    pub default: Option<Expr>,
    /// How arguments reach it.
    pub kind: ParamKind,
    /// Its annotation (`a: int`), if any.
    pub annotation: Option<Expr>,
}

/// How arguments reach a parameter, in the order Python requires them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamKind {
    /// Before a `/`: by position only.
    PositionalOnly,
    /// By position or by keyword.
    Normal,
    /// `*args`: a tuple of the extra positional arguments.
    VarArgs,
    /// After `*` or `*args`: by keyword only.
    KeywordOnly,
    /// `**kwargs`: a dict of the extra keyword arguments.
    VarKeywords,
}

/// An expression with its span.
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    /// What kind of expression.
    pub kind: ExprKind,
    /// Where it is.
    pub span: Span,
}

/// The expressions of the language.
#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    /// An integer literal.
    Int(i64),
    /// A float literal.
    Float(f64),
    /// A string literal (escapes resolved; adjacent literals joined).
    Str(String),
    /// An f-string (adjacent literals joined, plain ones included): text and replacement
    /// fields in order.
    FString(Vec<FPart>),
    /// `True` / `False`.
    Bool(bool),
    /// `None`.
    None,
    /// `...` (only meaningful inside a subscript).
    Ellipsis,
    /// A list display of number and string literals only (nested to any depth), scanned
    /// straight from the source into the literal it denotes: one node however many
    /// elements, shared with the value it evaluates to. The grammar's `list_display` gives
    /// the same value for the same text (see `parser/data_blocks.rs`). A large block of
    /// numbers is held in columns.
    Data(Arc<ListLiteral>),
    /// A name.
    Name(Ident),
    /// `[a, b, …]`.
    List(Vec<Expr>),
    /// `(a, b)`, `(a,)`, `()`, or a bare `a, b` where a tuple is allowed.
    Tuple(Vec<Expr>),
    /// `{k: v, **m, …}`: a key of `None` marks `**m`, whose items are merged in (as in
    /// Python's own syntax tree).
    Dict(Vec<(Option<Expr>, Expr)>),
    /// `*xs` in a list or tuple display (its items are spliced in), or in a target list.
    Starred(Box<Expr>),
    /// `value.name`.
    Attr(Box<Expr>, String),
    /// `func(args…)`.
    Call(Box<Expr>, Vec<Arg>),
    /// `value[index, …]`: one entry per comma-separated part.
    Subscript(Box<Expr>, Vec<Index>),
    /// A prefix operator.
    Unary(UnaryOp, Box<Expr>),
    /// A binary arithmetic, bitwise or comparison operator.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `a and b` / `a or b` (short-circuit, yields an operand as Python does).
    Logic(LogicOp, Box<Expr>, Box<Expr>),
    /// A chain of comparisons (`a < b <= c`), each operand evaluated once.
    Compare(Box<Expr>, Vec<(BinOp, Expr)>),
    /// `name := value` (in a comprehension, binding in the scope around it).
    Walrus(Ident, Box<Expr>),
    /// `not a`.
    Not(Box<Expr>),
    /// `lambda params: body`.
    Lambda(Vec<Param>, Box<Expr>),
    /// `a if cond else b`.
    IfElse {
        /// The condition.
        cond: Box<Expr>,
        /// The value when true.
        then: Box<Expr>,
        /// The value when false.
        orelse: Box<Expr>,
    },
    /// `[elt for target in iter if cond for …]`.
    ListComp {
        /// The produced element.
        elt: Box<Expr>,
        /// The `for` clauses, outermost first (at least one).
        generators: Vec<Comprehension>,
    },
    /// `{key: value for target in iter if cond for …}`.
    DictComp {
        /// The produced key.
        key: Box<Expr>,
        /// The produced value.
        value: Box<Expr>,
        /// The `for` clauses, outermost first (at least one).
        generators: Vec<Comprehension>,
    },
    /// `(elt for target in iter …)`, also as a call's sole argument: a lazy generator.
    GenExp {
        /// The produced element.
        elt: Box<Expr>,
        /// The `for` clauses, outermost first (at least one).
        generators: Vec<Comprehension>,
    },
    /// `{a, b, *xs}`: a set display (never empty: `{}` is a dict).
    Set(Vec<Expr>),
    /// `{elt for target in iter if cond for …}`.
    SetComp {
        /// The produced element.
        elt: Box<Expr>,
        /// The `for` clauses, outermost first (at least one).
        generators: Vec<Comprehension>,
    },
    /// An integer literal past 64 bits: its text without underscores (a `0x`, `0o` or `0b`
    /// prefix kept), read by the evaluator into a big int.
    BigInt(String),
    /// `yield value` (`None`: a bare `yield`) in a generator function.
    Yield(Option<Box<Expr>>),
    /// `yield from iterable` in a generator function.
    YieldFrom(Box<Expr>),
    /// A bytes literal (`b'a\x00'`; escapes resolved, adjacent bytes literals joined).
    Bytes(Vec<u8>),
}

/// A piece of an f-string.
#[derive(Debug, Clone, PartialEq)]
pub enum FPart {
    /// Text, escapes and `{{`/`}}` resolved.
    Text(String),
    /// A replacement field `{expr=!r:spec}`.
    Field(Box<FField>),
}

/// One replacement field of an f-string.
#[derive(Debug, Clone, PartialEq)]
pub struct FField {
    /// The expression.
    pub expr: Expr,
    /// `{expr=}`: the expression's text with the `=` and its spaces, written before the value.
    pub debug: Option<String>,
    /// `!r`, `!s` or `!a`.
    pub conversion: Option<char>,
    /// The format spec after `:`, itself made of text and nested fields.
    pub spec: Vec<FPart>,
}

/// One `for target in iter if cond …` clause of a comprehension.
#[derive(Debug, Clone, PartialEq)]
pub struct Comprehension {
    /// The loop variable(s).
    pub target: Target,
    /// The iterated value.
    pub iter: Expr,
    /// Its `if` filters.
    pub conds: Vec<Expr>,
}

/// A call argument.
#[derive(Debug, Clone, PartialEq)]
pub struct Arg {
    /// `Some(name)` for `name=value`.
    pub name: Option<String>,
    /// The argument's value.
    pub value: Expr,
    /// `*args` unpacking.
    pub star: bool,
    /// `**kwargs` unpacking: the mapping's items become keyword arguments.
    pub double_star: bool,
}

/// One comma-separated part of a subscript.
#[derive(Debug, Clone, PartialEq)]
pub enum Index {
    /// A plain expression (an int, a tensor, `None`/`tf.newaxis`, `...`).
    Expr(Expr),
    /// `start:stop:step`, each part optional.
    Slice {
        /// The start.
        start: Option<Expr>,
        /// The stop.
        stop: Option<Expr>,
        /// The step.
        step: Option<Expr>,
        /// Where it is.
        span: Span,
    },
}

/// Prefix operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnaryOp {
    /// `-x`
    Neg,
    /// `+x`
    Pos,
    /// `~x`
    Invert,
}

/// `and` / `or`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogicOp {
    /// `and`
    And,
    /// `or`
    Or,
}

/// Binary operators, arithmetic, bitwise and comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `//`
    FloorDiv,
    /// `%`
    Mod,
    /// `**`
    Pow,
    /// `@`
    MatMul,
    /// `&`
    BitAnd,
    /// `|`
    BitOr,
    /// `<<`
    LShift,
    /// `>>`
    RShift,
    /// `^`
    BitXor,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `in`
    In,
    /// `not in`
    NotIn,
    /// `is`
    Is,
    /// `is not`
    IsNot,
}

impl BinOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::FloorDiv => "//",
            BinOp::Mod => "%",
            BinOp::Pow => "**",
            BinOp::MatMul => "@",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::LShift => "<<",
            BinOp::RShift => ">>",
            BinOp::BitXor => "^",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::In => "in",
            BinOp::NotIn => "not in",
            BinOp::Is => "is",
            BinOp::IsNot => "is not",
        }
    }
    /// True for the six ordering/equality comparisons.
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
        )
    }
}

impl fmt::Display for BinOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.symbol())
    }
}

impl UnaryOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            UnaryOp::Neg => "-",
            UnaryOp::Pos => "+",
            UnaryOp::Invert => "~",
        }
    }
}
