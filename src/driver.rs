//! The reduction driver: level-by-level Hierarchical Delta Debugging. At each depth it
//! gathers the deletable nodes (one list per depth, or one per parent), hands each list to a
//! strategy, renders every candidate by splicing, rejects those that no longer parse, asks
//! the oracle (cached, speculatively in parallel) and commits the first success in order.
//! Rounds repeat until one removes nothing (HDD*). The current best text is the only truth:
//! trees are re-parsed from it at every depth.

use std::collections::{BTreeMap, VecDeque};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Instant;

use crate::error::{Error, Result};
use crate::frontend::Frontend;
use crate::oracle::{Oracle, Outcome, interrupted};
use crate::progress::Progress;
use crate::reduce::{StrategyKind, StrategyOptions};
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
    /// Candidates built (rendered and judged), whether or not they reached the oracle.
    pub candidates: usize,
    /// Time spent on candidates outside the tests themselves: rendering, hashing,
    /// re-parsing, writing, spawning and cleaning up.
    pub overhead: std::time::Duration,
    /// Per-pass figures.
    pub passes: Vec<PassStats>,
}

impl Stats {
    /// Mean time treereduce spent on a candidate outside the test, in milliseconds.
    pub fn overhead_ms_per_candidate(&self) -> f64 {
        if self.candidates == 0 {
            0.0
        } else {
            self.overhead.as_secs_f64() * 1000.0 / self.candidates as f64
        }
    }
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
    /// The last oracle verdicts, for guessing in the parallel window.
    recent: VecDeque<bool>,
    /// The status line, told about sizes and passes.
    progress: Option<Progress>,
    /// The pass now running, for the status line.
    pass_name: String,
    /// Number of accepted candidates so far: a cheap "has the text changed" check.
    accepted: usize,
    /// Run figures.
    pub stats: Stats,
}

/// A candidate in the window of [`Driver::run_list`].
struct Slot {
    chosen: Vec<usize>,
    text: String,
    state: SlotState,
    /// The verdict later candidates in the window were built on.
    assumed: bool,
    /// True when the oracle was asked (not a cache hit or rejection).
    asked: bool,
}

enum SlotState {
    /// Its test runs; the flag cancels it.
    Running(u64, Arc<AtomicBool>),
    /// Its verdict is known.
    Done(bool),
}

fn cancel_all(window: &VecDeque<Slot>) {
    for slot in window {
        if let SlotState::Running(_, flag) = &slot.state {
            flag.store(true, Ordering::SeqCst);
        }
    }
}

/// How far past the running calls the window may reach over candidates whose verdicts are
/// already known (cache hits, rejections).
const WINDOW_SLACK: usize = 64;

/// How many recent oracle verdicts guide the guess for speculative candidates.
const RECENT_VERDICTS: usize = 8;

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
            recent: VecDeque::new(),
            progress: None,
            pass_name: String::new(),
            accepted: 0,
            stats,
        }
    }

    /// Reports sizes and passes to `progress`, and prints pass lines through it.
    pub fn set_progress(&mut self, progress: Progress) {
        self.progress = Some(progress);
    }

    /// Records a verdict learned elsewhere (the start-up checks), so it is never asked again.
    pub fn remember(&mut self, text: &str, interesting: bool) {
        self.cache.insert(key(text), interesting);
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
        // HDD* runs to its own fixed point, so only a rewrite can give it new work.
        loop {
            self.hdd()?;
            let before = self.current.len();
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
    ///
    /// A depth whose list ran to its end with nothing accepted since is not run again: the
    /// strategy left that list 1-minimal against the very text the next round would test,
    /// so a new pass over it could only repeat what it already knows (on a one-level
    /// format such as lines this is the whole second round).
    fn hdd(&mut self) -> Result<()> {
        let mut round = 0;
        // For each depth, the number of accepted texts when its last pass ended.
        let mut settled: Vec<Option<usize>> = Vec::new();
        loop {
            round += 1;
            let before = self.current.len();
            let mut depth = 1;
            // Re-parse only after a change; index nodes by depth once per parse, so a
            // deep tree costs linear work per round, not quadratic.
            let mut parsed: Option<(usize, Tree, Vec<Vec<NodeId>>)> = None;
            loop {
                if parsed
                    .as_ref()
                    .is_none_or(|(at, _, _)| *at != self.accepted)
                {
                    let tree = self.parse_current()?;
                    let index = tree.depth_index();
                    parsed = Some((self.accepted, tree, index));
                }
                let Some((_, tree, index)) = &parsed else {
                    break;
                };
                let Some(nodes) = index.get(depth as usize) else {
                    break;
                };
                let at = depth as usize;
                if settled.len() <= at {
                    settled.resize(at + 1, None);
                }
                if settled[at] != Some(self.accepted) {
                    let lists = self.lists(tree, nodes);
                    self.delete_pass(tree, lists, depth, round)?;
                    settled[at] = Some(self.accepted);
                }
                depth += 1;
            }
            if self.current.len() == before {
                return Ok(());
            }
        }
    }

    /// The deletion lists of one depth.
    fn lists(&self, tree: &Tree, nodes: &[NodeId]) -> Vec<Vec<NodeId>> {
        let nodes: Vec<NodeId> = nodes
            .iter()
            .copied()
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

    fn delete_pass(
        &mut self,
        tree: &Tree,
        lists: Vec<Vec<NodeId>>,
        depth: u32,
        round: usize,
    ) -> Result<()> {
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
        self.pass(&format!("delete depth {depth}"), &lists, None, true)
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
            self.pass(&format!("rewrite {}", rank + 1), &[items], None, false)?;
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
        self.pass("shrink", &lists, Some(SHRINK_PATIENCE), true)
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
        self.pass("squeeze", &[vec![all]], None, true)
    }

    /// Runs one pass: each list in turn through a fresh strategy, all over the same base
    /// text (lists of one pass never overlap), and records the pass figures. `deletions`
    /// says that every item only deletes whole nodes or units of the base, which lets the
    /// front end judge candidates without a parse (see [`Frontend::deletions_stay_valid`]).
    fn pass(
        &mut self,
        name: &str,
        lists: &[Vec<Vec<Edit>>],
        patience: Option<usize>,
        deletions: bool,
    ) -> Result<()> {
        let calls_before = self.stats.oracle_calls;
        let size_before = self.current.len();
        let base = self.current.clone();
        self.pass_name = name.to_string();
        if let Some(progress) = &self.progress {
            progress.update(self.current.len(), name);
        }
        let mut committed: Vec<Edit> = Vec::new();
        let mut outcome = Ok(());
        for items in lists {
            outcome = self.run_list(&base, &mut committed, items, patience, deletions);
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
        if !self.options.verbose {
            return;
        }
        let line = format!(
            "{what}; {} bytes, {} calls so far",
            self.current.len(),
            self.stats.oracle_calls
        );
        match &self.progress {
            Some(progress) => progress.println(&line),
            None => eprintln!("{line}"),
        }
    }

    /// Runs one strategy over `items` (each a group of edits of `base`), on top of the
    /// already `committed` edits of `base`. Accepted edits are appended to `committed`.
    /// With a `patience`, the list is abandoned when that many candidates in a row fail
    /// before any succeeds.
    ///
    /// Up to `jobs` oracle calls run at once on the strategy's next candidates (the
    /// window). Each candidate after the first is built on a guess of the verdicts before
    /// it: the known verdict where there is one, else the likelier one given the recent
    /// verdicts. The strategy still receives the real verdicts in proposal order, so the
    /// result does not depend on `jobs`; a wrong guess only cancels the calls after it.
    fn run_list(
        &mut self,
        base: &str,
        committed: &mut Vec<Edit>,
        items: &[Vec<Edit>],
        patience: Option<usize>,
        deletions: bool,
    ) -> Result<()> {
        let options = StrategyOptions {
            allow_empty: patience.is_none(),
            ..self.options.strategy_options.clone()
        };
        let mut strategy = self.options.strategy.build(items.len(), &options);
        let jobs = self.options.jobs.max(1);
        let oracle: &Oracle = self.oracle;
        std::thread::scope(|scope| {
            let (tx, rx) = mpsc::channel::<(u64, Result<Outcome>)>();
            let mut window: VecDeque<Slot> = VecDeque::new();
            // Calls whose answer has not arrived, cancelled ones included: never more than
            // `jobs` tests run at once.
            let mut outstanding = 0usize;
            let mut next_seq = 0u64;
            let mut failures = 0usize;
            let mut succeeded = false;
            let mut exhausted = false;
            let result = loop {
                if interrupted() {
                    break Err(Error::Interrupted);
                }
                if patience.is_some_and(|p| !succeeded && failures >= p) {
                    break Ok(());
                }
                // Hand known verdicts at the front to the strategy, in order.
                let mut guessed_wrong = false;
                while let Some(SlotState::Done(verdict)) = window.front().map(|s| &s.state) {
                    let mut verdict = *verdict;
                    let Some(slot) = window.pop_front() else {
                        break;
                    };
                    // A candidate judged without a parse is parsed before it is kept: the
                    // output is always valid, whatever the cheap check missed.
                    let checked = Instant::now();
                    if verdict && deletions && !self.frontend.is_valid(&slot.text) {
                        verdict = false;
                        self.stats.rejected += 1;
                        self.cache.insert(key(&slot.text), false);
                    }
                    self.stats.overhead += checked.elapsed();
                    self.trace(&slot.text, verdict);
                    let proposed = strategy.next();
                    debug_assert_eq!(proposed.as_ref(), Some(&slot.chosen));
                    strategy.feedback(verdict);
                    if verdict {
                        succeeded = true;
                        committed
                            .extend(slot.chosen.iter().flat_map(|&i| items[i].iter().cloned()));
                        if let Err(e) = self.accept(slot.text) {
                            cancel_all(&window);
                            return Err(e);
                        }
                    } else {
                        failures += 1;
                    }
                    if verdict != slot.assumed {
                        guessed_wrong = true;
                        break;
                    }
                }
                if guessed_wrong {
                    // Everything after a wrong guess was built on it.
                    cancel_all(&window);
                    self.stats.wasted += window
                        .iter()
                        .filter(|s| s.asked && matches!(s.state, SlotState::Done(_)))
                        .count();
                    window.clear();
                    exhausted = false;
                    continue;
                }
                // A shrink that keeps failing ends here, before it starts another call.
                if patience.is_some_and(|p| !succeeded && failures >= p) {
                    break Ok(());
                }
                // Extend the window while a job is free.
                if outstanding < jobs && !exhausted && window.len() < jobs + WINDOW_SLACK {
                    let mut probe = strategy.clone_box();
                    for slot in &window {
                        probe.next();
                        probe.feedback(slot.assumed);
                    }
                    match probe.next() {
                        Some(chosen) => {
                            let edits: Vec<&Edit> = committed
                                .iter()
                                .chain(
                                    window
                                        .iter()
                                        .filter(|s| s.assumed)
                                        .flat_map(|s| s.chosen.iter().flat_map(|&i| &items[i])),
                                )
                                .chain(chosen.iter().flat_map(|&i| &items[i]))
                                .collect();
                            let built = Instant::now();
                            let text = render(base, &edits);
                            let judged = self.prejudge(&text, base, &edits, deletions);
                            self.stats.candidates += 1;
                            self.stats.overhead += built.elapsed();
                            let slot = match judged {
                                Some(verdict) => Slot {
                                    chosen,
                                    text,
                                    state: SlotState::Done(verdict),
                                    assumed: verdict,
                                    asked: false,
                                },
                                None => {
                                    let seq = next_seq;
                                    next_seq += 1;
                                    let cancel = Arc::new(AtomicBool::new(false));
                                    let (tx, flag, copy) =
                                        (tx.clone(), cancel.clone(), text.clone());
                                    scope.spawn(move || {
                                        let _ =
                                            tx.send((seq, oracle.test_cancellable(&copy, &flag)));
                                    });
                                    outstanding += 1;
                                    Slot {
                                        chosen,
                                        text,
                                        state: SlotState::Running(seq, cancel),
                                        assumed: self.likely_success(),
                                        asked: true,
                                    }
                                }
                            };
                            window.push_back(slot);
                            continue;
                        }
                        None => exhausted = true,
                    }
                }
                if window.is_empty() {
                    if exhausted {
                        break Ok(());
                    }
                    if outstanding < jobs {
                        continue;
                    }
                }
                // Wait for an answer.
                let Ok((seq, outcome)) = rx.recv() else {
                    break Err(Error::Interrupted);
                };
                outstanding -= 1;
                self.stats.oracle_calls += 1;
                let outcome = match outcome {
                    Ok(o) => o,
                    Err(e) => break Err(e),
                };
                self.stats.overhead += outcome.overhead;
                if outcome.timed_out {
                    self.stats.timeouts += 1;
                }
                let slot = window
                    .iter_mut()
                    .find(|s| matches!(s.state, SlotState::Running(q, _) if q == seq));
                match slot {
                    Some(slot) if !outcome.cancelled => {
                        self.cache.insert(key(&slot.text), outcome.interesting);
                        self.recent.push_back(outcome.interesting);
                        if self.recent.len() > RECENT_VERDICTS {
                            self.recent.pop_front();
                        }
                        slot.state = SlotState::Done(outcome.interesting);
                    }
                    _ => self.stats.wasted += 1,
                }
            };
            cancel_all(&window);
            // Answers of cancelled calls still arrive; they are waste.
            while outstanding > 0 {
                if rx.recv().is_err() {
                    break;
                }
                outstanding -= 1;
                self.stats.oracle_calls += 1;
                self.stats.wasted += 1;
            }
            result
        })
    }

    /// The guess for a verdict not known yet: success when most recent answers were.
    fn likely_success(&self) -> bool {
        2 * self.recent.iter().filter(|&&v| v).count() > self.recent.len()
    }

    /// The verdict on a candidate when it is known without the oracle: from the cache, or
    /// `false` when it no longer parses. The candidate is `base` with `edits`; when
    /// `deletions` says they only delete nodes or units, a cheaper check than a parse may
    /// decide, and otherwise the front end may re-parse incrementally from `base`.
    fn prejudge(
        &mut self,
        text: &str,
        base: &str,
        edits: &[&Edit],
        deletions: bool,
    ) -> Option<bool> {
        if let Some(&verdict) = self.cache.get(&key(text)) {
            self.stats.cache_hits += 1;
            return Some(verdict);
        }
        let cheap = if deletions {
            self.frontend.deletions_stay_valid(base, text)
        } else {
            None
        };
        let valid = match cheap {
            Some(valid) => valid,
            None => self.frontend.is_valid_edited(base, edits, text),
        };
        if !valid {
            self.stats.rejected += 1;
            self.cache.insert(key(text), false);
            return Some(false);
        }
        None
    }

    fn trace(&mut self, text: &str, verdict: bool) {
        if !self.trace {
            return;
        }
        let what = if verdict { "interesting" } else { "boring" };
        eprintln!("candidate {} of {} bytes: {what}", self.traced, text.len());
        if let Some(dir) = std::env::var_os("TREEREDUCE_TRACE_DIR") {
            let _ = std::fs::write(
                std::path::Path::new(&dir).join(format!("{:05}-{what}", self.traced)),
                text,
            );
        }
        self.traced += 1;
    }

    fn accept(&mut self, text: String) -> Result<()> {
        let started = Instant::now();
        output::write_atomic(&self.options.output, &text)?;
        self.stats.overhead += started.elapsed();
        if let Some(progress) = &self.progress {
            progress.update(text.len(), &self.pass_name);
        }
        self.current = text;
        self.accepted += 1;
        Ok(())
    }
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
            "{{\n  \"bytes_before\": {},\n  \"bytes_after\": {},\n  \"tokens_before\": {},\n  \"tokens_after\": {},\n  \"oracle_calls\": {},\n  \"cache_hits\": {},\n  \"rejected\": {},\n  \"timeouts\": {},\n  \"wasted\": {},\n  \"candidates\": {},\n  \"overhead_ms_per_candidate\": {:.3},\n  \"seconds\": {:.3},\n  \"interrupted\": {},\n  \"output\": {},\n  \"passes\": [{}]\n}}\n",
            self.bytes_before,
            self.bytes_after,
            self.tokens_before,
            self.tokens_after,
            self.stats.oracle_calls,
            self.stats.cache_hits,
            self.stats.rejected,
            self.stats.timeouts,
            self.stats.wasted,
            self.stats.candidates,
            self.stats.overhead_ms_per_candidate(),
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
            "time: {:.2}s ({:.2} ms per candidate outside the test), result: {}",
            self.seconds,
            self.stats.overhead_ms_per_candidate(),
            self.output.display()
        )
    }
}
