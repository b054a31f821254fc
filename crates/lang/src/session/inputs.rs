//! The cells a user typed this session, whole and numbered as their prompts were, for
//! `%history` (the sources kept for diagnostics are split at command lines).

use super::Session;

impl Session {
    /// Keeps `src` as the cell about to run, numbered as the next input. A cell run inside
    /// another (a `%load`ed file) is part of that one and is not kept again.
    pub fn record_input(&mut self, src: &str) {
        if !self.held {
            self.inputs.push((self.counter + 1, src.to_string()));
        }
    }

    /// The cells typed so far, with their numbers, oldest first (the running one last).
    pub fn inputs(&self) -> &[(usize, String)] {
        &self.inputs
    }
}
