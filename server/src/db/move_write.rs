//! A move's writes — its rows in `moves`, the game's new state, the event that queues its mail
//! — and the read of the game's last moves for the answer, in one statement on PostgreSQL.
//!
//! Why one statement: a move is a handful of tiny statements, and each costs a round trip to
//! the server (a wake-up on both sides) far more than its work. Data-modifying `WITH` clauses
//! run exactly once whatever the main query reads, all in the statement's snapshot, so the
//! main query sees the moves from before the statement, and the new ones are added here. The
//! statement is built from diesel's own fragments (its bind types and column lists), and is
//! the same text for every move, so PostgreSQL keeps it prepared (diesel never prepares an
//! `UPDATE` of its own). SQLite, in-process, runs the same writes one by one.

use diesel::pg::Pg;
use diesel::prelude::*;
use diesel::query_builder::{AsChangeset, AstPass, Query, QueryFragment, QueryId};

use super::events::NewGameEvent;
use super::games::GameState;
use super::games::MoveRow;
use super::schema::{game_events, games, moves};
use super::{DbConnection, DbError};

/// Writes `played` (the move and any forced moves after it, in order), the game's new `state`
/// and its `event` row; answers the game's last `last` moves, first first, the new ones
/// included.
///
/// # Errors
/// [`DbError::Query`] (a unique violation when a concurrent writer took the ply).
pub fn write_move(
    conn: &mut DbConnection,
    game_id: i64,
    played: &[MoveRow],
    state: &GameState,
    event: &NewGameEvent<'_>,
    last: i64,
) -> Result<Vec<MoveRow>, DbError> {
    // The event wakes the log's consumers once the move commits.
    super::commit_bell::ring_at_commit();
    let mut earlier = match (&mut *conn, played) {
        (DbConnection::Pg(pg), [one]) => WritesThenRead {
            writes: (
                diesel::insert_into(moves::table).values(one),
                UpdateGame {
                    changeset: state.clone().as_changeset(),
                    id: games::id.eq(game_id),
                },
                diesel::insert_into(game_events::table).values(event.clone()),
            ),
            read: moves::table
                .filter(moves::game_id.eq(game_id))
                .order(moves::ply.desc())
                .limit(last)
                .select(MoveRow::as_select()),
        }
        .load::<MoveRow>(pg)?,
        _ => {
            for row in played {
                super::games::insert_move(conn, row)?;
            }
            super::games::save(conn, game_id, state)?;
            super::events::insert(conn, event)?;
            return super::games::last_moves(conn, game_id, last);
        }
    };
    earlier.reverse();
    earlier.extend(played.iter().cloned());
    let keep = usize::try_from(last).unwrap_or(0);
    let skip = earlier.len().saturating_sub(keep);
    Ok(earlier.split_off(skip))
}

/// `UPDATE games SET <changeset> WHERE <id>`, preparable (diesel's own update statement marks
/// itself never to be prepared, for changesets whose columns vary; this one's do not).
struct UpdateGame<C, W> {
    changeset: C,
    id: W,
}

impl<C, W> QueryFragment<Pg> for UpdateGame<C, W>
where
    C: QueryFragment<Pg>,
    W: QueryFragment<Pg>,
{
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        out.push_sql("UPDATE ");
        out.push_identifier("games")?;
        out.push_sql(" SET ");
        self.changeset.walk_ast(out.reborrow())?;
        out.push_sql(" WHERE ");
        self.id.walk_ast(out.reborrow())
    }
}

/// `WITH w0 AS (<write>), w1 AS (<write>), w2 AS (<write>) <read>`.
struct WritesThenRead<A, B, C, R> {
    writes: (A, B, C),
    read: R,
}

impl<A, B, C, R> QueryFragment<Pg> for WritesThenRead<A, B, C, R>
where
    A: QueryFragment<Pg>,
    B: QueryFragment<Pg>,
    C: QueryFragment<Pg>,
    R: QueryFragment<Pg>,
{
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        out.push_sql("WITH w0 AS (");
        self.writes.0.walk_ast(out.reborrow())?;
        out.push_sql("), w1 AS (");
        self.writes.1.walk_ast(out.reborrow())?;
        out.push_sql("), w2 AS (");
        self.writes.2.walk_ast(out.reborrow())?;
        out.push_sql(") ");
        self.read.walk_ast(out.reborrow())
    }
}

// No static query id: diesel keys the prepared statement by its SQL text, which is the same
// for every move (and would differ, safely, if a part ever varied).
impl<A, B, C, R> QueryId for WritesThenRead<A, B, C, R> {
    type QueryId = ();
    const HAS_STATIC_QUERY_ID: bool = false;
}

impl<A, B, C, R: Query> Query for WritesThenRead<A, B, C, R> {
    type SqlType = R::SqlType;
}

impl<A, B, C, R> RunQueryDsl<diesel::PgConnection> for WritesThenRead<A, B, C, R> {}
