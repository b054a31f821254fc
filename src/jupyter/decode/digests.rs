//! Replayed messages: the signatures of recently accepted messages, as jupyter_client's
//! `Session.digest_history` keeps them, so a captured message sent again is recognised.

use std::collections::{HashSet, VecDeque};

/// How many signatures are remembered to recognise replays: jupyter_client's default
/// `digest_history_size`. At 32 bytes each, in a set and a queue, that stays below about
/// 7 MB however long the kernel runs.
pub const DIGEST_HISTORY: usize = 1 << 16;

/// The signatures of the last [`DIGEST_HISTORY`] accepted messages. A signature covers the
/// header, whose msg_id is unique, so seeing one twice means the message was captured and
/// sent again.
pub struct Digests {
    seen: HashSet<[u8; 32]>,
    order: VecDeque<[u8; 32]>,
    capacity: usize,
}

impl Digests {
    pub fn new(capacity: usize) -> Digests {
        Digests {
            seen: HashSet::new(),
            order: VecDeque::new(),
            capacity: capacity.max(1),
        }
    }

    /// Records `signature` (the hex frame of a verified message); false if it was already
    /// seen — a replay. When full, the oldest signature is forgotten.
    pub fn insert(&mut self, signature: &[u8]) -> bool {
        let Some(digest) = decode_hex(signature) else {
            // Cannot happen after verification (HMAC-SHA256 is 64 hex digits); accept rather
            // than drop a message the key vouches for.
            return true;
        };
        if self.seen.contains(&digest) {
            return false;
        }
        // Forget the oldest first, so neither collection ever outgrows its capacity.
        if self.order.len() >= self.capacity {
            if let Some(old) = self.order.pop_front() {
                self.seen.remove(&old);
            }
        }
        self.seen.insert(digest);
        self.order.push_back(digest);
        true
    }
}

fn decode_hex(text: &[u8]) -> Option<[u8; 32]> {
    if text.len() != 64 {
        return None;
    }
    let digit = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    let mut out = [0u8; 32];
    for (i, pair) in text.chunks(2).enumerate() {
        out[i] = digit(pair[0])? << 4 | digit(pair[1])?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests_catch_replays_and_stay_bounded() {
        let sig = |i: u32| format!("{i:064x}").into_bytes();
        let mut d = Digests::new(4);
        assert!(d.insert(&sig(1)));
        assert!(!d.insert(&sig(1)), "a replay");
        for i in 2..=6 {
            assert!(d.insert(&sig(i)));
        }
        assert_eq!(d.order.len(), 4);
        // The oldest were forgotten; the last four are still recognised.
        assert!(d.insert(&sig(1)));
        assert!(!d.insert(&sig(6)));
        assert_eq!(d.order.len(), 4);
        assert_eq!(d.seen.len(), 4);
        assert!(
            d.order.capacity() < 8,
            "the queue never outgrows its capacity"
        );
        // At the kernel's size: three times as many messages as it remembers.
        let mut d = Digests::new(DIGEST_HISTORY);
        for i in 0..3 * DIGEST_HISTORY as u32 {
            assert!(d.insert(&sig(i)));
        }
        assert_eq!(
            (d.order.len(), d.seen.len()),
            (DIGEST_HISTORY, DIGEST_HISTORY)
        );
        assert!(d.order.capacity() <= DIGEST_HISTORY);
        assert!(!d.insert(&sig(3 * DIGEST_HISTORY as u32 - 1)));
    }
}
