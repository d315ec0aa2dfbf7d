//! The one integration-test binary: fixture cases run through the real binary, front-end
//! properties, and error paths.

// Test helpers outside `#[test]` functions panic on setup failures by design.
#![allow(clippy::unwrap_used)]

mod cli;
mod fixtures;
mod frontend;
mod javascript;
mod passes;
mod robust;
mod strategies;
