//! One view per file.

pub mod board_columns;
pub mod leaderboard;
pub mod overview;
pub mod ranking;
pub mod start;

pub use leaderboard::LeaderboardView;
pub use overview::Overview;
pub use ranking::RankingView;
pub use start::StartPage;
