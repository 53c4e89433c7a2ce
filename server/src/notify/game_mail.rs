//! The mail each game event causes: for each person the event's audience names
//! (`crate::games::audience`, the one answer every channel shares), whether they want it
//! (`recipient`), and which composer writes it. Runs in the mail composer on the game as it
//! was at the event.

use super::{facts, recipient, EventBatch};
use crate::db::accounts::Account;
use crate::db::{DbConnection, DbError};
use crate::games::{self, GameEvent, GameWithSeats, ResultReason, Told};
use crate::mail::ComposedMail;
use crate::mail_context::MailContext;
use crate::notify::compose::{self, GameFacts, Recipient};
use crate::preferences::Category;

/// Queues the mail of `event` in the batch's outbox, `loaded` being the game as it was at the
/// event; what it reads comes from the batch's reads when the batch read it.
///
/// # Errors
/// Storage failures; [`DbError::Corrupt`] for an unreadable stored position.
pub fn compose_event(
    conn: &mut DbConnection,
    ctx: &MailContext,
    batch: &EventBatch,
    loaded: &GameWithSeats,
    event: GameEvent,
) -> Result<(), DbError> {
    let by = match event.actor() {
        Some(id) => Some(actor(conn, loaded, id)?),
        None => None,
    };
    let letters = Letters {
        batch,
        loaded,
        event,
        by_name: by.as_ref().map_or("", |by| by.name.as_str()),
        late: late_player(loaded),
        shared: None,
    };
    letters.write_all(conn, ctx)
}

/// The account that acted: a player of the game (read with its seats), else (a bot playing a
/// seat on) read by id.
fn actor(conn: &mut DbConnection, loaded: &GameWithSeats, id: i64) -> Result<Account, DbError> {
    if let Some((_, account)) = loaded.seats.iter().find(|(_, a)| a.id == id) {
        return Ok(account.clone());
    }
    crate::db::accounts::by_id(conn, id)?
        .ok_or_else(|| DbError::Corrupt(format!("game event names account {id}, which is gone")))
}

/// On a loss on time, who ran out: the last seat to leave (games of three or more seats
/// record departures), else the seat the result leaves out.
fn late_player(loaded: &GameWithSeats) -> Option<String> {
    if loaded.game.result_reason != Some(ResultReason::Timeout) {
        return None;
    }
    let result = loaded.game.result.as_ref()?;
    let last_left = games::engine(&loaded.game)
        .ok()?
        .departed()
        .last()
        .map(|seat| games::seat_number(*seat));
    loaded
        .seats
        .iter()
        .find(|(seat, _)| match last_left {
            Some(left) => seat.seat == left,
            None => !result.is_winner(seat.seat),
        })
        .map(|(_, account)| account.name.clone())
}

/// The mails of one event, one per person told who wants it.
struct Letters<'a> {
    batch: &'a EventBatch,
    loaded: &'a GameWithSeats,
    event: GameEvent,
    /// The name of who acted ("" when nobody did).
    by_name: &'a str,
    /// Who ran out of time, for a game lost on time.
    late: Option<String>,
    /// The facts every mail of the event shows alike, read once.
    shared: Option<GameFacts>,
}

impl Letters<'_> {
    /// Queues the mail of each person told of the event who wants it.
    fn write_all(mut self, conn: &mut DbConnection, ctx: &MailContext) -> Result<(), DbError> {
        for told in games::audience(self.loaded, self.event)? {
            let Some(to) = recipient::player(ctx, self.loaded, told.account, told.category) else {
                continue;
            };
            if let Some(mail) = self.letter(conn, ctx, &told, &to)? {
                self.batch.outbox.queue(conn, ctx, &to, mail)?;
            }
        }
        Ok(())
    }

    /// The facts of the game as `told` reads them: the turn and draw-offer mails show the
    /// seat's own view (its moves, its play link); the others one view for all.
    fn facts(&mut self, conn: &mut DbConnection, told: &Told<'_>) -> Result<GameFacts, DbError> {
        let own_seat = matches!(
            self.event,
            GameEvent::Turn
                | GameEvent::DrawOffered { .. }
                | GameEvent::Left { .. }
                | GameEvent::TakenOver { .. }
        );
        if own_seat {
            return facts::game_facts_read(conn, &self.batch.reads, self.loaded, Some(told.seat));
        }
        if let Some(shared) = &self.shared {
            return Ok(shared.clone());
        }
        let shared = facts::game_facts_read(conn, &self.batch.reads, self.loaded, None)?;
        self.shared = Some(shared.clone());
        Ok(shared)
    }

    /// What `told` reads, if the event is mailed at all.
    fn letter(
        &mut self,
        conn: &mut DbConnection,
        ctx: &MailContext,
        told: &Told<'_>,
        to: &Recipient,
    ) -> Result<Option<ComposedMail>, DbError> {
        let site = facts::site(ctx);
        let loaded = self.loaded;
        let mut game = self.facts(conn, told)?;
        let by = self.by_name;
        Ok(Some(match self.event {
            // A declined draw is told on the streams only: the game simply goes on.
            GameEvent::DrawDeclined { .. } => return Ok(None),
            GameEvent::Challenged { .. } => {
                let expires_at = games::expires_at(&loaded.game).and_utc();
                let changes = games::rating::changes_for(conn, loaded, told.account.id)?;
                // Whoever a program challenges knows it before answering.
                let engine = loaded.seats.iter().any(|(_, a)| a.name == by && a.engine);
                let challenger = if engine {
                    format!("{by} (engine)")
                } else {
                    by.to_owned()
                };
                compose::challenge(&site, to, &game, &challenger, expires_at, changes)
            }
            GameEvent::Accepted { .. } => compose::challenge_accepted(&site, to, &game, by),
            GameEvent::Started { .. } => compose::game_started(&site, to, &game),
            GameEvent::Declined { .. } => compose::challenge_declined(&site, to, &game, by),
            GameEvent::Lapsed => compose::challenge_lapsed(&site, to, &game),
            GameEvent::DrawOffered { .. } => compose::draw_offered(&site, to, &game, by),
            GameEvent::Left { seat, how, .. } if told.category == Category::GameOver => {
                let who = loaded
                    .player_at(seat)
                    .map_or_else(String::new, |a| a.name.clone());
                let next = loaded
                    .game
                    .to_move
                    .map_or_else(String::new, |seat| loaded.playing_name(seat));
                compose::left_game(&site, to, &game, &who, how, &next)
            }
            GameEvent::TakenOver { seat, how, .. } => {
                let who = loaded
                    .player_at(seat)
                    .map_or_else(String::new, |a| a.name.clone());
                compose::bot_took_over(&site, to, &game, &who, how, by)
            }
            GameEvent::Turn | GameEvent::Left { .. } => {
                let dropped = self.batch.reads.dropped_at(
                    conn,
                    loaded.game.id,
                    told.seat,
                    loaded.game.ply,
                )?;
                match dropped {
                    Some(played) => compose::your_turn_after_drop(&site, to, &game, &played),
                    None => compose::your_turn(&site, to, &game),
                }
            }
            GameEvent::GameOver => {
                // The messages that came with the end (a resignation's, a draw's) reach the
                // others.
                game.messages = games::messages::since(conn, loaded, told.account.id, told.seat)?;
                match &self.late {
                    Some(late) => compose::ended_on_time(&site, to, &game, late),
                    None => compose::game_over(&site, to, &game),
                }
            }
        }))
    }
}
