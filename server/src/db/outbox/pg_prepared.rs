//! The outbox's hot statements on PostgreSQL, written so that diesel keeps each one prepared
//! on its connection: every claim, mark and batch of new rows then costs one execution, not
//! a parse and a plan as well. Diesel never keeps an UPDATE, a raw `sql_query` or a multi-row
//! VALUES list prepared, and those were most of the database's time per turn card
//! (`pg_stat_statements` during the load benchmark: the claim's SELECT planned in 0.32 ms and
//! run in 0.42 ms at every call; a batch of 70 new rows 13.7 ms, its 700 placeholders parsed
//! and planned each time).
//!
//! Each statement is a type with a fixed text: marking and inserting have a static query id
//! (diesel's cache key); the claim, whose text holds its batch size, is kept by its text.

use chrono::NaiveDateTime;
use diesel::pg::Pg;
use diesel::query_builder::{AstPass, Query, QueryFragment, QueryId};
use diesel::sql_types::{Array, BigInt, Integer, Nullable, Text, Timestamp, Untyped};
use diesel::{QueryResult, RunQueryDsl};

use super::{NewOutboxMail, DUE_IDS_SQL};

/// A statement with one text whatever it binds, run on PostgreSQL: its type is its query id,
/// diesel's key for keeping it prepared.
macro_rules! kept_prepared_by_type {
    ($statement:ident) => {
        impl QueryId for $statement<'_> {
            type QueryId = $statement<'static>;
            const HAS_STATIC_QUERY_ID: bool = true;
        }

        impl RunQueryDsl<diesel::PgConnection> for $statement<'_> {}
    };
}

/// Binds each value in turn as its SQL type, with `separator` between them.
macro_rules! bind_separated {
    ($out:ident, $separator:literal, [$first_type:ty => $first:expr, $($type:ty => $value:expr,)*]) => {
        $out.push_bind_param::<$first_type, _>($first)?;
        $(
            $out.push_sql($separator);
            $out.push_bind_param::<$type, _>($value)?;
        )*
    };
}

/// Claims the rows [`DUE_IDS_SQL`] selects (locking them, skipping rows another claimer
/// holds) and leases them to `claimant` until `until`, in one statement; answers the claimed
/// rows (`RETURNING *`, in no particular order).
///
/// The batch size is written into the text (one prepared statement per size; the workers use
/// one): with `LIMIT $2` PostgreSQL's generic plan, which knows no limit, looks far costlier
/// than each custom plan, so it kept planning the statement at every claim (0.36 ms); with
/// the limit known, it settles on the generic plan after five claims.
pub(super) struct ClaimDue<'a> {
    now: NaiveDateTime,
    claimant: &'a str,
    until: NaiveDateTime,
    /// [`claim_statement_sql`], made once: diesel walks the statement several times a call.
    text: String,
}

impl<'a> ClaimDue<'a> {
    pub(super) fn new(
        now: NaiveDateTime,
        limit: i64,
        claimant: &'a str,
        until: NaiveDateTime,
    ) -> Self {
        Self {
            now,
            claimant,
            until,
            text: claim_statement_sql(limit),
        }
    }
}

impl QueryId for ClaimDue<'_> {
    type QueryId = ();
    // Kept prepared by its text, which holds the limit.
    const HAS_STATIC_QUERY_ID: bool = false;
}

impl Query for ClaimDue<'_> {
    type SqlType = Untyped;
}

impl RunQueryDsl<diesel::PgConnection> for ClaimDue<'_> {}

impl QueryFragment<Pg> for ClaimDue<'_> {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        // Diesel numbers the placeholders in the order their values are pushed: each value at
        // its number's first occurrence (in order in the text), its number again after.
        let text = self.text.as_str();
        let mut bound = 0u8;
        let mut rest = text;
        while let Some(at) = rest.find('$') {
            let (before, from_dollar) = rest.split_at(at);
            out.push_sql(before);
            let number = match from_dollar.as_bytes().get(1) {
                Some(b'1') => 1,
                Some(b'2') => 2,
                Some(b'3') => 3,
                _ => 0,
            };
            match number {
                n if n != 0 && n <= bound => out.push_sql(from_dollar.get(..2).unwrap_or_default()),
                1 if bound == 0 => out.push_bind_param::<Timestamp, _>(&self.now)?,
                2 if bound == 1 => out.push_bind_param::<Text, _>(&self.claimant)?,
                3 if bound == 2 => out.push_bind_param::<Timestamp, _>(&self.until)?,
                _ => {
                    return Err(diesel::result::Error::QueryBuilderError(
                        format!("the claim's text has a placeholder out of order: {text}").into(),
                    ))
                }
            }
            bound = bound.max(number);
            rest = from_dollar.get(2..).unwrap_or_default();
        }
        out.push_sql(rest);
        Ok(())
    }
}

/// The claim's text for batches of `limit`: `$1` now, `$2` the claimant, `$3` the end of the
/// lease. The selection's row locks keep the CTE from being inlined: it runs once, first.
#[must_use]
pub fn claim_statement_sql(limit: i64) -> String {
    let selection = DUE_IDS_SQL.replace("$2", &limit.max(0).to_string());
    format!(
        "WITH due AS ({selection} FOR UPDATE OF o SKIP LOCKED) \
         UPDATE mail_outbox m SET claimed_by = $2, lease_until = $3 \
         FROM due WHERE m.id = due.id RETURNING m.*"
    )
}

/// Marks the rows `ids` delivered at `at`, each with one more attempt (see
/// [`super::mark_all_sent`]).
pub(super) struct MarkAllSent<'a> {
    pub at: NaiveDateTime,
    pub ids: &'a [i64],
}

kept_prepared_by_type!(MarkAllSent);

impl QueryFragment<Pg> for MarkAllSent<'_> {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        out.push_sql(
            "UPDATE mail_outbox SET status = 'sent', attempts = attempts + 1, \
             lease_until = NULL, claimed_by = NULL, last_error = NULL, sent_at = ",
        );
        out.push_bind_param::<Timestamp, _>(&self.at)?;
        out.push_sql(" WHERE id = ANY(");
        out.push_bind_param::<Array<BigInt>, _>(&self.ids)?;
        out.push_sql(")");
        Ok(())
    }
}

/// New rows as one statement of ten arrays, one per column (`unnest` zips them back into
/// rows, in order, so ids ascend with the rows as with a VALUES list): the same text for any
/// number of rows.
pub(super) struct InsertRows<'a> {
    message_id: Vec<&'a str>,
    recipient: Vec<&'a str>,
    subject: Vec<&'a str>,
    body_text: Vec<&'a str>,
    in_reply_to: Vec<Option<&'a str>>,
    parts: Vec<Option<&'a str>>,
    status: Vec<&'static str>,
    next_attempt_at: Vec<NaiveDateTime>,
    created_at: Vec<NaiveDateTime>,
    lane: Vec<i32>,
}

impl<'a> InsertRows<'a> {
    pub(super) fn new(rows: &[NewOutboxMail<'a>]) -> Self {
        Self {
            message_id: rows.iter().map(|row| row.message_id).collect(),
            recipient: rows.iter().map(|row| row.recipient).collect(),
            subject: rows.iter().map(|row| row.subject).collect(),
            body_text: rows.iter().map(|row| row.body_text).collect(),
            in_reply_to: rows.iter().map(|row| row.in_reply_to).collect(),
            parts: rows.iter().map(|row| row.parts).collect(),
            status: rows.iter().map(|row| row.status.as_str()).collect(),
            next_attempt_at: rows.iter().map(|row| row.next_attempt_at).collect(),
            created_at: rows.iter().map(|row| row.created_at).collect(),
            lane: rows.iter().map(|row| row.lane).collect(),
        }
    }
}

kept_prepared_by_type!(InsertRows);

impl QueryFragment<Pg> for InsertRows<'_> {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        out.push_sql(
            "INSERT INTO mail_outbox (message_id, recipient, subject, body_text, in_reply_to, \
             parts, status, next_attempt_at, created_at, lane) SELECT * FROM unnest(",
        );
        bind_separated!(out, ", ", [
            Array<Text> => &self.message_id,
            Array<Text> => &self.recipient,
            Array<Text> => &self.subject,
            Array<Text> => &self.body_text,
            Array<Nullable<Text>> => &self.in_reply_to,
            Array<Nullable<Text>> => &self.parts,
            Array<Text> => &self.status,
            Array<Timestamp> => &self.next_attempt_at,
            Array<Timestamp> => &self.created_at,
            Array<Integer> => &self.lane,
        ]);
        out.push_sql(")");
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sql_of(query: &impl QueryFragment<Pg>) -> String {
        let text = diesel::debug_query::<Pg, _>(query).to_string();
        text.split(" -- binds:")
            .next()
            .unwrap_or_default()
            .to_owned()
    }

    #[test]
    fn the_claim_binds_now_once_and_writes_the_limit() {
        let at = chrono::DateTime::from_timestamp(1_800_000_000, 0)
            .unwrap()
            .naive_utc();
        let claim = ClaimDue::new(at, 4, "worker/s0", at);
        let sql = sql_of(&claim);
        assert_eq!(sql, claim_statement_sql(4));
        assert_eq!(sql.matches("$1").count(), 3, "{sql}");
        assert_eq!(sql.matches("$2").count(), 1, "{sql}");
        assert_eq!(sql.matches("$3").count(), 1, "{sql}");
        assert!(!sql.contains("$4"), "{sql}");
        assert!(sql.contains("LIMIT 4 FOR UPDATE OF o SKIP LOCKED"), "{sql}");
        let binds = diesel::debug_query::<Pg, _>(&claim).to_string();
        assert!(
            binds.ends_with(&format!("-- binds: [{at:?}, \"worker/s0\", {at:?}]")),
            "{binds}"
        );
        // Another batch size is another text, so another prepared statement.
        assert!(claim_statement_sql(50).contains("LIMIT 50 "));
    }

    #[test]
    fn new_rows_are_one_text_whatever_their_number() {
        let at = chrono::DateTime::from_timestamp(1_800_000_000, 0)
            .unwrap()
            .naive_utc();
        let row = |id: &'static str| NewOutboxMail {
            message_id: id,
            recipient: "a@example.org",
            subject: "s",
            body_text: "t",
            in_reply_to: None,
            parts: Some("{}"),
            status: super::super::OutboxStatus::Pending,
            next_attempt_at: at,
            created_at: at,
            lane: 1,
        };
        let one = sql_of(&InsertRows::new(&[row("<1@x>")]));
        let three = sql_of(&InsertRows::new(&[
            row("<1@x>"),
            row("<2@x>"),
            row("<3@x>"),
        ]));
        assert_eq!(one, three);
        assert!(
            one.ends_with("unnest($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)"),
            "{one}"
        );
    }
}
