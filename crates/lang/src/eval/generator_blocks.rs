//! The blocks a generator's walk is inside (see `generator`): each open block's kind, its
//! position, a loop's iterator and what a `finally` interrupted, and the statements a stack
//! of them stands for.

use crate::diagnostic::Error;
use crate::value::Value;
use ragtag_syntax::ast::{Stmt, StmtKind};

/// One open block of the body.
#[derive(Clone)]
pub(super) struct Frame {
    pub(super) block: Block,
    pub(super) pos: usize,
    /// A `for` body's iterator.
    pub(super) iter: Option<Value>,
    /// What a `finally` block interrupted.
    pub(super) pending: Option<Pending>,
    /// The exception an `except` block handles, for a bare `raise` and `__context__`.
    pub(super) handled: Option<Box<(Error, super::Raised)>>,
}

#[derive(Clone, Copy, PartialEq)]
pub(super) enum Block {
    Root,
    Body,
    Orelse,
    Handler(usize),
    Finally,
}

#[derive(Clone)]
pub(super) enum Pending {
    Raise(Box<Error>),
    Return(Value),
    /// `break` (false) or `continue` (true) on the way to its loop.
    Jump(bool),
}

pub(super) fn frame(block: Block) -> Frame {
    Frame {
        block,
        pos: 0,
        iter: None,
        pending: None,
        handled: None,
    }
}

/// The statements of the innermost block of `frames`.
pub(super) fn block_of<'a>(root: &'a [Stmt], frames: &[Frame]) -> &'a [Stmt] {
    let mut block = root;
    for k in 1..frames.len() {
        let Some(stmt) = block.get(frames[k - 1].pos) else {
            return &[];
        };
        block = match (&stmt.kind, frames[k].block) {
            (StmtKind::If { body, .. }, Block::Body)
            | (StmtKind::While { body, .. }, Block::Body)
            | (StmtKind::For { body, .. }, Block::Body)
            | (StmtKind::Try { body, .. }, Block::Body) => body,
            (StmtKind::If { orelse, .. }, Block::Orelse)
            | (StmtKind::While { orelse, .. }, Block::Orelse)
            | (StmtKind::For { orelse, .. }, Block::Orelse)
            | (StmtKind::Try { orelse, .. }, Block::Orelse) => orelse,
            (StmtKind::Try { handlers, .. }, Block::Handler(i)) => &handlers[i].body,
            (StmtKind::Try { finally, .. }, Block::Finally) => finally,
            _ => &[],
        };
    }
    block
}

/// The statement the innermost frame's parent is at (the compound statement it is in).
pub(super) fn parent_stmt<'a>(root: &'a [Stmt], frames: &[Frame]) -> Option<&'a Stmt> {
    let n = frames.len();
    if n < 2 {
        return None;
    }
    block_of(root, &frames[..n - 1]).get(frames[n - 2].pos)
}
