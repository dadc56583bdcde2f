//! The one way a view computes in the background: it names its question as a memo of its
//! inputs, and the data's owner answers it ([`ask`]: in the loader worker, which holds the
//! rows, or in the page for a bundle it loaded itself). Whenever the inputs change the
//! question is asked again; the newest question's answer wins (an older one arriving late is
//! dropped), the last answer stays shown until then, and whether one is on its way is
//! [`NewestAnswer::pending`] (the view's "computing…" line). Long computations therefore never
//! run on the page's thread, and no view keeps its own generation counter.

use std::sync::Arc;

use leptos::prelude::*;
use runlens_core::bundle::Bundle;
use serde::de::DeserializeOwned;

use crate::derived::answers::{ViewQuery, ask};

/// An answered question: the question and its answer or why it has none.
type Answered<Q, A> = (Q, Result<Arc<A>, String>);

/// The newest answer to a view's question, and the question it answers.
pub struct NewestAnswer<Q: Send + Sync + 'static, A: Send + Sync + 'static> {
    query: Memo<Q>,
    newest: RwSignal<Option<Answered<Q, A>>>,
    /// The last question answered without an error, and its answer.
    last_ok: RwSignal<Option<(Q, Arc<A>)>>,
}

impl<Q: Send + Sync + 'static, A: Send + Sync + 'static> Clone for NewestAnswer<Q, A> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<Q: Send + Sync + 'static, A: Send + Sync + 'static> Copy for NewestAnswer<Q, A> {}

impl<Q, A> NewestAnswer<Q, A>
where
    Q: Clone + PartialEq + Send + Sync + 'static,
    A: DeserializeOwned + Send + Sync + 'static,
{
    /// Asks `to_query(q)` about `bundle` for every value `q` of `query`, from now on.
    pub fn ask(bundle: Arc<Bundle>, query: Memo<Q>, to_query: fn(Q) -> ViewQuery) -> Self {
        Self::ask_when(bundle, query, move |q| Some(to_query(q)))
    }

    /// As [`NewestAnswer::ask`], asking nothing while `to_query` gives `None` (the answer
    /// shown stays).
    pub fn ask_when(
        bundle: Arc<Bundle>,
        query: Memo<Q>,
        to_query: impl Fn(Q) -> Option<ViewQuery> + 'static,
    ) -> Self {
        Self::ask_seeded(bundle, query, to_query, None)
    }

    /// As [`NewestAnswer::ask_when`], starting from `seed`, an answer kept from an earlier
    /// mount (shown at once, until the answer to the question asked now replaces it).
    pub fn ask_seeded(
        bundle: Arc<Bundle>,
        query: Memo<Q>,
        to_query: impl Fn(Q) -> Option<ViewQuery> + 'static,
        seed: Option<(Q, Arc<A>)>,
    ) -> Self {
        let newest = RwSignal::new(seed.clone().map(|(q, a)| (q, Ok(a))));
        let last_ok = RwSignal::new(seed);
        ask_newest(bundle, query, to_query, move |q, got: Result<A, String>| {
            let got = got.map(Arc::new);
            if let Ok(a) = &got {
                last_ok.try_set(Some((q.clone(), a.clone())));
            }
            newest.try_set(Some((q, got)));
        });
        Self {
            query,
            newest,
            last_ok,
        }
    }

    /// The newest answer, when it is one (not an error).
    pub fn answer(&self) -> Option<Arc<A>> {
        self.newest
            .with(|n| n.as_ref().and_then(|(_, a)| a.as_ref().ok().cloned()))
    }

    /// The newest answer with the question it answers, when it is one.
    pub fn answer_with_query(&self) -> Option<(Q, Arc<A>)> {
        self.newest.with(|n| {
            n.as_ref()
                .and_then(|(q, a)| a.as_ref().ok().map(|a| (q.clone(), a.clone())))
        })
    }

    /// The last answer that was one, kept when a newer question failed (a view that shows
    /// its last numbers beside the error).
    pub fn last_answer(&self) -> Option<Arc<A>> {
        self.last_ok.with(|l| l.as_ref().map(|(_, a)| a.clone()))
    }

    /// [`NewestAnswer::last_answer`] with the question it answers.
    pub fn last_answer_with_query(&self) -> Option<(Q, Arc<A>)> {
        self.last_ok.with(Clone::clone)
    }

    /// Why the newest question could not be answered, if it could not.
    pub fn error(&self) -> Option<String> {
        self.newest
            .with(|n| n.as_ref().and_then(|(_, a)| a.as_ref().err().cloned()))
    }

    /// Whether any answer or error has come yet.
    pub fn answered(&self) -> bool {
        self.newest.with(Option::is_some)
    }

    /// Whether the question now asked has no answer yet.
    pub fn pending(&self) -> bool {
        let asked = self.query.get();
        self.newest
            .with(|n| n.as_ref().map(|(q, _)| q) != Some(&asked))
    }
}

/// The primitive under [`NewestAnswer`], for a view that keeps more than the answer: asks
/// `to_query(q)` about `bundle` whenever `query` changes, and hands each answer to
/// `answered` with the question it answers, unless a newer question was asked meanwhile.
pub fn ask_newest<Q, A>(
    bundle: Arc<Bundle>,
    query: Memo<Q>,
    to_query: impl Fn(Q) -> Option<ViewQuery> + 'static,
    answered: impl Fn(Q, Result<A, String>) + Clone + 'static,
) where
    Q: Clone + PartialEq + Send + Sync + 'static,
    A: DeserializeOwned + 'static,
{
    Effect::new(move |_| {
        let q = query.get();
        let Some(asked) = to_query(q.clone()) else {
            return;
        };
        let (bundle, answered) = (bundle.clone(), answered.clone());
        leptos::task::spawn_local(async move {
            let got = ask::<A>(&bundle, asked).await;
            if query.try_get_untracked().as_ref() == Some(&q) {
                answered(q, got.map_err(|e| e.to_string()));
            }
        });
    });
}
