//! Open challenges: `turnpost seek` posts one, `turnpost challenges` lists them, `turnpost
//! join` takes a seat and `turnpost leave` gives it up again.

use clap::Args;
use turnpost_shared::api::{ChallengeList, CreateGameRequest, GameView, OPEN_SEAT};
use turnpost_shared::{AnyGame, GameKind};

use super::game_actions::print_game;
use super::game_settings::{option_values, ChallengeSettings};
use crate::failure::Failure;
use crate::game_display::{describe, players};
use crate::output::{print, print_json, print_json_with};
use crate::session::Session;

/// Post a challenge with open seats: anyone signed in may take one (`turnpost join ID`).
#[derive(Args, Debug)]
pub struct SeekArgs {
    /// Game kind: kefren, kechi, sanqi or chinese-checkers.
    pub kind: GameKind,
    /// Players you name for some of the other seats, comma-separated, in turn order after
    /// you (the rest stay open).
    #[arg(long = "with", value_delimiter = ',')]
    pub named: Vec<String>,
    #[command(flatten)]
    pub challenge: ChallengeSettings,
}

/// Runs `turnpost seek KIND`.
///
/// # Errors
/// Bad options or seats (checked locally first, exit 2); refusals; network failures.
pub fn seek(args: SeekArgs, profile: Option<&str>, json: bool) -> Result<(), Failure> {
    let settings = &args.challenge;
    let options = settings.game.options()?;
    let game = AnyGame::new(args.kind, &options).map_err(Failure::usage)?;
    let seat_count = usize::from(game.seat_count());
    if args.named.len() + 1 >= seat_count {
        return Err(Failure::usage(format!(
            "{} has {seat_count} seats: name at most {} other players with --with, so that a \
             seat stays open (or challenge them with turnpost new)",
            args.kind,
            seat_count.saturating_sub(2)
        )));
    }
    if settings.seat == 0 || settings.seat > seat_count {
        return Err(Failure::usage(format!(
            "--seat {}: expected 1 to {seat_count}",
            settings.seat
        )));
    }
    let session = Session::open(profile)?;
    let me: turnpost_shared::api::Account = session.client.get("/me")?;
    let mut seats = args.named.clone();
    seats.resize(seat_count - 1, OPEN_SEAT.to_owned());
    seats.insert(settings.seat - 1, me.name);
    let request = CreateGameRequest {
        kind: args.kind,
        options: option_values(&options),
        seats,
        clock: settings.game.clock(),
        timeout: settings.game.timeout,
        on_leave: settings.on_leave,
        rated: None,
    };
    let game: GameView = session.client.post("/games", &request)?;
    if json {
        print_json("game", &game)?;
    } else {
        print(&format!(
            "Open challenge #{} posted; anyone may join it with `turnpost join {}`. The game \
             starts when every seat is taken and accepted.\n\n{}",
            game.id,
            game.id,
            describe(&game)
        ))?;
    }
    Ok(())
}

/// Runs `turnpost challenges [--kind K] [--before ID]`.
///
/// # Errors
/// Refusals and network failures.
pub fn list(
    kind: Option<GameKind>,
    before: Option<i64>,
    profile: Option<&str>,
    json: bool,
) -> Result<(), Failure> {
    let session = Session::open(profile)?;
    let mut query: Vec<String> = Vec::new();
    if let Some(kind) = kind {
        query.push(format!("kind={kind}"));
    }
    if let Some(before) = before {
        query.push(format!("before={before}"));
    }
    let path = if query.is_empty() {
        "/challenges".to_owned()
    } else {
        format!("/challenges?{}", query.join("&"))
    };
    let list: ChallengeList = session.client.get(&path)?;
    if json {
        // `next_before`: null on the last page.
        return Ok(print_json_with(
            "challenges",
            &list.challenges,
            "next_before",
            &list.next_before,
        )?);
    }
    if list.challenges.is_empty() {
        print("No open challenges. Post one with `turnpost seek KIND`.\n")?;
        return Ok(());
    }
    let mut text = String::new();
    for game in &list.challenges {
        let options: Vec<String> = game
            .options
            .iter()
            .map(|(key, value)| format!("{key}={value}"))
            .collect();
        text.push_str(&format!(
            "#{} {} · {} · clock {}{}{}\n",
            game.id,
            game.kind,
            players(&game.seats),
            game.clock.as_deref().unwrap_or("-"),
            if options.is_empty() {
                String::new()
            } else {
                format!(" · {}", options.join(" "))
            },
            game.expires_at
                .as_deref()
                .map(|at| format!(" · lapses {at}"))
                .unwrap_or_default(),
        ));
    }
    text.push_str("Take a seat with `turnpost join ID`.\n");
    if let Some(next) = list.next_before {
        text.push_str(&format!(
            "Older challenges: `turnpost challenges --before {next}`.\n"
        ));
    }
    Ok(print(&text)?)
}

/// Runs `turnpost join ID` (`leave`: `turnpost leave ID`).
///
/// # Errors
/// Refusals and network failures.
pub fn join(id: i64, leave: bool, profile: Option<&str>, json: bool) -> Result<(), Failure> {
    let session = Session::open(profile)?;
    let verb = if leave { "leave" } else { "join" };
    let game: GameView = session
        .client
        .post_empty(&format!("/challenges/{id}/{verb}"))?;
    print_game(&game, json)
}

/// Runs `turnpost rematch ID`.
///
/// # Errors
/// Refusals and network failures.
pub fn rematch(id: i64, profile: Option<&str>, json: bool) -> Result<(), Failure> {
    let session = Session::open(profile)?;
    let game: GameView = session.client.post_empty(&format!("/games/{id}/rematch"))?;
    if json {
        return Ok(print_json("game", &game)?);
    }
    print(&format!(
        "Rematch of #{id}: challenge #{} (seats rotated); it starts when everyone has \
         accepted.\n\n{}",
        game.id,
        describe(&game)
    ))?;
    Ok(())
}
