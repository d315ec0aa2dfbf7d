//! List strategies: pure state machines over item indices `0..n`. A strategy proposes the
//! next candidate (a set of items to remove on top of those already removed) and is told the
//! verdict. Nothing here does IO or knows a language; the driver, the simulations and the
//! tests all drive strategies the same way, which is what makes call counts exact and
//! speculative parallel evaluation deterministic.
//!
//! Every strategy ends with a result that is 1-minimal for monotone predicates (no single
//! item can go), and none proposes a candidate whose verdict it can already deduce cheaply
//! for such predicates (removing everything when `allow_empty` is off, removing an item
//! proven needed). Lithium is kept exactly as published and re-tests its size-1 pass.
//!
//! ```
//! use treereduce::reduce::{reduce, StrategyKind, StrategyOptions};
//!
//! // Keep only what makes the "bug" happen: the list still contains 3 and 7.
//! let items: Vec<u32> = (0..100).collect();
//! for kind in [StrategyKind::Lithium, StrategyKind::default()] {
//!     let mut calls = 0;
//!     let result = reduce(&items, kind, &StrategyOptions::default(), |kept| {
//!         calls += 1;
//!         kept.contains(&3) && kept.contains(&7)
//!     });
//!     assert_eq!(result, vec![3, 7]);
//!     assert!(calls < 40, "{} took {calls} calls", kind.name());
//! }
//! ```

mod adaptive;
mod ddmin;
mod gbs;
mod greedy;
mod lithium;

pub use adaptive::AdaptiveDdmin;
pub use ddmin::Ddmin;
pub use gbs::Gbs;
pub use greedy::Greedy;
pub use lithium::Lithium;

/// A list-reduction strategy as a state machine.
///
/// The protocol: call [`Strategy::next`]; if it returns a candidate, test the current list
/// without those items and report the verdict with [`Strategy::feedback`] before calling
/// `next` again. When `next` returns `None` the strategy is done and [`Strategy::kept`] is
/// the result.
pub trait Strategy {
    /// The items to remove in the next candidate (indices into the original list, never
    /// empty, never already removed), or `None` when done.
    fn next(&mut self) -> Option<Vec<usize>>;
    /// The verdict on the candidate last returned by `next`: `true` commits the removal.
    fn feedback(&mut self, interesting: bool);
    /// Items still present, ascending.
    fn kept(&self) -> Vec<usize>;
    /// A copy in the same state; the parallel evaluator explores ahead on copies.
    fn clone_box(&self) -> Box<dyn Strategy>;
    /// The strategy's own estimate of the chance that the candidate `next` returned last
    /// is interesting, from its model of where the needed items are; `None` without one.
    /// It only guides speculation (which calls run early), never a result.
    fn chance(&self) -> Option<f64> {
        None
    }
}

/// `items` in ascending order: what every strategy's [`Strategy::kept`] returns.
fn sorted(mut items: Vec<usize>) -> Vec<usize> {
    items.sort_unstable();
    items
}

/// The order in which a strategy walks the items.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Order {
    /// First to last.
    #[default]
    Forward,
    /// Last to first: later items often depend on earlier ones.
    Reverse,
    /// A permutation drawn from the seed in [`StrategyOptions::seed`].
    Random,
}

/// Settings shared by all strategies.
#[derive(Debug, Clone)]
pub struct StrategyOptions {
    /// Walking order.
    pub order: Order,
    /// Seed for [`Order::Random`] and randomized strategies.
    pub seed: u64,
    /// Whether removing every item is a candidate worth testing. False for a whole test
    /// case (the empty input is never interesting); true for one list among many in a tree.
    pub allow_empty: bool,
    /// The items all survived an earlier pass over the same list (HDD*'s later rounds), so
    /// most are expected to be needed. Only [`Gbs`] uses it (see [`Gbs::dense`]).
    pub dense: bool,
    /// The list is the units of one value, tried with little patience (the shrink pass):
    /// after the first half fails, try the other half before searching the first. Only
    /// [`Gbs`] uses it (see [`Gbs::rest_first`]).
    pub rest_first: bool,
    /// Each item's weight (the bytes its removal takes away), by item index; empty when
    /// all weigh the same. Only [`Gbs`] uses it (see [`Gbs::weighted`]).
    pub weights: Vec<u64>,
}

impl Default for StrategyOptions {
    fn default() -> Self {
        StrategyOptions {
            order: Order::Forward,
            seed: 0,
            allow_empty: false,
            dense: false,
            rest_first: false,
            weights: Vec::new(),
        }
    }
}

/// The strategies that can be chosen by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StrategyKind {
    /// Lithium's chunk removal: power-of-two chunks from about half the list down to 1,
    /// no restart after a success, size 1 repeated until a pass removes nothing.
    Lithium,
    /// Zeller and Hildebrandt's ddmin: keep one chunk, remove one chunk, refine.
    Ddmin,
    /// Adaptive ddmin: greedy walk that grows each deletion with `find_change_point`.
    AdaptiveDdmin,
    /// One greedy pass of single-item deletions without restarts.
    Greedy,
    /// Generalized binary splitting with an estimated number of needed items; the fewest
    /// calls in the simulations (`examples/simulate.rs`), hence the default.
    #[default]
    Gbs,
}

impl StrategyKind {
    /// Every strategy, for benchmarks and property tests.
    pub const ALL: &'static [StrategyKind] = &[
        StrategyKind::Lithium,
        StrategyKind::Ddmin,
        StrategyKind::AdaptiveDdmin,
        StrategyKind::Greedy,
        StrategyKind::Gbs,
    ];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            StrategyKind::Lithium => "lithium",
            StrategyKind::Ddmin => "ddmin",
            StrategyKind::AdaptiveDdmin => "adaptive-ddmin",
            StrategyKind::Greedy => "greedy",
            StrategyKind::Gbs => "gbs",
        }
    }

    /// Looks a strategy up by its command-line name.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|k| k.name() == name)
    }

    /// A fresh strategy over `n` items.
    pub fn build(self, n: usize, options: &StrategyOptions) -> Box<dyn Strategy> {
        let order = permutation(n, options);
        let allow_empty = options.allow_empty;
        match self {
            StrategyKind::Lithium => Box::new(Lithium::new(order, allow_empty)),
            StrategyKind::Ddmin => Box::new(Ddmin::new(order, allow_empty)),
            StrategyKind::AdaptiveDdmin => Box::new(AdaptiveDdmin::new(order, allow_empty)),
            StrategyKind::Greedy => Box::new(Greedy::new(order, allow_empty)),
            StrategyKind::Gbs => {
                let mut gbs = Gbs::new(order, allow_empty);
                if options.dense {
                    gbs = gbs.dense();
                }
                if options.rest_first {
                    gbs = gbs.rest_first();
                }
                if options.weights.len() == n {
                    gbs = gbs.weighted(options.weights.clone());
                }
                Box::new(gbs)
            }
        }
    }
}

/// The item indices in walking order.
pub fn permutation(n: usize, options: &StrategyOptions) -> Vec<usize> {
    let mut items: Vec<usize> = (0..n).collect();
    match options.order {
        Order::Forward => {}
        Order::Reverse => items.reverse(),
        Order::Random => {
            let mut rng = SplitMix64(options.seed);
            for i in (1..n).rev() {
                let j = (rng.next_u64() % (i as u64 + 1)) as usize;
                items.swap(i, j);
            }
        }
    }
    items
}

/// A tiny seeded generator (SplitMix64): deterministic across platforms and runs.
#[derive(Debug, Clone)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// Drives `strategy` with an in-process predicate over the kept indices until it is done;
/// returns the kept indices and the number of predicate calls.
pub fn run(
    mut strategy: Box<dyn Strategy>,
    n: usize,
    mut interesting: impl FnMut(&[usize]) -> bool,
) -> (Vec<usize>, usize) {
    let mut present = vec![true; n];
    let mut calls = 0;
    while let Some(candidate) = strategy.next() {
        for &i in &candidate {
            present[i] = false;
        }
        let kept: Vec<usize> = (0..n).filter(|&i| present[i]).collect();
        calls += 1;
        let verdict = interesting(&kept);
        if !verdict {
            for &i in &candidate {
                present[i] = true;
            }
        }
        strategy.feedback(verdict);
    }
    (strategy.kept(), calls)
}

/// Reduces `items` with the strategy `kind` and a predicate over the kept items; returns
/// the kept items in their original order.
pub fn reduce<T: Clone>(
    items: &[T],
    kind: StrategyKind,
    options: &StrategyOptions,
    mut interesting: impl FnMut(&[T]) -> bool,
) -> Vec<T> {
    let strategy = kind.build(items.len(), options);
    let (kept, _) = run(strategy, items.len(), |kept| {
        let list: Vec<T> = kept.iter().map(|&i| items[i].clone()).collect();
        interesting(&list)
    });
    kept.into_iter().map(|i| items[i].clone()).collect()
}
