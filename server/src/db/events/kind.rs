//! What happened, as the `game_events.kind` column stores it.

use diesel::expression::AsExpression;
use diesel::sql_types::Text;

turnpost_shared::named_value! {
    noun: "game event kind";
    /// The kind of a stored game event (`crate::games::GameEvent` adds the facts its mail names).
    #[derive(AsExpression, diesel::FromSqlRow)]
    #[diesel(sql_type = Text)]
    pub enum EventKind {
        /// A challenge was made.
        Challenged = "challenged",
        /// A player accepted and others still have to.
        Accepted = "accepted",
        /// The last accept started the game.
        Started = "started",
        /// A player declined.
        Declined = "declined",
        /// The turn passed to the seat to move.
        Turn = "turn",
        /// A draw was offered.
        DrawOffered = "draw_offered",
        /// A draw offer was declined (the game goes on).
        DrawDeclined = "draw_declined",
        /// A seat left a game that goes on.
        Left = "left",
        /// A seat left a game that goes on and the turn passed with it.
        LeftTurnPassed = "left_turn_passed",
        /// A player left and a bot plays the seat on.
        TakenOver = "taken_over",
        /// The game ended.
        GameOver = "game_over",
        /// An open challenge lapsed with a seat nobody took.
        Lapsed = "lapsed",
    }
}

crate::db::text_column!(EventKind);
