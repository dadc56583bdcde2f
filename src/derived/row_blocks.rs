//! The rows of a long answer, asked for from the data's owner in blocks as they scroll into
//! view: for each question, each block once (asked again after a failure when the window
//! next moves over it); a new question drops the rows of the last. A row not yet answered is
//! `None`, which a virtualised list shows as an empty row of the same height.

use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use leptos::prelude::*;
use leptos::task::spawn_local;

/// A block's rows, or why they could not be had.
pub type BlockFuture<R> = Pin<Box<dyn Future<Output = Result<Vec<R>, String>>>>;

/// The blocks answered for one question (a list mounted again for the same question may
/// start with them: [`RowBlocks::new`]'s `kept`).
#[derive(Debug, Clone, PartialEq)]
pub struct Blocks<Q, R> {
    query: Option<Q>,
    rows: HashMap<usize, Rc<Vec<R>>>,
}

impl<Q: PartialEq, R> Blocks<Q, R> {
    /// Whether these are the blocks of `query`.
    pub fn answer(&self, query: &Q) -> bool {
        self.query.as_ref() == Some(query)
    }
}

/// Rows asked for in blocks of a fixed size (see the module's words).
pub struct RowBlocks<Q: 'static, R: 'static> {
    blocks: RwSignal<Blocks<Q, R>, LocalStorage>,
    size: usize,
}

impl<Q: 'static, R: 'static> Clone for RowBlocks<Q, R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<Q: 'static, R: 'static> Copy for RowBlocks<Q, R> {}

impl<Q, R> RowBlocks<Q, R>
where
    Q: Clone + PartialEq + Send + Sync + 'static,
    R: Clone + 'static,
{
    /// Asks `fetch(query, start, end)` for each block of `size` rows that `window` (rows
    /// `[start, end)` in view) reaches, whenever the query or the window changes; starts with
    /// `kept` when they are the blocks of the current question.
    pub fn new(
        query: Memo<Q>,
        window: Memo<(usize, usize)>,
        size: usize,
        kept: Option<Blocks<Q, R>>,
        fetch: impl Fn(Q, usize, usize) -> BlockFuture<R> + 'static,
    ) -> Self {
        let size = size.max(1);
        let start = kept
            .filter(|k| query.with_untracked(|q| k.answer(q)))
            .unwrap_or(Blocks {
                query: None,
                rows: HashMap::new(),
            });
        // Blocks kept from an earlier mount are not asked for again.
        let asked_at_start: HashSet<usize> = start.rows.keys().copied().collect();
        let asked = StoredValue::new_local((start.query.clone(), asked_at_start));
        let blocks = RwSignal::new_local(start);
        let fetch = Rc::new(fetch);
        Effect::new(move |_| {
            let q = query.get();
            let (start, end) = window.get();
            if blocks.with_untracked(|b| b.query.as_ref() != Some(&q)) {
                blocks.set(Blocks {
                    query: Some(q.clone()),
                    rows: HashMap::new(),
                });
            }
            if end <= start {
                return;
            }
            for block in start / size..=(end - 1) / size {
                let fresh = asked.try_update_value(|(asked_q, set)| {
                    if asked_q.as_ref() != Some(&q) {
                        *asked_q = Some(q.clone());
                        set.clear();
                    }
                    set.insert(block)
                });
                if fresh != Some(true) {
                    continue;
                }
                let rows = fetch(q.clone(), block * size, (block + 1) * size);
                let q = q.clone();
                spawn_local(async move {
                    let Ok(rows) = rows.await else {
                        asked.try_update_value(|(_, set)| set.remove(&block));
                        return;
                    };
                    blocks.try_update(|b| {
                        if b.query.as_ref() == Some(&q) {
                            b.rows.insert(block, Rc::new(rows));
                        }
                    });
                });
            }
        });
        RowBlocks { blocks, size }
    }

    /// The blocks answered so far (tracked), to keep for a later mount.
    pub fn blocks(&self) -> Blocks<Q, R> {
        self.blocks.get()
    }

    /// Row `i` of the current question, if answered (tracked).
    pub fn row(&self, i: usize) -> Option<R> {
        let size = self.size;
        self.blocks
            .with(|b| b.rows.get(&(i / size))?.get(i % size).cloned())
    }
}
