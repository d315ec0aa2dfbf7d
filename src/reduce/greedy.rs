//! Greedy deletion without restarts (MacIver, "Linear time (ish) test case reduction"): walk
//! the list once, try removing each item alone, and after a success stay at the same place
//! instead of starting over. One pass is enough: every kept item failed to go at some point,
//! and for a monotone predicate that failure holds for every later, smaller list.

use super::{Strategy, sorted};

/// One pass of single-item deletions in walking order.
#[derive(Debug, Clone)]
pub struct Greedy {
    /// Items still present, in walking order.
    current: Vec<usize>,
    /// Position in `current` of the next item to try.
    at: usize,
    allow_empty: bool,
    /// True between a proposal and its verdict.
    pending: bool,
}

impl Greedy {
    /// A strategy over `order` (the item indices in walking order).
    pub fn new(order: Vec<usize>, allow_empty: bool) -> Self {
        Greedy {
            current: order,
            at: 0,
            allow_empty,
            pending: false,
        }
    }
}

impl Strategy for Greedy {
    fn next(&mut self) -> Option<Vec<usize>> {
        debug_assert!(!self.pending, "next called twice without feedback");
        while self.at < self.current.len() {
            if self.current.len() == 1 && !self.allow_empty {
                // Removing the last item leaves the empty list, which is never interesting.
                self.at += 1;
                continue;
            }
            self.pending = true;
            return Some(vec![self.current[self.at]]);
        }
        None
    }

    fn feedback(&mut self, interesting: bool) {
        if !std::mem::take(&mut self.pending) {
            return;
        }
        if interesting {
            // The next item slides into this position: no restart, no skip.
            self.current.remove(self.at);
        } else {
            self.at += 1;
        }
    }

    fn kept(&self) -> Vec<usize> {
        sorted(self.current.clone())
    }

    fn clone_box(&self) -> Box<dyn Strategy> {
        Box::new(self.clone())
    }
}
