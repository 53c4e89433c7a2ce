use clap::{Parser, Subcommand};

use crate::commands::account::AccountCommand;
use crate::commands::engine::EngineCommand;
use crate::commands::game_actions::DrawChoice;
use crate::commands::tokens::TokensCommand;
use crate::commands::tournament::TournamentCommand;
use crate::commands::webhooks::WebhooksCommand;
use crate::commands::{
    BotRunArgs, GamesArgs, IfArgs, LoginArgs, MoveArgs, MuteArgs, NewArgs, NotificationsArgs,
    SeekArgs, SignupArgs, WaitArgs, WatchArgs,
};

const AFTER_HELP: &str = "\
Exit codes:
  0  done
  1  refused by the rules or the server (illegal move, not your turn, stale ply, wrong code)
  2  usage or configuration error
  3  network or server failure

Environment:
  TURNPOST_SERVER      server URL (overrides the profile's)
  TURNPOST_TOKEN       API token (overrides the profile's)
  TURNPOST_PROFILE     profile to use (like --profile)
  TURNPOST_CONFIG_DIR  where profiles and tokens are kept (default ~/.config/turnpost)
  NO_COLOR             no colour even on a terminal
  TZ                   time zone for deadlines shown (default: the system's)

Shell completion (commands, options, and the legal moves after `turnpost move ID`):
  bash  source <(turnpost completions bash)   in ~/.bashrc
  zsh   source <(turnpost completions zsh)    in ~/.zshrc, after compinit
  fish  turnpost completions fish > ~/.config/fish/completions/turnpost.fish
  `turnpost move ID <TAB>` asks the profile's server for the game's legal moves; when the
  server does not answer within 2 s it completes nothing.";

/// Play turnpost games from the shell: correspondence games of Kefren, Kechi, SanQi and
/// Chinese Checkers.
#[derive(Parser, Debug)]
#[command(name = "turnpost", version, after_help = AFTER_HELP)]
pub struct Cli {
    /// Print one JSON document for scripts instead of text.
    #[arg(long, global = true)]
    pub json: bool,
    /// The profile (server and account) to use.
    #[arg(long, global = true, env = "TURNPOST_PROFILE")]
    pub profile: Option<String>,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Create an account on a server; the mailed code signs you in.
    Signup(SignupArgs),
    /// Sign in to a server with a mailed code and keep the token in a profile.
    Login(LoginArgs),
    /// Revoke this profile's token and forget it.
    Logout,
    /// Show the signed-in account.
    Whoami,
    /// Account settings: whether an outside program plays this account (`account engine on`).
    Account {
        #[command(subcommand)]
        command: AccountCommand,
    },
    /// List or revoke your API tokens.
    Tokens {
        #[command(subcommand)]
        command: Option<TokensCommand>,
    },
    /// Your webhooks: add (prints the signing secret once), list, show, remove, test.
    Webhooks {
        #[command(subcommand)]
        command: Option<WebhooksCommand>,
    },
    /// Challenge players to a game.
    New(NewArgs),
    /// List the challenges waiting for players.
    Invites,
    /// Accept a challenge.
    Accept {
        id: i64,
        /// A message for the other players (at most 500 characters).
        #[arg(long, short = 'm', value_name = "TEXT")]
        message: Option<String>,
    },
    /// Decline a challenge (it is cancelled).
    Decline { id: i64 },
    /// Post an open challenge: you take one seat, the others are open for anyone to join.
    ///
    /// Example: turnpost seek kefren --days-per-move 5. Others find it with `turnpost
    /// challenges` and take a seat with `turnpost join ID`; the game starts when every seat
    /// is taken. An open challenge nobody joins lapses after 7 days (you get a mail).
    Seek(SeekArgs),
    /// List the open challenges: seats anyone may take with `turnpost join ID`.
    Challenges {
        /// Only challenges to this game: kefren, kechi, sanqi or chinese-checkers.
        #[arg(long)]
        kind: Option<turnpost_shared::GameKind>,
        /// Only challenges older than this one (50 a page, newest first: the list ends with
        /// the `--before` of the next page).
        #[arg(long, value_name = "ID", value_parser = clap::value_parser!(i64).range(1..))]
        before: Option<i64>,
    },
    /// Take an open seat of a challenge (accepted at once; the game starts when it is full).
    Join { id: i64 },
    /// Give up the open seat you took in a challenge that has not started.
    Leave { id: i64 },
    /// Challenge the players of a finished game again: same game, options and clock, seats
    /// rotated. Asking again shows the same rematch.
    Rematch { id: i64 },
    /// Tournaments: create, list, show, join and withdraw (round-robin, Swiss, and Chinese
    /// Checkers tables).
    Tournament {
        #[command(subcommand)]
        command: TournamentCommand,
    },
    /// List your games, with the deadline of each active one.
    Games(GamesArgs),
    /// Show the game waiting for your move whose deadline is nearest (then the one waiting
    /// longest).
    Next,
    /// Show a game: players, whose turn, clock and deadline, the board with the last move
    /// highlighted.
    ///
    /// For the game's players, also the messages sent with the moves (who, move number, text).
    Show { id: i64 },
    /// List the legal moves in a game, one per line (when there are many: grouped by their
    /// first part, or the first few; --all lists every one).
    Moves {
        id: i64,
        /// List every legal move, one per line, however many there are.
        #[arg(long)]
        all: bool,
    },
    /// Play a move (checked locally first).
    Move(MoveArgs),
    /// Conditional moves: answer your opponent's next moves ahead (two-player games).
    If(IfArgs),
    /// List the moves played in a game.
    History { id: i64 },
    /// Print a game's plain-text record.
    Record { id: i64 },
    /// Save a game's board as an SVG picture.
    Board {
        id: i64,
        /// The file to write.
        #[arg(long, value_name = "FILE")]
        svg: std::path::PathBuf,
    },
    /// Resign a game.
    ///
    /// On a terminal it asks for confirmation first; `--yes` skips the question. When stdin is
    /// not a terminal (scripts, bots) it resigns without asking.
    Resign {
        id: i64,
        /// Resign without asking.
        #[arg(long, short = 'y')]
        yes: bool,
        /// A message for the other players (at most 500 characters).
        #[arg(long, short = 'm', value_name = "TEXT")]
        message: Option<String>,
    },
    /// Offer, accept or decline a draw.
    Draw {
        action: DrawChoice,
        id: i64,
        /// A message for the other players (at most 500 characters).
        #[arg(long, short = 'm', value_name = "TEXT")]
        message: Option<String>,
    },
    /// Mute the messages of a game, or of a player in every game: they are left out of your
    /// turn mails, `turnpost show` and the game page.
    ///
    /// Examples: turnpost mute 42; turnpost mute --player bob. Without either, lists what you
    /// muted.
    Mute(MuteArgs),
    /// Show the messages of a game, or of a player, again (undoes `turnpost mute`).
    Unmute(MuteArgs),
    /// Wait until it is your move, then show that game (for scripts and bots).
    ///
    /// It follows the server's live stream of your games (of the game, with --game) and
    /// returns as soon as the opponent has moved; against a server without streams it asks
    /// again and again (after 0.25 s, 0.5 s, … up to every 10 s). With --game it also returns
    /// when that game is over. Exit 1 when --timeout passes first.
    Wait(WaitArgs),
    /// Print the live events of your games, or of one game, as they happen (one line each;
    /// --json: one JSON object a line), until Ctrl-C.
    ///
    /// Without ID: everything that happens in your games (challenges to you, moves, draw
    /// offers, departures, game ends). With ID: that game's events, for its players and for
    /// spectators; it ends when the game is over.
    #[command(after_help = crate::commands::watch::AFTER_HELP)]
    Watch(WatchArgs),
    /// Let an outside engine play this account's games (`bot run --engine CMD`).
    Bot {
        #[command(subcommand)]
        command: BotCommand,
    },
    /// Claim a win on time in a `--timeout claim` game whose player to move is past the deadline.
    ///
    /// The server mails you this command when you may; `turnpost show ID` says so too.
    Claim { id: i64 },
    /// Show your vacation days, or take DAYS of them now: all your clocks pause meanwhile.
    ///
    /// Each account has 15 vacation days a calendar year (UTC). Without DAYS, shows the days
    /// used and left and any running vacation; with DAYS, starts a vacation now (or extends
    /// the running one) and says until when.
    Vacation {
        /// Days to take now (at least 1, at most the days left this year).
        #[arg(value_parser = clap::value_parser!(u32).range(1..))]
        days: Option<u32>,
    },
    /// Show ratings: a kind's leaderboard, or a player's ratings (yours by default).
    ///
    /// Kinds: kefren, kechi, sanqi, chinese-checkers (two-player games) and
    /// chinese-checkers-multi (three to six players). A `?` marks a provisional rating
    /// (deviation above 110).
    Ratings {
        /// The rating kind whose leaderboard to show.
        kind: Option<String>,
        /// Show this player's ratings instead of yours.
        #[arg(long, conflicts_with = "kind")]
        player: Option<String>,
        /// The page of the leaderboard to show (50 players a page; 1 is the highest ratings).
        #[arg(long, requires = "kind", value_parser = clap::value_parser!(u32).range(1..))]
        page: Option<u32>,
    },
    /// Show or change your mail: turn mail or a daily digest, time zone, kinds, muted games.
    ///
    /// Example: turnpost notifications --turn-mail digest --digest-hour 7
    /// --time-zone Europe/Berlin --off reminders --on game_over --mute 42 --unmute 7
    Notifications(NotificationsArgs),
    /// How to play a game: the goal, the board, a move, the options and the notation.
    ///
    /// Without KIND, lists the games. Works offline.
    Rules {
        /// Game kind: kefren, kechi, sanqi or chinese-checkers.
        kind: Option<turnpost_shared::GameKind>,
    },
    /// Explore positions offline, without a server: legal moves, perft, board, status, and play
    /// against the computer (bot, play, match).
    #[command(subcommand)]
    Engine(EngineCommand),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    ///
    /// In bash, zsh and fish the script also completes `turnpost move ID <TAB>` with the
    /// game's legal moves, asked from the server of the profile in use (`--profile`,
    /// TURNPOST_PROFILE, TURNPOST_SERVER, TURNPOST_TOKEN); it completes nothing when the
    /// server does not answer within 2 s. Enable it with `source <(turnpost completions bash)`
    /// in ~/.bashrc (zsh: the same in ~/.zshrc after compinit; fish: save the script as
    /// ~/.config/fish/completions/turnpost.fish).
    Completions { shell: clap_complete::Shell },
    /// Print the man page (roff) to stdout.
    Man,
}

/// `turnpost bot …`.
#[derive(Subcommand, Debug)]
pub enum BotCommand {
    /// Play every game of this engine account with an outside engine when its turn comes, and
    /// answer challenges by a policy, until Ctrl-C.
    ///
    /// The account must be marked first (`turnpost account engine on`). The engine is a
    /// program that reads the position and the legal moves on stdin and writes its move on
    /// stdout (the protocol is below); examples/engine.py is a complete one.
    #[command(after_help = crate::commands::bot_run::AFTER_HELP)]
    Run(BotRunArgs),
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        super::Cli::command().debug_assert();
    }
}
