//! The queries every durable outbound queue shares (web push's notifications, the webhooks'
//! deliveries): a row per target and event, made at most once (the table's unique key turns a
//! consumer's redo into a no-op), `pending` until a worker has tried it, taken under a lease so
//! that a worker that dies leaves it due again. Written once as a macro because the two queues
//! are different diesel tables with the same columns (`id`, `status`, `next_try_at`).

/// Defines `enqueue`, `next_due_at` and `claim_due` in the calling module for the queue table
/// `$table` (rows `$row`, new rows `$new`). `claimable:` adds a filter on the rows a worker may
/// take (the webhooks: only those of switched-on endpoints).
macro_rules! delivery_queue {
    ($table:ident, $row:ty, $new:ident $(, claimable: $claimable:expr)?) => {
        /// Queues a row unless one for its target and event is queued already (a consumer
        /// redoing events after a crash); answers whether it was queued.
        ///
        /// # Errors
        /// [`DbError::Query`].
        pub fn enqueue(conn: &mut DbConnection, new: &$new<'_>) -> Result<bool, DbError> {
            super::commit_bell::ring_at_commit();
            let added = match conn {
                DbConnection::Pg(pg) => diesel::insert_into($table::table)
                    .values(new.clone())
                    .on_conflict_do_nothing()
                    .execute(pg)?,
                DbConnection::Sqlite(sqlite) => diesel::insert_or_ignore_into($table::table)
                    .values(new.clone())
                    .execute(sqlite)?,
            };
            Ok(added > 0)
        }

        /// When the next pending row is due, if any.
        ///
        /// # Errors
        /// [`DbError::Query`].
        pub fn next_due_at(conn: &mut DbConnection) -> Result<Option<NaiveDateTime>, DbError> {
            Ok($table::table
                .filter($table::status.eq("pending"))
                .select(diesel::dsl::min($table::next_try_at))
                .first::<Option<NaiveDateTime>>(conn)?)
        }

        /// Takes up to `limit` rows due at `now` and holds each until `lease_until` (out of
        /// reach of other workers; one that dies leaves it due again then). Call inside a
        /// write transaction.
        ///
        /// # Errors
        /// [`DbError::Query`].
        pub fn claim_due(
            conn: &mut DbConnection,
            now: NaiveDateTime,
            lease_until: NaiveDateTime,
            limit: i64,
        ) -> Result<Vec<$row>, DbError> {
            // A macro, not a value: `as_select` fixes the backend, and there are two.
            macro_rules! due {
                () => {
                    $table::table
                        .filter($table::status.eq("pending"))
                        .filter($table::next_try_at.le(now))
                        $(.filter($claimable))?
                        .order($table::next_try_at.asc())
                        .limit(limit)
                        .select(<$row>::as_select())
                };
            }
            let rows: Vec<$row> = match conn {
                DbConnection::Pg(pg) => due!().for_update().skip_locked().load(pg)?,
                DbConnection::Sqlite(sqlite) => due!().load(sqlite)?,
            };
            let ids: Vec<i64> = rows.iter().map(|row| row.id).collect();
            if !ids.is_empty() {
                diesel::update($table::table.filter($table::id.eq_any(&ids)))
                    .set($table::next_try_at.eq(lease_until))
                    .execute(conn)?;
            }
            Ok(rows)
        }
    };
}

pub(crate) use delivery_queue;
