//! Group testing in the spirit of Hwang's generalized binary splitting. Removing a block is
//! a group test: it fails exactly when the block holds a needed item (for a predicate with
//! one minimal set). Hwang picks blocks of `2^floor(log2((u - d + 1) / d))` items out of `u`
//! unknown ones when `d` needed items remain; here `d` is estimated from the verdicts so
//! far. A failing block is binary-searched for one needed item, which is kept for good; the
//! clean halves met on the way are removed and the rest goes back to the pool. Every kept
//! item is thus proven needed (a known-failing group shrunk to it), so no final pass is run.

use std::collections::VecDeque;

use super::{Strategy, sorted};

/// Which end of the pool (in walking order) the next block is taken from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    Front = 0,
    Back = 1,
}

impl Side {
    fn other(self) -> Side {
        match self {
            Side::Front => Side::Back,
            Side::Back => Side::Front,
        }
    }
}

/// What the last `next` proposed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pending {
    /// The first `k` items of the pool from the current side.
    Block(usize),
    /// The first `h` items of the known-failing group from the current side (about half
    /// of it, see [`Gbs::half_len`]).
    Half(usize),
    /// The whole pool while a group is searched (see [`Gbs::rest_first`]).
    Rest,
    /// The other half of a group whose half on the current side just failed (see
    /// [`Gbs::rest_first`]).
    Other,
}

/// Generalized binary splitting with an estimated number of needed items.
///
/// The estimate: before any verdict one needed item is assumed, so the first block is the
/// whole list (with `allow_empty` off that block is known to fail and is not asked). After
/// that, with `j` items found needed and `r` removed, the unknown `u` items are expected to
/// hold `d = u * j / (r + j + 1)` needed ones; when `d <= 1` the whole pool is one block.
///
/// Blocks are taken alternately from the front and the back of the pool, switching after
/// each needed item found. For scattered items the side does not matter; for one run of
/// needed items it brackets the run with two binary searches, so its inside is then proven
/// on exactly the final list (where the driver's next round finds its candidates cached).
/// After an item found right next to the previous one on the same side (a gap of zero) the
/// blocks on that side restart at one item and double while they succeed: a local run
/// should not be searched with blocks sized for the global density.
#[derive(Debug, Clone)]
pub struct Gbs {
    /// Items not yet classified, in walking order.
    pool: VecDeque<usize>,
    /// A group known to fail when removed whole (it holds a needed item), in walking order;
    /// empty when no search is under way.
    group: Vec<usize>,
    /// Items proven needed.
    needed: Vec<usize>,
    /// Items removed so far.
    removed: usize,
    /// Items removed by the search under way.
    search_gap: usize,
    side: Side,
    /// Per side: items removed between the last two needed items found on it.
    last_gap: [Option<usize>; 2],
    /// Per side: items removed since the last needed item found on it.
    run: [usize; 2],
    allow_empty: bool,
    /// Needed items assumed before any verdict (0 or 1; see [`Gbs::dense`]).
    prior: usize,
    /// Whether the pool is tried whole once the first block fails, and the other half of
    /// a group when its half on the current side fails (see [`Gbs::rest_first`]).
    rest_first: bool,
    /// Whether the pool was tried whole already.
    rest_tried: bool,
    /// That other half, while it waits for its test.
    other: Vec<usize>,
    /// Known-failing groups searched once `group` is done (the last first), each from the
    /// side it is to be searched from: other halves that failed too.
    held: Vec<(Vec<usize>, Side)>,
    pending: Option<Pending>,
    /// The model's chance that the pending proposal is interesting (see [`Gbs::chance`]).
    chance: Option<f64>,
    /// Each item's weight by index (see [`Gbs::weighted`]); empty when all weigh the same.
    weights: Vec<u64>,
}

impl Gbs {
    /// A strategy over `order` (the item indices in walking order).
    pub fn new(order: Vec<usize>, allow_empty: bool) -> Self {
        Gbs {
            pool: order.into(),
            group: Vec::new(),
            needed: Vec::new(),
            removed: 0,
            search_gap: 0,
            side: Side::Front,
            last_gap: [None, None],
            run: [0, 0],
            allow_empty,
            prior: 0,
            rest_first: false,
            rest_tried: false,
            other: Vec::new(),
            held: Vec::new(),
            pending: None,
            chance: None,
            weights: Vec::new(),
        }
    }

    /// The same strategy for a list whose items are expected to be mostly needed (they all
    /// survived an earlier pass over the same list): the estimate starts from one needed
    /// item already seen instead of one in the whole pool, so the first blocks are single
    /// items and grow only as removals succeed.
    pub fn dense(mut self) -> Self {
        self.prior = 1;
        self
    }

    /// The same strategy for one value whose units are tried with little patience (the
    /// shrink pass): when the first half of the list fails, the other half is tried whole
    /// before the failing one is searched. Without it a value needed only at its start
    /// (`title="s` out of `title="script..."`) spends the patience on ever smaller front
    /// blocks and keeps everything; with it the tail goes in the second call, and a value
    /// needed whole still costs the same calls.
    ///
    /// The same holds at every step of a search until something goes: when a half fails,
    /// the other half is tried before the failing one is searched, and if it fails too
    /// it waits, known to fail, for a search of its own (from its far end: needed units
    /// lie together, and the near end touches the half that failed). A value's needed
    /// units are most often at its ends (the `M` and the closing arc of SVG path data, a
    /// URL's scheme, a call's name and its `)`): with both ends needed, the search of the
    /// front half failed on ever smaller outer halves and the patience ran out before
    /// anything went; now the inner half goes in the second call of that search. Once
    /// something went, the patience no longer ends the list and the search goes on as
    /// usual; a value needed whole still costs its patience.
    pub fn rest_first(mut self) -> Self {
        self.rest_first = true;
        self
    }

    /// The same strategy for items of unequal weights (the bytes each removal takes away):
    /// the list's first search, before any needed item is found, splits its known-failing
    /// group where the group's weight is halved rather than its count, within a quarter
    /// and three quarters of its items. Whatever a test needs lies likelier in a heavy
    /// item than in a light one (a library's bug in its one 480 KB function rather than in
    /// any of its 250 small ones), so that search halves the chance rather than the count.
    /// Once an item is found, the needed ones left are as often small declarations the
    /// found one uses as anything heavy, and the halves are even again.
    pub fn weighted(mut self, weights: Vec<u64>) -> Self {
        self.weights = weights;
        self
    }

    /// How many items of the known-failing group, from the current side, the next half
    /// holds: half of them, or in a weighted list's first search (see [`Gbs::weighted`])
    /// as many as hold the weight nearest to half of the group's, between a quarter and
    /// three quarters of them.
    fn half_len(&self) -> usize {
        let g = self.group.len();
        let even = g / 2;
        if self.weights.is_empty() || g < 4 || !self.needed.is_empty() || self.prior > 0 {
            return even;
        }
        // Every item weighs a byte more than it takes away: a list of empty items splits
        // by count.
        let weight = |i: usize| self.weights.get(i).map_or(1, |w| w.saturating_add(1));
        let from_side: Vec<u64> = match self.side {
            Side::Front => self.group.iter().map(|&i| weight(i)).collect(),
            Side::Back => self.group.iter().rev().map(|&i| weight(i)).collect(),
        };
        let total: u64 = from_side.iter().sum();
        let (low, high) = (g / 4, g - g / 4);
        let mut best = (u64::MAX, even);
        let mut sum = 0u64;
        for (h, w) in (1..=high).zip(&from_side) {
            sum += w;
            if h >= low {
                best = best.min((sum.abs_diff(total - sum), h));
            }
        }
        best.1
    }

    /// True when the next proposal is the whole pool, tried beside a search (see
    /// [`Gbs::rest_first`]): nothing is known yet but that the first block holds a needed
    /// item (a list whose length is not a power of two has a pool left beside it).
    fn rest_due(&self) -> bool {
        self.rest_first
            && !self.rest_tried
            && self.removed == 0
            && self.needed.is_empty()
            && !self.group.is_empty()
            && !self.pool.is_empty()
    }

    /// The number of pool items to test next, from the estimate described on [`Gbs`].
    fn block_size(&self) -> usize {
        let u = self.pool.len();
        let found = self.needed.len() + self.prior;
        let resolved = self.removed + found + 1;
        let mut k = if found == 0 && self.removed == 0 {
            // Nothing known yet: Hwang's block for d = 1.
            power_of_two_at_most(u)
        } else if u * found <= resolved {
            // d = u * found / resolved <= 1: at most one left, test them all at once.
            u
        } else {
            // (u - d + 1) / d = (u + 1) / d - 1 = (u + 1) * resolved / (u * found) - 1.
            let ratio = ((u + 1) * resolved / (u * found)).saturating_sub(1);
            power_of_two_at_most(ratio.max(1)).min(u)
        };
        let side = self.side as usize;
        // Removals on this side since its last needed item that run past twice the mean
        // gap between needed items make a sparse stretch, whatever the density elsewhere:
        // blocks grow with it (as large as the run so far, doubling as Lithium's do), so
        // that a dense list's long removable run costs calls in its logarithm, not in its
        // length.
        if self.run[side] * found > 2 * resolved {
            k = k.max(power_of_two_at_most(self.run[side]).min(u));
        }
        if self.last_gap[side] == Some(0) {
            k = k.min(power_of_two_at_most(self.run[side] + 1));
        }
        k
    }

    /// The chance that `k` unknown items hold no needed one, each being needed with the
    /// share of needed items among those resolved so far (smoothed; before any verdict,
    /// one needed item among the unknown ones, as [`Gbs::block_size`] assumes).
    fn block_chance(&self, k: usize) -> f64 {
        let found = (self.needed.len() + self.prior) as f64;
        let q = if found == 0.0 && self.removed == 0 {
            1.0 / (self.pool.len() + self.group.len()).max(1) as f64
        } else {
            (found + 0.5) / (found + self.removed as f64 + 1.0)
        };
        let k = i32::try_from(k).unwrap_or(i32::MAX);
        (1.0 - q).powi(k)
    }

    /// The chance that the `h` items of a half hold no needed one, given that the `g` of
    /// the group hold at least one, each item being needed with the share of
    /// [`Gbs::block_chance`]. With few needed items this is near `(g - h) / g` (one needed
    /// item, as likely anywhere); with more it falls, since the half then often holds one
    /// of several.
    fn half_chance(&self, g: usize, h: usize) -> f64 {
        let clean = |k: usize| self.block_chance(k);
        let holds = 1.0 - clean(g);
        if holds < 1e-9 {
            return (g - h) as f64 / g as f64;
        }
        clean(h) * (1.0 - clean(g - h)) / holds
    }

    /// The positions of `len` items taken from the current side of a sequence of `total`.
    fn take_range(&self, total: usize, len: usize) -> std::ops::Range<usize> {
        match self.side {
            Side::Front => 0..len,
            Side::Back => total - len..total,
        }
    }

    /// Records that the search ended on `item`: it stays for good.
    fn found(&mut self, item: usize, gap: usize) {
        self.needed.push(item);
        let side = self.side as usize;
        let gap = self.run[side] + gap;
        self.last_gap[side] = Some(gap);
        self.run[side] = 0;
        if gap > 0 {
            self.side = self.side.other();
        }
    }
}

/// The largest power of two not above `n` (`n >= 1`).
fn power_of_two_at_most(n: usize) -> usize {
    1 << (usize::BITS - 1 - n.max(1).leading_zeros())
}

impl Strategy for Gbs {
    fn next(&mut self) -> Option<Vec<usize>> {
        debug_assert!(self.pending.is_none(), "next called twice without feedback");
        loop {
            // Before the search goes on: its gap and side count what the other half
            // removed.
            if !self.other.is_empty() {
                self.chance = Some(self.block_chance(self.other.len()));
                self.pending = Some(Pending::Other);
                return Some(sorted(self.other.clone()));
            }
            if let [only] = self.group[..] {
                // A known-failing group of one: that item is needed, no test required.
                self.group.clear();
                self.found(only, self.search_gap);
                continue;
            }
            if self.group.is_empty()
                && let Some((group, side)) = self.held.pop()
            {
                self.group = group;
                self.search_gap = 0;
                self.side = side;
                continue;
            }
            if self.rest_due() {
                self.chance = Some(self.block_chance(self.pool.len()));
                self.pending = Some(Pending::Rest);
                return Some(sorted(self.pool.iter().copied().collect()));
            }
            if !self.group.is_empty() {
                let h = self.half_len();
                let half = self.take_range(self.group.len(), h);
                let g = self.group.len();
                self.chance = Some(self.half_chance(g, half.len()));
                self.pending = Some(Pending::Half(h));
                return Some(sorted(self.group[half].to_vec()));
            }
            if self.pool.is_empty() {
                return None;
            }
            let k = self.block_size();
            let range = self.take_range(self.pool.len(), k);
            if k == self.pool.len() && self.needed.is_empty() && !self.allow_empty {
                // Removing everything is never interesting: the whole pool is a
                // known-failing group without asking.
                self.group = self.pool.drain(..).collect();
                self.search_gap = 0;
                continue;
            }
            self.chance = Some(self.block_chance(k));
            self.pending = Some(Pending::Block(k));
            return Some(sorted(self.pool.range(range).copied().collect()));
        }
    }

    fn feedback(&mut self, interesting: bool) {
        let Some(pending) = self.pending.take() else {
            return;
        };
        let side = self.side as usize;
        match (pending, interesting) {
            (Pending::Block(k), true) => {
                let range = self.take_range(self.pool.len(), k);
                self.pool.drain(range);
                self.removed += k;
                self.run[side] += k;
            }
            (Pending::Block(k), false) => {
                let range = self.take_range(self.pool.len(), k);
                self.group = self.pool.drain(range).collect();
                self.search_gap = 0;
            }
            (Pending::Rest, true) => {
                self.removed += self.pool.len();
                self.run[side] += self.pool.len();
                self.pool.clear();
            }
            // The pool holds a needed item too: it waits, whole, for its own search from
            // the back.
            (Pending::Rest, false) => {
                self.rest_tried = true;
                let pool: Vec<usize> = self.pool.drain(..).collect();
                self.held.push((pool, Side::Back));
            }
            (Pending::Other, true) => {
                self.removed += self.other.len();
                self.search_gap += self.other.len();
                self.other.clear();
            }
            // The other half holds a needed item too: it waits, whole, for its own search.
            (Pending::Other, false) => {
                let other = std::mem::take(&mut self.other);
                self.held.push((other, self.side.other()));
            }
            (Pending::Half(h), true) => {
                let range = self.take_range(self.group.len(), h);
                self.group.drain(range);
                self.removed += h;
                self.search_gap += h;
            }
            (Pending::Half(h), false) => {
                // The tested half holds a needed item; the other half is unknown again and
                // is tried next, or goes back to its place at this end of the pool.
                if self.rest_first && self.removed == 0 {
                    let tested = self.take_range(self.group.len(), h);
                    let mut group: Vec<usize> = self.group.drain(tested).collect();
                    std::mem::swap(&mut group, &mut self.group);
                    self.other = group;
                    return;
                }
                match self.side {
                    Side::Front => {
                        let rest = self.group.split_off(h);
                        for &item in rest.iter().rev() {
                            self.pool.push_front(item);
                        }
                    }
                    Side::Back => {
                        let tested = self.group.split_off(self.group.len() - h);
                        self.pool.extend(self.group.iter().copied());
                        self.group = tested;
                    }
                }
            }
        }
    }

    fn kept(&self) -> Vec<usize> {
        let mut kept: Vec<usize> = self.pool.iter().copied().collect();
        kept.extend_from_slice(&self.group);
        kept.extend_from_slice(&self.other);
        kept.extend(
            self.held
                .iter()
                .flat_map(|(group, _)| group.iter().copied()),
        );
        kept.extend_from_slice(&self.needed);
        sorted(kept)
    }

    fn clone_box(&self) -> Box<dyn Strategy> {
        Box::new(self.clone())
    }

    fn chance(&self) -> Option<f64> {
        self.chance
    }
}
