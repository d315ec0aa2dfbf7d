//! The reduction driver: level-by-level Hierarchical Delta Debugging. At each depth it
//! gathers the deletable nodes (one list per depth, or one per parent), hands each list to a
//! strategy, renders every candidate by splicing, rejects those that no longer parse, asks
//! the oracle (cached, speculatively in parallel) and commits the first success in order.
//! Rounds repeat until one removes nothing (HDD*). The current best text is the only truth:
//! trees are re-parsed from it at every depth.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use crate::error::{Error, Result};
use crate::frontend::{self, Frontend, Grain, SyntaxError};
use crate::needed::{self, Moves, Needed, Subject, touches};
use crate::oracle::{Oracle, Outcome, interrupted};
use crate::progress::Progress;
use crate::reduce::{Strategy, StrategyKind, StrategyOptions};
use crate::render::{render, splices};
use crate::tree::{Edit, Label, Node, NodeId, NodeKind, Tree};
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
    /// Where every improvement is written (a list's improvements judged without a parse
    /// once the list ends and a parse confirms them).
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
    /// Calls started ahead, while a list ended, on the first candidate of a list to come,
    /// that the list to come took (see `Following`).
    pub adopted: usize,
    /// With `TREEREDUCE_AUDIT_PREFETCH=1`, how the predictions of the lists to come fared
    /// (see `Audit`).
    pub audit: Option<AuditFigures>,
    /// Candidates built (rendered and judged), whether or not they reached the oracle.
    pub candidates: usize,
    /// Time spent on candidates outside the tests themselves: rendering, hashing,
    /// re-parsing, writing, spawning and cleaning up.
    pub overhead: std::time::Duration,
    /// Per-pass figures.
    pub passes: Vec<PassStats>,
    /// True once the test found the original interesting (a run stopped before that has
    /// no accepted text to leave).
    pub original_accepted: bool,
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

/// How far from an even chance a strategy's estimate must be to decide a guess.
const CHANCE_MARGIN: f64 = 0.05;

/// Oracle calls measured before [`Driver::jobs`] may decide that speculation does not pay.
const SPECULATION_SAMPLES: u32 = 4;

/// Candidates in a row that may fail before shrinking a text gives up on it.
const SHRINK_PATIENCE: usize = 4;

/// The failures in a row a list of `n` items with `patience` allows before any success:
/// for a list of 16 or more, one more for every further doubling, since the first
/// candidates take large pieces, which fail while any of several needed pieces lies in
/// them (three words needed among 400 lines are found, where 4 failures gave up).
fn patience_for(patience: usize, n: usize) -> usize {
    patience + (n.max(1).ilog2() as usize).saturating_sub(3)
}

/// The depth a tree is built to (when the front end can leave out the rest, see
/// [`Frontend::parse_to`]) for a deletion pass at `depth`: a few depths more, so that the
/// passes after it can take the same tree while nothing changes.
const fn limit_for(depth: u32) -> u32 {
    depth + 4
}

/// The depth the first deletion pass builds its tree to.
pub const FIRST_LIMIT: u32 = limit_for(1);

/// Whether declarations are offered with their slices (see [`Driver::delete_sliced`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SliceState {
    /// They are offered after each depth's own list, or where a long one gives way to
    /// them, in its midst (see [`own_thrift`]); the number is how many lists of them in a
    /// row accepted nothing.
    On(usize),
    /// A list of them accepted something: the test runs through the code, where a
    /// declaration goes with its uses or not at all, so each depth's declarations are
    /// offered with their slices before the depth's own list. The number is how many
    /// lists of them in a row accepted nothing since.
    First(usize),
    /// [`FRUITLESS_SLICES`] lists in a row accepted nothing ([`FRUITLESS_FIRST`] once
    /// they had paid): they are not offered again.
    Off,
}

impl SliceState {
    /// The state after a list of slices that accepted something or not.
    fn after_list(self, accepted: bool) -> SliceState {
        match (accepted, self) {
            (true, _) => SliceState::First(0),
            (false, SliceState::On(fruitless)) if fruitless + 1 < FRUITLESS_SLICES => {
                SliceState::On(fruitless + 1)
            }
            (false, SliceState::First(fruitless)) if fruitless + 1 < FRUITLESS_FIRST => {
                SliceState::First(fruitless + 1)
            }
            (false, _) => SliceState::Off,
        }
    }

    /// What follows the deletion list of `depth` in `hdd`: its declarations with their
    /// slices when they are offered after it, else the depth below.
    fn after_depth(self, depth: u32) -> Following<'static> {
        match self {
            SliceState::On(_) => Following::Sliced(depth),
            SliceState::First(_) | SliceState::Off => Following::Depth(depth + 1),
        }
    }
}

/// Declarations with slices in a depth's own list that let it give way to them (see
/// [`own_thrift`]).
const MANY_SLICES: usize = 32;

/// The declarations with slices, asked alone, that may fail in a depth's own list with
/// [`MANY_SLICES`] of them before it gives way to them (see [`own_thrift`]).
const OWN_THRIFT: usize = 6;

/// Lists of declarations with their slices in a row that may accept nothing before
/// slices are no longer offered.
const FRUITLESS_SLICES: usize = 2;

/// The same once a list of them accepted something ([`SliceState::First`]): slices have
/// paid in this run, and a depth whose few declarations all fail (a list of one call) is
/// no sign that the next depth's will. With two, lodash-typeerror-chunk lost its slices
/// to two such lists just before the depth of its 300 functions (579 -> 734 calls).
const FRUITLESS_FIRST: usize = 4;

/// The failures a list of declarations with their slices may have, beyond two for each
/// success, before it is abandoned: most of the declarations a list kept are needed where
/// the list is long, and each costs a call to keep.
const SLICE_THRIFT: usize = 12;

/// How many rewrites a list of code's later rewrite passes holds at least to run dense
/// (see [`Driver::rewrote`]). A shorter one is a small result's, whose few rewrites often
/// all go at once: asked one by one, the field trial's crash cases paid a call or two.
const DENSE_REWRITES: usize = 8;

/// When a list gives up before its end (see `Driver::thrift`).
#[derive(Debug, Clone)]
enum Thrift {
    /// Once its failures pass [`SLICE_THRIFT`] and two for each success (a list of
    /// slices).
    Failures,
    /// Once [`OWN_THRIFT`] of its candidates of one item that has a slice (by the item's
    /// index) failed (see [`own_thrift`]).
    Lone(Arc<[bool]>),
}

impl Thrift {
    /// Whether the failure of a candidate of the items `chosen` counts as one alone.
    fn alone(&self, chosen: &[usize]) -> bool {
        match (self, chosen) {
            (Thrift::Lone(sliced), [item]) => sliced.get(*item).copied().unwrap_or(false),
            _ => false,
        }
    }

    /// Whether a list with these `failures` (`lone` of them [`Thrift::alone`]) and
    /// `successes` gives up.
    fn spent(&self, failures: usize, successes: usize, lone: usize) -> bool {
        match self {
            Thrift::Failures => failures >= SLICE_THRIFT + 2 * successes,
            Thrift::Lone(_) => lone >= OWN_THRIFT,
        }
    }
}

/// The verdict cache, keyed on a 128-bit hash of the candidate text.
type Cache = BTreeMap<u128, bool>;

fn key(text: &str) -> u128 {
    xxhash_rust::xxh3::xxh3_128(text.as_bytes())
}

/// Whether `byte` is ASCII whitespace (as [`u8::is_ascii_whitespace`]), written with
/// `|` so that a loop over a text's bytes runs on vector instructions.
fn blank_byte(byte: u8) -> bool {
    (byte == b' ') | (byte == b'\t') | (byte == b'\n') | (byte == b'\x0C') | (byte == b'\r')
}

/// How many bytes of `text` are not whitespace: the same for two texts with the same
/// [`layout_key`], and some tens of times cheaper to count than that key is to make, so
/// that most candidates are told from every failure's layout without it.
fn solid_bytes(text: &str) -> usize {
    text.as_bytes()
        .chunks(255)
        .map(|chunk| {
            let blanks = chunk
                .iter()
                .fold(0u8, |n, &b| n.wrapping_add(u8::from(blank_byte(b))));
            chunk.len() - usize::from(blanks)
        })
        .sum()
}

/// The key of `text` laid out plainly: its runs of other bytes than whitespace, each
/// followed by one space (see [`Frontend::layout_is_free`]). The plain text is copied
/// a stretch at a time (a stretch ends where the whitespace is other than
/// one space between two runs) and hashed at once: hashing run by run cost lodash half
/// again the time, a millisecond a candidate.
fn layout_key(text: &str) -> u128 {
    let mut plain = Vec::with_capacity(text.len() + 1);
    let bytes = text.as_bytes();
    let mut at = bytes
        .iter()
        .position(|&b| !blank_byte(b))
        .unwrap_or(bytes.len());
    while at < bytes.len() {
        let start = at;
        while let Some(&b) = bytes.get(at) {
            let lone_space = b == b' ' && bytes.get(at + 1).is_some_and(|&next| !blank_byte(next));
            if blank_byte(b) && !lone_space {
                break;
            }
            at += 1;
        }
        plain.extend_from_slice(&bytes[start..at]);
        plain.push(b' ');
        at += bytes[at..]
            .iter()
            .position(|&b| !blank_byte(b))
            .unwrap_or(bytes.len() - at);
    }
    xxhash_rust::xxh3::xxh3_128(&plain)
}

/// The tree of `text` (whose key is `text_key`) down to `depth` at least (whole when
/// `None`): the one in `ready` when it is that text's and deep enough (taken out of it),
/// else a new parse, from the parse of a valid `base` when `text` is known as `base` with
/// some edits.
fn tree_of(
    ready: &mut Option<(u128, Tree)>,
    frontend: &dyn Frontend,
    text: &str,
    text_key: u128,
    depth: Option<u32>,
    from: Option<(&str, &[&Edit])>,
) -> std::result::Result<Tree, SyntaxError> {
    let deep_enough = |tree: &Tree| depth.map_or(tree.is_whole(), |d| tree.holds(d));
    if let Some((_, tree)) = ready.take_if(|(k, tree)| *k == text_key && deep_enough(tree)) {
        return Ok(tree);
    }
    match (depth, from) {
        (depth, Some((base, edits))) => frontend.parse_edited_to(base, edits, text, depth),
        (Some(depth), None) => frontend.parse_to(text, depth),
        (None, None) => frontend.parse(text),
    }
}

/// The reduction state: the best text so far and the machinery to improve it.
pub struct Driver<'a> {
    frontend: &'a dyn Frontend,
    oracle: Arc<Oracle>,
    /// Answers of the oracle calls in flight, tagged with their sequence number. Calls are
    /// not tied to one list: a prefetched call runs on while the next list starts.
    answers: mpsc::Receiver<(u64, Result<Outcome>)>,
    answer_to: mpsc::Sender<(u64, Result<Outcome>)>,
    next_seq: u64,
    /// Calls whose answer has not arrived, cancelled ones included: never more than `jobs`
    /// tests run at once.
    in_flight: usize,
    /// Calls started on the first candidate of the list expected next (see
    /// [`Following`]), and their verdicts once known.
    prefetched: Vec<Prefetch>,
    options: DriverOptions,
    current: String,
    cache: Cache,
    /// Print every candidate's fate (`TREEREDUCE_TRACE=1`), and keep the candidates in
    /// the folder `TREEREDUCE_TRACE_DIR` names.
    trace: bool,
    traced: usize,
    /// The last oracle verdicts with what their guesses went by, for guessing in the
    /// parallel window.
    recent: VecDeque<(Guide, bool)>,
    /// The status line, told about sizes and passes.
    progress: Option<Progress>,
    /// The pass now running, for the status line.
    pass_name: String,
    /// The lists now run are HDD*'s second or later round over a depth (see
    /// [`StrategyOptions::dense`]).
    dense: bool,
    /// A rewrite pass ran to its end. In code, a later pass's lists ask mostly rewrites
    /// that failed before, in a text that changed away from them: those of
    /// [`DENSE_REWRITES`] or more run dense (see [`StrategyOptions::dense`]).
    rewrote: bool,
    /// The rewrite lists now run offer every alternative, also those that delete a node
    /// proven needed (see [`Driver::all_passes`]).
    unlikely_too: bool,
    /// Number of accepted candidates so far: a cheap "has the text changed" check.
    accepted: usize,
    /// Where HDD* is while it runs.
    hdd_state: Option<HddState>,
    /// HDD*'s record, per depth, of the number of accepted texts when the depth's last
    /// pass ended (see [`Driver::hdd`]); a field rather than a copy in [`HddState`] per
    /// pass, which cost time quadratic in the depth of a deep chain.
    settled: Vec<Option<usize>>,
    /// While values shrink: the text's length before, and the labels of the top-level
    /// nodes that could not be deleted then (see [`Driver::shrink_pass`]).
    shrink_from: Option<(usize, Vec<Label>)>,
    /// The check of the predictions prefetches go by (`TREEREDUCE_AUDIT_PREFETCH=1`).
    audit: Option<Audit>,
    /// The length of the text when the rewrite passes last began: when they leave it
    /// changed, HDD* runs again (see [`Driver::all_passes`]).
    rewrites_from: usize,
    /// A tree of a text made already (by the parse that confirmed a list's text, by the
    /// prefetch of the next list's first candidate, or by the start-up checks), for the
    /// next pass to take instead of parsing again when it is the current text's.
    ready: Option<(u128, Tree)>,
    /// Wall time of the oracle calls answered so far (not cancelled), and their number.
    oracle_time: (Duration, u32),
    /// How many times a list's text did not parse and was rolled back (see
    /// [`Driver::verify`]).
    rollbacks: usize,
    /// Whether declarations are offered with their slices (see [`Driver::delete_sliced`]).
    slices: SliceState,
    /// For the list now run: when it gives up before its end (see
    /// [`Driver::delete_sliced`] and [`own_thrift`]).
    thrift: Option<Thrift>,
    /// The list now run is one of declarations with their slices.
    slicing: bool,
    /// The last list was a depth's own list and gave way to its slices (see
    /// [`own_thrift`]).
    gave_way: bool,
    /// The slices of the text with this key (see [`Frontend::slices`]).
    sliced_text: Option<(u128, Arc<frontend::Slices>)>,
    /// Texts whose verdicts were counted as waste when a wrong guess discarded them; the
    /// cache keeps the verdicts, and one used after all is taken off the waste.
    discarded: BTreeSet<u128>,
    /// The [`solid_bytes`] and [`layout_key`]s of the texts lists took as failures, where
    /// the front end lets a layout stand for another (see [`Frontend::layout_is_free`] and
    /// [`Driver::laid_out`]); not used by the squeeze pass, whose candidates differ in
    /// layout only.
    boring_layouts: BTreeSet<(usize, u128)>,
    /// Whether `boring_layouts` is used now.
    layouts: bool,
    /// The test found a blank document (nothing but whitespace, such as the smallest
    /// JavaScript document) not interesting, and in this format every blank text is that
    /// same empty document, whichever line breaks the deletions happened to leave (see
    /// [`Frontend::blank_is_empty`]).
    blank_is_boring: bool,
    /// The nodes HDD* left at its last fixed point, each needed, carried along while
    /// their parents stay untouched; the deletion passes after a rewrite skip them.
    needed: Needed,
    /// Run figures.
    pub stats: Stats,
}

impl Drop for Driver<'_> {
    /// No test outlives the driver, whatever way the run ends.
    fn drop(&mut self) {
        self.finish_calls();
    }
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
    /// True when no parse has confirmed the candidate (a cheap check or the cache judged
    /// it); the text a list keeps is parsed when the list ends (see `Driver::verify`).
    unparsed: bool,
    /// Its verdict is a discarded one, counted as waste, that the cache kept: used now, it
    /// is taken off the waste when the strategy takes it.
    reuses_waste: bool,
    /// What its guess goes by (nothing when its verdict was known).
    guide: Guide,
}

/// What the guess for a candidate's verdict goes by (see [`likely_success`]).
#[derive(Debug, Clone, Copy, Default)]
struct Guide {
    /// The share of the text it is built on that the candidate removes.
    removed: f64,
    /// The bytes it removes from that text.
    removed_bytes: usize,
    /// The strategy's estimate of its chance (see [`Strategy::chance`]).
    chance: Option<f64>,
}

/// What is known of a candidate before the oracle.
enum Prejudged {
    /// Its verdict (from the cache, or `false` when it does not parse); `reuses_waste`
    /// when the cache had it from a call discarded as waste.
    Known { verdict: bool, reuses_waste: bool },
    /// It is valid; `parsed` when a parse says so rather than a cheaper check. With the
    /// text's cache key.
    Valid { parsed: bool, text_key: u128 },
}

enum SlotState {
    /// Its test runs; the flag cancels it.
    Running(u64, Arc<AtomicBool>),
    /// Its verdict is known.
    Done(bool),
}

/// A call on a candidate of a list that has not started yet. Its verdict is kept apart from
/// the cache: it counts as an oracle call of the list that adopts it, or as waste.
struct Prefetch {
    key: u128,
    seq: u64,
    cancel: Arc<AtomicBool>,
    verdict: Option<bool>,
}

/// What comes after the list now running, so that its first candidate can be tested while
/// the last calls of this list still run (with `-j 2` a list would otherwise end with one
/// call in flight). The candidate is built on the guessed verdicts of those calls; it is
/// only used when the next list really proposes the same text.
#[derive(Clone, Copy)]
enum Following<'l> {
    /// Not prepared in advance.
    Unknown,
    /// The next list of the same pass, on the same base text.
    List {
        items: &'l [Vec<Edit>],
        patience: Option<usize>,
    },
    /// The HDD deletion lists from this depth on, in the text this list leaves.
    Depth(u32),
    /// As `Depth`, this depth's declarations having been offered with their slices before
    /// its own list (see [`SliceState::First`]).
    Plain(u32),
    /// The declarations of this depth with their slices (see [`Driver::delete_sliced`]),
    /// then the HDD deletion lists from the depth below on.
    Sliced(u32),
    /// As `Sliced`, after this depth's own list gave way to them (see [`own_thrift`]):
    /// then the depth's own list again, as `Plain`.
    GaveWay(u32),
    /// As `Depth` from the chain's head, with the search for its shallowest node that
    /// may go where it stands (see [`Gallop`]).
    Gallop(Gallop),
    /// What follows the probe of a chain whose deepest node is at `below` (see
    /// [`Driver::chain`]): when the probe fails, the next probe on the same text
    /// (`retry`), else the leaves `beside` the chain (the next depth when there are
    /// none); when it goes, the search `went` on the shorter chain.
    ChainProbe {
        below: u32,
        beside: Option<&'l [Vec<Edit>]>,
        retry: Option<&'l [Vec<Edit>]>,
        went: Gallop,
    },
    /// The rewrites of this rank, in the text this list leaves.
    Rewrite(usize),
    /// The shrinking of values by this grain, in the text this list leaves.
    Shrink(Grain),
    /// The deletion of the top-level nodes the shrinking freed (see
    /// [`Driver::shrink_pass`]), in the text this list leaves.
    Freed,
    /// The squeeze of formatting whitespace, in the text this list leaves.
    Squeeze,
    /// The end of HDD*'s round (see [`HddState`]): another round, or the rewrites when
    /// this one changed nothing.
    NextRound,
    /// The depths above `depth` in a bottom-up round of HDD*: `ahead` when the list
    /// deletes nothing (see [`Driver::bottom_up_ahead`]), else the tree built anew.
    BottomUp {
        depth: usize,
        ahead: Option<&'l [Vec<Edit>]>,
    },
    /// The end of HDD*: the rewrites, on a fixed point.
    FixedPoint,
}

/// A check of [`Driver::first_candidate`] on every run, whatever `-j`: when a list ends,
/// the first candidate it predicts for what follows, on the verdicts the list really had,
/// is compared with the next candidate the oracle is asked about. A prediction that is
/// wrong makes a prefetch a wasted call; one that is missing leaves a job idle.
#[derive(Debug, Default)]
struct Audit {
    /// The prediction made when the last list ended, until a candidate is asked.
    expected: Option<Option<String>>,
    figures: AuditFigures,
}

/// The figures of the prediction check (see `Audit`).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct AuditFigures {
    /// The first candidate asked after a list was the one predicted.
    pub right: usize,
    /// Another one was asked.
    pub wrong: usize,
    /// None was predicted, yet one was asked.
    pub unpredicted: usize,
}

impl Audit {
    fn expect(&mut self, prediction: Option<String>) {
        self.expected = Some(prediction);
    }

    fn compare(&mut self, asked: &str) {
        let figures = &mut self.figures;
        match self.expected.take() {
            Some(Some(expected)) if expected == asked => figures.right += 1,
            Some(Some(_)) => figures.wrong += 1,
            Some(None) => figures.unpredicted += 1,
            None => {}
        }
    }
}

/// What HDD* is at, for predicting the list after the one now running.
struct HddState {
    /// The number of accepted texts when the round began.
    round_from: usize,
    /// The depths the pass now running settles (in code, only if it accepts nothing).
    depths: std::ops::RangeInclusive<usize>,
    /// The number of accepted texts when that pass began.
    pass_from: usize,
}

/// The first HDD deletion list from a depth on (see [`Driver::depth_items`]).
enum DepthList {
    /// Its items, and which list of which depth they are.
    Found { items: Vec<Vec<Edit>>, list: Found },
    /// No depth from there on has anything to delete.
    Nothing,
    /// It cannot be told: the text does not parse.
    Unknown,
}

/// Which list [`DepthList::Found`] holds, which decides what follows it.
#[derive(Clone)]
enum Found {
    /// The deepest node of a chain, asked alone: its verdict decides what follows.
    Probe,
    /// The leaves beside a chain whose deepest node is at this depth.
    Beside(u32),
    /// The depth's own list, after which its slices come while they come after (see
    /// [`Driver::delete_sliced`]), and its thrift (see [`own_thrift`]).
    Own(u32, Option<Thrift>),
    /// The depth's declarations with their slices, offered before its own list (see
    /// [`SliceState::First`]).
    Sliced(u32),
}

/// How [`Driver::depth_items`] looks for the first HDD deletion list.
#[derive(Clone, Copy)]
struct DepthAsked {
    /// The text follows a chain's probe that went, and this is the search on.
    gallop: Option<Gallop>,
    /// No depth is passed over as settled (after a probe that went, none is).
    unsettled: bool,
    /// Where slices are offered by then.
    slices: SliceState,
    /// The depth whose declarations were offered with their slices already.
    sliced_first: Option<u32>,
}

/// What a predicted list proposes first (see [`Driver::candidate_of`]).
enum Proposal {
    /// A candidate whose verdict is not known.
    Asks(String),
    /// Nothing: every candidate is known to fail.
    Known,
    /// Nothing: the list gives up on its thrift first.
    Spent,
    /// Candidates known to succeed change the text, or too many are known to tell.
    Changes,
}

/// The list a bottom-up round of HDD* asks next (see [`Driver::bottom_up_first`]).
enum Ahead {
    /// Its deletions.
    Found(Vec<Vec<Edit>>),
    /// None: the round ends.
    Top,
    /// Not looked for that far up.
    GaveUp,
}

/// A list as [`Driver::first_candidate`] predicts it.
struct NextList<'l> {
    items: Cow<'l, [Vec<Edit>]>,
    patience: Option<usize>,
    /// Its items only delete (see [`Driver::check`]).
    deletions: bool,
    /// Its strategy runs as in HDD*'s later rounds (see [`StrategyOptions::dense`]).
    dense: bool,
    /// When it gives up before its end (see `Driver::thrift`).
    thrift: Option<Thrift>,
}

impl NextList<'static> {
    /// A list of deletions of HDD* (`dense` in its later rounds).
    fn deletions(items: Vec<Vec<Edit>>, dense: bool) -> Self {
        NextList {
            items: Cow::Owned(items),
            patience: None,
            deletions: true,
            dense,
            thrift: None,
        }
    }

    /// A list of declarations with their slices (see [`Driver::delete_sliced`]).
    fn sliced(items: Vec<Vec<Edit>>, dense: bool) -> Self {
        NextList {
            thrift: Some(Thrift::Failures),
            ..NextList::deletions(items, dense)
        }
    }
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

/// How many lists, passes and rounds a prediction of the next candidate asked may pass over
/// (see [`Driver::next_candidate`]).
const PREDICTION_STEPS: usize = 256;

/// How many nodes the prediction of a bottom-up round's next list looks at (see
/// [`Driver::bottom_up_first`]).
const AHEAD_NODES: usize = 4096;

/// How many recent oracle verdicts guide the guess for speculative candidates.
const RECENT_VERDICTS: usize = 16;

/// The guess for a candidate is "interesting" when it removes less than a threshold share
/// of the text it is built on: removing most of a text rarely keeps the bug, removing a
/// little often does. The threshold is the one of these that would have guessed the recent
/// verdicts best (0 guesses "boring" always, above 1 "interesting" always).
const THRESHOLDS: [f64; 9] = [0.0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9, 1.1];

/// The threshold used while no verdict is known, and preferred among equally good ones.
const PRIOR_THRESHOLD: f64 = 0.5;

/// The guess by size is "interesting" when the candidate removes fewer bytes than a
/// threshold, fitted as the share's: in code the verdicts follow how much goes rather than
/// which share of the text.
const BYTE_THRESHOLDS: [usize; 11] = [0, 16, 32, 64, 128, 256, 512, 1024, 4096, 16384, usize::MAX];

/// The byte threshold used while no verdict is known.
const PRIOR_BYTES: usize = 256;

impl<'a> Driver<'a> {
    /// A driver starting from `text`, which the oracle has accepted.
    pub fn new(
        frontend: &'a dyn Frontend,
        oracle: Arc<Oracle>,
        options: DriverOptions,
        text: String,
        stats: Stats,
    ) -> Self {
        let mut cache = Cache::new();
        cache.insert(key(&text), true);
        let (answer_to, answers) = mpsc::channel();
        Driver {
            frontend,
            oracle,
            answers,
            answer_to,
            next_seq: 0,
            in_flight: 0,
            prefetched: Vec::new(),
            options,
            current: text,
            cache,
            trace: std::env::var_os("TREEREDUCE_TRACE").is_some(),
            traced: 0,
            recent: VecDeque::new(),
            progress: None,
            pass_name: String::new(),
            dense: false,
            rewrote: false,
            unlikely_too: false,
            accepted: 0,
            hdd_state: None,
            settled: Vec::new(),
            shrink_from: None,
            audit: std::env::var_os("TREEREDUCE_AUDIT_PREFETCH").map(|_| Audit::default()),
            rewrites_from: 0,
            ready: None,
            oracle_time: (Duration::ZERO, 0),
            discarded: BTreeSet::new(),
            boring_layouts: BTreeSet::new(),
            layouts: frontend.layout_is_free(),
            blank_is_boring: false,
            needed: Needed::default(),
            rollbacks: 0,
            slices: SliceState::On(0),
            sliced_text: None,
            thrift: None,
            slicing: false,
            gave_way: false,
            stats,
        }
    }

    /// Hands over a tree of `text` (whole, or cut at a depth) made elsewhere, for the
    /// first pass that needs it while `text` is the current text.
    pub fn offer_tree(&mut self, text: &str, tree: Tree) {
        self.ready = Some((key(text), tree));
    }

    /// Reports sizes and passes to `progress`, and prints pass lines through it.
    pub fn set_progress(&mut self, progress: Progress) {
        self.progress = Some(progress);
    }

    /// Starts a call on the first candidate of the reduction while something else runs (the
    /// last start-up check), when a job is free for it. [`Driver::run`] adopts it when it
    /// proposes the same text first; otherwise it counts as wasted.
    pub fn prefetch_start(&mut self) {
        if self.options.jobs > 1 && self.in_flight == 0 {
            let current = self.current.clone();
            self.prefetch(&current, &[], Following::Depth(1), true);
        }
    }

    /// Records a verdict learned elsewhere (the start-up checks), so it is never asked again.
    pub fn remember(&mut self, text: &str, interesting: bool) {
        self.cache.insert(key(text), interesting);
        if !interesting && text.trim().is_empty() && self.frontend.blank_is_empty() {
            self.blank_is_boring = true;
        }
    }

    /// The best text so far.
    pub fn current(&self) -> &str {
        &self.current
    }

    fn parse_current(&mut self) -> Result<Tree> {
        self.parse_current_to(None)
    }

    /// The current text's tree, down to `depth` at least (whole when `None`).
    fn parse_current_to(&mut self, depth: Option<u32>) -> Result<Tree> {
        let text_key = key(&self.current);
        tree_of(
            &mut self.ready,
            self.frontend,
            &self.current,
            text_key,
            depth,
            None,
        )
        .map_err(|e| {
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
        let outcome = self.all_passes();
        self.finish_calls();
        outcome
    }

    fn all_passes(&mut self) -> Result<()> {
        // HDD* runs to its own fixed point, so only a rewrite can give it new work.
        // Rewrites that take away a node proven needed (an `if` replaced by its consequent
        // while its `else` is needed) fail where the test is monotone, and are not asked.
        // Markup tests are (so are their deletions, see `lists`); code is not always
        // (`f(x)`, needing `x`, may still fail the same way as `f`), so in code they are
        // asked last, once the likely edits are at their fixed point, when most of them
        // are gone with the nodes those removed (a chain of `else if` hoisted away).
        //
        // In code, an edit that failed is left out while the text in and around its node
        // stays the same (see `Needed::skips`); at the fixed point, a sweep asks those
        // left out once more, so that the result is as 1-minimal as without. A change in
        // it ends it, and the next fixed point is swept again.
        loop {
            let outcome = self.hdd();
            self.hdd_state = None;
            outcome?;
            let before = self.current.len();
            self.rewrites_from = before;
            self.rewrite_passes()?;
            let changed = if self.current.len() != before {
                true
            } else if self.frontend.needs_are_local() {
                false
            } else {
                self.unlikely_too = true;
                let outcome = self.rewrite_passes();
                self.unlikely_too = false;
                outcome?;
                self.current.len() != before
            };
            if changed {
                continue;
            }
            if self.needed.sweeping() || !self.needed.any_failed() {
                break;
            }
            let tree = self.parse_current()?;
            if !self
                .needed
                .any_left_out(&self.current, key(&self.current), &tree)
            {
                break;
            }
            self.needed.set_sweep(true);
        }
        self.needed.set_sweep(false);
        self.shrink_pass()?;
        self.squeeze_pass()?;
        Ok(())
    }

    /// Runs the test once more on the best text with no other call beside it, and counts
    /// the call. For a hang reduction: a run that outlasted the time limit while other
    /// calls shared the cores (or other work loaded the machine) may end in time alone.
    pub fn ask_alone(&mut self) -> Result<Outcome> {
        self.finish_calls();
        let outcome = self.oracle.test(&self.current)?;
        self.stats.oracle_calls += 1;
        if outcome.timed_out {
            self.stats.timeouts += 1;
        }
        Ok(outcome)
    }

    /// Cancels what still runs (prefetches nobody adopted) and waits for every answer, so
    /// no test outlives the run.
    pub fn finish_calls(&mut self) {
        if let Some(audit) = &self.audit {
            self.stats.audit = Some(audit.figures);
        }
        self.drop_prefetches();
        while self.in_flight > 0 {
            if self.answers.recv().is_err() {
                break;
            }
            self.in_flight -= 1;
            self.stats.oracle_calls += 1;
            self.stats.wasted += 1;
        }
    }

    /// Deletion level by level, rounds repeated until one removes nothing (HDD*).
    ///
    /// A depth whose list ran to its end with nothing accepted since is not run again: the
    /// strategy left that list 1-minimal against the very text the next round would test,
    /// so a new pass over it could only repeat what it already knows (on a one-level
    /// format such as lines this is the whole second round). That leans on monotonicity:
    /// a list does not start over after a success, and in code an item it asked before
    /// may have been needed only by one that went after, so there a depth settles only
    /// when its pass accepted nothing. A list whose text was rolled
    /// back (see [`Driver::verify`]) lost removals it had found: its depth is not settled,
    /// and the round counts as a change.
    fn hdd(&mut self) -> Result<()> {
        let mut round = 0;
        // For each depth, the number of accepted texts when its last pass ended.
        self.settled.clear();
        loop {
            round += 1;
            let before = self.current.len();
            let rollbacks = self.rollbacks;
            let round_from = self.accepted;
            // Later rounds bottom-up lean on monotonicity, which code does not have (a
            // deletion that fails may succeed with its surroundings): markup only (chains
            // too, but for bare ones, see `chain`).
            if round > 1 && self.frontend.needs_are_local() {
                self.hdd_bottom_up(round, round_from)?;
                if self.current.len() == before && self.rollbacks == rollbacks {
                    return Ok(());
                }
                continue;
            }
            let mut depth = 1;
            // Re-parse only after a change; index nodes by depth once per parse, so a
            // deep tree costs linear work per round, not quadratic. A tree holds the
            // depths a few passes need: after a change only the top of the tree is built
            // again, and a tree outgrown is built twice as deep (linear work overall).
            let mut parsed: Option<(usize, Tree, Vec<Vec<NodeId>>)> = None;
            // The depth whose chain's probe was undone (a cheap verdict found wrong): asked
            // top-down from then on.
            let mut probed: Option<u32> = None;
            // The search for the shallowest node of the chain now asked that may go.
            let mut gallop: Option<Gallop> = None;
            // A chain that reaches the depth the tree was built to asks for a deeper one.
            let mut deeper: Option<u32> = None;
            // The depth whose declarations were offered with their slices before its own
            // list (see `SliceState::First`).
            let mut sliced_first: Option<u32> = None;
            loop {
                // A deep tree may hold many depths in a row with nothing to ask.
                if interrupted() {
                    return Err(Error::Interrupted);
                }
                let wanted = deeper.take().unwrap_or(0);
                let limit = match &parsed {
                    Some((at, tree, _)) if *at == self.accepted => match tree.limit() {
                        Some(limit) if limit < depth || limit < wanted => {
                            Some((2 * limit).max(limit_for(depth)).max(wanted))
                        }
                        _ => None,
                    },
                    _ => Some(limit_for(depth).max(wanted)),
                };
                if let Some(limit) = limit {
                    let tree = self.parse_current_to(Some(limit))?;
                    let index = tree.depth_index();
                    parsed = Some((self.accepted, tree, index));
                }
                let Some((_, tree, index)) = &parsed else {
                    break;
                };
                // No node at this depth: none deeper either.
                let Some(nodes) = index.get(depth as usize) else {
                    break;
                };
                let at = depth as usize;
                if self.settled.len() <= at {
                    self.settled.resize(at + 1, None);
                }
                if self.settled[at] != Some(self.accepted) {
                    let lists = self.lists(&self.current, tree, nodes, &self.needed);
                    let chain = match probed {
                        Some(at) if at == depth => None,
                        _ => self.chain(&self.current, tree, index, depth, &lists, &self.needed),
                    };
                    if let (Some(chain), Some(limit)) = (&chain, tree.limit())
                        && (chain.below + 1 >= limit || chain.unsure)
                    {
                        deeper = Some(2 * limit);
                        continue;
                    }
                    if let Some(chain) = chain {
                        // The deepest node of a chain first: when it is needed, so is
                        // every node of the chain above it; else the shallowest node
                        // that may go is searched for (see `Gallop`). Then what hangs
                        // beside the chain (attributes, texts), all depths in one list.
                        let below = chain.below;
                        let search = gallop
                            .filter(|g| g.head == depth)
                            .unwrap_or(Gallop::new(depth));
                        let beside = deletions(tree, std::slice::from_ref(&chain.beside));
                        let after = Following::Depth(below + 1);
                        if !search.over() {
                            let (accepted, rolled_back) = (self.accepted, self.rollbacks);
                            let (node, tried) = search.probe(&chain);
                            let (went, stayed) = (search.went(tried), search.stayed(tried));
                            // While the probe runs, a free job starts on what most likely
                            // follows: the next probe, else the leaves beside the chain,
                            // else the depth below it; or when it goes, the next probe of
                            // the shorter chain.
                            let retry = (!stayed.over())
                                .then(|| deletions(tree, &[vec![stayed.probe(&chain).0]]));
                            let following = Following::ChainProbe {
                                below,
                                beside: beside
                                    .first()
                                    .filter(|items| !items.is_empty())
                                    .map(Vec::as_slice),
                                retry: retry.as_ref().and_then(|r| r.first()).map(Vec::as_slice),
                                went,
                            };
                            let probe = [vec![node]];
                            let at_probe = tree.node(node).depth;
                            self.note_hdd(round_from, at..=below as usize);
                            self.delete_pass(tree, &probe, at_probe, round, following)?;
                            if self.rollbacks != rolled_back {
                                // Undone: the chain is asked top-down.
                                probed = Some(depth);
                                gallop = None;
                                continue;
                            }
                            gallop = Some(if self.accepted != accepted {
                                went
                            } else {
                                stayed
                            });
                            if self.accepted != accepted || !stayed.over() {
                                continue;
                            }
                        } else {
                            self.note_hdd(round_from, at..=below as usize);
                        }
                        gallop = None;
                        let rolled_back = self.rollbacks;
                        self.delete_items(&beside, depth, round, after)?;
                        if self.rollbacks == rolled_back {
                            let below = below as usize;
                            if self.settled.len() <= below {
                                self.settled.resize(below + 1, None);
                            }
                            self.settled[at..=below].fill(Some(self.accepted));
                        }
                        depth = below + 1;
                        continue;
                    }
                    gallop = None;
                    if matches!(self.slices, SliceState::First(_))
                        && sliced_first != Some(depth)
                        && lists.iter().any(|list| !list.is_empty())
                    {
                        sliced_first = Some(depth);
                        // This round's, settling no depth (the depth's own list follows).
                        self.note_hdd(round_from, at + 1..=at);
                        let accepted = self.accepted;
                        let unchanged = Some((tree, nodes.as_slice()));
                        let following = Following::Plain(depth);
                        self.delete_sliced(depth, round, unchanged, following)?;
                        if self.accepted != accepted {
                            // The depth's own list, on the text they left.
                            continue;
                        }
                    }
                    let rolled_back = self.rollbacks;
                    let following = self.slices.after_depth(depth);
                    let locked = locked_nodes(&self.current, tree, nodes);
                    let accepted = self.accepted;
                    self.note_hdd(round_from, at..=at);
                    if sliced_first != Some(depth) {
                        let cache = &mut self.sliced_text;
                        let at_depth = (tree, nodes.as_slice(), lists.as_slice());
                        self.thrift =
                            own_thrift(self.slices, cache, self.frontend, &self.current, at_depth);
                    }
                    let outcome = self.delete_pass(tree, &lists, depth, round, following);
                    self.thrift = None;
                    outcome?;
                    if self.accepted != accepted && !locked.is_empty() {
                        self.delete_unlocked(&locked, depth, round)?;
                    }
                    if std::mem::take(&mut self.gave_way) {
                        // Its slices, then the depth's own list again on what they left.
                        sliced_first = Some(depth);
                        let unchanged =
                            (self.accepted == accepted).then_some((tree, nodes.as_slice()));
                        let following = Following::Plain(depth);
                        self.delete_sliced(depth, round, unchanged, following)?;
                        continue;
                    }
                    if let SliceState::On(_) = self.slices {
                        let unchanged =
                            (self.accepted == accepted).then_some((tree, nodes.as_slice()));
                        let following = Following::Depth(depth + 1);
                        self.delete_sliced(depth, round, unchanged, following)?;
                    }
                    let settles = self.pass_settles(accepted);
                    self.settled[at] =
                        (self.rollbacks == rolled_back && settles).then_some(self.accepted);
                }
                depth += 1;
            }
            if self.current.len() == before && self.rollbacks == rollbacks {
                return Ok(());
            }
        }
    }

    /// Offers the nodes at `depth` of the current text that the `locked` ones (see
    /// [`locked_nodes`]) have become: a depth's pass may delete what kept one of its own
    /// nodes (the last reference to an entity declared in the DOCTYPE, the last element
    /// with a prefix declared beside it), and the next round skips a depth whose pass ran
    /// to its end.
    fn delete_unlocked(
        &mut self,
        locked: &[(Label, String)],
        depth: u32,
        round: usize,
    ) -> Result<()> {
        let tree = self.parse_current_to(Some(depth))?;
        let index = tree.depth_index();
        let Some(nodes) = index.get(depth as usize) else {
            return Ok(());
        };
        let freed: Vec<NodeId> = nodes
            .iter()
            .copied()
            .filter(|&id| {
                let node = tree.node(id);
                node.deletable()
                    && locked.iter().any(|(label, text)| {
                        *label == node.label && **text == self.current[node.span.clone()]
                    })
            })
            .collect();
        if freed.is_empty() {
            return Ok(());
        }
        let lists = deletions(&tree, &[freed]);
        self.delete_items(&lists, depth, round, self.slices.after_depth(depth))
    }

    /// Offers the declarations of `depth`, each deleted with its slice: the statements
    /// that use what it declares, and so on (see `frontend::slices`). A declaration that
    /// the test runs through (a function that `main` calls) cannot go alone, and went only
    /// in a later round, once its uses had gone at their own depths; with them it goes at
    /// once. Offered after the plain deletions (those the depth's list kept), not instead
    /// of them: where the text is data to the test (a parser's crash), a use never stands
    /// in the way, and a slice only takes what is needed along; there the list kept little
    /// but what is needed, which slices rarely leave. A long list whose declarations keep
    /// failing alone gives way to them before its end (see [`own_thrift`]). Once a list
    /// of slices accepted something, they come before the depth's own list (see
    /// [`SliceState::First`]), and `following` says which. A declaration whose slice takes
    /// a statement whose own deletion failed on this text is not offered, the list is
    /// abandoned once its failures pass [`SLICE_THRIFT`] and two for each success, and
    /// after [`FRUITLESS_SLICES`] lists in a row that accept nothing, slices are not
    /// offered again.
    fn delete_sliced(
        &mut self,
        depth: u32,
        round: usize,
        unchanged: Option<(&Tree, &[NodeId])>,
        following: Following,
    ) -> Result<()> {
        // The tree of the depth's list and the nodes of the depth when that list changed
        // nothing (the caller's index has them: indexing the tree again at every depth of
        // a deep chain was quadratic), else the tree the list's last parse left (see
        // `verify`), whose nodes at this depth are found once.
        let built = match unchanged {
            Some(_) => None,
            None => {
                let tree = self.parse_current_to(Some(limit_for(depth + 1)))?;
                let nodes = tree.at_depth(depth);
                Some((tree, nodes))
            }
        };
        let Some((tree, nodes)) = unchanged.or(built.as_ref().map(|(t, n)| (t, n.as_slice())))
        else {
            return Ok(());
        };
        let items = sliced_at(
            &mut self.sliced_text,
            self.frontend,
            &self.current,
            (tree, nodes, depth),
            &self.needed,
        );
        // The depth below takes the same tree while the text stays.
        if let Some((built, _)) = built {
            self.ready = Some((key(&self.current), built));
        }
        if items.is_empty() {
            return Ok(());
        }
        self.log(format_args!(
            "round {round}, depth {depth}: {} declarations with their uses",
            items.len()
        ));
        let accepted = self.accepted;
        let name = format!("delete depth {depth} with uses");
        // As the depth's own list runs (see `delete_items_of`).
        self.dense = round > 1;
        self.thrift = Some(Thrift::Failures);
        self.slicing = true;
        let outcome = self.pass(&name, &[items], None, None, true, following);
        self.thrift = None;
        self.slicing = false;
        self.dense = false;
        outcome?;
        self.slices = self.slices.after_list(self.accepted != accepted);
        Ok(())
    }

    /// When one item of `depth`'s `lists` heads a chain (the others are leaves, and each
    /// depth below holds one deletable node with deletable nodes under it, inside the one
    /// above, and any number of deletable leaves), the chain's deepest node and the
    /// leaves beside it.
    /// A chain of wrappers around what the test needs (a page's `<div class>` in
    /// `<section class>`, an `<mrow>` in `<mrow>`) costs top-down HDD a failing call per
    /// depth, and one more for each depth's attributes; the deletion of its deepest node
    /// fails for the whole chain (each deletes that node too), and the leaves of all its
    /// depths are disjoint, one list. When the deepest node goes, the chain is asked
    /// top-down as before, one call more.
    /// In code, whose needs are not local, only a bare chain counts: nothing deletable
    /// beside it (a fuzzer's `[[[...]]]`, `f(f(f(...)))`, blocks in blocks), so that each
    /// node deleted takes only the one below it and its own syntax more, and a test that
    /// fails without the deepest node fails without any node of the chain.
    fn chain(
        &self,
        text: &str,
        tree: &Tree,
        index: &[Vec<NodeId>],
        depth: u32,
        lists: &[Vec<NodeId>],
        needed: &Needed,
    ) -> Option<Chain> {
        // Wide depths are no chain, and a node on the tree's last depth may have children
        // that are not built.
        const WIDE: usize = 16;
        let [list] = lists else {
            return None;
        };
        if list.len() > WIDE {
            return None;
        }
        // In code, a node left out as failed (see `Needed::skips`) still stands beside the
        // chain, which is then not bare; and in a sweep, whose lists hold only those, the
        // chain's other nodes are not asked.
        let local = self.frontend.needs_are_local();
        let all = |nodes: &[NodeId]| self.lists_with(text, tree, nodes, needed, false);
        let beside_left_out = || {
            let at_head: usize = index
                .get(depth as usize)
                .map_or(0, |nodes| all(nodes).iter().map(Vec::len).sum());
            at_head != list.len()
        };
        if !local && (needed.sweeping() || beside_left_out()) {
            return None;
        }
        let (inner, beside): (Vec<NodeId>, Vec<NodeId>) =
            list.iter().partition(|&&id| holds_deletable(tree, id));
        // Nodes that only may hold something deletable (the tree was cut under them) make
        // the answer wait for a deeper tree.
        let unsure =
            |inner: &[NodeId]| inner.len() > 1 && inner.iter().any(|&id| !holds_built(tree, id));
        if unsure(&inner) {
            return Some(Chain::unsure(depth));
        }
        let &[head] = inner.as_slice() else {
            return None;
        };
        let built = tree.limit().map_or(index.len(), |limit| limit as usize);
        let mut chain = Chain {
            path: vec![head],
            below: depth,
            beside,
            unsure: false,
        };
        // Whether the chain went on to the last depth built: in a cut tree, it may go on
        // below (past depths with nothing to delete, the chain's last node need not be on
        // the depth above the cut).
        let mut open = true;
        for (below, nodes) in index
            .iter()
            .enumerate()
            .take(built)
            .skip(depth as usize + 1)
        {
            let items: Vec<NodeId> = all(nodes).into_iter().flatten().collect();
            if items.len() > WIDE {
                open = false;
                break;
            }
            // A depth of wrappers that may not go (an object that is a member's value, a
            // fraction's positional children) is passed through.
            if items.is_empty() {
                continue;
            }
            let (inner, leaves): (Vec<NodeId>, Vec<NodeId>) =
                items.into_iter().partition(|&id| holds_deletable(tree, id));
            if unsure(&inner) {
                chain.unsure = true;
                break;
            }
            let &[next] = inner.as_slice() else {
                open = false;
                break;
            };
            // Inside the chain's last node, not under a sibling that cannot be deleted.
            let mut up = tree.node(next).parent;
            while let Some(id) = up.filter(|&id| tree.node(id).depth > chain.below) {
                up = tree.node(id).parent;
            }
            if up != chain.path.last().copied() {
                open = false;
                break;
            }
            chain.path.push(next);
            chain.below = u32::try_from(below).ok()?;
            chain.beside.extend(leaves);
        }
        if open && tree.limit().is_some() {
            chain.unsure = true;
        }
        let bare = chain.beside.is_empty() || self.frontend.needs_are_local();
        (bare && (chain.path.len() > 1 || chain.unsure)).then_some(chain)
    }

    /// One later round of HDD*, from the deepest depth up. Its lists hold what the first
    /// round kept, mostly the ancestors of what the test needs; a node whose deletion fails
    /// makes the deletion of each of its ancestors fail on the same text (it deletes that
    /// node too), so once a depth's list ends with nothing accepted, the ancestors of its
    /// nodes are not asked (an `else if` chain holding the needed statement: one call for
    /// the deepest branch, none for the 27 around it). Only what failed on the very text
    /// asked about counts, so a deletion that a change elsewhere made possible (a method
    /// and its only call) is still found. After an accepted deletion the tree is built
    /// again and what was known is forgotten.
    fn hdd_bottom_up(&mut self, round: usize, round_from: usize) -> Result<()> {
        let mut tree = self.parse_current_to(None)?;
        let mut built_at = self.accepted;
        let mut index = tree.depth_index();
        // Nodes of `tree` whose deletion fails on its text: ancestors of one that does.
        let mut implied: BTreeSet<NodeId> = BTreeSet::new();
        let mut depth = index.len().saturating_sub(1);
        while depth >= 1 {
            if self.accepted != built_at {
                tree = self.parse_current_to(None)?;
                built_at = self.accepted;
                index = tree.depth_index();
                implied.clear();
                // The text lost nodes: the depths below may be fewer now.
                depth = depth.min(index.len().saturating_sub(1));
                if depth == 0 {
                    break;
                }
            }
            if self.settled.len() <= depth {
                self.settled.resize(depth + 1, None);
            }
            let nodes = &index[depth];
            let asked = self.settled[depth] != Some(self.accepted);
            if asked {
                let lists =
                    self.lists_not_implied(&self.current, &tree, nodes, &self.needed, |id| {
                        implied.contains(id)
                    });
                let rolled_back = self.rollbacks;
                let level = u32::try_from(depth).unwrap_or(u32::MAX);
                if lists.iter().any(|list| !list.is_empty()) {
                    // What follows when this depth keeps all its nodes, as guessed.
                    let ahead = match self.predicts() {
                        true => self.bottom_up_ahead(&tree, &index, depth, &implied),
                        false => Ahead::GaveUp,
                    };
                    let following = match &ahead {
                        Ahead::Found(items) => Following::BottomUp {
                            depth,
                            ahead: Some(items),
                        },
                        Ahead::Top => Following::BottomUp { depth, ahead: None },
                        Ahead::GaveUp => Following::Unknown,
                    };
                    self.note_hdd(round_from, depth..=depth);
                    self.delete_pass(&tree, &lists, level, round, following)?;
                }
                self.settled[depth] = (self.rollbacks == rolled_back).then_some(self.accepted);
            }
            // Every deletable node of this depth fails on this text when nothing was
            // accepted: each was asked in vain, is known to fail, or its list had settled.
            if self.accepted == built_at {
                imply_ancestors(&tree, nodes, &BTreeSet::new(), &mut implied);
            }
            depth -= 1;
        }
        Ok(())
    }

    /// True when the lists to come are predicted: a job may test ahead (see
    /// [`Following`]), or the predictions are checked (see [`Audit`]).
    fn predicts(&self) -> bool {
        self.options.jobs > 1 || self.audit.is_some()
    }

    /// The deletions of the list above `depth` that `hdd_bottom_up` asks next when every
    /// node of `depth` is kept.
    fn bottom_up_ahead(
        &self,
        tree: &Tree,
        index: &[Vec<NodeId>],
        depth: usize,
        implied: &BTreeSet<NodeId>,
    ) -> Ahead {
        let mut more = BTreeSet::new();
        imply_ancestors(tree, &index[depth], implied, &mut more);
        let settled = |above: usize| self.settled.get(above) == Some(&Some(self.accepted));
        self.bottom_up_first(tree, index, depth, (implied, more), settled, &self.needed)
    }

    /// The deletions of the list `hdd_bottom_up` asks first above depth `below` of `tree`,
    /// when the deletions of the nodes `implied` holds (in either set) are known to fail
    /// and it passes over the depths `settled` says: the first depth up whose list holds
    /// a node not implied. A depth passed over, or asked in vain as guessed, implies its
    /// nodes' ancestors. Gives up once it has looked at [`AHEAD_NODES`] nodes: the walk
    /// repeats for every depth asked, and must not make a deep tree cost quadratic work.
    fn bottom_up_first(
        &self,
        tree: &Tree,
        index: &[Vec<NodeId>],
        below: usize,
        implied: (&BTreeSet<NodeId>, BTreeSet<NodeId>),
        settled: impl Fn(usize) -> bool,
        needed: &Needed,
    ) -> Ahead {
        let (known, mut more) = implied;
        let mut looked = 0;
        for above in (1..below).rev() {
            let nodes = &index[above];
            looked += nodes.len();
            if looked > AHEAD_NODES {
                return Ahead::GaveUp;
            }
            if !settled(above) {
                let implied = |id: &NodeId| known.contains(id) || more.contains(id);
                let lists = self.lists_not_implied(&self.current, tree, nodes, needed, implied);
                let found = deletions(tree, &lists).into_iter().find(|l| !l.is_empty());
                if let Some(items) = found {
                    return Ahead::Found(items);
                }
            }
            imply_ancestors(tree, nodes, known, &mut more);
        }
        Ahead::Top
    }

    /// [`Driver::bottom_up_first`] on a tree of `text` made for it, with nothing implied,
    /// from the depth above `below` (the deepest when `None`); `unchanged` as for
    /// [`Driver::settled_at`]. `None` when `text` does not parse.
    fn bottom_up_in(
        &self,
        text: &str,
        below: Option<usize>,
        unchanged: bool,
        needed: &Needed,
    ) -> Option<Ahead> {
        let tree = self.frontend.parse(text).ok()?;
        let index = tree.depth_index();
        let below = below.map_or(index.len(), |below| below.min(index.len()));
        let settled = |at: usize| self.settled_at(at, unchanged);
        let none = BTreeSet::new();
        let implied = (&none, BTreeSet::new());
        Some(self.bottom_up_first(&tree, &index, below, implied, settled, needed))
    }

    /// True when HDD* will pass over depth `at` as settled once the pass now running ends
    /// (`unchanged`: with no accepted text more).
    fn settled_at(&self, at: usize, unchanged: bool) -> bool {
        let local = self.frontend.needs_are_local();
        self.hdd_state.as_ref().is_some_and(|state| {
            (state.depths.contains(&at)
                && (local || (unchanged && self.pass_settles(state.pass_from))))
                || (unchanged && self.settled.get(at) == Some(&Some(self.accepted)))
        })
    }

    /// True when the pass over a depth that began with `pass_from` accepted texts, now
    /// ending, settles it (see `hdd`): always in markup; in code only when it accepted
    /// nothing, as a list that accepted an edit may have freed an item it asked before
    /// (lists do not start over), which the next round then asks again.
    fn pass_settles(&self, pass_from: usize) -> bool {
        self.frontend.needs_are_local() || self.accepted == pass_from
    }

    /// Records where HDD* is (see [`HddState`]) before a pass over `depths`.
    fn note_hdd(&mut self, round_from: usize, depths: std::ops::RangeInclusive<usize>) {
        self.hdd_state = Some(HddState {
            round_from,
            depths,
            pass_from: self.accepted,
        });
    }

    /// [`Driver::lists`] without the nodes whose deletion `implied` says fails (see
    /// [`Driver::hdd_bottom_up`]).
    fn lists_not_implied(
        &self,
        text: &str,
        tree: &Tree,
        nodes: &[NodeId],
        needed: &Needed,
        implied: impl Fn(&NodeId) -> bool,
    ) -> Vec<Vec<NodeId>> {
        self.lists(text, tree, nodes, needed)
            .into_iter()
            .map(|list| list.into_iter().filter(|id| !implied(id)).collect())
            .collect()
    }

    /// The deletion lists of one depth, without the nodes known to be `needed` or left out
    /// as failed (see [`Needed::skips`]).
    fn lists(
        &self,
        text: &str,
        tree: &Tree,
        nodes: &[NodeId],
        needed: &Needed,
    ) -> Vec<Vec<NodeId>> {
        let mut lists = self.lists_with(text, tree, nodes, needed, true);
        for list in &mut lists {
            self.likely_needed_last(text, tree, list);
        }
        lists
    }

    /// Moves the nodes of `list` (of three or more) that the front end finds likely needed
    /// (see [`Frontend::likely_needed`]) to its end, each part in its own order. The
    /// strategy walks the list in that order (reversed with `--order reverse`, mixed with
    /// `random`), so it removes the others in blocks as large as they
    /// are, not broken by a needed node every few items, and meets the needed ones in a
    /// run, where it asks them one by one. Each kept node still had its own failed
    /// deletion; only the order of the questions changes.
    fn likely_needed_last(&self, text: &str, tree: &Tree, list: &mut Vec<NodeId>) {
        if list.len() < 3 {
            return;
        }
        let flags = self.frontend.likely_needed(text, tree, list);
        if flags.len() != list.len() || flags.iter().all(|&f| f) || !flags.contains(&true) {
            return;
        }
        let unlikely = list.iter().zip(&flags).filter(|&(_, &likely)| !likely);
        let likely = list.iter().zip(&flags).filter(|&(_, &likely)| likely);
        *list = unlikely.chain(likely).map(|(&id, _)| id).collect();
    }

    /// As [`Driver::lists`], with the nodes left out as failed unless `skipping` is false.
    fn lists_with(
        &self,
        text: &str,
        tree: &Tree,
        nodes: &[NodeId],
        needed: &Needed,
        skipping: bool,
    ) -> Vec<Vec<NodeId>> {
        // A sweep tells the edits left out from those asked on this very text.
        let text_key = (skipping && needed.sweeping()).then(|| key(text));
        let nodes: Vec<NodeId> = nodes
            .iter()
            .copied()
            .filter(|&id| {
                let node = tree.node(id);
                if !node.deletable() {
                    return false;
                }
                // Known to be needed, or to have failed where it stands (code), or (in
                // markup) to take away a needed node.
                let known = needed.holds(node, needed::DELETE)
                    || (skipping && needed.skips(text, text_key, node, needed::DELETE))
                    || (self.frontend.needs_are_local()
                        && needed.deleted_by(&deletion_edits(node)));
                !known
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
        lists: &[Vec<NodeId>],
        depth: u32,
        round: usize,
        following: Following,
    ) -> Result<()> {
        // In code, a deletion that fails is recorded as guarded (see `Subject::guarded`):
        // the next round asks it again only once an edit touched its parent or took away
        // one of its words. Markup's later rounds go bottom-up on monotonicity instead.
        let guard = !self.frontend.needs_are_local();
        let mut items: Vec<Vec<Vec<Edit>>> = Vec::with_capacity(lists.len());
        let mut subjects: Option<Vec<Vec<Subject>>> = guard.then(Vec::new);
        for list in lists {
            let mut edits = Vec::with_capacity(list.len());
            let mut own = Vec::new();
            for &id in list {
                let deletion = deletion_edits(tree.node(id));
                if deletion.is_empty() {
                    continue;
                }
                edits.push(deletion);
                if subjects.is_some() {
                    match Subject::of(tree, id, needed::DELETE) {
                        Some(subject) => own.push(subject.guarded()),
                        // An item without a parent: no list of subjects lines up.
                        None => subjects = None,
                    }
                }
            }
            items.push(edits);
            if let Some(subjects) = &mut subjects {
                subjects.push(own);
            }
        }
        self.delete_items_of(&items, subjects.as_deref(), depth, round, following)
    }

    /// [`Driver::delete_pass`] on lists of deletions made already.
    fn delete_items(
        &mut self,
        lists: &[Vec<Vec<Edit>>],
        depth: u32,
        round: usize,
        following: Following,
    ) -> Result<()> {
        self.delete_items_of(lists, None, depth, round, following)
    }

    /// [`Driver::delete_items`], recording the items that fail as `subjects` say.
    fn delete_items_of(
        &mut self,
        lists: &[Vec<Vec<Edit>>],
        subjects: Option<&[Vec<Subject>]>,
        depth: u32,
        round: usize,
        following: Following,
    ) -> Result<()> {
        let items: usize = lists.iter().map(Vec::len).sum();
        if items == 0 {
            return Ok(());
        }
        self.log(format_args!(
            "round {round}, depth {depth}: {items} nodes in {} lists",
            lists.len()
        ));
        // A later round's lists hold what the earlier ones kept, each proven needed then.
        self.dense = round > 1;
        // HDD*'s next round is there for the deletions that a later one makes possible;
        // a plain record would hide those whose dependant is not a sibling (a method and a
        // call elsewhere), so only guarded ones are made here (see `delete_pass`). Its
        // fixed point records every node (see `rewrite_passes`).
        let outcome = self.pass(
            &format!("delete depth {depth}"),
            lists,
            subjects,
            None,
            true,
            following,
        );
        self.dense = false;
        outcome
    }

    /// Rewrites of every node that offers them, all depths in one list per alternative
    /// rank: first every node's first alternative, then (re-parsed) every second one, ...
    fn rewrite_passes(&mut self) -> Result<()> {
        let mut rank = 0;
        loop {
            let tree = self.parse_current()?;
            if rank == 0 {
                // HDD* is at its fixed point: every node it could delete is needed.
                self.needed
                    .record_all(&self.current, key(&self.current), &tree);
            }
            if !tree.ids().any(|id| tree.node(id).alternatives.len() > rank) {
                self.rewrote = true;
                return Ok(());
            }
            let (items, subjects) = rewrites(
                self.frontend,
                &self.current,
                &tree,
                rank,
                &self.needed,
                self.unlikely_too,
            );
            rank += 1;
            if items.is_empty() {
                continue;
            }
            self.log(format_args!("rewrite {rank}: {} nodes", items.len()));
            let following = Following::Rewrite(rank);
            let name = format!("rewrite {rank}");
            self.dense = rewrites_dense(self.frontend, self.rewrote, items.len());
            let outcome = self.pass(&name, &[items], Some(&[subjects]), None, false, following);
            self.dense = false;
            outcome?;
        }
    }

    /// Shrinks text and attribute values unit by unit, one list per node, first by words,
    /// then by characters (references kept whole); a node whose first candidates all fail
    /// is left alone.
    fn shrink_pass(&mut self) -> Result<()> {
        // Top-level nodes that may not go now may once a text lost something (a DOCTYPE
        // whose entities are no longer referenced).
        let tree = self.parse_current()?;
        let top = |tree: &Tree| tree.node(tree.root()).children.clone();
        let locked: Vec<Label> = top(&tree)
            .into_iter()
            .filter(|&id| tree.node(id).delete.is_none())
            .map(|id| tree.node(id).label.clone())
            .collect();
        // The word pass starts from this same text: it takes this tree.
        self.ready = Some((key(&self.current), tree));
        let before = self.current.len();
        self.shrink_from = Some((before, locked));
        let outcome = self.shrink_words_and_characters();
        let (_, locked) = self.shrink_from.take().unwrap_or_default();
        outcome?;
        if self.current.len() == before || locked.is_empty() {
            return Ok(());
        }
        let tree = self.parse_current()?;
        let freed = freed_nodes(&tree, &locked);
        self.delete_pass(&tree, &[freed], 1, 1, Following::Squeeze)
    }

    fn shrink_words_and_characters(&mut self) -> Result<()> {
        for grain in [Grain::Words, Grain::Characters] {
            let tree = self.parse_current()?;
            let lists = self.shrink_lists(&self.current, &tree, grain);
            if lists.is_empty() {
                continue;
            }
            let what = match grain {
                Grain::Words => "words",
                Grain::Characters => "characters",
            };
            self.log(format_args!(
                "shrink: {what} of {} texts and values",
                lists.len()
            ));
            let patience = Some(SHRINK_PATIENCE);
            let after = match grain {
                Grain::Words => Following::Shrink(Grain::Characters),
                Grain::Characters => Following::Freed,
            };
            self.pass("shrink", &lists, None, patience, true, after)?;
        }
        Ok(())
    }

    /// The shrink pass's lists of `text` (whose tree is `tree`) at `grain`: one per text
    /// or value with two pieces or more, each piece's deletion an item. Where the front
    /// end shrinks alike values as one (see [`Frontend::shrinks_alike`]), values whose
    /// pieces read the same but for their numbers make one list, in the place of the
    /// first of them, whose item `i` deletes the piece `i` of each.
    fn shrink_lists(&self, text: &str, tree: &Tree, grain: Grain) -> Vec<Vec<Vec<Edit>>> {
        let values: Vec<Vec<std::ops::Range<usize>>> = tree
            .ids()
            .map(|id| self.frontend.units(text, tree.node(id), grain))
            .filter(|units| units.len() > 1)
            .collect();
        if !self.frontend.shrinks_alike() {
            return values
                .into_iter()
                .map(|units| units.into_iter().map(|u| vec![Edit::delete(u)]).collect())
                .collect();
        }
        // A value's shape: its pieces' texts, a run of digits read as `0`.
        let shape = |units: &[std::ops::Range<usize>]| -> Vec<&str> {
            units
                .iter()
                .map(|u| {
                    let piece = text.get(u.clone()).unwrap_or_default();
                    if piece.bytes().all(|b| b.is_ascii_digit()) {
                        "0"
                    } else {
                        piece
                    }
                })
                .collect()
        };
        let mut groups: Vec<Vec<&Vec<std::ops::Range<usize>>>> = Vec::new();
        let mut by_shape: BTreeMap<Vec<&str>, usize> = BTreeMap::new();
        for units in &values {
            let at = *by_shape.entry(shape(units)).or_insert(groups.len());
            if at == groups.len() {
                groups.push(Vec::new());
            }
            groups[at].push(units);
        }
        groups
            .into_iter()
            .map(|alike| {
                let places = alike.first().map_or(0, |units| units.len());
                (0..places)
                    .map(|i| {
                        alike
                            .iter()
                            .filter_map(|units| units.get(i))
                            .map(|u| Edit::delete(u.clone()))
                            .collect()
                    })
                    .collect()
            })
            .collect()
    }

    /// Removes all formatting whitespace at once: one item per label of whitespace node
    /// (XML's formatting between markup, and the spaces around a text's words), so that
    /// when all of it goes, as it nearly always does, that is one candidate.
    ///
    /// A kind of whitespace that could not go at once (one `<pre> </pre>` among the
    /// formatting) is then searched node by node, with the shrink's patience: a test that
    /// needs all of it (line numbers in a stack trace) costs a few calls more. What stays
    /// is then offered thinned, in one candidate, each run to one line break of it or its
    /// first character: a test that needs a space between two elements seldom needs the
    /// 17 of an indented line.
    fn squeeze_pass(&mut self) -> Result<()> {
        // Its candidates differ from the text in layout only.
        self.layouts = false;
        let tree = self.parse_current()?;
        let groups = squeeze_groups(&tree);
        if groups.is_empty() {
            return Ok(());
        }
        self.pass("squeeze", &[groups], None, None, true, Following::Unknown)?;
        let tree = self.parse_current()?;
        let split: Vec<Vec<Vec<Edit>>> = squeeze_groups(&tree)
            .into_iter()
            .filter(|group| group.len() > 1)
            .map(|group| group.into_iter().map(|edit| vec![edit]).collect())
            .collect();
        let patience = Some(SHRINK_PATIENCE);
        if !split.is_empty() {
            self.pass("squeeze", &split, None, patience, true, Following::Unknown)?;
        }
        let tree = self.parse_current()?;
        let thin = thinned_whitespace(&self.current, &tree);
        if thin.is_empty() {
            return Ok(());
        }
        // All at once, one call: a test that refuses that reads columns or indentation, and
        // would refuse most runs one by one too.
        let all = vec![vec![thin.concat()]];
        self.pass("squeeze", &all, None, None, true, Following::Unknown)
    }

    /// Runs one pass: each list in turn through a fresh strategy, all over the same base
    /// text (lists of one pass never overlap), and records the pass figures. `deletions`
    /// says that every item only deletes whole nodes or units of the base, which lets the
    /// front end judge candidates without a parse (see [`Frontend::deletions_stay_valid`]).
    /// `after` says what follows the pass's last list.
    fn pass(
        &mut self,
        name: &str,
        lists: &[Vec<Vec<Edit>>],
        subjects: Option<&[Vec<Subject>]>,
        patience: Option<usize>,
        deletions: bool,
        after: Following,
    ) -> Result<()> {
        let calls_before = self.stats.oracle_calls;
        let size_before = self.current.len();
        let base = self.current.clone();
        // The passes of a sweep (see `all_passes`) are told apart in the figures.
        let name = if self.needed.sweeping() {
            format!("{name} (sweep)")
        } else {
            name.to_string()
        };
        if let Some(progress) = &self.progress {
            progress.update(self.current.len(), &name);
        }
        self.pass_name.clone_from(&name);
        let mut committed: Vec<Edit> = Vec::new();
        let mut outcome = Ok(());
        for (i, items) in lists.iter().enumerate() {
            let following = match lists.get(i + 1) {
                Some(next) => Following::List {
                    items: next,
                    patience,
                },
                None => after,
            };
            let list = List {
                items,
                subjects: subjects.and_then(|s| s.get(i)).map(Vec::as_slice),
                patience,
                deletions,
                following,
            };
            outcome = self.run_list(&base, &mut committed, list);
            if outcome.is_err() {
                break;
            }
        }
        if !committed.is_empty() {
            let edits: Vec<&Edit> = committed.iter().collect();
            self.needed.carry(&base, &splices(&base, &edits));
        }
        self.stats.passes.push(PassStats {
            name,
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
            None => crate::tell!("{line}"),
        }
    }

    /// Runs one strategy over the list's items (each a group of edits of `base`), on top of
    /// the already `committed` edits of `base`. Accepted edits are appended to `committed`.
    /// With a `patience`, the list is abandoned when that many candidates in a row fail
    /// before any succeeds.
    ///
    /// Up to `jobs` oracle calls run at once on the strategy's next candidates (the
    /// window). Each candidate after the first is built on a guess of the verdicts before
    /// it: the known verdict where there is one, else the likelier one given the recent
    /// verdicts. The strategy still receives the real verdicts in proposal order, so the
    /// result does not depend on `jobs`; a wrong guess only cancels the calls after it.
    /// When the strategy has nothing more to propose but calls still run, a free job tests
    /// the first candidate of the list that follows (see [`Following`]). The edits kept go
    /// to `committed`; should the list's text not parse when it ends, those kept since the
    /// last parsed text are taken off again (see [`Driver::verify`]).
    fn run_list(&mut self, base: &str, committed: &mut Vec<Edit>, list: List) -> Result<()> {
        let List {
            items,
            subjects,
            patience,
            deletions,
            following,
        } = list;
        let list_start = committed.len();
        let mut strategy = self.strategy(items, patience);
        let mut jobs = self.jobs();
        let mut window: VecDeque<Slot> = VecDeque::new();
        let mut failures = 0usize;
        let mut successes = 0usize;
        // In code, which kept items failed on the text the list leaves (see `FailedOn`),
        // for the lists whose failures are remembered at their end.
        let remembered = subjects.is_some() && patience.is_none();
        let mut failed_on =
            (remembered && !self.frontend.needs_are_local()).then(|| FailedOn::new(items.len()));
        let mut exhausted = false;
        let thrift = self.thrift.clone();
        // Of the failures, those that count as alone (see `Thrift::alone`).
        let mut lone = 0usize;
        // The list ends on its thrift, before its end.
        let mut gave_way = false;
        // Whether the list ends before its end: a shrink that keeps failing (`false`), or
        // a list whose thrift is spent (`true`).
        let ends_early = |failures: usize, successes: usize, lone: usize| {
            if patience.is_some_and(|p| successes == 0 && failures >= patience_for(p, items.len()))
            {
                Some(false)
            } else {
                thrift
                    .as_ref()
                    .is_some_and(|t| t.spent(failures, successes, lone))
                    .then_some(true)
            }
        };
        // Prefetches are adopted by the first candidate asked, or dropped then.
        let mut started = false;
        // Whether the next list's first candidate was prepared on the current guesses.
        let mut prepared = false;
        // While the current text was kept on a cheap check only: the last text a parse
        // confirmed, and the length `committed` had with it (see `Driver::verify`).
        let mut unverified: Option<(String, usize)> = None;
        let result = loop {
            if interrupted() {
                break Err(Error::Interrupted);
            }
            if let Some(spent) = ends_early(failures, successes, lone) {
                gave_way = spent;
                break Ok(());
            }
            // Hand known verdicts at the front to the strategy, in order.
            let mut guessed_wrong = false;
            while let Some(SlotState::Done(verdict)) = window.front().map(|s| &s.state) {
                let verdict = *verdict;
                let Some(slot) = window.pop_front() else {
                    break;
                };
                let verdict = self.laid_out(&slot.text, verdict);
                if slot.reuses_waste && self.discarded.remove(&key(&slot.text)) {
                    self.stats.wasted -= 1;
                }
                self.trace(&slot, verdict);
                let proposed = strategy.next();
                debug_assert_eq!(proposed.as_ref(), Some(&slot.chosen));
                strategy.feedback(verdict);
                if verdict {
                    successes += 1;
                    if let Some(failed_on) = &mut failed_on {
                        failed_on.accepted(&slot.chosen);
                    }
                    let before = committed.len();
                    committed.extend(slot.chosen.iter().flat_map(|&i| items[i].iter().cloned()));
                    if slot.unparsed {
                        // Judged without a parse: kept now, parsed once the list ends.
                        let previous = self.accept_unverified(slot.text);
                        unverified.get_or_insert((previous, before));
                    } else {
                        // A parse judged it, and with it every edit kept before.
                        unverified = None;
                        if let Err(e) = self.accept(slot.text) {
                            cancel_all(&window);
                            return Err(e);
                        }
                    }
                } else {
                    failures += 1;
                    lone += usize::from(thrift.as_ref().is_some_and(|t| t.alone(&slot.chosen)));
                    if let Some(failed_on) = &mut failed_on {
                        failed_on.failed(&slot.chosen);
                    }
                }
                if verdict != slot.assumed {
                    guessed_wrong = true;
                    break;
                }
            }
            if guessed_wrong {
                // Everything after a wrong guess was built on it, the prepared first
                // candidate of the next list too.
                cancel_all(&window);
                // Their verdicts stay in the cache: one used later is not waste after all.
                for slot in &window {
                    if slot.asked && matches!(slot.state, SlotState::Done(_)) {
                        self.stats.wasted += 1;
                        self.discarded.insert(key(&slot.text));
                    }
                }
                window.clear();
                exhausted = false;
                if prepared {
                    self.drop_prefetches();
                    prepared = false;
                }
                continue;
            }
            // The list may end here, before it starts another call (see `ends_early`).
            if let Some(spent) = ends_early(failures, successes, lone) {
                gave_way = spent;
                break Ok(());
            }
            // Extend the window while a job is free.
            if !window.is_empty() {
                jobs = self.jobs();
            }
            if self.in_flight < jobs && !exhausted && window.len() < jobs + WINDOW_SLACK {
                let mut probe = strategy.clone_box();
                for slot in &window {
                    probe.next();
                    probe.feedback(slot.assumed);
                }
                match probe.next() {
                    Some(chosen) => {
                        let chance = probe.chance();
                        let edits: Vec<&Edit> = committed
                            .iter()
                            .chain(assumed_edits(&window, items))
                            .chain(chosen.iter().flat_map(|&i| &items[i]))
                            .collect();
                        let built = Instant::now();
                        let text = render(base, &edits);
                        let judged = self.prejudge(&text, base, &edits, deletions);
                        self.stats.candidates += 1;
                        self.stats.overhead += built.elapsed();
                        let slot = match judged {
                            Prejudged::Known {
                                verdict,
                                reuses_waste,
                            } => Slot {
                                chosen,
                                text,
                                state: SlotState::Done(verdict),
                                assumed: verdict,
                                asked: false,
                                // A verdict from the cache never vouches for a parse.
                                unparsed: true,
                                reuses_waste,
                                guide: Guide::default(),
                            },
                            Prejudged::Valid { parsed, text_key } => {
                                // The text this candidate removes from: the last one
                                // guessed interesting, else the current text.
                                let from = window
                                    .iter()
                                    .rev()
                                    .find(|s| s.assumed)
                                    .map_or(self.current.len(), |s| s.text.len());
                                let guide = Guide {
                                    removed: removed_share(from, text.len()),
                                    removed_bytes: from.saturating_sub(text.len()),
                                    chance,
                                };
                                let mut slot = self.ask(chosen, text, text_key, guide, &window);
                                slot.unparsed = !parsed;
                                slot
                            }
                        };
                        // A prefetch is for the first candidate asked, which may be in a
                        // list after this one when this one's verdicts are all known.
                        if !started && slot.asked {
                            started = true;
                            self.drop_prefetches();
                        }
                        window.push_back(slot);
                        continue;
                    }
                    None => exhausted = true,
                }
            }
            // The strategy is done unless a guess is wrong: a free job tests what the next
            // list will most likely propose first.
            if exhausted && !prepared && !window.is_empty() && self.in_flight < jobs {
                prepared = true;
                let edits: Vec<&Edit> = committed
                    .iter()
                    .chain(assumed_edits(&window, items))
                    .collect();
                self.prefetch(base, &edits, following, deletions);
            }
            if window.is_empty() {
                if exhausted {
                    break Ok(());
                }
                if self.in_flight < jobs {
                    continue;
                }
            }
            if let Err(e) = self.receive(&mut window) {
                break Err(e);
            }
        };
        cancel_all(&window);
        let verified = match unverified {
            Some((fallback, before)) => match self.verify(base, committed, fallback, following) {
                Ok(true) => Ok(true),
                Ok(false) => {
                    committed.truncate(before);
                    Ok(false)
                }
                Err(e) => Err(e),
            },
            None => Ok(true),
        };
        // In code, a rewritten node's records describe what it holds in the context it
        // had before: what it keeps of itself (a hoisted child) now stands elsewhere.
        if let Some(subjects) = subjects.filter(|_| !self.frontend.needs_are_local()) {
            let kept = strategy.kept();
            for (i, subject) in subjects.iter().enumerate() {
                if kept.binary_search(&i).is_err() {
                    self.needed.release_within(subject.span());
                }
            }
        }
        // A list that ran to its end left its items 1-minimal: each item kept fails on
        // this text, and is known to while nothing touches its parent. Edits the list
        // made after an item's question may have been what it needed, so only items
        // whose parents the list left alone are recorded. One that gave up on its thrift
        // kept items it never asked.
        self.gave_way = gave_way && matches!(thrift, Some(Thrift::Lone(..)));
        if let (Some(subjects), Ok(()), Ok(true), None, false) =
            (subjects, &result, &verified, patience, gave_way)
        {
            let edits: Vec<&Edit> = committed[list_start..].iter().collect();
            let splices = splices(base, &edits);
            // In code, each item kept is remembered as failed, with the text the list left
            // (if it failed on that text) and where the node begins in it.
            let code = failed_on.map(|f| (f, key(&self.current), Moves::new(&splices)));
            for i in strategy.kept() {
                if let Some(subject) = subjects.get(i) {
                    if let Some((failed_on, after, moves)) = &code {
                        let holds = failed_on.holds_at_end(i);
                        let at = moves.of(subject.span().start);
                        self.needed
                            .failed(base, subject, holds.then_some(*after), at);
                    }
                    if !touches(&splices, subject.parent()) {
                        self.needed.record(subject);
                    }
                }
            }
        }
        let verified = verified.map(|_| ());
        if self.audit.is_some() && result.is_ok() && verified.is_ok() {
            let edits: Vec<&Edit> = committed.iter().collect();
            let prediction = self.first_candidate(base, &edits, following, deletions);
            if self.trace {
                let what = prediction.as_ref().map(String::len);
                crate::tell!("prediction after {}: {what:?} bytes", self.pass_name);
            }
            if let Some(audit) = &mut self.audit {
                audit.expect(prediction);
            }
        }
        // A failed write of the verified text matters more than an interrupt.
        verified.and(result)
    }

    /// Parses the current text, kept on cheap checks only, before it is written: the
    /// output is always a text that parses, whatever a cheap check missed. One parse per
    /// list rather than per accepted candidate (a list that keeps removing from a large
    /// page accepts several large texts in a row), from the parse of `base` (the current
    /// text is `base` with `committed`) where the front end re-parses incrementally. When
    /// a deletion pass follows, its tree is kept for it, built as deep as it needs.
    /// Should the parse fail, the current text goes back to `fallback`, the last one a
    /// parse confirmed (on disk already), and `Ok(false)` tells the caller to drop the
    /// edits kept since.
    fn verify(
        &mut self,
        base: &str,
        committed: &[Edit],
        fallback: String,
        following: Following,
    ) -> Result<bool> {
        let checked = Instant::now();
        let text_key = key(&self.current);
        let edits: Vec<&Edit> = committed.iter().collect();
        let limit = match following {
            // The next list starts from this text again: only whether it parses matters.
            Following::List { .. } => None,
            // The depth's slices, then the depth below, on the same tree when they change
            // nothing.
            Following::Sliced(depth) => Some(Some(limit_for(depth + 1))),
            Following::GaveWay(depth) => Some(Some(limit_for(depth))),
            Following::Depth(depth)
            | Following::Plain(depth)
            | Following::Gallop(Gallop { head: depth, .. })
            | Following::ChainProbe {
                went: Gallop { head: depth, .. },
                ..
            } => Some(Some(limit_for(depth))),
            Following::Rewrite(_)
            | Following::Shrink(_)
            | Following::Squeeze
            | Following::Freed
            | Following::NextRound
            | Following::BottomUp { .. }
            | Following::FixedPoint
            | Following::Unknown => Some(None),
        };
        let valid = match limit {
            None => self.frontend.is_valid_edited(base, &edits, &self.current),
            Some(limit) => {
                // The prefetch for the next list may have parsed this very text.
                let parsed = tree_of(
                    &mut self.ready,
                    self.frontend,
                    &self.current,
                    text_key,
                    limit,
                    Some((base, &edits)),
                );
                parsed
                    .map(|tree| self.ready = Some((text_key, tree)))
                    .is_ok()
            }
        };
        self.stats.overhead += checked.elapsed();
        if valid {
            let started = Instant::now();
            output::write_atomic(&self.options.output, &self.current)?;
            self.stats.overhead += started.elapsed();
            return Ok(true);
        }
        self.stats.rejected += 1;
        self.cache.insert(text_key, false);
        self.current = fallback;
        self.accepted += 1;
        self.rollbacks += 1;
        if let Some(progress) = &self.progress {
            progress.update(self.current.len(), &self.pass_name);
        }
        Ok(false)
    }

    /// How many oracle calls may run at once. Speculation only pays while the oracle is
    /// slower than making a candidate: otherwise the reducer itself is the bottleneck, and
    /// the candidates it builds on guesses (and the tests run on them) only take time from
    /// the ones that count. So with a fast oracle (a `grep`) calls run one at a time
    /// whatever `-j` says; the first few calls run as `-j` asks, to measure.
    fn jobs(&self) -> usize {
        let jobs = self.options.jobs.max(1);
        let (time, runs) = self.oracle_time;
        if jobs == 1 || runs < SPECULATION_SAMPLES {
            return jobs;
        }
        let oracle_ms = time.as_secs_f64() * 1000.0 / f64::from(runs);
        if oracle_ms < self.stats.overhead_ms_per_candidate() {
            1
        } else {
            jobs
        }
    }

    /// The needed nodes as the next pass will know them, after `edits` of this one.
    fn needed_after(&self, base: &str, edits: &[&Edit]) -> Needed {
        let mut needed = self.needed.clone();
        needed.carry(base, &splices(base, edits));
        needed
    }

    /// A fresh strategy for a list of `items`. A sweep's lists hold edits that failed
    /// before and nearly all fail again: they are asked as a later round's, one by one
    /// until removals succeed (see [`StrategyOptions::dense`]).
    fn strategy(&self, items: &[Vec<Edit>], patience: Option<usize>) -> Box<dyn Strategy> {
        let options = StrategyOptions {
            dense: self.dense_now(),
            ..self.options.strategy_options.clone()
        };
        self.strategy_with(items, patience, options)
    }

    /// Whether the list now run is dense (see [`Driver::strategy`]).
    fn dense_now(&self) -> bool {
        self.dense || self.needed.sweeping()
    }

    /// A fresh strategy for a list of `items`, with `options` but for what `patience`
    /// decides; each item weighs the bytes it takes away.
    fn strategy_with(
        &self,
        items: &[Vec<Edit>],
        patience: Option<usize>,
        options: StrategyOptions,
    ) -> Box<dyn Strategy> {
        let weights = items
            .iter()
            .map(|edits| {
                let bytes: usize = edits
                    .iter()
                    .map(|e| e.span.len().saturating_sub(e.text.len()))
                    .sum();
                u64::try_from(bytes).unwrap_or(u64::MAX)
            })
            .collect();
        let options = StrategyOptions {
            allow_empty: patience.is_none(),
            rest_first: patience.is_some(),
            weights,
            ..options
        };
        self.options.strategy.build(items.len(), &options)
    }

    /// A window slot for a candidate the oracle must judge: the call of a slot in `window`
    /// on the same text, else the prefetched call on it, else a new call.
    fn ask(
        &mut self,
        chosen: Vec<usize>,
        text: String,
        text_key: u128,
        guide: Guide,
        window: &VecDeque<Slot>,
    ) -> Slot {
        // The same text is in the window already (its verdict not known yet, else the
        // cache would have it): this one shares its call and its guess.
        if let Some(twin) = window.iter().find(|s| s.asked && s.text == text)
            && let SlotState::Running(seq, cancel) = &twin.state
        {
            return Slot {
                chosen,
                state: SlotState::Running(*seq, cancel.clone()),
                assumed: twin.assumed,
                asked: false,
                unparsed: true,
                reuses_waste: false,
                guide,
                text,
            };
        }
        if let Some(audit) = &mut self.audit {
            audit.compare(&text);
        }
        let adopted = match self.prefetched.iter().position(|p| p.key == text_key) {
            Some(i) => {
                self.stats.adopted += 1;
                Some(self.prefetched.swap_remove(i))
            }
            None => None,
        };
        let state = match adopted {
            Some(Prefetch {
                verdict: Some(verdict),
                ..
            }) => {
                self.learn(text_key, guide, verdict);
                SlotState::Done(verdict)
            }
            Some(Prefetch { seq, cancel, .. }) => SlotState::Running(seq, cancel),
            None => {
                let (seq, cancel) = self.spawn(&text);
                SlotState::Running(seq, cancel)
            }
        };
        let assumed = match state {
            SlotState::Done(verdict) => verdict,
            SlotState::Running(..) => likely_success(&self.recent, guide),
        };
        Slot {
            chosen,
            text,
            state,
            assumed,
            asked: true,
            unparsed: true,
            reuses_waste: false,
            guide,
        }
    }

    /// Starts an oracle call on `text`; its answer arrives on `answers`.
    fn spawn(&mut self, text: &str) -> (u64, Arc<AtomicBool>) {
        let seq = self.next_seq;
        self.next_seq += 1;
        let cancel = Arc::new(AtomicBool::new(false));
        let (oracle, to, flag, copy) = (
            self.oracle.clone(),
            self.answer_to.clone(),
            cancel.clone(),
            text.to_string(),
        );
        thread::spawn(move || {
            let outcome = oracle.test_cancellable(&copy, &flag);
            // Let go of the oracle before answering: once every answer has arrived, the
            // run holds the last reference and its drop removes the temporary folders.
            drop(oracle);
            let _ = to.send((seq, outcome));
        });
        self.in_flight += 1;
        (seq, cancel)
    }

    /// Waits for one answer and files it: with the window slot waiting for it, with the
    /// prefetch that asked it, or as waste (cancelled, or nobody waits for it any more).
    fn receive(&mut self, window: &mut VecDeque<Slot>) -> Result<()> {
        if self.in_flight == 0 {
            return Err(Error::Usage(String::from(
                "internal error: waiting for an answer with no test running; please report this",
            )));
        }
        let Ok((seq, outcome)) = self.answers.recv() else {
            return Err(Error::Interrupted);
        };
        self.in_flight -= 1;
        self.stats.oracle_calls += 1;
        let outcome = outcome?;
        self.stats.overhead += outcome.overhead;
        if outcome.timed_out {
            self.stats.timeouts += 1;
        }
        if outcome.cancelled {
            self.stats.wasted += 1;
            return Ok(());
        }
        self.oracle_time.0 += outcome.elapsed;
        self.oracle_time.1 += 1;
        let verdict = outcome.interesting;
        let running = |state: &SlotState| matches!(state, SlotState::Running(q, _) if *q == seq);
        let mut waiting = window.iter_mut().filter(|s| running(&s.state)).peekable();
        if waiting.peek().is_some() {
            // A text the window holds twice shares one call.
            let mut learned = None;
            for slot in waiting {
                slot.state = SlotState::Done(verdict);
                learned.get_or_insert((key(&slot.text), slot.guide));
            }
            if let Some((text_key, guide)) = learned {
                self.learn(text_key, guide, verdict);
            }
        } else if let Some(prefetch) = self.prefetched.iter_mut().find(|p| p.seq == seq) {
            prefetch.verdict = Some(verdict);
        } else {
            self.stats.wasted += 1;
        }
        Ok(())
    }

    /// Records an oracle verdict in the cache and in the recent verdicts.
    fn learn(&mut self, text_key: u128, guide: Guide, verdict: bool) {
        self.cache.insert(text_key, verdict);
        self.recent.push_back((guide, verdict));
        if self.recent.len() > RECENT_VERDICTS {
            self.recent.pop_front();
        }
    }

    /// Starts a call on the first candidate of the list `following` the current one, in
    /// the text `base` with `edits` (the current list's outcome, guessed), unless that
    /// candidate's verdict is known or it does not parse. `cheap` says whether the current
    /// pass only deletes (see [`List::deletions`]).
    fn prefetch(&mut self, base: &str, edits: &[&Edit], following: Following, cheap: bool) {
        let built = Instant::now();
        let text = self.first_candidate(base, edits, following, cheap);
        self.stats.overhead += built.elapsed();
        let Some(text) = text else {
            return;
        };
        let text_key = key(&text);
        let known = self.known(&text, text_key).is_some()
            || self.prefetched.iter().any(|p| p.key == text_key);
        if known {
            return;
        }
        let (seq, cancel) = self.spawn(&text);
        self.prefetched.push(Prefetch {
            key: text_key,
            seq,
            cancel,
            verdict: None,
        });
    }

    /// The first candidate the list `following` will propose when the current list leaves
    /// `base` with `edits`, built exactly as that list will build it, and checked as it
    /// will check it (so that a deletion is never parsed whole here); `None` when there is
    /// none or it does not parse. A deletion pass's tree is kept for that pass.
    fn first_candidate(
        &mut self,
        base: &str,
        edits: &[&Edit],
        following: Following,
        cheap: bool,
    ) -> Option<String> {
        let following = match following {
            // Nothing deleted: the next depth up on the same tree.
            Following::BottomUp { ahead, .. } if edits.is_empty() => match ahead {
                Some(items) => Following::List {
                    items,
                    patience: None,
                },
                None => Following::NextRound,
            },
            // The probe failed: the next probe, else (the chain is needed) the leaves
            // beside it, else the depth below it.
            Following::ChainProbe {
                below,
                beside,
                retry,
                ..
            } if edits.is_empty() => match retry.or(beside) {
                Some(items) => Following::List {
                    items,
                    patience: None,
                },
                None => Following::Depth(below + 1),
            },
            Following::ChainProbe { went, .. } => Following::Gallop(went),
            following => following,
        };
        if let Following::List { items, patience } = following {
            let next = NextList {
                items: Cow::Borrowed(items),
                patience,
                deletions: cheap,
                dense: self.dense_now(),
                thrift: None,
            };
            return match self.candidate_of(base, edits.to_vec(), &next) {
                Proposal::Asks(text) => Some(text),
                Proposal::Known | Proposal::Spent | Proposal::Changes => None,
            };
        }
        let text = render(base, edits);
        self.next_candidate(base, edits, &text, following)
    }

    /// The first candidate `next` proposes on `start` with the edits `before` whose
    /// verdict is not known, the candidates before it (known from the cache or a failed
    /// check) passed over as the list will pass over them.
    fn candidate_of(&self, start: &str, before: Vec<&Edit>, next: &NextList) -> Proposal {
        let options = StrategyOptions {
            dense: next.dense,
            ..self.options.strategy_options.clone()
        };
        let mut strategy = self.strategy_with(&next.items, next.patience, options);
        let mut kept = before;
        let mut changes = false;
        let mut failures = 0;
        let mut successes = 0;
        let mut lone = 0;
        for _ in 0..WINDOW_SLACK {
            // A shrink that keeps failing gives up (as in `run_list`), and so does a list
            // whose thrift is spent (see `Thrift`).
            if next
                .patience
                .is_some_and(|p| !changes && failures >= patience_for(p, next.items.len()))
            {
                return Proposal::Known;
            }
            if next
                .thrift
                .as_ref()
                .is_some_and(|t| t.spent(failures, successes, lone))
            {
                return if changes {
                    Proposal::Changes
                } else {
                    Proposal::Spent
                };
            }
            let Some(chosen) = strategy.next() else {
                break;
            };
            let mut all = kept.clone();
            all.extend(chosen.iter().flat_map(|&i| &next.items[i]));
            let text = render(start, &all);
            let verdict = match self.known(&text, key(&text)) {
                Some(verdict) => verdict,
                None if self.check(&text, start, &all, next.deletions).0 => {
                    return Proposal::Asks(text);
                }
                None => false,
            };
            strategy.feedback(verdict);
            if verdict {
                kept = all;
                changes = true;
                successes += 1;
            } else {
                failures += 1;
                lone += usize::from(next.thrift.as_ref().is_some_and(|t| t.alone(&chosen)));
            }
        }
        if changes || strategy.next().is_some() {
            Proposal::Changes
        } else {
            Proposal::Known
        }
    }

    /// The first candidate the passes from `following` on propose in `text` (`base` with
    /// `edits`), each list made as the pass that runs it will make it; a list whose every
    /// candidate is known to fail is passed over, and a pass with nothing to offer is
    /// followed by the one after it (as in `hdd`, `rewrite_passes` and `all_passes`).
    fn next_candidate(
        &mut self,
        base: &str,
        edits: &[&Edit],
        text: &str,
        following: Following,
    ) -> Option<String> {
        let mut needed = self.needed_after(base, edits);
        let mut rewrites_from = self.rewrites_from;
        // The prediction has gone past the end of the HDD* now running, if any.
        let mut fresh = false;
        // The rewrites offer what takes away a needed node too (see `all_passes`).
        let mut unlikely = self.unlikely_too;
        // The lists are a later round's of HDD* (see `StrategyOptions::dense`).
        let mut dense = self.dense;
        // A rewrite pass ran to its end (see `Driver::rewrote`).
        let mut rewrote = self.rewrote;
        // Where slices are offered, as the list now running (when it is one of slices,
        // see `Driver::slicing`) and each list of them passed over leave it.
        let mut slices = self.slices;
        if self.slicing {
            slices = slices.after_list(!edits.is_empty());
        }
        let mut following = following;
        // Each step moves on to a later list, a later pass or a later round; the bound
        // only guards against a cycle of predictions.
        for _ in 0..PREDICTION_STEPS {
            // The list is one of slices: passed over, it accepted nothing.
            let mut sliced = false;
            // The list `following` names, and what follows it when none of its candidates
            // is asked.
            let (next, then) = match following {
                // Told apart in `first_candidate`.
                Following::Unknown | Following::List { .. } | Following::ChainProbe { .. } => {
                    return None;
                }
                Following::Depth(_) | Following::Plain(_) | Following::Gallop(_) => {
                    let (depth, gallop, sliced_first) = match following {
                        Following::Gallop(g) => (g.head, Some(g), None),
                        Following::Depth(depth) => (depth, None, None),
                        Following::Plain(depth) => (depth, None, Some(depth)),
                        _ => return None,
                    };
                    let asked = DepthAsked {
                        gallop,
                        unsettled: gallop.is_some(),
                        slices,
                        sliced_first,
                    };
                    match self.depth_items(base, edits, text, depth, asked, &needed) {
                        DepthList::Found { items, list } => match list {
                            Found::Sliced(at) => {
                                sliced = true;
                                (NextList::sliced(items, dense), Following::Plain(at))
                            }
                            Found::Own(at, thrift) => (
                                NextList {
                                    thrift,
                                    ..NextList::deletions(items, dense)
                                },
                                slices.after_depth(at),
                            ),
                            Found::Beside(at) => {
                                (NextList::deletions(items, dense), Following::Depth(at + 1))
                            }
                            Found::Probe => (NextList::deletions(items, dense), Following::Unknown),
                        },
                        // Nothing to delete from a round's start: HDD* is at its fixed
                        // point; else the round ends.
                        DepthList::Nothing if depth == 1 => {
                            following = Following::FixedPoint;
                            continue;
                        }
                        DepthList::Nothing => {
                            following = Following::NextRound;
                            continue;
                        }
                        DepthList::Unknown => return None,
                    }
                }
                Following::Sliced(depth) | Following::GaveWay(depth) => {
                    // After them, the depth below, or this depth's own list again.
                    let after = match following {
                        Following::GaveWay(_) => Following::Plain(depth),
                        _ => Following::Depth(depth + 1),
                    };
                    let text_key = key(text);
                    let limit = Some(limit_for(depth));
                    let from = Some((base, edits));
                    let built =
                        tree_of(&mut self.ready, self.frontend, text, text_key, limit, from);
                    let Ok(tree) = built else {
                        return None;
                    };
                    let index = tree.depth_index();
                    let items = match index.get(depth as usize) {
                        Some(nodes) => {
                            let cache = &mut self.sliced_text;
                            let at = (&tree, nodes.as_slice(), depth);
                            sliced_at(cache, self.frontend, text, at, &needed)
                        }
                        None => Vec::new(),
                    };
                    self.ready = Some((text_key, tree));
                    if items.is_empty() {
                        following = after;
                        continue;
                    }
                    sliced = true;
                    (NextList::sliced(items, dense), after)
                }
                Following::NextRound => {
                    // A round of an HDD* not yet running changed nothing, or a list on
                    // the way would have changed the text.
                    let unchanged = text == self.current;
                    let changed = self
                        .hdd_state
                        .as_ref()
                        .is_some_and(|state| !unchanged || self.accepted != state.round_from);
                    if fresh || !changed {
                        following = Following::FixedPoint;
                        continue;
                    }
                    // As in `hdd`: later rounds go bottom-up in markup, top-down in code.
                    // One whose lists all fail as known changes nothing: HDD* ends.
                    fresh = true;
                    dense = true;
                    if !self.frontend.needs_are_local() {
                        following = Following::Depth(1);
                        continue;
                    }
                    match self.bottom_up_in(text, None, unchanged, &needed)? {
                        Ahead::Found(items) => {
                            (NextList::deletions(items, true), Following::Unknown)
                        }
                        Ahead::Top => {
                            following = Following::FixedPoint;
                            continue;
                        }
                        Ahead::GaveUp => return None,
                    }
                }
                // `hdd_bottom_up` builds the tree anew and forgets what it implied.
                Following::BottomUp { depth, .. } => {
                    match self.bottom_up_in(text, Some(depth), false, &needed)? {
                        Ahead::Found(items) => {
                            (NextList::deletions(items, true), Following::Unknown)
                        }
                        Ahead::Top => {
                            following = Following::NextRound;
                            continue;
                        }
                        Ahead::GaveUp => return None,
                    }
                }
                Following::FixedPoint => {
                    fresh = true;
                    dense = false;
                    let tree = self.frontend.parse(text).ok()?;
                    needed.record_all(text, key(text), &tree);
                    rewrites_from = text.len();
                    following = Following::Rewrite(0);
                    continue;
                }
                Following::Rewrite(rank) => {
                    let tree = self.frontend.parse(text).ok()?;
                    let offered =
                        |rank| tree.ids().any(|id| tree.node(id).alternatives.len() > rank);
                    let mut rank = rank;
                    let mut found = None;
                    while found.is_none() && offered(rank) {
                        let (items, _) =
                            rewrites(self.frontend, text, &tree, rank, &needed, unlikely);
                        rank += 1;
                        found = (!items.is_empty()).then_some(items);
                    }
                    if found.is_none() {
                        rewrote = true;
                    }
                    match found {
                        Some(items) => {
                            let later = rewrites_dense(self.frontend, rewrote, items.len());
                            let next = NextList {
                                items: Cow::Owned(items),
                                patience: None,
                                deletions: false,
                                dense: later,
                                thrift: None,
                            };
                            (next, Following::Rewrite(rank))
                        }
                        None if text.len() != rewrites_from => {
                            fresh = true;
                            unlikely = false;
                            dense = false;
                            needed.set_sweep(false);
                            following = Following::Depth(1);
                            continue;
                        }
                        // As in `all_passes`: at code's fixed point with edits left out
                        // as failed, the passes run again (a sweep) asking only those.
                        None if unlikely
                            && !needed.sweeping()
                            && needed.any_left_out(text, key(text), &tree) =>
                        {
                            fresh = true;
                            unlikely = false;
                            dense = false;
                            needed.set_sweep(true);
                            following = Following::Depth(1);
                            continue;
                        }
                        // As in `all_passes`, a sweep ends before the shrinking.
                        None if self.frontend.needs_are_local() || unlikely => {
                            needed.set_sweep(false);
                            following = Following::Shrink(Grain::Words);
                            continue;
                        }
                        // Code: the rewrites that take away a needed node come last.
                        None => {
                            unlikely = true;
                            following = Following::Rewrite(0);
                            continue;
                        }
                    }
                }
                Following::Shrink(grain) => {
                    // One list per value, in the pass's order.
                    let tree = self.frontend.parse(text).ok()?;
                    for items in self.shrink_lists(text, &tree, grain) {
                        let next = NextList {
                            items: Cow::Owned(items),
                            patience: Some(SHRINK_PATIENCE),
                            deletions: true,
                            dense: false,
                            thrift: None,
                        };
                        match self.candidate_of(text, Vec::new(), &next) {
                            Proposal::Asks(candidate) => return Some(candidate),
                            Proposal::Known | Proposal::Spent => {}
                            Proposal::Changes => return None,
                        }
                    }
                    following = match grain {
                        Grain::Words => Following::Shrink(Grain::Characters),
                        Grain::Characters => Following::Freed,
                    };
                    continue;
                }
                Following::Freed => {
                    // As in `shrink_pass`: only when values shrank.
                    let locked = match &self.shrink_from {
                        Some((from, locked)) if text.len() != *from && !locked.is_empty() => locked,
                        _ => {
                            following = Following::Squeeze;
                            continue;
                        }
                    };
                    let tree = self.frontend.parse(text).ok()?;
                    let freed = freed_nodes(&tree, locked);
                    let items = deletions(&tree, &[freed]).pop().unwrap_or_default();
                    (NextList::deletions(items, false), Following::Squeeze)
                }
                Following::Squeeze => {
                    let tree = self.frontend.parse(text).ok()?;
                    let items = squeeze_groups(&tree);
                    if items.is_empty() {
                        return None;
                    }
                    (NextList::deletions(items, false), Following::Unknown)
                }
            };
            // A sweep's lists hold edits that failed before (see `Driver::strategy`).
            let next = NextList {
                dense: next.dense || needed.sweeping(),
                ..next
            };
            match self.candidate_of(text, Vec::new(), &next) {
                Proposal::Asks(candidate) => return Some(candidate),
                Proposal::Known => {
                    following = then;
                    if sliced {
                        slices = slices.after_list(false);
                    }
                }
                // A list of slices passed over accepted nothing; a depth's own list gave
                // way to its slices, and comes again after them.
                Proposal::Spent => {
                    following = match then {
                        Following::Sliced(depth) if !sliced => Following::GaveWay(depth),
                        then => then,
                    };
                    if sliced {
                        slices = slices.after_list(false);
                    }
                }
                Proposal::Changes => return None,
            }
        }
        None
    }

    /// The items of the first HDD deletion list from `depth` on in `text` (`base` with
    /// `edits`), as `hdd` makes it: the first depth with something to delete, or the
    /// deepest node of a chain that depth heads, or that depth's declarations with their
    /// slices when they come first. Its tree is kept for the pass. `asked` says how (see
    /// [`DepthAsked`]).
    fn depth_items(
        &mut self,
        base: &str,
        edits: &[&Edit],
        text: &str,
        depth: u32,
        asked: DepthAsked,
        needed: &Needed,
    ) -> DepthList {
        let DepthAsked {
            gallop, unsettled, ..
        } = asked;
        let text_key = key(text);
        let mut limit = limit_for(depth);
        let from = Some((base, edits));
        let unchanged = text == self.current;
        loop {
            let built = tree_of(
                &mut self.ready,
                self.frontend,
                text,
                text_key,
                Some(limit),
                from,
            );
            let Ok(tree) = built else {
                return DepthList::Unknown;
            };
            let index = tree.depth_index();
            // After a chain's probe took its deepest node, no depth is settled.
            let found = (depth as usize..index.len())
                .filter(|&at| unsettled || !self.settled_at(at, unchanged))
                .map(|at| (at, self.lists(text, &tree, &index[at], needed)))
                .find(|(_, lists)| lists.iter().any(|list| !list.is_empty()));
            let Some((at, lists)) = found else {
                // As in `hdd`: a tree cut at its last depth is built twice as deep.
                if let Some(built) = tree.limit().filter(|&l| index.len() > l as usize) {
                    limit = 2 * built;
                    continue;
                }
                self.ready = Some((text_key, tree));
                return DepthList::Nothing;
            };
            let Ok(at) = u32::try_from(at) else {
                return DepthList::Unknown;
            };
            let chain = self.chain(text, &tree, &index, at, &lists, needed);
            let search = gallop.filter(|g| g.head == at).unwrap_or(Gallop::new(at));
            let items = match (chain, tree.limit()) {
                // As in `hdd`: a chain reaching the depth the tree was built to asks for a
                // tree twice as deep.
                (Some(chain), Some(built)) if chain.below + 1 >= built || chain.unsure => {
                    limit = 2 * built;
                    continue;
                }
                // The search is over: the leaves beside the chain, else the depth below.
                (Some(chain), _) if search.over() => {
                    let beside = deletions(&tree, std::slice::from_ref(&chain.beside))
                        .pop()
                        .unwrap_or_default();
                    if beside.is_empty() {
                        self.ready = Some((text_key, tree));
                        // The search is over after a probe that went: the depths
                        // below are not settled either.
                        let below = chain.below + 1;
                        let asked = DepthAsked {
                            gallop: None,
                            ..asked
                        };
                        return self.depth_items(base, edits, text, below, asked, needed);
                    }
                    DepthList::Found {
                        items: beside,
                        list: Found::Beside(chain.below),
                    }
                }
                // What follows a chain's probe depends on its verdict.
                (Some(chain), _) => DepthList::Found {
                    items: deletions(&tree, &[vec![search.probe(&chain).0]])
                        .pop()
                        .unwrap_or_default(),
                    list: Found::Probe,
                },
                // As in `hdd`: the declarations with their slices first, when there are.
                (None, _) => {
                    let nodes = &index[at as usize];
                    let sliced = if matches!(asked.slices, SliceState::First(_))
                        && asked.sliced_first != Some(at)
                    {
                        let cache = &mut self.sliced_text;
                        sliced_at(cache, self.frontend, text, (&tree, nodes, at), needed)
                    } else {
                        Vec::new()
                    };
                    if sliced.is_empty() {
                        let cache = &mut self.sliced_text;
                        let at_depth = (&tree, nodes.as_slice(), lists.as_slice());
                        let thrift = if asked.sliced_first == Some(at) {
                            None
                        } else {
                            own_thrift(asked.slices, cache, self.frontend, text, at_depth)
                        };
                        DepthList::Found {
                            items: deletions(&tree, &lists)
                                .into_iter()
                                .next()
                                .unwrap_or_default(),
                            list: Found::Own(at, thrift),
                        }
                    } else {
                        DepthList::Found {
                            items: sliced,
                            list: Found::Sliced(at),
                        }
                    }
                }
            };
            // Kept for the pass, which builds on the same text when the guesses hold.
            self.ready = Some((text_key, tree));
            return items;
        }
    }

    /// Gives up the prefetched calls: those still running are cancelled (their answers
    /// count as waste when they arrive), those answered already count as waste now.
    fn drop_prefetches(&mut self) {
        for prefetch in std::mem::take(&mut self.prefetched) {
            match prefetch.verdict {
                Some(_) => self.stats.wasted += 1,
                None => prefetch.cancel.store(true, Ordering::SeqCst),
            }
        }
    }

    /// The verdict a list takes for the candidate `text` the oracle (or the cache) judged
    /// `verdict`: a failure laid out anew fails (see `boring_layouts`). Failures are
    /// recorded here, as the list takes them in order, so that every `-j` knows the same
    /// ones at each step: a call made ahead and thrown away teaches nothing.
    fn laid_out(&mut self, text: &str, verdict: bool) -> bool {
        if verdict {
            return !self.layout_failed(text);
        }
        if self.layouts {
            self.boring_layouts
                .insert((solid_bytes(text), layout_key(text)));
        }
        false
    }

    /// True when `text` is laid out as a failure a list took (see `boring_layouts`).
    fn layout_failed(&self, text: &str) -> bool {
        if !self.layouts || self.boring_layouts.is_empty() {
            return false;
        }
        let solid = solid_bytes(text);
        let mut alike = self.boring_layouts.range((solid, 0)..=(solid, u128::MAX));
        alike.next().is_some() && self.boring_layouts.contains(&(solid, layout_key(text)))
    }

    /// The verdict on `text` (whose key is `text_key`) that needs no oracle call: the
    /// cache's, or "boring" for a blank text once a blank one was (see
    /// `blank_is_boring`), or for a failed text laid out anew (see `boring_layouts`).
    fn known(&self, text: &str, text_key: u128) -> Option<bool> {
        let blank = self.blank_is_boring && text.trim().is_empty();
        let laid_out = || self.layout_failed(text).then_some(false);
        self.cache
            .get(&text_key)
            .copied()
            .or(blank.then_some(false))
            .or_else(laid_out)
    }

    /// The verdict on a candidate when it is known without the oracle: from the cache, or
    /// `false` when it no longer parses. The candidate is `base` with `edits`; when
    /// `deletions` says they only delete nodes or units, a cheaper check than a parse may
    /// decide, and otherwise the front end may re-parse incrementally from `base`.
    fn prejudge(&mut self, text: &str, base: &str, edits: &[&Edit], deletions: bool) -> Prejudged {
        let text_key = key(text);
        if let Some(verdict) = self.known(text, text_key) {
            self.stats.cache_hits += 1;
            let reuses_waste = self.discarded.contains(&text_key);
            return Prejudged::Known {
                verdict,
                reuses_waste,
            };
        }
        let (valid, parsed) = self.check(text, base, edits, deletions);
        if !valid {
            self.stats.rejected += 1;
            if let Some(dir) = std::env::var_os("TREEREDUCE_TRACE_DIR") {
                // Kept for a look at what the front end refused; a failure to write
                // is told by the next traced candidate's write.
                let pass = self.pass_name.replace(' ', "-");
                let name = format!("rejected-{:05}-{pass}", self.stats.rejected);
                let _ = std::fs::create_dir_all(&dir)
                    .and_then(|()| std::fs::write(std::path::Path::new(&dir).join(name), text));
            }
            self.cache.insert(text_key, false);
            return Prejudged::Known {
                verdict: false,
                reuses_waste: false,
            };
        }
        Prejudged::Valid { parsed, text_key }
    }

    /// Whether `text`, which is `base` with `edits`, parses, and whether a parse said so:
    /// when `deletions` says the edits only delete nodes or units, the front end's cheaper
    /// check may decide; otherwise (or when it declines) it re-parses from `base`.
    fn check(&self, text: &str, base: &str, edits: &[&Edit], deletions: bool) -> (bool, bool) {
        let cheap = if deletions {
            self.frontend.deletions_stay_valid(base, edits, text)
        } else {
            None
        };
        match cheap {
            Some(valid) => (valid, false),
            None => (self.frontend.is_valid_edited(base, edits, text), true),
        }
    }

    /// Prints a candidate's fate: its verdict, and whether the oracle was asked (with the
    /// guess the window made) or the verdict was known (cache, rejection).
    fn trace(&mut self, slot: &Slot, verdict: bool) {
        let keep = std::env::var_os("TREEREDUCE_TRACE_DIR");
        if !self.trace && keep.is_none() {
            return;
        }
        let name = |v: bool| if v { "interesting" } else { "boring" };
        let what = name(verdict);
        let how = if slot.asked {
            format!(
                "asked from {} bytes, guessed {}",
                self.current.len(),
                name(slot.assumed)
            )
        } else {
            String::from("known")
        };
        let text = &slot.text;
        if self.trace {
            crate::tell!(
                "candidate {} of {} bytes: {what} ({how}; {})",
                self.traced,
                text.len(),
                self.pass_name
            );
        }
        if let Some(dir) = keep {
            // The folder is made when missing; a failure is told once, not per candidate.
            static TOLD: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
            let dir = std::path::Path::new(&dir);
            let written = std::fs::create_dir_all(dir).and_then(|()| {
                std::fs::write(dir.join(format!("{:05}-{what}", self.traced)), text)
            });
            if let Err(e) = written
                && !TOLD.swap(true, std::sync::atomic::Ordering::Relaxed)
            {
                crate::tell!(
                    "treereduce: cannot keep candidates in {} (TREEREDUCE_TRACE_DIR): {e}",
                    dir.display()
                );
            }
        }
        self.traced += 1;
    }

    /// Keeps `text`, judged on a cheap check, as the current text without writing it (see
    /// [`Driver::verify`]); returns the text it replaces.
    fn accept_unverified(&mut self, text: String) -> String {
        if let Some(progress) = &self.progress {
            progress.update(text.len(), &self.pass_name);
        }
        self.accepted += 1;
        std::mem::replace(&mut self.current, text)
    }

    /// Keeps `text`, which a parse confirmed, as the current text and writes it.
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

/// One list of a pass, as [`Driver::run_list`] takes it.
struct List<'l> {
    /// The items; each is a group of edits of the pass's base text.
    items: &'l [Vec<Edit>],
    /// What each item does to which node, to record the items that fail (see
    /// [`Needed`]); `None` when the list records nothing.
    subjects: Option<&'l [Subject]>,
    /// Candidates in a row that may fail before the list is given up (shrink).
    patience: Option<usize>,
    /// Every item only deletes whole nodes or units (cheaper validity check).
    deletions: bool,
    /// The list after this one.
    following: Following<'l>,
}

/// The guess for the verdict on a candidate, from the `recent` verdicts and what guided
/// their guesses. Three guessers: by the share of the text the candidate removes (the
/// threshold of [`THRESHOLDS`] that fits the recent verdicts best), by the bytes it removes
/// (the same with [`BYTE_THRESHOLDS`]), and by the strategy's estimate of its chance (see
/// [`Strategy::chance`]) where that is clearly off even, else by the share. The one that
/// would have guessed the recent verdicts best decides (on a tie the strategy, then the
/// share): a strategy's model of uniform items fits lines, the share fits trees whose
/// nodes differ in size by orders of magnitude, the bytes fit code, where a small edit
/// anywhere tends to keep the bug and a large one to lose it, whatever the text's size.
/// Guesses only decide which calls run early, never a result.
fn likely_success(recent: &VecDeque<(Guide, bool)>, guide: Guide) -> bool {
    // How many of the recent verdicts `guess` would have guessed right.
    let score =
        |guess: &dyn Fn(Guide) -> bool| recent.iter().filter(|&&(g, v)| guess(g) == v).count();
    let fits = |t: f64| score(&|g: Guide| g.removed < t);
    let mut best = PRIOR_THRESHOLD;
    for t in THRESHOLDS {
        let (s, b) = (fits(t), fits(best));
        if s > b || (s == b && (t - PRIOR_THRESHOLD).abs() < (best - PRIOR_THRESHOLD).abs()) {
            best = t;
        }
    }
    let fits_bytes = |t: usize| score(&|g: Guide| g.removed_bytes < t);
    let mut best_bytes = PRIOR_BYTES;
    for t in BYTE_THRESHOLDS {
        if fits_bytes(t) > fits_bytes(best_bytes) {
            best_bytes = t;
        }
    }
    let by_share = |g: Guide| g.removed < best;
    let by_chance = |g: Guide| match g.chance {
        Some(p) if (p - 0.5).abs() > CHANCE_MARGIN => p > 0.5,
        _ => by_share(g),
    };
    let by_bytes = |g: Guide| g.removed_bytes < best_bytes;
    let (chance, share, bytes) = (score(&by_chance), score(&by_share), score(&by_bytes));
    if bytes > chance.max(share) {
        by_bytes(guide)
    } else if chance >= share {
        by_chance(guide)
    } else {
        by_share(guide)
    }
}

/// The share of a text of `from` bytes that a candidate of `to` bytes removes.
fn removed_share(from: usize, to: usize) -> f64 {
    if from == 0 {
        0.0
    } else {
        from.saturating_sub(to) as f64 / from as f64
    }
}

/// The edits of the window's candidates that later candidates are built on.
fn assumed_edits<'w>(
    window: &'w VecDeque<Slot>,
    items: &'w [Vec<Edit>],
) -> impl Iterator<Item = &'w Edit> {
    window
        .iter()
        .filter(|s| s.assumed)
        .flat_map(move |s| s.chosen.iter().flat_map(move |&i| &items[i]))
}

/// A chain of nodes below a depth's only item (see [`Driver::chain`]).
struct Chain {
    /// The chain's nodes, from its head to its deepest node (none for an unsure one).
    path: Vec<NodeId>,
    /// The depth of its deepest node.
    below: u32,
    /// The deletable leaves of the chain's depths below its head.
    beside: Vec<NodeId>,
    /// True when where the chain goes on is known only in a deeper tree: a depth holds
    /// more than one node that may hold deletable ones, some only because the tree was
    /// cut under them.
    unsure: bool,
}

impl Chain {
    /// A chain that only a deeper tree tells (see [`Chain::unsure`]).
    fn unsure(depth: u32) -> Self {
        Chain {
            path: Vec::new(),
            below: depth,
            beside: Vec::new(),
            unsure: true,
        }
    }
}

/// Where the search for the shallowest node of a chain that may go stands (see
/// [`Driver::hdd`]). The chain that `head` heads is probed `cut` levels above and
/// including its deepest node: the deletion takes those levels. While none failed, the
/// cut doubles after each that goes; once one failed, `bound` is a number of levels known
/// not to go from the bottom up, and the cut halves the levels left below it. Under
/// monotone needs the nodes whose deletion goes are those below some level, so the
/// search costs about twice the logarithm of the levels that go, where asking the
/// deepest node, then the chain top-down, cost two calls a level: 2000 nested arrays with
/// a test that needs 500 of them took 1510 calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Gallop {
    head: u32,
    cut: u32,
    bound: Option<u32>,
}

impl Gallop {
    fn new(head: u32) -> Self {
        Gallop {
            head,
            cut: 1,
            bound: None,
        }
    }

    /// The search after the deletion of `tried` levels went.
    fn went(self, tried: u32) -> Self {
        match self.bound {
            None => Gallop {
                cut: tried.saturating_mul(2),
                ..self
            },
            Some(bound) => {
                let bound = bound.saturating_sub(tried).max(1);
                Gallop {
                    cut: (bound / 2).max(1),
                    bound: Some(bound),
                    ..self
                }
            }
        }
    }

    /// The search after the deletion of `tried` levels failed.
    fn stayed(self, tried: u32) -> Self {
        Gallop {
            cut: (tried / 2).max(1),
            bound: Some(tried.max(1)),
            ..self
        }
    }

    /// True when the chain's deepest node is known to be needed: the search is over.
    fn over(self) -> bool {
        self.bound == Some(1)
    }

    /// The node of `chain` to probe: `cut` levels up, the head at most.
    fn probe(self, chain: &Chain) -> (NodeId, u32) {
        let len = u32::try_from(chain.path.len()).unwrap_or(u32::MAX);
        let tried = self.cut.clamp(1, len);
        let at = chain.path.len().saturating_sub(tried as usize);
        (chain.path[at], tried)
    }
}

/// The declarations and attributes among `nodes` of `tree` (the tree of `text`) that may not
/// be deleted now, by label and text: what a reference elsewhere keeps.
fn locked_nodes(text: &str, tree: &Tree, nodes: &[NodeId]) -> Vec<(Label, String)> {
    nodes
        .iter()
        .map(|&id| tree.node(id))
        .filter(|node| {
            node.delete.is_none() && matches!(node.kind, NodeKind::Comment | NodeKind::Attribute)
        })
        .map(|node| (node.label.clone(), text[node.span.clone()].to_string()))
        .collect()
}

/// The top-level nodes of `tree` that can be deleted and carry one of the `locked` labels.
fn freed_nodes(tree: &Tree, locked: &[Label]) -> Vec<NodeId> {
    tree.node(tree.root())
        .children
        .iter()
        .copied()
        .filter(|&id| {
            let node = tree.node(id);
            node.delete.is_some() && locked.contains(&node.label)
        })
        .collect()
}

/// Adds the ancestors of every deletable node of `nodes` that `known` lacks to `more`.
fn imply_ancestors(
    tree: &Tree,
    nodes: &[NodeId],
    known: &BTreeSet<NodeId>,
    more: &mut BTreeSet<NodeId>,
) {
    for &id in nodes {
        let node = tree.node(id);
        if !node.deletable() {
            continue;
        }
        let mut up = node.parent;
        while let Some(parent) = up {
            if known.contains(&parent) || !more.insert(parent) {
                break;
            }
            up = tree.node(parent).parent;
        }
    }
}

/// The squeeze's items: the deletions of every formatting whitespace node, one item per
/// label.
fn squeeze_groups(tree: &Tree) -> Vec<Vec<Edit>> {
    let mut groups: BTreeMap<&str, Vec<Edit>> = BTreeMap::new();
    for id in tree.ids() {
        let node = tree.node(id);
        if let (NodeKind::Whitespace, Some(span)) = (node.kind, &node.delete) {
            let group = groups.entry(node.label.as_str()).or_default();
            group.push(Edit::delete(span.clone()));
        }
    }
    groups.into_values().collect()
}

/// For each deletable whitespace node of `text` (its tree `tree`) made of whitespace
/// only, the deletions that leave one line break of it (`\n` or `\r\n`, so that lines
/// keep their numbers), or its first character when it holds none; none where that is
/// all it holds.
fn thinned_whitespace(text: &str, tree: &Tree) -> Vec<Vec<Edit>> {
    tree.ids()
        .filter_map(|id| {
            let node = tree.node(id);
            node.delete.as_ref()?;
            let span = node.span.clone();
            let run = &text[span.clone()];
            if node.kind != NodeKind::Whitespace || !run.chars().all(char::is_whitespace) {
                return None;
            }
            let keep = match run.find('\n') {
                Some(nl) if nl > 0 && run.as_bytes()[nl - 1] == b'\r' => nl - 1..nl + 1,
                Some(nl) => nl..nl + 1,
                None => 0..run.chars().next()?.len_utf8(),
            };
            let edits: Vec<Edit> = [
                span.start..span.start + keep.start,
                span.start + keep.end..span.end,
            ]
            .into_iter()
            .filter(|cut| !cut.is_empty())
            .map(Edit::delete)
            .collect();
            (!edits.is_empty()).then_some(edits)
        })
        .collect()
}

/// True when a deletable node (formatting aside) lies under `id`, or may lie there below
/// the depth `tree` was built to.
fn holds_deletable(tree: &Tree, id: NodeId) -> bool {
    holds(tree, id, true)
}

/// True when a deletable node lies under `id` in `tree` as built (what may lie below its
/// cut aside): a node that holds one for sure.
fn holds_built(tree: &Tree, id: NodeId) -> bool {
    holds(tree, id, false)
}

/// True when a deletable node lies under `id`, or, with `below_cut`, when `id` or a node
/// under it stands at the depth `tree` was built to (what lies below is not known).
fn holds(tree: &Tree, id: NodeId, below_cut: bool) -> bool {
    let cut = |node: &Node| below_cut && tree.limit() == Some(node.depth);
    if cut(tree.node(id)) {
        return true;
    }
    let mut stack: Vec<NodeId> = tree.node(id).children.clone();
    while let Some(next) = stack.pop() {
        let node = tree.node(next);
        if node.deletable() || cut(node) {
            return true;
        }
        stack.extend(node.children.iter().copied());
    }
    false
}

/// The deletion items of `lists`: each node deleted with its span.
fn deletions(tree: &Tree, lists: &[Vec<NodeId>]) -> Vec<Vec<Vec<Edit>>> {
    lists
        .iter()
        .map(|list| {
            list.iter()
                .map(|&id| deletion_edits(tree.node(id)))
                .filter(|edits| !edits.is_empty())
                .collect()
        })
        .collect()
}

/// Which items kept by a list of code failed on the text the list left. Lists do not start
/// over after a success, so an item may have failed on an older text, and in code an edit
/// the list accepted later may have freed it. An item's last failure holds for the final
/// text when the items the list accepted after it are exactly the rest of that failed
/// candidate: none for an item asked alone, the other members of a group the strategy
/// shrank to it (proving it needed without asking, as `Gbs` does).
struct FailedOn {
    /// The items the list accepted, in order.
    accepted: Vec<usize>,
    /// The failed candidates, each sorted.
    groups: Vec<Vec<usize>>,
    /// Per item, its last failure: how many items were accepted then, and the candidate.
    last: Vec<Option<(usize, usize)>>,
}

impl FailedOn {
    fn new(items: usize) -> Self {
        FailedOn {
            accepted: Vec::new(),
            groups: Vec::new(),
            last: vec![None; items],
        }
    }

    /// The candidate removing `chosen` was accepted.
    fn accepted(&mut self, chosen: &[usize]) {
        self.accepted.extend_from_slice(chosen);
    }

    /// The candidate removing `chosen` failed.
    fn failed(&mut self, chosen: &[usize]) {
        let group = self.groups.len();
        for &i in chosen {
            if let Some(last) = self.last.get_mut(i) {
                *last = Some((self.accepted.len(), group));
            }
        }
        let mut chosen = chosen.to_vec();
        chosen.sort_unstable();
        self.groups.push(chosen);
    }

    /// True when item `i`'s last failure holds for the text the list left.
    fn holds_at_end(&self, i: usize) -> bool {
        let Some(&Some((at, group))) = self.last.get(i) else {
            return false;
        };
        let (Some(group), Some(since)) = (self.groups.get(group), self.accepted.get(at..)) else {
            return false;
        };
        since.len() + 1 == group.len()
            && since
                .iter()
                .all(|&j| j != i && group.binary_search(&j).is_ok())
    }
}

/// The edits that delete `node` (none when it cannot be deleted): its own deletion and
/// those of the nodes that go with it (see `Node::also`).
fn deletion_edits(node: &Node) -> Vec<Edit> {
    let Some(own) = node.deletion() else {
        return Vec::new();
    };
    let also = node.also.iter().cloned();
    std::iter::once(own).chain(also).collect()
}

/// The slices of `text` for the deletable `nodes` of `tree` (see [`Frontend::slices`]):
/// those in `cache` when it holds the last text and nodes asked about, else found and
/// kept there.
fn slices_of(
    cache: &mut Option<(u128, Arc<frontend::Slices>)>,
    frontend: &dyn Frontend,
    text: &str,
    tree: &Tree,
    nodes: &[NodeId],
) -> Arc<frontend::Slices> {
    let wanted: Vec<(usize, usize)> = nodes
        .iter()
        .map(|&id| tree.node(id))
        .filter(|node| node.deletable())
        .map(|node| (node.span.start, node.span.end))
        .collect();
    let mut asked = key(text).to_le_bytes().to_vec();
    for (start, end) in &wanted {
        asked.extend_from_slice(&start.to_le_bytes());
        asked.extend_from_slice(&end.to_le_bytes());
    }
    let asked_key = xxhash_rust::xxh3::xxh3_128(&asked);
    match cache {
        Some((k, slices)) if *k == asked_key => slices.clone(),
        _ => {
            let slices = Arc::new(frontend.slices(text, &wanted));
            *cache = Some((asked_key, slices.clone()));
            slices
        }
    }
}

/// Whether a rewrite list of `len` items runs dense, after a rewrite pass ran to its end
/// when `rewrote` (see [`Driver::rewrote`]).
fn rewrites_dense(frontend: &dyn Frontend, rewrote: bool, len: usize) -> bool {
    rewrote && !frontend.needs_are_local() && len >= DENSE_REWRITES
}

/// The thrift of the own list (`lists`, when it is one) of a depth of `text` whose nodes
/// `at` gives with their tree: while slices have not paid yet (`slices` is
/// [`SliceState::On`], offered after each depth's list), a list with [`MANY_SLICES`]
/// declarations that have slices gives way to them once [`OWN_THRIFT`] of those, asked
/// alone, failed; the depth's own list comes again after them. Where the test runs through
/// the code, each function of a module body of hundreds is kept by its uses and costs a
/// call to keep (underscore's 300 for a test of `max`), while with its slice it goes;
/// where the text is data (a parser's crash, a grep), few declarations fail alone, and the
/// list runs to its end as before. Other items that fail alone tell nothing of slices.
fn own_thrift(
    slices: SliceState,
    cache: &mut Option<(u128, Arc<frontend::Slices>)>,
    frontend: &dyn Frontend,
    text: &str,
    (tree, nodes, lists): (&Tree, &[NodeId], &[Vec<NodeId>]),
) -> Option<Thrift> {
    let [list] = lists else {
        return None;
    };
    if !matches!(slices, SliceState::On(_)) || list.len() < MANY_SLICES {
        return None;
    }
    let found = slices_of(cache, frontend, text, tree, nodes);
    // By item, as `deletions` makes them.
    let sliced: Arc<[bool]> = list
        .iter()
        .map(|&id| tree.node(id))
        .filter(|node| !deletion_edits(node).is_empty())
        .map(|node| {
            let span = (node.span.start, node.span.end);
            found.get(&span).is_some_and(|s| !s.is_empty())
        })
        .collect();
    let with_slices = sliced.iter().filter(|&&s| s).count();
    (with_slices >= MANY_SLICES).then_some(Thrift::Lone(sliced))
}

/// The items of [`Driver::delete_sliced`] at `depth` of `text`, whose nodes there `at`
/// gives with its `tree`: from that tree, or when a member of a slice lies deeper than it
/// was built, from the whole tree, so that the list does not depend on how deep the tree
/// of the caller (the pass, or the prediction of the list) happens to be.
fn sliced_at(
    cache: &mut Option<(u128, Arc<frontend::Slices>)>,
    frontend: &dyn Frontend,
    text: &str,
    (tree, nodes, depth): (&Tree, &[NodeId], u32),
    needed: &Needed,
) -> Vec<Vec<Edit>> {
    if nodes.is_empty() {
        return Vec::new();
    }
    let slices = slices_of(cache, frontend, text, tree, nodes);
    if let Some(items) = sliced_items(text, tree, nodes, &slices, needed) {
        return items;
    }
    let Ok(whole) = frontend.parse(text) else {
        return Vec::new();
    };
    let nodes = whole.at_depth(depth);
    let slices = slices_of(cache, frontend, text, &whole, &nodes);
    sliced_items(text, &whole, &nodes, &slices, needed).unwrap_or_default()
}

/// The items of [`Driver::delete_sliced`] among `nodes` (of `tree`, of `text`): each node
/// with a slice in `slices`, deleted with the statements of its slice, each as the tree
/// deletes it where it has its node, else with its line when it stands alone on it. A
/// node whose slice takes away a statement recorded in `needed` (its own deletion failed
/// on this text: a sibling the list kept) is left out, as that would most likely fail.
/// `None` when a member of a list (beside a comma) that a slice takes lies deeper than
/// `tree` was built: its deletion needs the node.
fn sliced_items(
    text: &str,
    tree: &Tree,
    nodes: &[NodeId],
    slices: &frontend::Slices,
    needed: &Needed,
) -> Option<Vec<Vec<Edit>>> {
    // The deletable nodes by span, over the whole tree: built only when some node of the
    // depth has a slice, since a deep chain asks at each of its many depths.
    let mut by_span: Option<BTreeMap<(usize, usize), NodeId>> = None;
    let mut deeper = false;
    let items = nodes
        .iter()
        .map(|&id| tree.node(id))
        .filter_map(|node| {
            let slice = slices.get(&(node.span.start, node.span.end))?;
            let mut edits = deletion_edits(node);
            if edits.is_empty() {
                return None;
            }
            let by_span = by_span.get_or_insert_with(|| {
                let mut by_span = BTreeMap::new();
                for id in tree.ids() {
                    let node = tree.node(id);
                    if node.deletable() {
                        by_span
                            .entry((node.span.start, node.span.end))
                            .or_insert(id);
                    }
                }
                by_span
            });
            let mut uses = Vec::with_capacity(slice.len());
            for span in slice {
                match by_span.get(&(span.start, span.end)) {
                    Some(&id) => uses.extend(deletion_edits(tree.node(id))),
                    // A member of a list beside others, deeper than the tree was built,
                    // needs its separator seen to: no such item.
                    None if beside_a_comma(text, span) => {
                        deeper |= tree.limit().is_some();
                        return None;
                    }
                    None => uses.push(Edit::delete(frontend::deletion_span(
                        text, span.start, span.end,
                    ))),
                }
            }
            if needed.deleted_by(&uses) {
                return None;
            }
            edits.extend(uses);
            Some(edits)
        })
        .collect();
    (!deeper).then_some(items)
}

/// True when the first byte other than a blank before `span` of `text`, or after it, is a
/// comma: `span` is an item of a list such as an object literal's members.
fn beside_a_comma(text: &str, span: &std::ops::Range<usize>) -> bool {
    let before = text
        .get(..span.start)
        .and_then(|t| t.trim_end().chars().next_back());
    let after = text
        .get(span.end..)
        .and_then(|t| t.trim_start().chars().next());
    before == Some(',') || after == Some(',')
}

/// The rewrite items of one rank (every node's alternative of that rank, but those known
/// to fail, and unless `unlikely_too` those that delete a node proven needed), and what
/// they are.
fn rewrites(
    frontend: &dyn Frontend,
    text: &str,
    tree: &Tree,
    rank: usize,
    needed: &Needed,
    unlikely_too: bool,
) -> (Vec<Vec<Edit>>, Vec<Subject>) {
    let what = needed::rewrite(rank);
    let text_key = needed.sweeping().then(|| key(text));
    let (items, subjects): (Vec<_>, Vec<_>) = tree
        .ids()
        .filter(|&id| {
            let node = tree.node(id);
            node.alternatives.len() > rank
                && !needed.holds(node, what)
                && !needed.skips(text, text_key, node, what)
        })
        .filter_map(|id| {
            let edits = tree.node(id).alternatives.get(rank)?;
            // A hoist that throws away a needed node (an `if` replaced by its consequent,
            // its needed `else` gone) fails where the test is monotone.
            if !unlikely_too && needed.deleted_by(edits) {
                return None;
            }
            let subject = Subject::of(tree, id, what)?;
            Some(((tree.node(id).span.clone(), edits.clone()), subject))
        })
        .unzip();
    let (mut items, subjects) = outer_of_chains(text, items, subjects);
    frontend.reindent(text, &mut items);
    (
        items.into_iter().map(|(_, edits)| edits).collect(),
        subjects,
    )
}

/// A node's span and one of its rewrites.
type Rewrite = (std::ops::Range<usize>, Vec<Edit>);

/// How many nested rewrites that leave the same text in their node's place (a chain of
/// `new new ... new X` each hoisting `X`, or of `f(g(h(x)))` each hoisting `x`) a rewrite
/// list offers, the outermost ones: those leave the fewest levels of the chain.
const CHAIN_REWRITES: usize = 4;

/// `items` (node spans and their rewrites, with their `subjects`) less the rewrites that
/// lie inside [`CHAIN_REWRITES`] others leaving the same text. Each leaves one more level
/// of the chain than the one around it, so a test that needs the chain's depth (a parser
/// that overflows its stack) failed on every one of them in turn: 2000 calls for a chain
/// of 2000 `new` a test needed whole. How many levels a test needs, the rewrites of each
/// level to its child find, tried together as a list tries deletions.
fn outer_of_chains(
    text: &str,
    items: Vec<Rewrite>,
    subjects: Vec<Subject>,
) -> (Vec<Rewrite>, Vec<Subject>) {
    // What each rewrite leaves in its node's place, as pieces of `text` and of its edits
    // (`None` when an edit reaches outside the node). Not written out: a chain of n
    // unwraps leaves n nested texts, n² bytes in all (100 000 nested elements: 35 GB).
    let left: Vec<Option<Vec<&str>>> = items
        .iter()
        .map(|(span, edits)| left_pieces(text, span, edits))
        .collect();
    let length = |pieces: &[&str]| pieces.iter().map(|p| p.len()).sum::<usize>();
    // Only texts of a length that another rewrite leaves too can be the same: the others
    // are not hashed (the nested texts of a chain of unwraps all differ in length).
    let mut lengths: BTreeMap<usize, usize> = BTreeMap::new();
    for pieces in left.iter().flatten() {
        *lengths.entry(length(pieces)).or_default() += 1;
    }
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by_key(|&i| (items[i].0.start, std::cmp::Reverse(items[i].0.end)));
    // Per text left (its length and hash), the spans of the rewrites around the one at
    // hand, outermost first.
    let mut open: BTreeMap<(usize, u128), Vec<std::ops::Range<usize>>> = BTreeMap::new();
    let mut keep = vec![true; items.len()];
    for i in order {
        let span = &items[i].0;
        let Some(pieces) = &left[i] else {
            continue;
        };
        let len = length(pieces);
        if lengths.get(&len).is_none_or(|&n| n < 2) {
            continue;
        }
        let mut hasher = xxhash_rust::xxh3::Xxh3::new();
        for piece in pieces {
            hasher.update(piece.as_bytes());
        }
        let around = open.entry((len, hasher.digest128())).or_default();
        while around
            .last()
            .is_some_and(|outer| !(outer.start <= span.start && span.end <= outer.end))
        {
            around.pop();
        }
        if around.len() >= CHAIN_REWRITES {
            keep[i] = false;
        }
        around.push(span.clone());
    }
    items
        .into_iter()
        .zip(subjects)
        .zip(keep)
        .filter_map(|(item, kept)| kept.then_some(item))
        .unzip()
}

/// What the rewrite `edits` of the node spanning `span` leave in its place, in pieces of
/// `text` and of the edits' texts; `None` when an edit reaches outside the node.
fn left_pieces<'t>(
    text: &'t str,
    span: &std::ops::Range<usize>,
    edits: &'t [Edit],
) -> Option<Vec<&'t str>> {
    let mut sorted: Vec<&Edit> = edits.iter().collect();
    sorted.sort_by_key(|e| e.span.start);
    let mut pieces = Vec::with_capacity(2 * sorted.len() + 1);
    let mut at = span.start;
    for edit in sorted {
        if edit.span.start < at || edit.span.end > span.end {
            return None;
        }
        pieces.push(text.get(at..edit.span.start)?);
        pieces.push(edit.text.as_str());
        at = edit.span.end;
    }
    pieces.push(text.get(at..span.end)?);
    Some(pieces)
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
    /// For a hang reduction (`--timeout-is-interesting`): how long the result ran when
    /// tested alone at the end, when it then ended within the time limit (the hangs were
    /// seen only while other calls or other work loaded the machine).
    pub hang_unconfirmed: Option<Duration>,
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
            hang_unconfirmed: None,
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
            "{{\n  \"bytes_before\": {},\n  \"bytes_after\": {},\n  \"tokens_before\": {},\n  \"tokens_after\": {},\n  \"oracle_calls\": {},\n  \"cache_hits\": {},\n  \"rejected\": {},\n  \"timeouts\": {},\n  \"wasted\": {},\n  \"prefetch_adopted\": {},\n  \"candidates\": {},\n  \"overhead_ms_per_candidate\": {:.3},\n  \"seconds\": {:.3},\n  \"interrupted\": {},\n  \"hang_unconfirmed_seconds\": {},\n  \"output\": {},\n  \"passes\": [{}]{}\n}}\n",
            self.bytes_before,
            self.bytes_after,
            self.tokens_before,
            self.tokens_after,
            self.stats.oracle_calls,
            self.stats.cache_hits,
            self.stats.rejected,
            self.stats.timeouts,
            self.stats.wasted,
            self.stats.adopted,
            self.stats.candidates,
            self.stats.overhead_ms_per_candidate(),
            self.seconds,
            self.interrupted,
            self.hang_unconfirmed
                .map_or(String::from("null"), |d| format!("{:.3}", d.as_secs_f64())),
            json_string(&self.output.to_string_lossy()),
            passes.join(", "),
            self.stats.audit.map_or(String::new(), |a| format!(
                ",\n  \"prefetch_audit\": {{\"right\": {}, \"wrong\": {}, \"unpredicted\": {}}}",
                a.right, a.wrong, a.unpredicted
            )),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A guide for removing `bytes` of a text of `of` bytes, with no estimate of chance.
    fn removing(bytes: usize, of: usize) -> Guide {
        Guide {
            removed: removed_share(of, of - bytes),
            removed_bytes: bytes,
            chance: None,
        }
    }

    #[test]
    fn the_guess_goes_by_bytes_when_they_tell_the_verdicts_apart_and_the_share_does_not() {
        // Code: small edits keep the bug wherever they are, large ones lose it. The shares
        // mix (a third of a small text kept it, a tenth of a large one did not).
        let mut recent = VecDeque::new();
        for _ in 0..4 {
            recent.push_back((removing(20, 60), true));
            recent.push_back((removing(30, 3000), true));
            recent.push_back((removing(300, 3000), false));
            recent.push_back((removing(900, 2000), false));
        }
        assert!(likely_success(&recent, removing(10, 20)));
        assert!(!likely_success(&recent, removing(600, 100_000)));
        // Markup: a share goes, whatever its bytes. Here the share guesses every verdict,
        // the bytes do not, and the share decides.
        let mut recent = VecDeque::new();
        for _ in 0..4 {
            recent.push_back((removing(40, 100), true));
            recent.push_back((removing(4000, 10_000), true));
            recent.push_back((removing(90, 100), false));
            recent.push_back((removing(9000, 10_000), false));
        }
        assert!(likely_success(&recent, removing(3000, 10_000)));
        assert!(!likely_success(&recent, removing(80, 100)));
    }

    #[test]
    fn a_failure_holds_for_the_final_text_when_nothing_else_went_after_it() {
        let mut on = FailedOn::new(6);
        // 0 fails alone, then 5 goes: 0 failed on an older text.
        on.failed(&[0]);
        // The group {1, 2, 3} fails, then 1 and 2 go: 3 is needed on the final text
        // (without asking, as a strategy shrinking the group finds), unless 5, outside the
        // group, went after.
        on.failed(&[3, 1, 2]);
        on.accepted(&[1]);
        on.accepted(&[2]);
        assert!(on.holds_at_end(3));
        // 4 fails alone after all that; it was never accepted, nor was 3.
        on.failed(&[4]);
        assert!(on.holds_at_end(4));
        on.accepted(&[5]);
        assert!(!on.holds_at_end(0));
        assert!(!on.holds_at_end(3));
        assert!(!on.holds_at_end(4));
        // Never in a failed candidate.
        assert!(!on.holds_at_end(5));
    }

    #[test]
    fn an_object_member_beside_a_comma_is_told_from_a_statement() {
        let text = "x = { a: 1, b: 2 };
f();
y = { c };
";
        let at = |s: &str| {
            let start = text.find(s).unwrap();
            start..start + s.len()
        };
        assert!(beside_a_comma(text, &at("a: 1")));
        assert!(beside_a_comma(text, &at("b: 2")));
        assert!(!beside_a_comma(text, &at("f();")));
        assert!(!beside_a_comma(text, &at("c")));
    }

    #[test]
    fn a_layout_key_reads_each_run_of_whitespace_as_one_space() {
        let plain = layout_key("new new Ctor;");
        assert_eq!(layout_key("new\n  new  Ctor;"), plain);
        assert_eq!(layout_key("new new\tCtor;"), plain);
        // Tokens that touch are other tokens.
        assert_ne!(layout_key("newnew Ctor;"), plain);
        assert_ne!(layout_key("new new Ctor ;"), plain);
        assert_ne!(key("new\nnew Ctor;"), key("new new Ctor;"));
    }

    #[test]
    fn a_layout_key_is_the_hash_of_the_runs_each_with_one_space_after() {
        let texts = [
            "",
            " \n\t",
            "a",
            "  a",
            "a  ",
            "a b",
            "a\x0Bb",
            " a \r\n b\x0C c ",
            "if (x) {\n    f( 1 ,2 );\n}\n",
            "<p> x  <b>y</b>\t</p>",
        ];
        for text in texts {
            let runs: String = text
                .split_ascii_whitespace()
                .flat_map(|run| [run, " "])
                .collect();
            assert_eq!(layout_key(text), key(&runs), "{text:?}");
            assert_eq!(solid_bytes(text), runs.len() - runs.matches(' ').count());
        }
        let long = "word ".repeat(400) + "\n  end";
        assert_eq!(solid_bytes(&long), 400 * 4 + 3);
    }
}
