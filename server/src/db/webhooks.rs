//! Queries on the webhook tables: endpoints, the durable queue of deliveries (one row per
//! endpoint and event, its `webhook-id` fixed at enqueue), the last attempts per endpoint, and
//! the per-channel category switches (`channel_switches`).

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::schema::{channel_switches, webhook_attempts, webhook_deliveries, webhook_endpoints};
use super::{DbConnection, DbError};

/// Attempts kept per endpoint in its delivery log.
pub const ATTEMPTS_KEPT: i64 = 50;

/// A stored endpoint.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = webhook_endpoints)]
pub struct EndpointRow {
    /// Id.
    pub id: i64,
    /// Owner.
    pub account_id: i64,
    /// Where deliveries go.
    pub url: String,
    /// Comma-separated stream event types.
    pub kinds: String,
    /// `standard`, `ntfy`, `discord` or `slack`.
    pub format: String,
    /// `whsec_…`.
    pub secret: String,
    /// ntfy access token.
    pub ntfy_token: Option<String>,
    /// Added.
    pub created_at: NaiveDateTime,
    /// First failure since the last success.
    pub failing_since: Option<NaiveDateTime>,
    /// Switched off.
    pub disabled_at: Option<NaiveDateTime>,
}

/// A new endpoint.
#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = webhook_endpoints)]
pub struct NewEndpoint<'a> {
    /// Owner.
    pub account_id: i64,
    /// URL.
    pub url: &'a str,
    /// Kinds.
    pub kinds: &'a str,
    /// Format.
    pub format: &'a str,
    /// Secret.
    pub secret: &'a str,
    /// ntfy token.
    pub ntfy_token: Option<&'a str>,
    /// Now.
    pub created_at: NaiveDateTime,
}

/// A queued delivery.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = webhook_deliveries)]
pub struct DeliveryRow {
    /// Id.
    pub id: i64,
    /// Endpoint.
    pub endpoint_id: i64,
    /// The event (none: a test).
    pub event_id: Option<i64>,
    /// The `webhook-id`.
    pub webhook_id: String,
    /// The event's type.
    pub event_type: String,
    /// The payload (JSON).
    pub body: String,
    /// Attempts made.
    pub attempts: i32,
    /// When it is due.
    pub next_try_at: NaiveDateTime,
    /// `pending`, `delivered`, `dropped`.
    pub status: String,
}

/// A delivery to queue.
#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = webhook_deliveries)]
pub struct NewDelivery<'a> {
    /// Endpoint.
    pub endpoint_id: i64,
    /// Event (none: a test).
    pub event_id: Option<i64>,
    /// `webhook-id`.
    pub webhook_id: &'a str,
    /// Type.
    pub event_type: &'a str,
    /// Payload.
    pub body: &'a str,
    /// Due.
    pub next_try_at: NaiveDateTime,
    /// `pending`.
    pub status: &'a str,
    /// Now.
    pub created_at: NaiveDateTime,
}

/// One attempt as the log keeps it.
#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = webhook_attempts)]
pub struct AttemptRow {
    /// Endpoint.
    pub endpoint_id: i64,
    /// The delivery's `webhook-id`.
    pub webhook_id: String,
    /// The event's type.
    pub event_type: String,
    /// When.
    pub at: NaiveDateTime,
    /// A 2xx answer.
    pub delivered: bool,
    /// HTTP status.
    pub status: Option<i32>,
    /// Duration.
    pub duration_ms: i64,
    /// Why it failed.
    pub error: Option<String>,
}

/// Adds an endpoint; answers its id.
///
/// # Errors
/// [`DbError::Query`].
pub fn insert_endpoint(conn: &mut DbConnection, new: &NewEndpoint<'_>) -> Result<i64, DbError> {
    if let DbConnection::Pg(pg) = conn {
        return Ok(diesel::insert_into(webhook_endpoints::table)
            .values(new.clone())
            .returning(webhook_endpoints::id)
            .get_result(pg)?);
    }
    diesel::insert_into(webhook_endpoints::table)
        .values(new.clone())
        .execute(conn)?;
    Ok(webhook_endpoints::table
        .filter(webhook_endpoints::account_id.eq(new.account_id))
        .select(diesel::dsl::max(webhook_endpoints::id))
        .first::<Option<i64>>(conn)?
        .unwrap_or(0))
}

/// The account's endpoints, oldest first.
///
/// # Errors
/// [`DbError::Query`].
pub fn endpoints_of(conn: &mut DbConnection, account_id: i64) -> Result<Vec<EndpointRow>, DbError> {
    Ok(webhook_endpoints::table
        .filter(webhook_endpoints::account_id.eq(account_id))
        .order(webhook_endpoints::id.asc())
        .select(EndpointRow::as_select())
        .load(conn)?)
}

/// The switched-on endpoints of the accounts `account_ids`.
///
/// # Errors
/// [`DbError::Query`].
pub fn active_endpoints_of(
    conn: &mut DbConnection,
    account_ids: &[i64],
) -> Result<Vec<EndpointRow>, DbError> {
    Ok(webhook_endpoints::table
        .filter(webhook_endpoints::account_id.eq_any(account_ids))
        .filter(webhook_endpoints::disabled_at.is_null())
        .order(webhook_endpoints::id.asc())
        .select(EndpointRow::as_select())
        .load(conn)?)
}

/// The endpoint `id` if `account_id` owns it.
///
/// # Errors
/// [`DbError::Query`].
pub fn endpoint(
    conn: &mut DbConnection,
    account_id: i64,
    id: i64,
) -> Result<Option<EndpointRow>, DbError> {
    Ok(webhook_endpoints::table
        .find(id)
        .filter(webhook_endpoints::account_id.eq(account_id))
        .select(EndpointRow::as_select())
        .first(conn)
        .optional()?)
}

/// The endpoint `id`, whoever owns it.
///
/// # Errors
/// [`DbError::Query`].
pub fn endpoint_by_id(conn: &mut DbConnection, id: i64) -> Result<Option<EndpointRow>, DbError> {
    Ok(webhook_endpoints::table
        .find(id)
        .select(EndpointRow::as_select())
        .first(conn)
        .optional()?)
}

/// Deletes the endpoint `id` of `account_id` (its deliveries and log with it); answers
/// whether there was one.
///
/// # Errors
/// [`DbError::Query`].
pub fn delete_endpoint(conn: &mut DbConnection, account_id: i64, id: i64) -> Result<bool, DbError> {
    // Children first: SQLite enforces the cascade only with `foreign_keys` on per connection.
    if endpoint(conn, account_id, id)?.is_none() {
        return Ok(false);
    }
    diesel::delete(webhook_deliveries::table.filter(webhook_deliveries::endpoint_id.eq(id)))
        .execute(conn)?;
    diesel::delete(webhook_attempts::table.filter(webhook_attempts::endpoint_id.eq(id)))
        .execute(conn)?;
    diesel::delete(webhook_endpoints::table.find(id)).execute(conn)?;
    Ok(true)
}

/// Replaces the endpoint's secret.
///
/// # Errors
/// [`DbError::Query`].
pub fn set_secret(conn: &mut DbConnection, id: i64, secret: &str) -> Result<(), DbError> {
    diesel::update(webhook_endpoints::table.find(id))
        .set(webhook_endpoints::secret.eq(secret))
        .execute(conn)?;
    Ok(())
}

/// Switches the endpoint on again (a test delivery asked for): no longer failing or off.
///
/// # Errors
/// [`DbError::Query`].
pub fn switch_on(conn: &mut DbConnection, id: i64) -> Result<(), DbError> {
    diesel::update(webhook_endpoints::table.find(id))
        .set((
            webhook_endpoints::disabled_at.eq(None::<NaiveDateTime>),
            webhook_endpoints::failing_since.eq(None::<NaiveDateTime>),
        ))
        .execute(conn)?;
    Ok(())
}

/// Records a success: the endpoint is no longer failing.
///
/// # Errors
/// [`DbError::Query`].
pub fn mark_working(conn: &mut DbConnection, id: i64) -> Result<(), DbError> {
    diesel::update(
        webhook_endpoints::table
            .find(id)
            .filter(webhook_endpoints::failing_since.is_not_null()),
    )
    .set(webhook_endpoints::failing_since.eq(None::<NaiveDateTime>))
    .execute(conn)?;
    Ok(())
}

/// Records a failure at `now`: failing since now unless it already was; answers since when.
///
/// # Errors
/// [`DbError::Query`].
pub fn mark_failing(
    conn: &mut DbConnection,
    id: i64,
    now: NaiveDateTime,
) -> Result<Option<NaiveDateTime>, DbError> {
    diesel::update(
        webhook_endpoints::table
            .find(id)
            .filter(webhook_endpoints::failing_since.is_null()),
    )
    .set(webhook_endpoints::failing_since.eq(Some(now)))
    .execute(conn)?;
    Ok(endpoint_by_id(conn, id)?.and_then(|row| row.failing_since))
}

/// Switches the endpoint off at `now` and drops its pending deliveries; answers whether it
/// was on (so only one process mails its owner).
///
/// # Errors
/// [`DbError::Query`].
pub fn disable(conn: &mut DbConnection, id: i64, now: NaiveDateTime) -> Result<bool, DbError> {
    let changed = diesel::update(
        webhook_endpoints::table
            .find(id)
            .filter(webhook_endpoints::disabled_at.is_null()),
    )
    .set(webhook_endpoints::disabled_at.eq(Some(now)))
    .execute(conn)?;
    diesel::update(
        webhook_deliveries::table
            .filter(webhook_deliveries::endpoint_id.eq(id))
            .filter(webhook_deliveries::status.eq("pending")),
    )
    .set(webhook_deliveries::status.eq("dropped"))
    .execute(conn)?;
    Ok(changed > 0)
}

super::delivery_queue::delivery_queue!(
    webhook_deliveries,
    DeliveryRow,
    NewDelivery,
    claimable: webhook_deliveries::endpoint_id.eq_any(
        webhook_endpoints::table
            .filter(webhook_endpoints::disabled_at.is_null())
            .select(webhook_endpoints::id),
    )
);

/// What one attempt came to, for [`record_attempt`].
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The attempt as the log keeps it.
    pub attempt: AttemptRow,
    /// When to try again (none: delivered).
    pub retry_at: Option<NaiveDateTime>,
}

/// Records an attempt of `delivery`: the delivery delivered or due again, the endpoint's log
/// (its last [`ATTEMPTS_KEPT`]).
///
/// # Errors
/// [`DbError::Query`].
pub fn record_attempt(
    conn: &mut DbConnection,
    delivery: &DeliveryRow,
    outcome: &Outcome,
) -> Result<(), DbError> {
    let attempt = &outcome.attempt;
    let status = if outcome.retry_at.is_some() {
        "pending"
    } else {
        "delivered"
    };
    diesel::update(
        webhook_deliveries::table
            .find(delivery.id)
            .filter(webhook_deliveries::status.eq("pending")),
    )
    .set((
        webhook_deliveries::attempts.eq(delivery.attempts.saturating_add(1)),
        webhook_deliveries::status.eq(status),
        webhook_deliveries::next_try_at.eq(outcome.retry_at.unwrap_or(attempt.at)),
        webhook_deliveries::last_status.eq(attempt.status),
        webhook_deliveries::last_error.eq(attempt.error.as_deref()),
        webhook_deliveries::duration_ms.eq(Some(attempt.duration_ms)),
        webhook_deliveries::delivered_at.eq(outcome.retry_at.is_none().then_some(attempt.at)),
    ))
    .execute(conn)?;
    diesel::insert_into(webhook_attempts::table)
        .values(attempt.clone())
        .execute(conn)?;
    let keep_from: Option<i64> = webhook_attempts::table
        .filter(webhook_attempts::endpoint_id.eq(attempt.endpoint_id))
        .order(webhook_attempts::id.desc())
        .offset(ATTEMPTS_KEPT - 1)
        .select(webhook_attempts::id)
        .first(conn)
        .optional()?;
    if let Some(oldest_kept) = keep_from {
        diesel::delete(
            webhook_attempts::table
                .filter(webhook_attempts::endpoint_id.eq(attempt.endpoint_id))
                .filter(webhook_attempts::id.lt(oldest_kept)),
        )
        .execute(conn)?;
    }
    Ok(())
}

/// The endpoint's last attempts, newest first.
///
/// # Errors
/// [`DbError::Query`].
pub fn attempts_of(conn: &mut DbConnection, endpoint_id: i64) -> Result<Vec<AttemptRow>, DbError> {
    Ok(webhook_attempts::table
        .filter(webhook_attempts::endpoint_id.eq(endpoint_id))
        .order(webhook_attempts::id.desc())
        .limit(ATTEMPTS_KEPT)
        .select(AttemptRow::as_select())
        .load(conn)?)
}

/// The categories `account_ids` switched off for `channel`, as (account, category name).
///
/// # Errors
/// [`DbError::Query`].
pub fn switched_off(
    conn: &mut DbConnection,
    channel: &str,
    account_ids: &[i64],
) -> Result<Vec<(i64, String)>, DbError> {
    Ok(channel_switches::table
        .filter(channel_switches::channel.eq(channel))
        .filter(channel_switches::account_id.eq_any(account_ids))
        .filter(channel_switches::enabled.eq(false))
        .select((channel_switches::account_id, channel_switches::category))
        .load(conn)?)
}

/// Sets one switch of `channel` for an account.
///
/// # Errors
/// [`DbError::Query`].
pub fn set_switch(
    conn: &mut DbConnection,
    account_id: i64,
    channel: &str,
    category: &str,
    enabled: bool,
) -> Result<(), DbError> {
    diesel::delete(channel_switches::table.find((account_id, channel, category))).execute(conn)?;
    diesel::insert_into(channel_switches::table)
        .values((
            channel_switches::account_id.eq(account_id),
            channel_switches::channel.eq(channel),
            channel_switches::category.eq(category),
            channel_switches::enabled.eq(enabled),
        ))
        .execute(conn)?;
    Ok(())
}

/// Whether any endpoint is switched on (none: the consumer only moves its position).
///
/// # Errors
/// [`DbError::Query`].
pub fn any_active(conn: &mut DbConnection) -> Result<bool, DbError> {
    Ok(diesel::select(diesel::dsl::exists(
        webhook_endpoints::table.filter(webhook_endpoints::disabled_at.is_null()),
    ))
    .get_result(conn)?)
}
