//! Queries on the web push tables: the subscriptions (one row per browser, its endpoint
//! unique) and the durable queue of notifications (one row per subscription and event).

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::schema::{push_deliveries, push_subscriptions};
use super::{DbConnection, DbError};

/// Finished deliveries are kept this long (then pruned), to look into.
pub const FINISHED_KEPT: chrono::TimeDelta = chrono::TimeDelta::days(7);

/// A stored subscription.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = push_subscriptions)]
pub struct SubscriptionRow {
    /// Id.
    pub id: i64,
    /// Owner.
    pub account_id: i64,
    /// The push service's URL for the browser.
    pub endpoint: String,
    /// The browser's P-256 public key (base64url).
    pub p256dh: String,
    /// The browser's auth secret (base64url).
    pub auth: String,
    /// Its name in settings.
    pub name: String,
    /// Added.
    pub created_at: NaiveDateTime,
    /// The last notification taken.
    pub last_used: Option<NaiveDateTime>,
}

/// A new subscription.
#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = push_subscriptions)]
pub struct NewSubscription<'a> {
    /// Owner.
    pub account_id: i64,
    /// Its name in settings.
    pub name: &'a str,
    /// Now.
    pub created_at: NaiveDateTime,
    /// The browser's push service URL.
    pub endpoint: &'a str,
    /// The browser's public key.
    pub p256dh: &'a str,
    /// The browser's auth secret.
    pub auth: &'a str,
}

/// A queued notification.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = push_deliveries)]
pub struct DeliveryRow {
    /// Id.
    pub id: i64,
    /// Subscription.
    pub subscription_id: i64,
    /// The event.
    pub event_id: i64,
    /// The notification (JSON).
    pub body: String,
    /// TTL header (seconds).
    pub ttl: i32,
    /// Urgency header.
    pub urgency: String,
    /// Attempts made.
    pub attempts: i32,
    /// When it is due.
    pub next_try_at: NaiveDateTime,
    /// Queued.
    pub created_at: NaiveDateTime,
}

/// A notification to queue.
#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = push_deliveries)]
pub struct NewDelivery<'a> {
    /// Subscription.
    pub subscription_id: i64,
    /// Event.
    pub event_id: i64,
    /// Notification.
    pub body: &'a str,
    /// TTL.
    pub ttl: i32,
    /// Urgency.
    pub urgency: &'a str,
    /// Due.
    pub next_try_at: NaiveDateTime,
    /// `pending`.
    pub status: &'a str,
    /// Now.
    pub created_at: NaiveDateTime,
}

/// Adds a subscription, or gives an existing endpoint to `new`'s account with its new keys
/// (a browser subscribing again, perhaps signed in as someone else); answers its id.
///
/// # Errors
/// [`DbError::Query`].
pub fn upsert(conn: &mut DbConnection, new: &NewSubscription<'_>) -> Result<i64, DbError> {
    let existing: Option<i64> = push_subscriptions::table
        .filter(push_subscriptions::endpoint.eq(new.endpoint))
        .select(push_subscriptions::id)
        .first(conn)
        .optional()?;
    if let Some(id) = existing {
        // Its queue was for the former keys (and perhaps another account).
        diesel::delete(push_deliveries::table.filter(push_deliveries::subscription_id.eq(id)))
            .execute(conn)?;
        diesel::update(push_subscriptions::table.find(id))
            .set((
                push_subscriptions::account_id.eq(new.account_id),
                push_subscriptions::p256dh.eq(new.p256dh),
                push_subscriptions::auth.eq(new.auth),
                push_subscriptions::name.eq(new.name),
                push_subscriptions::created_at.eq(new.created_at),
            ))
            .execute(conn)?;
        return Ok(id);
    }
    diesel::insert_into(push_subscriptions::table)
        .values(new.clone())
        .execute(conn)?;
    Ok(push_subscriptions::table
        .filter(push_subscriptions::endpoint.eq(new.endpoint))
        .select(push_subscriptions::id)
        .first(conn)?)
}

/// The subscriptions of the accounts `account_ids`, oldest first.
///
/// # Errors
/// [`DbError::Query`].
pub fn subscriptions_of_all(
    conn: &mut DbConnection,
    account_ids: &[i64],
) -> Result<Vec<SubscriptionRow>, DbError> {
    Ok(push_subscriptions::table
        .filter(push_subscriptions::account_id.eq_any(account_ids))
        .order(push_subscriptions::id.asc())
        .select(SubscriptionRow::as_select())
        .load(conn)?)
}

/// The subscription `id`, whoever owns it.
///
/// # Errors
/// [`DbError::Query`].
pub fn subscription(conn: &mut DbConnection, id: i64) -> Result<Option<SubscriptionRow>, DbError> {
    Ok(push_subscriptions::table
        .find(id)
        .select(SubscriptionRow::as_select())
        .first(conn)
        .optional()?)
}

/// Deletes the subscription `id` with its queue; `account_id` given: only if it owns it.
/// Answers whether there was one.
///
/// # Errors
/// [`DbError::Query`].
pub fn delete(conn: &mut DbConnection, account_id: Option<i64>, id: i64) -> Result<bool, DbError> {
    let Some(row) = subscription(conn, id)? else {
        return Ok(false);
    };
    if account_id.is_some_and(|owner| owner != row.account_id) {
        return Ok(false);
    }
    // Children first: SQLite enforces the cascade only with `foreign_keys` on per connection.
    diesel::delete(push_deliveries::table.filter(push_deliveries::subscription_id.eq(id)))
        .execute(conn)?;
    diesel::delete(push_subscriptions::table.find(id)).execute(conn)?;
    Ok(true)
}

/// Whether any subscription exists (none: the consumer only moves its position).
///
/// # Errors
/// [`DbError::Query`].
pub fn any(conn: &mut DbConnection) -> Result<bool, DbError> {
    Ok(diesel::select(diesel::dsl::exists(
        push_subscriptions::table.select(push_subscriptions::id),
    ))
    .get_result(conn)?)
}

super::delivery_queue::delivery_queue!(push_deliveries, DeliveryRow, NewDelivery);

/// What one try came to, for [`record`].
#[derive(Debug, Clone)]
pub struct Outcome {
    /// When it was tried.
    pub at: NaiveDateTime,
    /// The push service's status, if it answered.
    pub status: Option<i32>,
    /// Why it failed (none: taken).
    pub error: Option<String>,
    /// `pending` (try again at `retry_at`), `delivered` or `dropped`.
    pub state: &'static str,
    /// When to try again.
    pub retry_at: Option<NaiveDateTime>,
}

/// Records a try of `delivery`; a taken one marks its subscription used.
///
/// # Errors
/// [`DbError::Query`].
pub fn record(
    conn: &mut DbConnection,
    delivery: &DeliveryRow,
    outcome: &Outcome,
) -> Result<(), DbError> {
    diesel::update(
        push_deliveries::table
            .find(delivery.id)
            .filter(push_deliveries::status.eq("pending")),
    )
    .set((
        push_deliveries::attempts.eq(delivery.attempts.saturating_add(1)),
        push_deliveries::status.eq(outcome.state),
        push_deliveries::next_try_at.eq(outcome.retry_at.unwrap_or(outcome.at)),
        push_deliveries::last_status.eq(outcome.status),
        push_deliveries::last_error.eq(outcome.error.as_deref()),
        push_deliveries::delivered_at.eq((outcome.state == "delivered").then_some(outcome.at)),
    ))
    .execute(conn)?;
    if outcome.state == "delivered" {
        diesel::update(push_subscriptions::table.find(delivery.subscription_id))
            .set(push_subscriptions::last_used.eq(Some(outcome.at)))
            .execute(conn)?;
    }
    Ok(())
}

/// Deletes the finished notifications (delivered or dropped) older than [`FINISHED_KEPT`].
///
/// # Errors
/// [`DbError::Query`].
pub fn prune(conn: &mut DbConnection, now: NaiveDateTime) -> Result<usize, DbError> {
    Ok(diesel::delete(
        push_deliveries::table
            .filter(push_deliveries::status.ne("pending"))
            .filter(push_deliveries::created_at.lt(now - FINISHED_KEPT)),
    )
    .execute(conn)?)
}

/// The deliveries of a subscription as (status, attempts, last status), oldest first (for
/// tests and operators looking into one device).
///
/// # Errors
/// [`DbError::Query`].
pub fn deliveries_of(
    conn: &mut DbConnection,
    subscription_id: i64,
) -> Result<Vec<(String, i32, Option<i32>)>, DbError> {
    Ok(push_deliveries::table
        .filter(push_deliveries::subscription_id.eq(subscription_id))
        .order(push_deliveries::id.asc())
        .select((
            push_deliveries::status,
            push_deliveries::attempts,
            push_deliveries::last_status,
        ))
        .load(conn)?)
}
