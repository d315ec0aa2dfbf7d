//! Zeller and Hildebrandt's ddmin: split the list into `n` chunks, try keeping a single
//! chunk (removing its complement), then removing a single chunk, and double `n` when
//! neither works; after a success start over with `n = 2` (subset) or `n - 1` (complement).
//! It stops when `n` equals the list length and no single item can go, which proves the
//! result 1-minimal. With two chunks the two kinds of test coincide, so only one is run.
//!
//! Verdicts that a monotone predicate implies are not asked (the paper's outcome cache,
//! extended by monotonicity): a candidate fails unasked when it keeps a subset of a kept
//! set that failed, or keeps none of the still-present items of a removal that failed. The
//! remembered sets are the small side of each failed test, one chunk each.

use super::{Strategy, sorted};

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
    /// `present[item]`, for the deductions.
    present: Vec<bool>,
    /// Number of chunks.
    chunks: usize,
    phase: Phase,
    /// Kept sets (sorted) of failed "keep only" tests.
    failed_keeps: Vec<Vec<usize>>,
    /// `keeps_with[item]`: indices into `failed_keeps` of the sets holding `item`.
    keeps_with: Vec<Vec<usize>>,
    /// Removed sets of failed "remove" tests.
    failed_removals: Vec<Vec<usize>>,
    allow_empty: bool,
    /// The items proposed by the last `next`, and the items that candidate keeps (sorted).
    pending: Option<(Vec<usize>, Vec<usize>)>,
}

impl Ddmin {
    /// A strategy over `order` (the item indices in walking order).
    pub fn new(order: Vec<usize>, allow_empty: bool) -> Self {
        let size = order.iter().max().map_or(0, |&m| m + 1);
        let mut present = vec![false; size];
        for &i in &order {
            present[i] = true;
        }
        let mut ddmin = Ddmin {
            current: order,
            present,
            chunks: 2,
            phase: Phase::Subset(0),
            failed_keeps: Vec::new(),
            keeps_with: vec![Vec::new(); size],
            failed_removals: Vec::new(),
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

    /// Whether a monotone predicate must reject the candidate keeping the sorted `kept`.
    fn known_to_fail(&self, kept: &[usize]) -> bool {
        let is_kept = |i: &usize| kept.binary_search(i).is_ok();
        // A subset of a kept set that failed fails too (the empty set is inside any).
        if kept.is_empty() && !self.failed_keeps.is_empty() {
            return true;
        }
        if let Some(&first) = kept.first() {
            let inside = self.keeps_with[first].iter().any(|&k| {
                let failed = &self.failed_keeps[k];
                failed.len() >= kept.len() && kept.iter().all(|i| failed.binary_search(i).is_ok())
            });
            if inside {
                return true;
            }
        }
        // Keeping none of what is left of a failed removal is a subset of that failed
        // candidate. (Something of it is always left while the current list is interesting.)
        self.failed_removals.iter().rev().any(|removed| {
            let mut left = removed.iter().filter(|&&i| self.present[i]).peekable();
            left.peek().is_some() && !left.any(is_kept)
        })
    }
}

impl Strategy for Ddmin {
    fn next(&mut self) -> Option<Vec<usize>> {
        debug_assert!(self.pending.is_none(), "next called twice without feedback");
        loop {
            let (mut removed, mut kept) = match self.phase {
                Phase::Done => return None,
                Phase::Last => match self.current[..] {
                    [only] if self.allow_empty => (vec![only], vec![]),
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
                    let mut removed = self.current[..keep.start].to_vec();
                    removed.extend_from_slice(&self.current[keep.end..]);
                    (removed, self.current[keep].to_vec())
                }
                Phase::Complement(i) if i >= self.chunks => {
                    self.refine();
                    continue;
                }
                Phase::Complement(i) => {
                    let chunk = self.chunk(i);
                    let mut kept = self.current[..chunk.start].to_vec();
                    kept.extend_from_slice(&self.current[chunk.end..]);
                    (self.current[chunk].to_vec(), kept)
                }
            };
            kept.sort_unstable();
            removed.sort_unstable();
            let known = self.known_to_fail(&kept);
            self.pending = Some((removed.clone(), kept));
            if known {
                self.apply(false);
                continue;
            }
            return Some(removed);
        }
    }

    fn feedback(&mut self, interesting: bool) {
        self.apply(interesting);
    }

    fn kept(&self) -> Vec<usize> {
        sorted(self.current.clone())
    }

    fn clone_box(&self) -> Box<dyn Strategy> {
        Box::new(self.clone())
    }
}

impl Ddmin {
    /// Applies a verdict, asked or deduced, on the pending candidate.
    fn apply(&mut self, interesting: bool) {
        let Some((removed, kept)) = self.pending.take() else {
            return;
        };
        if !interesting {
            // Remember the small side of the failed candidate.
            match self.phase {
                Phase::Subset(_) => {
                    for &item in &kept {
                        self.keeps_with[item].push(self.failed_keeps.len());
                    }
                    self.failed_keeps.push(kept);
                }
                _ => self.failed_removals.push(removed),
            }
            self.phase = match self.phase {
                Phase::Subset(i) => Phase::Subset(i + 1),
                Phase::Complement(i) => Phase::Complement(i + 1),
                Phase::Last | Phase::Done => Phase::Done,
            };
            return;
        }
        for &i in &removed {
            self.present[i] = false;
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
                self.current.clear();
                self.phase = Phase::Done;
            }
        }
    }
}
