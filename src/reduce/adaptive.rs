//! Adaptive delta debugging (MacIver, "Adaptive delta debugging"): greedy deletion in which,
//! at each position, `find_change_point` searches for the longest block that can go from
//! there: a linear probe of blocks 1 to 5 (cheap when blocks are short), then doubling, then
//! a binary search between the last size that went and the first that did not. Every probe
//! removes only what is not yet removed, so a success is committed at once, as the driver
//! requires. One pass is enough for monotone predicates: each kept item is the first one
//! whose removal failed on top of the block before it.

use super::{Strategy, sorted};

/// Block sizes tried one by one before doubling (`linear_cap` in the article is 6, an
/// exclusive bound on the block size).
const LINEAR: usize = 5;

/// Where `find_change_point` is at the current position. All counts are in items beyond
/// those already removed there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Probe {
    /// Growing the block one item at a time; `removed` items went so far.
    Linear { removed: usize },
    /// Doubling the block: the next probe removes `removed` more items.
    Doubling { removed: usize },
    /// The next `failing` items cannot all go; the change point is inside them.
    Binary { failing: usize },
}

/// Adaptive ddmin, one pass in walking order.
#[derive(Debug, Clone)]
pub struct AdaptiveDdmin {
    /// Items still present, in walking order.
    current: Vec<usize>,
    /// Position in `current` where blocks start.
    at: usize,
    probe: Probe,
    allow_empty: bool,
    /// Number of items from `at` proposed by the last `next`.
    pending: Option<usize>,
}

impl AdaptiveDdmin {
    /// A strategy over `order` (the item indices in walking order).
    pub fn new(order: Vec<usize>, allow_empty: bool) -> Self {
        AdaptiveDdmin {
            current: order,
            at: 0,
            probe: Probe::Linear { removed: 0 },
            allow_empty,
            pending: None,
        }
    }

    /// The next block length to try at `at`, or `None` when the position is settled.
    fn extra(&mut self) -> Option<usize> {
        let available = self.current.len() - self.at;
        if available == 0 {
            return None;
        }
        match self.probe {
            Probe::Linear { removed } if removed < LINEAR => Some(1),
            Probe::Linear { removed } | Probe::Doubling { removed } => {
                self.probe = Probe::Doubling { removed };
                Some(removed.min(available))
            }
            Probe::Binary { failing } if failing > 1 => Some(failing / 2),
            Probe::Binary { .. } => None,
        }
    }

    fn apply(&mut self, extra: usize, interesting: bool) {
        if interesting {
            self.current.drain(self.at..self.at + extra);
        }
        self.probe = match (self.probe, interesting) {
            (Probe::Linear { removed }, true) => Probe::Linear {
                removed: removed + 1,
            },
            (Probe::Linear { .. }, false) => {
                // The very next item cannot go: it stays, and the walk moves on.
                self.at += 1;
                Probe::Linear { removed: 0 }
            }
            (Probe::Doubling { removed }, true) => Probe::Doubling {
                removed: removed + extra,
            },
            (Probe::Doubling { .. }, false) => Probe::Binary { failing: extra },
            (Probe::Binary { failing }, true) => Probe::Binary {
                failing: failing - extra,
            },
            (Probe::Binary { .. }, false) => Probe::Binary { failing: extra },
        };
    }
}

impl Strategy for AdaptiveDdmin {
    fn next(&mut self) -> Option<Vec<usize>> {
        debug_assert!(self.pending.is_none(), "next called twice without feedback");
        while self.at < self.current.len() {
            let Some(extra) = self.extra() else {
                // Either nothing is left after `at`, or the item at `at` failed to go on
                // top of the removed block (a binary search ended on it): it stays.
                self.at += 1;
                self.probe = Probe::Linear { removed: 0 };
                continue;
            };
            if self.at == 0 && extra == self.current.len() && !self.allow_empty {
                // Removing everything is never interesting: record the failure unasked.
                self.apply(extra, false);
                continue;
            }
            self.pending = Some(extra);
            let mut block = self.current[self.at..self.at + extra].to_vec();
            block.sort_unstable();
            return Some(block);
        }
        None
    }

    fn feedback(&mut self, interesting: bool) {
        if let Some(extra) = self.pending.take() {
            self.apply(extra, interesting);
        }
    }

    fn kept(&self) -> Vec<usize> {
        sorted(self.current.clone())
    }

    fn clone_box(&self) -> Box<dyn Strategy> {
        Box::new(self.clone())
    }
}
