//! One module per subcommand: its arguments (clap) and its `run`. The command line
//! (`crate::cli`) is made of these arguments; `main` runs the command it parsed.

pub mod claim;
pub mod conditional;
pub mod engine;
mod engine_bot;
mod engine_match;
mod engine_play;
mod engine_position;
mod engine_replay;
mod engine_status;
pub mod game_actions;
pub mod game_info;
mod game_settings;
pub mod list;
pub mod login;
pub mod logout;
pub mod mutes;
pub mod new;
pub mod notifications;
pub mod open_challenges;
pub mod play;
pub mod ratings;
pub mod rules;
mod sign_in;
pub mod signup;
pub mod tokens;
pub mod tournament;
pub mod vacation;
pub mod wait;
pub mod watch;
pub mod whoami;

pub use conditional::IfArgs;
pub use list::GamesArgs;
pub use login::LoginArgs;
pub use mutes::MuteArgs;
pub use new::NewArgs;
pub use notifications::NotificationsArgs;
pub use open_challenges::SeekArgs;
pub use play::MoveArgs;
pub use signup::SignupArgs;
pub use wait::WaitArgs;
pub use watch::WatchArgs;
