//! A variable's name as it appears in an expression or an assignment target, with a
//! remembered place: where the scope that last read or bound it through this node held it.
//!
//! A scope keeps its variables in order (a frame's short list, the globals' insertion-ordered
//! table), and a loop reads and binds the same names through the same nodes over and over.
//! The evaluator asks first whether the name is still at the remembered place — one
//! comparison — and searches only when it is not, then remembers the new place. The hint is
//! only ever a guess to check: a wrong or stale one costs a search, never a wrong answer.

use std::fmt;
use std::ops::Deref;
use std::sync::atomic::{AtomicU32, Ordering};

/// A name with the place its scope last held it (see the module docs).
pub struct Ident {
    name: String,
    /// The remembered place; `u32::MAX` when none yet. Relaxed loads and stores: it is a
    /// guess checked on every use, so no ordering with other memory is needed.
    hint: AtomicU32,
}

impl Ident {
    /// A name with no remembered place.
    pub fn new(name: impl Into<String>) -> Ident {
        Ident {
            name: name.into(),
            hint: AtomicU32::new(u32::MAX),
        }
    }

    /// The name.
    pub fn as_str(&self) -> &str {
        &self.name
    }

    /// The remembered place (`usize::MAX` when none).
    #[inline]
    pub fn hint(&self) -> usize {
        match self.hint.load(Ordering::Relaxed) {
            u32::MAX => usize::MAX,
            h => h as usize,
        }
    }

    /// Remembers `place` for the next use (places past `u32` are not remembered).
    #[inline]
    pub fn remember(&self, place: usize) {
        if let Ok(p) = u32::try_from(place) {
            self.hint.store(p, Ordering::Relaxed);
        }
    }
}

impl Deref for Ident {
    type Target = String;
    fn deref(&self) -> &String {
        &self.name
    }
}

impl Clone for Ident {
    fn clone(&self) -> Ident {
        Ident::new(self.name.clone())
    }
}

/// Two names are equal when their text is: the hint is not part of the syntax.
impl PartialEq for Ident {
    fn eq(&self, other: &Ident) -> bool {
        self.name == other.name
    }
}

impl PartialEq<str> for Ident {
    fn eq(&self, other: &str) -> bool {
        self.name == other
    }
}

impl PartialEq<&str> for Ident {
    fn eq(&self, other: &&str) -> bool {
        self.name == *other
    }
}

/// Shown as its text alone, as a plain string would be.
impl fmt::Debug for Ident {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.name, f)
    }
}

impl fmt::Display for Ident {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

impl From<String> for Ident {
    fn from(name: String) -> Ident {
        Ident::new(name)
    }
}

impl From<&str> for Ident {
    fn from(name: &str) -> Ident {
        Ident::new(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_a_place_and_compares_by_text_alone() {
        let a = Ident::new("acc");
        assert_eq!(a.hint(), usize::MAX);
        a.remember(3);
        assert_eq!(a.hint(), 3);
        assert_eq!(a, Ident::new("acc"));
        assert_eq!(a.clone().hint(), usize::MAX);
        assert_eq!(format!("{a} {a:?}"), "acc \"acc\"");
        a.remember(usize::MAX - 1);
        assert_eq!(a.hint(), 3, "a place past u32 is not remembered");
    }
}
