//! One shape for the computations core can do in steps: [`super::board_run::BoardRun`],
//! [`super::bootstrap::BootstrapRun`], [`super::question_rows::QuestionRowsRun`],
//! [`super::report_retrieval::RetrievalInputsRun`] and
//! [`super::report_retrieval::RetrievalSectionRun`]. A caller that must stay responsive
//! does a few units of work at a time and can show `done` of `total`; any other calls
//! [`Stepwise::finish`]. However a run was stepped, its output is the same (a test).

/// A computation done in units of work (rows, models, resamples).
pub trait Stepwise: Sized {
    /// What the finished run gives.
    type Output;

    /// Units of work in all.
    fn total(&self) -> usize;

    /// Units done so far (≤ [`Stepwise::total`]).
    fn done(&self) -> usize;

    /// Does up to `n` more units; true once every unit is done.
    fn step(&mut self, n: usize) -> bool;

    /// The output of a run whose units are all done ([`Stepwise::finish`] calls it).
    fn output(self) -> Self::Output;

    /// Does the units left and returns the output.
    fn finish(mut self) -> Self::Output {
        while !self.step(usize::MAX) {}
        self.output()
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::Stepwise;
    use crate::metrics::bootstrap::{BootstrapRun, paired_bootstrap_ci};

    #[test]
    fn a_bootstrap_stepped_by_hand_equals_one_finish() {
        let diffs = vec![1.0, 0.0, -1.0, 0.5, 1.0];
        let mut run = BootstrapRun::new(diffs.clone(), 10, 7).unwrap();
        assert_eq!((run.total(), run.done()), (10, 0));
        let mut seen = Vec::new();
        while !run.step(4) {
            seen.push(run.done());
        }
        // 4, 8, then the last 2 finish it.
        assert_eq!((seen, run.done()), (vec![4, 8], 10));
        assert_eq!(run.finish(), paired_bootstrap_ci(&diffs, 10, 7));
    }
}
