//! Every view of a bundle, in tab order, one line each: adding a view is its folder under
//! `pages/` and its line here (docs/architecture.md, "Worked example: add a view").
//!
//! A line names the view's folder (`pages/<folder>/`, whose `VIEW` gives its label, what it
//! waits for and where its code is), its [`super::Tab`] and URL key (`tab=`), and, when the
//! view has keys of its own in the page address, their type (`keys …`, in
//! `pages/<folder>/url.rs`: the view's own field of [`super::ViewState`], named after the
//! folder). Its place in the list is its place in the tab strip and its key (`1`, `2`, …).
//!
//! The list is a macro that hands its lines to another (`for_each_view!(m)` is
//! `m! { lines }`), so each reader declares what it needs where it lives: `state` the `Tab`
//! and the address keys, `pages` the view modules and the registry's table.

macro_rules! for_each_view {
    ($then:ident) => {
        $then! {
            leaderboard: Leaderboard = "leaderboard", keys crate::pages::leaderboard::url::BoardParams;
            matrix: Matrix = "matrix", keys crate::pages::matrix::url::MatrixParams;
            ranking: Ranking = "ranking", keys crate::pages::ranking::url::RankingParams;
            failures: Failures = "failures", keys crate::pages::failures::url::FailuresParams;
            audit: Audit = "audit";
            gate: Gate = "gate", keys crate::pages::gate::url::GateParams;
            trajectory: Trajectory = "trajectory", keys crate::pages::trajectory::url::TrajectoryParams;
            compare: Compare = "compare", keys crate::pages::compare::url::CompareParams;
        }
    };
}
pub(crate) use for_each_view;
