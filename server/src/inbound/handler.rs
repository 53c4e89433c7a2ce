//! The one handler of inbound mail, fed by `turnpost-server mail-in` and the IMAP watcher: read
//! the message, drop what a machine wrote, find the reply key, check key AND sender against the
//! seat's account, then run the commands through the game service; whether and what to answer
//! is decided in `crate::notify` (queued in the same transaction). A reply to a tournament's
//! announcement (its key names a tournament, not a seat) goes to [`super::entry_reply`].
//!
//! Exactly once: the message's record (`inbound_mail`, keyed by a hash of its Message-ID and the
//! seat) is inserted in the same transaction as everything the commands do; the game service's
//! frame joins that transaction (as a savepoint), so the record, the moves and the mails commit
//! together or not at all. A second delivery, a retry or another process finds the record (or,
//! racing, fails on its key and rolls back) and does nothing.

use turnpost_shared::api::{ConditionalMoves, DrawAction, GameView, PlayMoveRequest};
use turnpost_shared::play::GameStatus;
use turnpost_shared::MoveError;

use super::entry_reply::{self, EntryLimits};
use super::sender_auth::same_address;
use super::{
    split_reply, written_lines, InboundMessage, KeyCheck, MailCommand, Outcome, ReplyTarget,
    ReplyToken, SenderAuth,
};
use crate::db::accounts::Account;
use crate::db::transaction as tx;
use crate::db::{self, inbound as q, DbConnection, DbError};
use crate::games::challenge::BotGamesCap;
use crate::games::conditional::{self, Edit};
use crate::games::rematch::{self, Rematch};
use crate::games::{challenge, ending, moving, Actor, GameError, GameWithSeats};
use crate::mail_context::MailContext;
use crate::notify::compose::{MailAnswer, Refusal};
use crate::notify::{self, ReplyRun};

/// Limits of the handler.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandlerSettings {
    /// Answers one account gets per hour.
    pub answers_per_hour: u32,
    /// What a reply must prove about its sender, beyond its key and From address.
    pub sender_auth: SenderAuth,
    /// Bot games one account may have at once (a rematch by mail is a new challenge).
    pub bot_games_cap: BotGamesCap,
}

/// Handles one raw message.
///
/// # Errors
/// Storage failures only (the database is away): the message was not handled and should be
/// offered again later. Everything about the message itself is an [`Outcome`].
pub fn handle(
    conn: &mut DbConnection,
    ctx: &MailContext,
    settings: &HandlerSettings,
    raw: &[u8],
) -> Result<Outcome, DbError> {
    handle_for(conn, ctx, settings, raw, None)
}

/// [`handle`] for a message an MTA delivered to `envelope`, one of our reply addresses (LMTP
/// gives each recipient its own answer): that address names the seat or tournament, before
/// any in the message's headers (a Bcc or a forward is not in them).
///
/// # Errors
/// As [`handle`].
pub fn handle_for(
    conn: &mut DbConnection,
    ctx: &MailContext,
    settings: &HandlerSettings,
    raw: &[u8],
    envelope: Option<&str>,
) -> Result<Outcome, DbError> {
    let message = match InboundMessage::read(raw) {
        Ok(message) => message,
        Err(error) => {
            tracing::info!(%error, "inbound mail ignored: unreadable");
            crate::metrics::inbound_mail("ignored", "unreadable");
            return Ok(Outcome::Ignored("unreadable"));
        }
    };
    let outcome = decide(conn, ctx, settings, &message, envelope)?;
    match &outcome {
        Outcome::Ignored(why) => {
            crate::metrics::inbound_mail("ignored", why);
            tracing::info!(reason = why, "inbound mail ignored");
        }
        Outcome::Duplicate => {
            crate::metrics::inbound_mail("ignored", "handled before");
            tracing::info!("inbound mail handled before; ignored");
        }
        Outcome::Acted {
            game_id,
            done,
            refused,
            answers,
        } => {
            handled(ctx);
            tracing::info!(
                game = game_id,
                commands = done,
                refused,
                answers,
                "inbound mail handled"
            );
        }
        Outcome::Entry {
            tournament_id,
            refused,
            answers,
        } => {
            handled(ctx);
            tracing::info!(
                tournament = tournament_id,
                refused,
                answers,
                "reply to a tournament announcement handled"
            );
        }
    }
    Ok(outcome)
}

/// Counts a message that acted and wakes the mail worker for the mail it queued.
fn handled(ctx: &MailContext) {
    crate::metrics::inbound_mail("handled", "");
    ctx.wake.notify_one();
}

fn decide(
    conn: &mut DbConnection,
    ctx: &MailContext,
    settings: &HandlerSettings,
    message: &InboundMessage,
    envelope: Option<&str>,
) -> Result<Outcome, DbError> {
    if let Some(kind) = message.automatic {
        tracing::debug!(?kind, "automatic mail");
        return Ok(Outcome::Ignored(
            "written by a machine (auto-reply, bulk or bounce)",
        ));
    }
    let Some(from) = message.from.as_deref() else {
        return Ok(Outcome::Ignored("not one From address"));
    };
    if ctx.reply.template().is_ours(from) {
        return Ok(Outcome::Ignored("sent by turnpost itself"));
    }
    let Some(target) = envelope
        .and_then(|address| ctx.reply.target_in(address))
        .or_else(|| {
            message
                .recipients
                .iter()
                .find_map(|address| ctx.reply.target_in(address))
        })
    else {
        return Ok(Outcome::Ignored("no reply key among the recipients"));
    };
    let token = match target {
        ReplyTarget::Game(token) => token,
        ReplyTarget::Tournament(token) => {
            let limits = EntryLimits {
                answers_per_hour: settings.answers_per_hour,
                sender_auth: &settings.sender_auth,
            };
            return entry_reply::decide(conn, ctx, limits, message, from, &token);
        }
    };
    // Scoped to the seat, so one sender's Message-ID can never shadow another's.
    let key =
        crate::secrets::sha256_hex(&format!("{}|{}|{}", message.id, token.game_id, token.seat));
    let result = tx::write_with(conn, |conn| -> Result<Outcome, DbError> {
        if q::handled(conn, &key)? {
            return Ok(Outcome::Duplicate);
        }
        let Some(loaded) = GameWithSeats::find(conn, token.game_id, false)? else {
            return Ok(Outcome::Ignored("the reply key names no game"));
        };
        let Some(account) = loaded.player_at(token.seat).cloned() else {
            return Ok(Outcome::Ignored("the reply key names no seat"));
        };
        let key_check = ctx.reply.check(&token, account.id, account.link_generation);
        if key_check == KeyCheck::Wrong {
            tracing::warn!(
                game = token.game_id,
                seat = token.seat,
                "inbound mail with a wrong reply key (forged, edited, or revoked with the \
                 account's tokens): nothing played, nothing sent"
            );
            return Ok(Outcome::Ignored("wrong reply key"));
        }
        if !same_address(from, &account.email) {
            tracing::warn!(
                game = token.game_id,
                seat = token.seat,
                "inbound mail from an address that is not the seat's player: nothing played, \
                 nothing sent"
            );
            return Ok(Outcome::Ignored("sender is not the seat's player"));
        }
        let authenticated = settings
            .sender_auth
            .passes(&message.authentication_results, from);
        if !authenticated {
            tracing::warn!(
                game = token.game_id,
                seat = token.seat,
                "inbound mail whose sender the trusted mail server did not authenticate (no \
                 dmarc=pass or aligned dkim=pass): nothing played, answered to the seat's player"
            );
        }
        q::record(conn, &key, account.id, token.game_id, db::now())?;
        let run = if key_check == KeyCheck::Outdated {
            refused_unread(
                &message.text(),
                "This reply went to the address of an outdated turn card, which this server no \
                 longer accepts. Here is the board as it is now; reply to this mail to play.",
            )
        } else if !authenticated {
            refused_unread(
                &message.text(),
                "This reply could not be shown to come from your address: this server acts only \
                 on mail that your mail provider signs (DMARC or DKIM), and the receiving mail \
                 server found no such signature. Nothing in it was done. Here is the board as \
                 it is now.",
            )
        } else {
            run_commands(
                conn,
                &token,
                &account,
                &message.text(),
                settings.bot_games_cap,
            )?
        };
        let answers = notify::answer_reply(
            conn,
            ctx,
            settings.answers_per_hour,
            token.game_id,
            &account,
            ReplyRun {
                answer: &run.answer,
                acted: run.acted,
                asked: run.asked,
            },
        )?;
        let outcome = if run.answer.refusal.is_some() {
            "refused"
        } else {
            "done"
        };
        q::finish(conn, &key, outcome, answers)?;
        Ok(Outcome::Acted {
            game_id: token.game_id,
            done: run.answer.done.len(),
            refused: run.answer.refusal.is_some(),
            answers,
        })
    });
    match result {
        // Another process recorded the same message between our look and our insert.
        Err(error) if error.is_unique_violation() => Ok(Outcome::Duplicate),
        other => other,
    }
}

/// What the commands of one reply did.
struct Run {
    answer: MailAnswer,
    /// Whether something changed the game (a confirmation is then due).
    acted: bool,
    /// Whether the reply asked for an answer (`show`, `moves`, `help`, or no command at all).
    asked: bool,
}

/// A reply none of whose commands is run, for `reason`: one to a card sent before reply
/// addresses signed their ply (its ply may have been edited), or one whose sender was not
/// authenticated. The answer says why, with the board and a current address.
fn refused_unread(text: &str, reason: &str) -> Run {
    let lines = written_lines(text);
    Run {
        answer: MailAnswer {
            refusal: Some(Refusal {
                line: lines
                    .first()
                    .cloned()
                    .unwrap_or_else(|| "(an empty reply)".to_owned()),
                reason: reason.to_owned(),
                caret: None,
            }),
            skipped: lines.len().saturating_sub(1),
            ..MailAnswer::default()
        },
        acted: false,
        asked: true,
    }
}

fn run_commands(
    conn: &mut DbConnection,
    token: &ReplyToken,
    account: &Account,
    text: &str,
    bot_games_cap: BotGamesCap,
) -> Result<Run, DbError> {
    let actor = Actor::MailSender {
        account_id: account.id,
        seat: token.seat,
    };
    let written = written_lines(text);
    // The words after the action's line are its message (issue 28).
    let parts = split_reply(&written);
    let lines = parts.commands;
    let mut run = Run {
        answer: MailAnswer {
            help: lines.is_empty(),
            ..MailAnswer::default()
        },
        acted: false,
        asked: lines.is_empty(),
    };
    // A move answers the card the mail showed; after a move of this reply, the position it made.
    let mut ply = token.ply;
    for (index, line) in lines.iter().enumerate() {
        let command = MailCommand::parse(line);
        let message = parts
            .message
            .as_deref()
            .filter(|_| parts.carrier == Some(index));
        let done = match &command {
            MailCommand::Move(text) => {
                let request = PlayMoveRequest {
                    notation: text.clone(),
                    ply: u32::try_from(ply).unwrap_or(0),
                    message: message.map(str::to_owned),
                };
                moving::play(conn, &actor, token.game_id, &request).map(|view| {
                    ply = i32::try_from(view.ply).unwrap_or(ply);
                    // Said in the game's notation, as every other mail names the move; the
                    // text as written only when it reads differently.
                    match view.last_moves.last().map(|mv| mv.notation.as_str()) {
                        Some(played) if played == text.trim() => format!("played {played}"),
                        Some(played) => format!("played {played} (written {text})"),
                        None => format!("played {text}"),
                    }
                })
            }
            MailCommand::Conditional(moves) => {
                let request = ConditionalMoves {
                    ply: u32::try_from(ply).unwrap_or(0),
                    lines: vec![moves.clone()],
                };
                conditional::set(conn, &actor, token.game_id, &request, Edit::Add)
                    .map(|set| conditional_answer(&set))
            }
            MailCommand::Resign => {
                ending::resign(conn, &actor, token.game_id, message).map(|_| "resigned".to_owned())
            }
            MailCommand::DrawOffer => draw(conn, (&actor, token), DrawAction::Offer, message),
            MailCommand::DrawAccept => draw(conn, (&actor, token), DrawAction::Accept, message),
            MailCommand::DrawDecline => draw(conn, (&actor, token), DrawAction::Decline, message),
            MailCommand::Accept => challenge::accept(conn, &actor, token.game_id, message)
                .map(|_| "challenge accepted".to_owned()),
            MailCommand::Decline => challenge::decline(conn, &actor, token.game_id)
                .map(|_| "challenge declined".to_owned()),
            MailCommand::Rematch => rematch_by_mail(conn, &actor, token.game_id, bot_games_cap),
            MailCommand::Show => {
                run.asked = true;
                continue;
            }
            MailCommand::Moves => {
                run.asked = true;
                run.answer.moves = true;
                continue;
            }
            MailCommand::Help => {
                run.asked = true;
                run.answer.help = true;
                continue;
            }
            MailCommand::Unclear { line, expected } => {
                run.answer.refusal = Some(Refusal {
                    line: line.clone(),
                    reason: format!("Expected {expected}."),
                    caret: None,
                });
                run.answer.skipped = lines.len() - index - 1;
                break;
            }
        };
        match done {
            Ok(what) => {
                run.acted = true;
                // Said in the confirmation: the message went with the action.
                let sent = message
                    .and_then(|m| turnpost_shared::play::clean_message(m).ok().flatten())
                    .is_some();
                if sent {
                    run.answer
                        .done
                        .push(format!("{what}, with your message to the other players"));
                } else {
                    run.answer.done.push(what);
                }
            }
            Err(error) => {
                let example = match &error {
                    GameError::Illegal(MoveError::Syntax(_)) => example_move(conn, token.game_id),
                    _ => None,
                };
                run.answer.refusal = Some(refusal(&command, line, error, token, example)?);
                run.answer.skipped = lines.len() - index - 1;
                break;
            }
        }
    }
    Ok(run)
}

/// A rematch asked by mail. Not rate-limited like the API's: a game has one rematch, so a
/// reply key makes at most one challenge.
fn rematch_by_mail(
    conn: &mut DbConnection,
    actor: &Actor,
    game_id: i64,
    bot_games_cap: BotGamesCap,
) -> Result<String, GameError> {
    let view = match rematch::check(conn, actor, game_id, bot_games_cap)? {
        Rematch::Made(view) => *view,
        Rematch::ToMake(checked) => rematch::make(conn, actor, &checked, game_id)?,
    };
    Ok(format!("rematch challenge #{} sent", view.id))
}

/// The conditional moves as they now stand, for the answer to a reply.
fn conditional_answer(set: &ConditionalMoves) -> String {
    let lines: Vec<String> = set
        .lines
        .iter()
        .map(|line| {
            let mut text = String::new();
            for (at, mv) in line.iter().enumerate() {
                let keyword = if at % 2 == 0 { "if" } else { "then" };
                if at > 0 {
                    text.push(' ');
                }
                text.push_str(keyword);
                text.push(' ');
                text.push_str(mv);
            }
            text
        })
        .collect();
    if lines.is_empty() {
        return "conditional moves: none".to_owned();
    }
    format!("conditional moves now: [{}]", lines.join("] ["))
}

fn draw(
    conn: &mut DbConnection,
    (actor, token): (&Actor, &ReplyToken),
    action: DrawAction,
    message: Option<&str>,
) -> Result<String, GameError> {
    let done = match action {
        DrawAction::Offer => "draw offered",
        DrawAction::Accept => "draw accepted",
        DrawAction::Decline => "draw declined",
    };
    ending::draw(conn, actor, token.game_id, action, message).map(|_| done.to_owned())
}

/// A legal move of the game as it stands, to show how a move is written.
fn example_move(conn: &mut DbConnection, game_id: i64) -> Option<String> {
    let loaded = GameWithSeats::load(conn, game_id, false).ok()?;
    let engine = crate::games::engine(&loaded.game).ok()?;
    engine.legal_moves().into_iter().next()
}

/// What the sender of a stale reply does next: ask for a move only when it is their turn
/// (issue 47), else say whose turn it is.
fn next_step(game: &GameView, seat: i32) -> String {
    match game.to_move {
        Some(to_move) if i32::from(to_move) == seat => {
            "reply to this mail with your move.".to_owned()
        }
        Some(to_move) => format!(
            "it is {}'s turn now: a new turn card comes when it is yours.",
            game.seats
                .iter()
                .find(|s| i32::from(s.seat) == i32::from(to_move))
                .map_or_else(|| format!("seat {to_move}"), |s| s.player.clone())
        ),
        None => "nothing waits for your move.".to_owned(),
    }
}

/// A refused command, said for a person (a syntax error with `example`, a well-formed move);
/// storage failures stay errors (the database is away: the whole message is handled again
/// later).
fn refusal(
    command: &MailCommand,
    line: &str,
    error: GameError,
    token: &ReplyToken,
    example: Option<String>,
) -> Result<Refusal, DbError> {
    let (line, caret) = match (command, &error) {
        (MailCommand::Move(text), GameError::Illegal(MoveError::Syntax(syntax))) => {
            let column = text
                .get(..syntax.offset)
                .map_or(0, |before| before.chars().count());
            (text.clone(), Some(column))
        }
        _ => (line.to_owned(), None),
    };
    let reason = match error {
        GameError::Storage(error) => return Err(error),
        // A concurrent write the locks did not order: roll back and handle the message again.
        GameError::Conflict => {
            return Err(DbError::Query(diesel::result::Error::RollbackTransaction))
        }
        GameError::MoveTaken { game, .. } | GameError::StalePly { game, .. }
            if matches!(game.status, GameStatus::Finished | GameStatus::Cancelled) =>
        {
            format!("Game over: game {} is {}.", game.id, game.status)
        }
        // Only an edited reply address names a move the game has not reached.
        GameError::StalePly {
            current,
            asked,
            game,
        } => format!(
            "The reply address names the game at move {}, which it has not reached: it is at \
             move {} now. Here is the board as it is now; {}",
            asked + 1,
            current + 1,
            next_step(&game, token.seat)
        ),
        GameError::MoveTaken { current, game, .. } => format!(
            "Stale: the mail you answered was for move {}, and the game has moved on to move {} \
             since. Here is the board as it is now; {}",
            token.ply + 1,
            current + 1,
            next_step(&game, token.seat)
        ),
        GameError::GameOver { message, .. } => format!("Game over: {message}."),
        GameError::Illegal(error) => match command {
            MailCommand::Move(text) => error.for_player(text, example.as_deref()),
            _ => format!("{error}."),
        },
        other => format!("{other}."),
    };
    Ok(Refusal {
        line,
        reason,
        caret,
    })
}
