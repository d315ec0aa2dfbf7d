//! Simulation benchmark for the list strategies: `n` items of which `m` are needed (at
//! random positions or in one contiguous run), an in-process predicate, several seeds.
//! Prints markdown tables of median predicate calls per strategy and their ratio to
//! log2 C(n, m), the information-theoretic minimum. Run with
//! `cargo run --release --example simulate`.
//!
//! Two counts are shown. "Strategy alone" is one run of the state machine. "End to end" models
//! what `treereduce --format lines -j 1` reports as `oracle_calls`: one start-up call on
//! the original, then HDD* rounds (the strategy restarted on what is left, with
//! `allow_empty` on, until a round removes nothing), with repeated candidates answered from
//! a cache instead of the oracle.

use std::collections::BTreeMap;

use treereduce::reduce::{SplitMix64, StrategyKind, StrategyOptions, run};

const SEEDS: u64 = 5;

/// Which items a test case needs, and how.
#[derive(Clone)]
struct Case {
    n: usize,
    /// Items that must stay.
    needles: Vec<usize>,
    /// `(a, b)`: `a` is needed only while `b` is present (makes the predicate non-monotone).
    pairs: Vec<(usize, usize)>,
}

impl Case {
    fn interesting(&self, kept: &[usize]) -> bool {
        let has = |i: usize| kept.binary_search(&i).is_ok();
        self.needles.iter().all(|&i| has(i)) && self.pairs.iter().all(|&(a, b)| !has(b) || has(a))
    }
}

/// `m` distinct positions out of `n`, ascending.
fn sample(n: usize, m: usize, rng: &mut SplitMix64) -> Vec<usize> {
    // Partial Fisher-Yates: the first m of a random permutation.
    let mut all: Vec<usize> = (0..n).collect();
    for i in 0..m {
        let j = i + (rng.next_u64() % (n - i) as u64) as usize;
        all.swap(i, j);
    }
    let mut chosen = all[..m].to_vec();
    chosen.sort_unstable();
    chosen
}

#[derive(Clone, Copy, PartialEq)]
enum Layout {
    Random,
    Clustered,
}

fn case(n: usize, m: usize, layout: Layout, seed: u64) -> Case {
    let mut rng = SplitMix64(seed.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ (n * 1000 + m) as u64);
    let needles = match layout {
        Layout::Random => sample(n, m, &mut rng),
        Layout::Clustered => {
            let start = (rng.next_u64() % (n - m + 1) as u64) as usize;
            (start..start + m).collect()
        }
    };
    Case {
        n,
        needles,
        pairs: Vec::new(),
    }
}

/// The driver as `--format lines -j 1` runs it: start-up call, rounds, cache.
fn end_to_end(kind: StrategyKind, case: &Case) -> (Vec<usize>, usize) {
    let mut cache: BTreeMap<Vec<usize>, bool> = BTreeMap::new();
    let mut current: Vec<usize> = (0..case.n).collect();
    cache.insert(current.clone(), true);
    let mut calls = 1;
    loop {
        let before = current.len();
        let options = StrategyOptions {
            allow_empty: true,
            ..StrategyOptions::default()
        };
        let mut strategy = kind.build(current.len(), &options);
        // Proposals are removals on top of what this round already removed.
        let mut present = vec![true; current.len()];
        while let Some(remove) = strategy.next() {
            let candidate: Vec<usize> = current
                .iter()
                .enumerate()
                .filter(|&(i, _)| present[i] && remove.binary_search(&i).is_err())
                .map(|(_, &item)| item)
                .collect();
            let verdict = *cache.entry(candidate.clone()).or_insert_with(|| {
                calls += 1;
                case.interesting(&candidate)
            });
            if verdict {
                for &i in &remove {
                    present[i] = false;
                }
            }
            strategy.feedback(verdict);
        }
        current = strategy.kept().into_iter().map(|i| current[i]).collect();
        if current.len() == before {
            return (current, calls);
        }
    }
}

/// One run of the state machine on its own (`allow_empty` off, as for a whole file).
fn alone(kind: StrategyKind, case: &Case) -> (Vec<usize>, usize) {
    let strategy = kind.build(case.n, &StrategyOptions::default());
    run(strategy, case.n, |kept| case.interesting(kept))
}

fn log2_binomial(n: usize, m: usize) -> f64 {
    (0..m)
        .map(|i| ((n - i) as f64 / (i + 1) as f64).log2())
        .sum()
}

fn median(mut v: Vec<usize>) -> usize {
    v.sort_unstable();
    v[v.len() / 2]
}

type Runner = fn(StrategyKind, &Case) -> (Vec<usize>, usize);

/// Median calls over the seeds; panics if a result is not exactly the needles.
fn measure(runner: Runner, kind: StrategyKind, n: usize, m: usize, layout: Layout) -> usize {
    let calls = (0..SEEDS)
        .map(|seed| {
            let case = case(n, m, layout, seed);
            let (kept, calls) = runner(kind, &case);
            assert_eq!(kept, case.needles, "{} n={n} m={m}", kind.name());
            calls
        })
        .collect();
    median(calls)
}

fn header(first: &str) {
    let names: Vec<&str> = StrategyKind::ALL.iter().map(|k| k.name()).collect();
    println!("| {first} | {} |", names.join(" | "));
    println!("|{}", "---|".repeat(names.len() + 1));
}

fn table(title: &str, runner: Runner) {
    println!("\n### {title}: median calls over {SEEDS} seeds (ratio to log2 C(n,m))\n");
    header("n, m, layout, log2 C(n,m)");
    for n in [128, 1024, 4096] {
        for m in [1, 4, 16, 64] {
            for layout in [Layout::Random, Layout::Clustered] {
                if layout == Layout::Clustered && m == 1 {
                    continue;
                }
                let bound = log2_binomial(n, m);
                let cells: Vec<String> = StrategyKind::ALL
                    .iter()
                    .map(|&kind| {
                        let calls = measure(runner, kind, n, m, layout);
                        format!("{calls} ({:.2})", calls as f64 / bound)
                    })
                    .collect();
                let name = if layout == Layout::Random {
                    "random"
                } else {
                    "run"
                };
                println!("| {n}, {m}, {name}, {bound:.1} | {} |", cells.join(" | "));
            }
        }
    }
}

/// The numbers issue 4 asks of the default strategy, end to end.
fn targets() {
    println!("\n### Targets for the default strategy (end to end, median of {SEEDS} seeds)\n");
    println!(
        "| case | limit | {} | lithium | met |",
        StrategyKind::default().name()
    );
    println!("|---|---|---|---|---|");
    let cases = [
        (
            "n=1024, m=16 random",
            1024,
            16,
            Layout::Random,
            1.4 * log2_binomial(1024, 16),
        ),
        (
            "n=1024, m=4 random",
            1024,
            4,
            Layout::Random,
            1.4 * log2_binomial(1024, 4),
        ),
        ("n=1024, 16 in one run", 1024, 16, Layout::Clustered, 45.0),
        ("n=1024, m=1", 1024, 1, Layout::Random, 14.0),
        (
            "n=4096, m=64 random",
            4096,
            64,
            Layout::Random,
            1.4 * log2_binomial(4096, 64),
        ),
    ];
    for (name, n, m, layout, limit) in cases {
        let ours = measure(end_to_end, StrategyKind::default(), n, m, layout);
        let lithium = measure(end_to_end, StrategyKind::Lithium, n, m, layout);
        let met = if ours as f64 <= limit { "yes" } else { "NO" };
        println!("| {name} | {limit:.1} | {ours} | {lithium} | {met} |");
    }
}

/// Short lists as the tree driver sees them (`allow_empty` on, no start-up call): the
/// total over n = 2..=50 and all seeds, and how many (n, m) cells each strategy loses to
/// Lithium by median.
fn short_lists() {
    println!("\n### Short lists, n = 2..=50 (end to end without the start-up call)\n");
    println!(
        "Total calls over all n and {SEEDS} seeds; in brackets the number of n where the median is worse than Lithium's, and by how many calls at most.\n"
    );
    header("m");
    for m in [0, 1, 2, 3, 5] {
        let mut cells = Vec::new();
        let per_n = |kind: StrategyKind, n: usize| -> Vec<usize> {
            (0..SEEDS)
                .map(|seed| {
                    let case = case(n, m, Layout::Random, seed);
                    let (kept, calls) = end_to_end(kind, &case);
                    assert_eq!(kept, case.needles);
                    calls - 1
                })
                .collect()
        };
        for &kind in StrategyKind::ALL {
            let mut total = 0;
            let mut worse = 0;
            let mut worst = 0;
            for n in m.max(2)..=50 {
                let ours = per_n(kind, n);
                total += ours.iter().sum::<usize>();
                let excess = median(ours).saturating_sub(median(per_n(StrategyKind::Lithium, n)));
                if excess > 0 {
                    worse += 1;
                    worst = worst.max(excess);
                }
            }
            cells.push(format!("{total} ({worse}, by <= {worst})"));
        }
        println!("| {m} | {} |", cells.join(" | "));
    }
}

/// A non-monotone predicate: needles, plus pairs where `a` is needed only while `b` is
/// present. Checks that every strategy ends, without panicking, on an interesting result.
fn non_monotone() {
    println!("\n### Non-monotone predicate (m needles + m pairs \"a needed while b present\")\n");
    println!("Median calls, strategy alone; every result was checked to be interesting.\n");
    header("n, m");
    for (n, m) in [(128, 4), (1024, 16)] {
        let cells: Vec<String> = StrategyKind::ALL
            .iter()
            .map(|&kind| {
                let calls = (0..SEEDS)
                    .map(|seed| {
                        let mut rng = SplitMix64(seed ^ 0xA5A5);
                        let points = sample(n, 3 * m, &mut rng);
                        let mut shuffled = points.clone();
                        // Pair items across the whole list, not only neighbours.
                        for i in (1..shuffled.len()).rev() {
                            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
                            shuffled.swap(i, j);
                        }
                        let case = Case {
                            n,
                            needles: shuffled[..m].to_vec(),
                            pairs: shuffled[m..]
                                .chunks(2)
                                .map(|pair| (pair[0], pair[1]))
                                .collect(),
                        };
                        let (kept, calls) = alone(kind, &case);
                        assert!(case.interesting(&kept), "{} lost interest", kind.name());
                        calls
                    })
                    .collect();
                median(calls).to_string()
            })
            .collect();
        println!("| {n}, {m} | {} |", cells.join(" | "));
    }
}

fn main() {
    println!("# Strategy simulation");
    targets();
    table(
        "End to end (start-up call + HDD* rounds + cache)",
        end_to_end,
    );
    table("Strategy alone (one run, allow_empty off)", alone);
    short_lists();
    non_monotone();
}
