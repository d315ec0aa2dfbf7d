//! Lithium's chunk removal as a state machine: chunk sizes are powers of two starting at
//! the largest one strictly below the list length; each pass walks the list once without
//! restarting after a success; size 1 is repeated until a pass removes nothing, which
//! proves the result 1-minimal.

use super::{Strategy, sorted};

/// Lithium's "minimize" strategy.
#[derive(Debug, Clone)]
pub struct Lithium {
    /// Items still present, in walking order.
    alive: Vec<usize>,
    chunk_size: usize,
    /// Position in `alive` of the next chunk.
    chunk_start: usize,
    removed_this_pass: bool,
    allow_empty: bool,
    /// Range of `alive` proposed by the last `next`.
    pending: Option<(usize, usize)>,
    done: bool,
}

impl Lithium {
    /// A strategy over `order` (the item indices in walking order).
    pub fn new(order: Vec<usize>, allow_empty: bool) -> Self {
        let chunk_size = largest_power_of_two_below(order.len());
        Lithium {
            alive: order,
            chunk_size,
            chunk_start: 0,
            removed_this_pass: false,
            allow_empty,
            pending: None,
            done: false,
        }
    }
}

/// The largest power of two strictly smaller than `n`, or 1 when `n <= 2`.
pub fn largest_power_of_two_below(n: usize) -> usize {
    if n <= 2 {
        return 1;
    }
    let p = 1usize << (usize::BITS - 1 - n.leading_zeros());
    if p == n { p / 2 } else { p }
}

impl Strategy for Lithium {
    fn next(&mut self) -> Option<Vec<usize>> {
        debug_assert!(self.pending.is_none(), "next called twice without feedback");
        while !self.done {
            if self.alive.is_empty() {
                self.done = true;
                break;
            }
            if self.chunk_start >= self.alive.len() {
                if self.chunk_size == 1 {
                    if !self.removed_this_pass {
                        self.done = true;
                        break;
                    }
                } else {
                    self.chunk_size /= 2;
                }
                self.chunk_start = 0;
                self.removed_this_pass = false;
                continue;
            }
            let end = (self.chunk_start + self.chunk_size).min(self.alive.len());
            if !self.allow_empty && end - self.chunk_start == self.alive.len() {
                // The empty list is never interesting: skip the chunk that is everything.
                self.chunk_start = end;
                continue;
            }
            self.pending = Some((self.chunk_start, end));
            let mut chunk = self.alive[self.chunk_start..end].to_vec();
            chunk.sort_unstable();
            return Some(chunk);
        }
        None
    }

    fn feedback(&mut self, interesting: bool) {
        let Some((start, end)) = self.pending.take() else {
            return;
        };
        if interesting {
            self.alive.drain(start..end);
            self.removed_this_pass = true;
        } else {
            self.chunk_start = end;
        }
    }

    fn kept(&self) -> Vec<usize> {
        sorted(self.alive.clone())
    }

    fn clone_box(&self) -> Box<dyn Strategy> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records every candidate as the set of items it keeps (1-based, like Lithium's docs).
    fn trace(n: usize, needed: &[usize]) -> Vec<Vec<usize>> {
        let mut strategy = Lithium::new((0..n).collect(), false);
        let mut present = vec![true; n];
        let mut tried = Vec::new();
        while let Some(chunk) = strategy.next() {
            let kept: Vec<usize> = (0..n)
                .filter(|i| present[*i] && !chunk.contains(i))
                .map(|i| i + 1)
                .collect();
            let verdict = needed.iter().all(|k| kept.contains(k));
            if verdict {
                for i in chunk {
                    present[i] = false;
                }
            }
            tried.push(kept);
            strategy.feedback(verdict);
        }
        tried
    }

    #[test]
    fn power_of_two_below() {
        let got: Vec<usize> = [1, 2, 3, 4, 5, 8, 9, 1024, 1025]
            .iter()
            .map(|&n| largest_power_of_two_below(n))
            .collect();
        assert_eq!(got, vec![1, 1, 2, 2, 4, 4, 8, 512, 1024]);
    }

    /// Eight items of which only item 3 matters. Chunk size 4: dropping 1-4 fails, dropping
    /// 5-8 succeeds. Size 2: dropping 1-2 succeeds, and 3-4 is all that is left, so it is
    /// skipped. Size 1: dropping 3 fails, dropping 4 succeeds; the pass removed something, so
    /// size 1 runs again, where dropping 3 would leave nothing and is skipped.
    #[test]
    fn eight_items_only_item_three_matters() {
        let expected: Vec<Vec<usize>> = vec![
            vec![5, 6, 7, 8],
            vec![1, 2, 3, 4],
            vec![3, 4],
            vec![4],
            vec![3],
        ];
        assert_eq!(trace(8, &[3]), expected);
    }

    /// Items 2 and 7 of 8 matter: the chunks of 4 both hold a needed item and fail.
    #[test]
    fn eight_items_two_and_seven_matter() {
        let expected: Vec<Vec<usize>> = vec![
            vec![5, 6, 7, 8],
            vec![1, 2, 3, 4],
            vec![3, 4, 5, 6, 7, 8],
            vec![1, 2, 5, 6, 7, 8],
            vec![1, 2, 7, 8],
            vec![1, 2],
            vec![2, 7, 8],
            vec![7, 8],
            vec![2, 8],
            vec![2, 7],
            // Size 1 removed something, so it runs again over [2, 7].
            vec![7],
            vec![2],
        ];
        assert_eq!(trace(8, &[2, 7]), expected);
    }

    #[test]
    fn allow_empty_tries_removing_everything() {
        let mut s = Lithium::new(vec![0], true);
        assert_eq!(s.next(), Some(vec![0]));
        s.feedback(true);
        assert_eq!(s.next(), None);
        assert!(s.kept().is_empty());
    }
}
