//! `turnpost tournament new|list|show|join|withdraw|start`: round-robin, Swiss and Chinese Checkers
//! table tournaments that the server pairs.

use clap::{Args, Subcommand, ValueEnum};
use turnpost_shared::api::{
    CreateTournamentRequest, TournamentFormat, TournamentList, TournamentStatus, TournamentView,
};
use turnpost_shared::GameKind;

use super::game_settings::{option_values, GameSettings};
use crate::failure::Failure;
use crate::output::{print, print_json};
use crate::session::Session;

/// What to do with tournaments.
#[derive(Subcommand, Debug)]
pub enum TournamentCommand {
    /// Create a tournament you organise (you play only if you join it too).
    ///
    /// Example: turnpost tournament new "Winter cup" kefren --format swiss --rounds 5
    /// --entry-days 7 --max-players 16 --invite anna,bert
    New(TournamentArgs),
    /// List tournaments: those taking entries, or --status running|finished|cancelled.
    List {
        /// entry (the default), running, finished or cancelled.
        #[arg(long, value_enum, default_value_t = StatusChoice::Entry)]
        status: StatusChoice,
    },
    /// Show a tournament: settings, entrants, rounds with their games, standings. A
    /// tournament of more than 100 games lists one round's games: the first still playing,
    /// or the one --round names.
    Show {
        id: i64,
        /// List this round's games.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
        round: Option<u32>,
    },
    /// Enter a tournament while its entries are open.
    Join { id: i64 },
    /// Withdraw: before the start you leave; after it your running games of it are resigned
    /// and you are left out of later rounds.
    Withdraw { id: i64 },
    /// Start a tournament you organise now, before its entries would close: round 1 is
    /// paired at once (it needs its minimum of entrants: 2, or 3 for tables).
    Start { id: i64 },
}

/// A tournament's state, as `--status` takes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum StatusChoice {
    /// Taking entries.
    Entry,
    /// Being played.
    Running,
    /// Over.
    Finished,
    /// Cancelled with too few players.
    Cancelled,
}

impl StatusChoice {
    fn status(self) -> TournamentStatus {
        match self {
            Self::Entry => TournamentStatus::Entry,
            Self::Running => TournamentStatus::Running,
            Self::Finished => TournamentStatus::Finished,
            Self::Cancelled => TournamentStatus::Cancelled,
        }
    }
}

/// A format, as `--format` takes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FormatChoice {
    /// Everyone plays everyone (two-seat games).
    RoundRobin,
    /// Swiss over --rounds rounds (two-seat games).
    Swiss,
    /// Chinese Checkers tables of --table-seats players each round.
    Tables,
}

/// `turnpost tournament new`.
#[derive(Args, Debug)]
pub struct TournamentArgs {
    /// Its name.
    pub name: String,
    /// Game kind: kefren, kechi, sanqi or chinese-checkers.
    pub kind: GameKind,
    /// round-robin, swiss or tables.
    #[arg(long, value_enum)]
    pub format: FormatChoice,
    /// Swiss and tables: the number of rounds.
    #[arg(long)]
    pub rounds: Option<u32>,
    /// Round-robin: everyone meets twice, colours reversed.
    #[arg(long)]
    pub double: bool,
    /// Round-robin: every round's games start together.
    #[arg(long)]
    pub all_at_once: bool,
    /// Tables: seats of a table (3–6).
    #[arg(long)]
    pub table_seats: Option<u8>,
    /// Days until entries close and round 1 starts (default 7).
    #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u32).range(1..=90))]
    pub entry_days: u32,
    /// The most players who may enter.
    #[arg(long)]
    pub max_players: Option<u32>,
    /// Start the moment the last place is taken (needs --max-players); the default for an
    /// invitation event with a maximum.
    #[arg(long, conflicts_with = "no_start_when_full")]
    pub start_when_full: bool,
    /// Wait for the entry window to close even when the field is full.
    #[arg(long)]
    pub no_start_when_full: bool,
    /// Players to mail the announcement to, comma-separated.
    #[arg(long, value_delimiter = ',')]
    pub invite: Vec<String>,
    #[command(flatten)]
    pub game: GameSettings,
}

/// Runs `turnpost tournament …`.
///
/// # Errors
/// Bad arguments (exit 2); refusals; network failures.
pub fn run(command: TournamentCommand, profile: Option<&str>, json: bool) -> Result<(), Failure> {
    match command {
        TournamentCommand::New(args) => new(args, profile, json),
        TournamentCommand::List { status } => list(status.status(), profile, json),
        TournamentCommand::Show { id, round } => {
            let session = Session::open(profile)?;
            let path = match round {
                Some(round) => format!("/tournaments/{id}?round={round}"),
                None => format!("/tournaments/{id}"),
            };
            let view: TournamentView = session.client.get(&path)?;
            print_view(&view, json)
        }
        TournamentCommand::Join { id } => act(id, "join", profile, json),
        TournamentCommand::Withdraw { id } => act(id, "withdraw", profile, json),
        TournamentCommand::Start { id } => start(id, profile, json),
    }
}

fn new(args: TournamentArgs, profile: Option<&str>, json: bool) -> Result<(), Failure> {
    let options = args.game.options()?;
    let closes = chrono::Utc::now() + chrono::Duration::days(i64::from(args.entry_days));
    let request = CreateTournamentRequest {
        name: args.name,
        kind: args.kind,
        options: option_values(&options),
        clock: args.game.clock(),
        timeout: args.game.timeout,
        format: match args.format {
            FormatChoice::RoundRobin => TournamentFormat::RoundRobin,
            FormatChoice::Swiss => TournamentFormat::Swiss,
            FormatChoice::Tables => TournamentFormat::Tables,
        },
        double: args.double,
        all_at_once: args.all_at_once,
        table_seats: args.table_seats,
        rounds: args.rounds,
        entry_closes_at: closes.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        max_players: args.max_players,
        // Neither flag: the server's default (on for an invitation event with a maximum).
        start_when_full: match (args.start_when_full, args.no_start_when_full) {
            (true, _) => Some(true),
            (_, true) => Some(false),
            _ => None,
        },
        invite: args.invite,
    };
    let session = Session::open(profile)?;
    let view: TournamentView = session.client.post("/tournaments", &request)?;
    if json {
        return Ok(print_json("tournament", &view)?);
    }
    print(&format!(
        "Tournament #{id} created; players enter with `turnpost tournament join {id}` until \
         {closes}{full}.\n",
        id = view.id,
        closes = view.entry_closes_at,
        full = if view.start_when_full {
            "; it starts as soon as the last place is taken"
        } else {
            ""
        }
    ))?;
    Ok(())
}

fn list(status: TournamentStatus, profile: Option<&str>, json: bool) -> Result<(), Failure> {
    let session = Session::open(profile)?;
    let list: TournamentList = session
        .client
        .get(&format!("/tournaments?status={}", status.as_str()))?;
    if json {
        return Ok(print_json("tournaments", &list.tournaments)?);
    }
    if list.tournaments.is_empty() {
        print(&format!(
            "No tournaments {}.\n",
            match status {
                TournamentStatus::Entry => "taking entries",
                TournamentStatus::Running => "running",
                TournamentStatus::Finished => "finished",
                TournamentStatus::Cancelled => "cancelled",
            }
        ))?;
        return Ok(());
    }
    let mut text = String::new();
    for t in &list.tournaments {
        text.push_str(&format!(
            "#{} {} · {} {} · {} entered{} · by {} · entries close {}\n",
            t.id,
            t.name,
            t.kind,
            t.format.as_str().replace('_', "-"),
            t.entrants,
            t.max_players
                .map(|m| format!(" of {m}"))
                .unwrap_or_default(),
            t.organiser,
            t.entry_closes_at
        ));
    }
    Ok(print(&text)?)
}

fn act(id: i64, verb: &str, profile: Option<&str>, json: bool) -> Result<(), Failure> {
    let session = Session::open(profile)?;
    let view: TournamentView = session
        .client
        .post_empty(&format!("/tournaments/{id}/{verb}"))?;
    print_view(&view, json)
}

/// Starts tournament `id` and shows it once round 1 is paired: the server pairs it a moment
/// after the entries close (a few seconds at most; the view as it is after that).
fn start(id: i64, profile: Option<&str>, json: bool) -> Result<(), Failure> {
    let session = Session::open(profile)?;
    let mut view: TournamentView = session
        .client
        .post_empty(&format!("/tournaments/{id}/start"))?;
    for _ in 0..40 {
        if view.status != TournamentStatus::Entry {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(250));
        view = session.client.get(&format!("/tournaments/{id}"))?;
    }
    print_view(&view, json)
}

/// Half points as text: `2½`, `½`, `3`.
fn points(value: f64) -> String {
    let whole = value.trunc();
    let half = (value - whole - 0.5).abs() < 1e-9;
    match (whole == 0.0, half) {
        (true, true) => "½".to_owned(),
        (false, true) => format!("{whole}½"),
        _ => format!("{value}"),
    }
}

fn print_view(view: &TournamentView, json: bool) -> Result<(), Failure> {
    if json {
        return Ok(print_json("tournament", view)?);
    }
    let mut text = format!(
        "#{} {} · {} {} · clock {} · {}\n",
        view.id,
        view.name,
        view.kind,
        view.format.as_str().replace('_', "-"),
        view.clock,
        view.status.as_str()
    );
    match view.status {
        TournamentStatus::Entry => text.push_str(&format!(
            "Entries close {} ({} entered{}){}\n",
            view.entry_closes_at,
            view.entrants.len(),
            view.max_players
                .map(|m| if view.start_when_full {
                    format!(" of {m}; it starts when full")
                } else {
                    format!(" of {m}")
                })
                .unwrap_or_default(),
            if view.you_entered { "; you are in" } else { "" }
        )),
        _ => text.push_str(&format!(
            "Round {} of {}\n",
            view.current_round,
            view.rounds
                .map_or_else(|| "?".to_owned(), |r| r.to_string())
        )),
    }
    let entrants: Vec<String> = view
        .entrants
        .iter()
        .map(|e| match (&e.left_reason, e.left_before_round) {
            (Some(why), Some(round)) => format!("{} ({why} before round {round})", e.player),
            _ => e.player.clone(),
        })
        .collect();
    text.push_str(&format!("Entrants: {}\n", entrants.join(", ")));
    for round in &view.round_games {
        if !round.listed {
            text.push_str(&format!(
                "Round {}: {} of {} games ended (turnpost tournament show {} --round {})\n",
                round.round, round.ended_count, round.game_count, view.id, round.round
            ));
            continue;
        }
        text.push_str(&format!("Round {}:\n", round.round));
        for game in &round.games {
            let result = match &game.placings {
                Some(places) => places
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join("-"),
                None => "playing".to_owned(),
            };
            text.push_str(&format!(
                "  #{} {} · {result}\n",
                game.id,
                game.players.join(" – ")
            ));
        }
        if let Some(bye) = &round.bye {
            text.push_str(&format!("  bye: {bye}\n"));
        }
    }
    if !view.standings.is_empty() {
        text.push_str("Rank  Player            Points  Buchholz  S-B\n");
        for s in &view.standings {
            text.push_str(&format!(
                "{:>4}  {:<16}  {:>6}  {:>8}  {:>5}\n",
                s.rank,
                s.player,
                points(s.points),
                points(s.buchholz),
                s.sonneborn_berger
            ));
        }
    }
    Ok(print(&text)?)
}
