//! The pages: the start page, the overview that holds a bundle's views, and one folder per
//! view. Which views there are is the view list's (`state::view_list`): this file declares
//! their modules from it, and the registry (`registry`) their table.

pub mod board_columns;
pub mod overview;
pub mod registry;
pub mod relabel;
pub mod site_trend;
pub mod start;
pub mod views;

/// Declares each view's module (`pages/<folder>/`) from the view list.
macro_rules! view_modules {
    ($($folder:ident: $tab:ident = $key:literal $(, keys $params:path)?;)*) => {
        $(pub mod $folder;)*
    };
}

crate::state::view_list::for_each_view!(view_modules);

pub use audit::AuditView;
pub use compare::{CompareRuns, CompareView};
pub use failures::FailuresView;
pub use gate::GateView;
pub use leaderboard::LeaderboardView;
pub use matrix::MatrixView;
pub use overview::Overview;
pub use ranking::RankingView;
pub use start::StartPage;
pub use trajectory::TrajectoryView;
