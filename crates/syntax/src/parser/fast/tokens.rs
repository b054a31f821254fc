//! The direct parser's tokens: which lines it reads at all, its operators with their
//! binding powers, and its numbers.

use super::*;

/// ASCII text with no tabs, quotes, comments, backslashes, semicolons or control characters,
/// whose only line breaks come after its last statement, and which starts a statement at
/// column 0.
pub(super) fn plain(b: &[u8]) -> bool {
    if b[0] == b' ' || b[0] == b'\n' {
        return false;
    }
    let body = b.len()
        - b.iter()
            .rev()
            .take_while(|&&c| c == b' ' || c == b'\n')
            .count();
    b[..body]
        .iter()
        .all(|&c| (0x20..0x7f).contains(&c) && !matches!(c, b'\'' | b'"' | b'#' | b'\\' | b';'))
}

/// An infix operator and its binding power: the Pratt parser's precedences (`PRATT` in
/// convert/operators.rs, 10 apart, lowest first), with `**` the only right-associative one.
pub(super) fn infix(b: &[u8], i: usize) -> Option<(BinOp, usize, u8)> {
    let at = |k: usize| b.get(i + k).copied().unwrap_or(0);
    // An operator followed by `=` is an augmented assignment: the full parser reports it.
    let (op, len) = match (at(0), at(1)) {
        (b'=', b'=') => (BinOp::Eq, 2),
        (b'!', b'=') => (BinOp::Ne, 2),
        (b'<', b'=') => (BinOp::Le, 2),
        (b'>', b'=') => (BinOp::Ge, 2),
        (b'<', c) if c != b'<' => (BinOp::Lt, 1),
        (b'>', c) if c != b'>' => (BinOp::Gt, 1),
        (b'*', b'*') => (BinOp::Pow, 2),
        (b'/', b'/') => (BinOp::FloorDiv, 2),
        (b'+', _) => (BinOp::Add, 1),
        (b'-', c) if c != b'>' => (BinOp::Sub, 1),
        (b'*', _) => (BinOp::Mul, 1),
        (b'/', _) => (BinOp::Div, 1),
        (b'%', _) => (BinOp::Mod, 1),
        (b'@', _) => (BinOp::MatMul, 1),
        (b'|', _) => (BinOp::BitOr, 1),
        (b'^', _) => (BinOp::BitXor, 1),
        (b'&', _) => (BinOp::BitAnd, 1),
        _ => return None,
    };
    if !op.is_comparison() && at(len) == b'=' {
        return None;
    }
    let power = match op {
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => 40,
        BinOp::BitOr => 50,
        BinOp::BitXor => 60,
        BinOp::BitAnd => 70,
        BinOp::Add | BinOp::Sub => 80,
        BinOp::Mul | BinOp::Div | BinOp::FloorDiv | BinOp::Mod | BinOp::MatMul => 90,
        BinOp::Pow => 110,
        _ => return None,
    };
    Some((op, len, power))
}

/// A decimal int (`0`, `42`) or a float with digits on both sides of its point (`1.5`) at
/// `i`, with where it ends; `None` for any other way of writing a number, or an int past
/// 64 bits.
pub(super) fn number(b: &[u8], i: usize) -> Option<(ExprKind, usize)> {
    let digits = |mut j: usize| {
        while b.get(j).is_some_and(u8::is_ascii_digit) {
            j += 1;
        }
        j
    };
    let mut end = digits(i);
    let float = b.get(end) == Some(&b'.');
    if float {
        if !b.get(end + 1).is_some_and(u8::is_ascii_digit) {
            return None;
        }
        end = digits(end + 1);
    }
    if b.get(end)
        .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.'))
    {
        return None;
    }
    let text = std::str::from_utf8(&b[i..end]).ok()?;
    if float {
        return Some((ExprKind::Float(text.parse().ok()?), end));
    }
    if text.len() > 1 && text.starts_with('0') {
        return None;
    }
    Some((ExprKind::Int(text.parse().ok()?), end))
}
