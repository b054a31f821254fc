//! Syntax: the AST, the pest-based parser (`grammar/ragtag.pest`) and an S-expression printer.

// `Index::Slice` holds three optional expressions; boxing them is not worth the churn.
#[allow(clippy::large_enum_variant)]
pub mod ast;
mod parser;
mod sexpr;

pub use parser::{
    completeness, parse, parse_expr, parse_interruptible, Completeness, ParseError, SyntaxError,
};
pub use sexpr::{expr_to_sexpr, program_to_sexpr};
