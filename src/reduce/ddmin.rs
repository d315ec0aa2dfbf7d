//! Zeller and Hildebrandt's ddmin: split the list into `n` chunks, try keeping a single
//! chunk (removing its complement), then removing a single chunk, and double `n` when
//! neither works; after a success start over with `n = 2` (subset) or `n - 1` (complement).
//! It stops when `n` equals the list length and no single item can go, which proves the
//! result 1-minimal. With two chunks the two kinds of test coincide, so only one is run.
//! Items whose removal alone failed are remembered: for a monotone predicate any candidate
//! without them fails too, so such candidates are never proposed.

use super::Strategy;

/// Which kind of test ddmin is running, and on which chunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Keep only chunk `i`.
    Subset(usize),
    /// Remove chunk `i`.
    Complement(usize),
    /// One item is left: with `allow_empty`, try removing it.
    Last,
    Done,
}

/// ddmin over the walking order.
#[derive(Debug, Clone)]
pub struct Ddmin {
    /// Items still present, in walking order.
    current: Vec<usize>,
    /// Number of chunks.
    chunks: usize,
    phase: Phase,
    /// `needed[item]`: removing the item alone failed.
    needed: Vec<bool>,
    allow_empty: bool,
    /// The items proposed by the last `next`.
    pending: Option<Vec<usize>>,
}

impl Ddmin {
    /// A strategy over `order` (the item indices in walking order).
    pub fn new(order: Vec<usize>, allow_empty: bool) -> Self {
        let size = order.iter().max().map_or(0, |&m| m + 1);
        let mut ddmin = Ddmin {
            current: order,
            chunks: 2,
            phase: Phase::Subset(0),
            needed: vec![false; size],
            allow_empty,
            pending: None,
        };
        ddmin.restart(2);
        ddmin
    }

    /// Starts a round of subset tests with `chunks` chunks (clamped to the list length).
    fn restart(&mut self, chunks: usize) {
        self.chunks = chunks.min(self.current.len());
        self.phase = if self.current.len() <= 1 {
            Phase::Last
        } else {
            Phase::Subset(0)
        };
    }

    /// Chunk `i` of `self.chunks` as a range of `current`; sizes differ by at most one.
    fn chunk(&self, i: usize) -> std::ops::Range<usize> {
        let len = self.current.len();
        (i * len / self.chunks)..((i + 1) * len / self.chunks)
    }

    /// After a round without success: finer chunks, or done when they are single items.
    fn refine(&mut self) {
        if self.chunks < self.current.len() {
            self.restart(self.chunks * 2);
        } else {
            self.phase = Phase::Done;
        }
    }

    fn any_needed(&self, items: &[usize]) -> bool {
        items.iter().any(|&i| self.needed[i])
    }
}

impl Strategy for Ddmin {
    fn next(&mut self) -> Option<Vec<usize>> {
        debug_assert!(self.pending.is_none(), "next called twice without feedback");
        loop {
            let candidate = match self.phase {
                Phase::Done => return None,
                Phase::Last => match self.current.first() {
                    Some(&only) if self.allow_empty && !self.needed[only] => vec![only],
                    _ => {
                        self.phase = Phase::Done;
                        continue;
                    }
                },
                Phase::Subset(i) if i >= self.chunks => {
                    // With two chunks, removing one is keeping the other: already tried.
                    if self.chunks == 2 {
                        self.refine();
                    } else {
                        self.phase = Phase::Complement(0);
                    }
                    continue;
                }
                Phase::Subset(i) => {
                    let keep = self.chunk(i);
                    let mut remove = self.current[..keep.start].to_vec();
                    remove.extend_from_slice(&self.current[keep.end..]);
                    remove
                }
                Phase::Complement(i) if i >= self.chunks => {
                    self.refine();
                    continue;
                }
                Phase::Complement(i) => self.current[self.chunk(i)].to_vec(),
            };
            if self.any_needed(&candidate) {
                // Known to fail for a monotone predicate: skip it unasked.
                self.pending = Some(candidate);
                self.feedback_known(false);
                continue;
            }
            let mut sorted = candidate.clone();
            sorted.sort_unstable();
            self.pending = Some(candidate);
            return Some(sorted);
        }
    }

    fn feedback(&mut self, interesting: bool) {
        self.feedback_known(interesting);
    }

    fn kept(&self) -> Vec<usize> {
        let mut kept = self.current.clone();
        kept.sort_unstable();
        kept
    }

    fn clone_box(&self) -> Box<dyn Strategy> {
        Box::new(self.clone())
    }
}

impl Ddmin {
    /// Applies a verdict, asked or deduced, on the pending candidate.
    fn feedback_known(&mut self, interesting: bool) {
        let Some(removed) = self.pending.take() else {
            return;
        };
        if !interesting {
            if let [only] = removed[..] {
                self.needed[only] = true;
            }
            self.phase = match self.phase {
                Phase::Subset(i) => Phase::Subset(i + 1),
                Phase::Complement(i) => Phase::Complement(i + 1),
                Phase::Last | Phase::Done => Phase::Done,
            };
            return;
        }
        match self.phase {
            Phase::Subset(i) => {
                let keep = self.chunk(i);
                self.current = self.current[keep].to_vec();
                self.restart(2);
            }
            Phase::Complement(i) => {
                let chunk = self.chunk(i);
                self.current.drain(chunk);
                self.restart((self.chunks - 1).max(2));
            }
            Phase::Last | Phase::Done => {
                self.current.retain(|i| !removed.contains(i));
                self.phase = Phase::Done;
            }
        }
    }
}
