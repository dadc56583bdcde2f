//! One view per file.

pub mod audit;
pub mod board_columns;
pub mod failures;
pub mod gate;
pub mod leaderboard;
pub mod matrix;
pub mod overview;
pub mod ranking;
pub mod registry;
pub mod relabel;
pub mod start;
pub mod trajectory;
pub mod views;

pub use audit::AuditView;
pub use failures::FailuresView;
pub use gate::GateView;
pub use leaderboard::LeaderboardView;
pub use matrix::MatrixView;
pub use overview::Overview;
pub use ranking::RankingView;
pub use start::StartPage;
pub use trajectory::TrajectoryView;
