//! The status column of `mail_outbox` as a type: stored as the text `pending`, `sent` or
//! `dead` (the column's CHECK constraint), read back into [`OutboxStatus`]; an unknown text is
//! a deserialisation error, not a silently wrong status.

use diesel::deserialize::FromSqlRow;
use diesel::expression::AsExpression;
use diesel::sql_types::Text;

turnpost_shared::named_value! {
    noun: "mail status";
    /// Where a queued mail stands.
    #[derive(AsExpression, FromSqlRow)]
    #[diesel(sql_type = Text)]
    pub enum OutboxStatus {
        /// Waiting to be delivered (first attempt or a retry).
        Pending = "pending",
        /// Delivered to the relay.
        Sent = "sent",
        /// Given up on (refused for good, or too many failed attempts).
        Dead = "dead",
    }
}

crate::db::text_column!(OutboxStatus);
