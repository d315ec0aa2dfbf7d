//! The reduction driver: level-by-level Hierarchical Delta Debugging. At each depth it
//! gathers the deletable nodes (one list per depth, or one per parent), hands each list to a
//! strategy, renders every candidate by splicing, rejects those that no longer parse, asks
//! the oracle (cached, speculatively in parallel) and commits the first success in order.
//! Rounds repeat until one removes nothing (HDD*). The current best text is the only truth:
//! trees are re-parsed from it at every depth.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

use crate::error::{Error, Result};
use crate::frontend::Frontend;
use crate::oracle::{Oracle, Outcome, interrupted};
use crate::reduce::{Strategy, StrategyKind, StrategyOptions};
use crate::render::render;
use crate::tree::{Edit, NodeId, NodeKind, Tree};
use crate::{output, tokens};

/// How the nodes of one depth are grouped into lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Grouping {
    /// One list per parent (HDDr-like): siblings are reduced together.
    Parent,
    /// One list per depth (classic HDD): the default, by measurement (ARCHITECTURE.md).
    #[default]
    Depth,
}

impl Grouping {
    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Grouping::Parent => "parent",
            Grouping::Depth => "depth",
        }
    }
}

/// Settings of one reduction.
#[derive(Debug, Clone)]
pub struct DriverOptions {
    /// The list strategy.
    pub strategy: StrategyKind,
    /// Strategy settings (order, seed).
    pub strategy_options: StrategyOptions,
    /// Grouping of each depth's nodes into lists.
    pub grouping: Grouping,
    /// Oracle calls in flight at once.
    pub jobs: usize,
    /// Where every improvement is written.
    pub output: PathBuf,
    /// Print progress lines on stderr.
    pub verbose: bool,
}

/// Figures of one pass (one depth of one round).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PassStats {
    /// Name, such as `delete depth 3`.
    pub name: String,
    /// Oracle calls spent in the pass.
    pub calls: usize,
    /// Bytes removed by the pass.
    pub bytes_removed: usize,
}

/// Figures of a whole run.
#[derive(Debug, Clone, Default)]
pub struct Stats {
    /// Oracle calls, the start-up checks included.
    pub oracle_calls: usize,
    /// Candidates answered from the cache.
    pub cache_hits: usize,
    /// Candidates that no longer parsed and were never sent.
    pub rejected: usize,
    /// Oracle calls ended by the timeout.
    pub timeouts: usize,
    /// Speculative oracle calls whose result was not needed.
    pub wasted: usize,
    /// Per-pass figures.
    pub passes: Vec<PassStats>,
}

/// Candidates in a row that may fail before shrinking a text gives up on it.
const SHRINK_PATIENCE: usize = 4;

/// The verdict cache, keyed on a 128-bit hash of the candidate text.
type Cache = BTreeMap<u128, bool>;

fn key(text: &str) -> u128 {
    xxhash_rust::xxh3::xxh3_128(text.as_bytes())
}

/// The reduction state: the best text so far and the machinery to improve it.
pub struct Driver<'a> {
    frontend: &'a dyn Frontend,
    oracle: &'a Oracle,
    options: DriverOptions,
    current: String,
    cache: Cache,
    /// Print every candidate's fate (`TREEREDUCE_TRACE=1`), and keep the candidates in
    /// the folder `TREEREDUCE_TRACE_DIR` names.
    trace: bool,
    traced: usize,
    /// Run figures.
    pub stats: Stats,
}

/// How a verdict was reached, for tracing.
enum Kind {
    Rejected,
    Cached,
    Asked,
}

/// One candidate of a batch, before the oracle.
enum Prepared {
    /// Did not parse.
    Rejected,
    /// Verdict known from the cache.
    Known(bool),
    /// Needs an oracle call.
    Ask,
}

impl<'a> Driver<'a> {
    /// A driver starting from `text`, which the oracle has accepted.
    pub fn new(
        frontend: &'a dyn Frontend,
        oracle: &'a Oracle,
        options: DriverOptions,
        text: String,
        stats: Stats,
    ) -> Self {
        let mut cache = Cache::new();
        cache.insert(key(&text), true);
        Driver {
            frontend,
            oracle,
            options,
            current: text,
            cache,
            trace: std::env::var_os("TREEREDUCE_TRACE").is_some(),
            traced: 0,
            stats,
        }
    }

    /// The best text so far.
    pub fn current(&self) -> &str {
        &self.current
    }

    fn parse_current(&self) -> Result<Tree> {
        self.frontend.parse(&self.current).map_err(|e| {
            Error::Usage(format!(
                "internal error: an accepted candidate no longer parses at {e}; please report this"
            ))
        })
    }

    /// Runs every pass until none changes anything: HDD* deletion, then rewrites (unwrap,
    /// hoist, placeholders), again while they help; then shrinking of text and attribute
    /// values, and last the squeeze of formatting whitespace. Returns `Err(Interrupted)`
    /// when stopped; the output file then already holds the best text.
    pub fn run(&mut self) -> Result<()> {
        loop {
            let before = self.current.len();
            self.hdd()?;
            self.rewrite_passes()?;
            if self.current.len() == before {
                break;
            }
        }
        self.shrink_pass()?;
        self.squeeze_pass()?;
        Ok(())
    }

    /// Deletion level by level, rounds repeated until one removes nothing (HDD*).
    fn hdd(&mut self) -> Result<()> {
        let mut round = 0;
        loop {
            round += 1;
            let before = self.current.len();
            let mut depth = 1;
            loop {
                let tree = self.parse_current()?;
                if depth > tree.max_depth() {
                    break;
                }
                self.delete_pass(&tree, depth, round)?;
                depth += 1;
            }
            if self.current.len() == before {
                return Ok(());
            }
        }
    }

    /// The deletion lists of one depth.
    fn lists(&self, tree: &Tree, depth: u32) -> Vec<Vec<NodeId>> {
        let nodes: Vec<NodeId> = tree
            .at_depth(depth)
            .into_iter()
            .filter(|&id| {
                let node = tree.node(id);
                node.delete.is_some() && node.kind != NodeKind::Whitespace
            })
            .collect();
        match self.options.grouping {
            Grouping::Depth => vec![nodes],
            Grouping::Parent => {
                let mut lists: Vec<Vec<NodeId>> = Vec::new();
                let mut last_parent = None;
                for id in nodes {
                    let parent = tree.node(id).parent;
                    match lists.last_mut() {
                        Some(list) if parent == last_parent => list.push(id),
                        _ => lists.push(vec![id]),
                    }
                    last_parent = parent;
                }
                lists
            }
        }
    }

    fn delete_pass(&mut self, tree: &Tree, depth: u32, round: usize) -> Result<()> {
        let lists = self.lists(tree, depth);
        let items: usize = lists.iter().map(Vec::len).sum();
        if items == 0 {
            return Ok(());
        }
        self.log(format_args!(
            "round {round}, depth {depth}: {items} nodes in {} lists",
            lists.len()
        ));
        let lists: Vec<Vec<Vec<Edit>>> = lists
            .iter()
            .map(|list| {
                list.iter()
                    .filter_map(|&id| tree.node(id).delete.clone())
                    .map(|span| vec![Edit::delete(span)])
                    .collect()
            })
            .collect();
        self.pass(&format!("delete depth {depth}"), &lists, None)
    }

    /// Rewrites of every node that offers them, all depths in one list per alternative
    /// rank: first every node's first alternative, then (re-parsed) every second one, ...
    fn rewrite_passes(&mut self) -> Result<()> {
        let mut rank = 0;
        loop {
            let tree = self.parse_current()?;
            let items: Vec<Vec<Edit>> = tree
                .ids()
                .filter_map(|id| tree.node(id).alternatives.get(rank).cloned())
                .collect();
            if items.is_empty() {
                return Ok(());
            }
            self.log(format_args!("rewrite {}: {} nodes", rank + 1, items.len()));
            self.pass(&format!("rewrite {}", rank + 1), &[items], None)?;
            rank += 1;
        }
    }

    /// Shrinks text and attribute values unit by unit (characters, references kept whole),
    /// one list per node; a node whose first candidates all fail is left alone.
    fn shrink_pass(&mut self) -> Result<()> {
        let tree = self.parse_current()?;
        let lists: Vec<Vec<Vec<Edit>>> = tree
            .ids()
            .map(|id| self.frontend.units(&self.current, tree.node(id)))
            .filter(|units| units.len() > 1)
            .map(|units| units.into_iter().map(|u| vec![Edit::delete(u)]).collect())
            .collect();
        if lists.is_empty() {
            return Ok(());
        }
        self.log(format_args!("shrink: {} texts and values", lists.len()));
        self.pass("shrink", &lists, Some(SHRINK_PATIENCE))
    }

    /// Removes all formatting whitespace at once, in one candidate.
    fn squeeze_pass(&mut self) -> Result<()> {
        let tree = self.parse_current()?;
        let all: Vec<Edit> = tree
            .ids()
            .filter(|&id| tree.node(id).kind == NodeKind::Whitespace)
            .filter_map(|id| tree.node(id).delete.clone().map(Edit::delete))
            .collect();
        if all.is_empty() {
            return Ok(());
        }
        self.pass("squeeze", &[vec![all]], None)
    }

    /// Runs one pass: each list in turn through a fresh strategy, all over the same base
    /// text (lists of one pass never overlap), and records the pass figures.
    fn pass(
        &mut self,
        name: &str,
        lists: &[Vec<Vec<Edit>>],
        patience: Option<usize>,
    ) -> Result<()> {
        let calls_before = self.stats.oracle_calls;
        let size_before = self.current.len();
        let base = self.current.clone();
        let mut committed: Vec<Edit> = Vec::new();
        let mut outcome = Ok(());
        for items in lists {
            outcome = self.run_list(&base, &mut committed, items, patience);
            if outcome.is_err() {
                break;
            }
        }
        self.stats.passes.push(PassStats {
            name: name.to_string(),
            calls: self.stats.oracle_calls - calls_before,
            bytes_removed: size_before.saturating_sub(self.current.len()),
        });
        outcome
    }

    fn log(&self, what: std::fmt::Arguments) {
        if self.options.verbose {
            eprintln!(
                "{what}; {} bytes, {} calls so far",
                self.current.len(),
                self.stats.oracle_calls
            );
        }
    }

    /// Runs one strategy over `items` (each a group of edits of `base`), on top of the
    /// already `committed` edits of `base`. Accepted edits are appended to `committed`.
    /// With a `patience`, the list is abandoned when that many candidates in a row fail
    /// before any succeeds.
    fn run_list(
        &mut self,
        base: &str,
        committed: &mut Vec<Edit>,
        items: &[Vec<Edit>],
        patience: Option<usize>,
    ) -> Result<()> {
        let options = StrategyOptions {
            allow_empty: patience.is_none(),
            ..self.options.strategy_options.clone()
        };
        let mut strategy = self.options.strategy.build(items.len(), &options);
        let mut failures = 0;
        let mut succeeded = false;
        loop {
            if interrupted() {
                return Err(Error::Interrupted);
            }
            if patience.is_some_and(|p| !succeeded && failures >= p) {
                return Ok(());
            }
            let batch = lookahead(strategy.as_ref(), self.options.jobs.max(1));
            if batch.is_empty() {
                return Ok(());
            }
            let texts: Vec<String> = batch
                .iter()
                .map(|chosen| {
                    let edits: Vec<&Edit> = committed
                        .iter()
                        .chain(chosen.iter().flat_map(|&i| &items[i]))
                        .collect();
                    render(base, &edits)
                })
                .collect();
            let verdicts = self.evaluate(&texts)?;
            for (chosen, (text, verdict)) in batch.iter().zip(texts.into_iter().zip(verdicts)) {
                let proposed = strategy.next();
                debug_assert_eq!(proposed.as_ref(), Some(chosen));
                strategy.feedback(verdict);
                if verdict {
                    succeeded = true;
                    committed.extend(chosen.iter().flat_map(|&i| items[i].iter().cloned()));
                    self.accept(text)?;
                    break;
                }
                failures += 1;
            }
        }
    }

    /// Verdicts for a batch of candidates in order. Only the prefix up to the first known
    /// success matters; oracle calls for that prefix run in parallel.
    fn evaluate(&mut self, texts: &[String]) -> Result<Vec<bool>> {
        let mut prepared = Vec::with_capacity(texts.len());
        for text in texts {
            let p = if let Some(&v) = self.cache.get(&key(text)) {
                Prepared::Known(v)
            } else if !self.frontend.is_valid(text) {
                Prepared::Rejected
            } else {
                Prepared::Ask
            };
            let stop = matches!(p, Prepared::Known(true));
            prepared.push(p);
            if stop {
                break;
            }
        }
        let asks: Vec<usize> = (0..prepared.len())
            .filter(|&i| matches!(prepared[i], Prepared::Ask))
            .collect();
        let outcomes: Vec<Result<Outcome>> = if asks.len() <= 1 {
            asks.iter().map(|&i| self.oracle.test(&texts[i])).collect()
        } else {
            let oracle = self.oracle;
            std::thread::scope(|scope| {
                let handles: Vec<_> = asks
                    .iter()
                    .map(|&i| {
                        let text = &texts[i];
                        scope.spawn(move || oracle.test(text))
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or(Err(Error::Interrupted)))
                    .collect()
            })
        };
        let mut asked = asks.into_iter().zip(outcomes);
        let mut verdicts = Vec::with_capacity(prepared.len());
        let mut success_seen = false;
        for (i, p) in prepared.into_iter().enumerate() {
            let p_kind = match p {
                Prepared::Rejected => Kind::Rejected,
                Prepared::Known(_) => Kind::Cached,
                Prepared::Ask => Kind::Asked,
            };
            let verdict = match p {
                Prepared::Rejected => {
                    self.stats.rejected += 1;
                    false
                }
                Prepared::Known(v) => {
                    self.stats.cache_hits += 1;
                    v
                }
                Prepared::Ask => {
                    let Some((_, outcome)) = asked.next() else {
                        break;
                    };
                    let outcome = outcome?;
                    self.stats.oracle_calls += 1;
                    if outcome.timed_out {
                        self.stats.timeouts += 1;
                    }
                    if success_seen {
                        self.stats.wasted += 1;
                    }
                    self.cache.insert(key(&texts[i]), outcome.interesting);
                    outcome.interesting
                }
            };
            if self.trace {
                let what = match (&p_kind, verdict) {
                    (Kind::Rejected, _) => "rejected",
                    (Kind::Cached, true) => "cached interesting",
                    (Kind::Cached, false) => "cached boring",
                    (Kind::Asked, true) => "interesting",
                    (Kind::Asked, false) => "boring",
                };
                eprintln!("candidate of {} bytes: {what}", texts[i].len());
                if let Some(dir) = std::env::var_os("TREEREDUCE_TRACE_DIR") {
                    let _ = std::fs::write(
                        std::path::Path::new(&dir).join(format!("{:05}-{what}", self.traced)),
                        &texts[i],
                    );
                }
                self.traced += 1;
            }
            success_seen |= verdict;
            verdicts.push(verdict);
        }
        Ok(verdicts)
    }

    fn accept(&mut self, text: String) -> Result<()> {
        output::write_atomic(&self.options.output, &text)?;
        self.current = text;
        Ok(())
    }
}

/// The next `n` candidates the strategy would propose if each one failed.
fn lookahead(strategy: &dyn Strategy, n: usize) -> Vec<Vec<usize>> {
    let mut probe = strategy.clone_box();
    let mut batch = Vec::with_capacity(n);
    while batch.len() < n {
        let Some(candidate) = probe.next() else {
            break;
        };
        batch.push(candidate);
        probe.feedback(false);
    }
    batch
}

/// The summary printed at the end of a run.
#[derive(Debug, Clone)]
pub struct Summary {
    /// Size of the input.
    pub bytes_before: usize,
    /// Size of the result.
    pub bytes_after: usize,
    /// Tokens in the input.
    pub tokens_before: usize,
    /// Tokens in the result.
    pub tokens_after: usize,
    /// Run figures.
    pub stats: Stats,
    /// Wall time of the whole run.
    pub seconds: f64,
    /// Where the result is.
    pub output: PathBuf,
    /// True when the user stopped the run.
    pub interrupted: bool,
}

impl Summary {
    /// Builds the summary from the original and the final text.
    pub fn new(
        original: &str,
        result: &str,
        stats: Stats,
        started: Instant,
        output: PathBuf,
    ) -> Self {
        Summary {
            bytes_before: original.len(),
            bytes_after: result.len(),
            tokens_before: tokens::count(original),
            tokens_after: tokens::count(result),
            stats,
            seconds: started.elapsed().as_secs_f64(),
            output,
            interrupted: false,
        }
    }
}

impl Summary {
    /// The summary as a JSON object (for `--stats-json`).
    pub fn to_json(&self) -> String {
        let passes: Vec<String> = self
            .stats
            .passes
            .iter()
            .map(|p| {
                format!(
                    "{{\"name\": {}, \"calls\": {}, \"bytes_removed\": {}}}",
                    json_string(&p.name),
                    p.calls,
                    p.bytes_removed
                )
            })
            .collect();
        format!(
            "{{\n  \"bytes_before\": {},\n  \"bytes_after\": {},\n  \"tokens_before\": {},\n  \"tokens_after\": {},\n  \"oracle_calls\": {},\n  \"cache_hits\": {},\n  \"rejected\": {},\n  \"timeouts\": {},\n  \"wasted\": {},\n  \"seconds\": {:.3},\n  \"interrupted\": {},\n  \"output\": {},\n  \"passes\": [{}]\n}}\n",
            self.bytes_before,
            self.bytes_after,
            self.tokens_before,
            self.tokens_after,
            self.stats.oracle_calls,
            self.stats.cache_hits,
            self.stats.rejected,
            self.stats.timeouts,
            self.stats.wasted,
            self.seconds,
            self.interrupted,
            json_string(&self.output.to_string_lossy()),
            passes.join(", ")
        )
    }
}

/// `s` as a JSON string literal.
fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let pct = |a: usize, b: usize| {
            if a == 0 {
                0.0
            } else {
                100.0 * (a as f64 - b as f64) / a as f64
            }
        };
        writeln!(
            f,
            "{}: {} -> {} bytes ({:.1}% smaller), {} -> {} tokens",
            if self.interrupted {
                "interrupted"
            } else {
                "done"
            },
            self.bytes_before,
            self.bytes_after,
            pct(self.bytes_before, self.bytes_after),
            self.tokens_before,
            self.tokens_after
        )?;
        writeln!(
            f,
            "oracle calls: {}, cache hits: {}, rejected candidates: {}, timeouts: {}, wasted speculative calls: {}",
            self.stats.oracle_calls,
            self.stats.cache_hits,
            self.stats.rejected,
            self.stats.timeouts,
            self.stats.wasted
        )?;
        let mut kinds: Vec<(&str, usize, usize)> = Vec::new();
        for pass in &self.stats.passes {
            let kind = pass.name.split(' ').next().unwrap_or_default();
            match kinds.iter_mut().find(|(k, _, _)| *k == kind) {
                Some(entry) => {
                    entry.1 += pass.calls;
                    entry.2 += pass.bytes_removed;
                }
                None => kinds.push((kind, pass.calls, pass.bytes_removed)),
            }
        }
        let per_pass: Vec<String> = kinds
            .iter()
            .map(|(kind, calls, bytes)| format!("{kind} {calls} calls / {bytes} bytes"))
            .collect();
        if !per_pass.is_empty() {
            writeln!(f, "passes: {}", per_pass.join(", "))?;
        }
        write!(
            f,
            "time: {:.2}s, result: {}",
            self.seconds,
            self.output.display()
        )
    }
}
