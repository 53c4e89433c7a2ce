//! Where a game is in its life, as the API shows it and the server stores it.

crate::named_value! {
    noun: "game status";
    /// A game's status. JSON (and the server's `games.status` column) writes the lower-case name
    /// and reads it in any case.
    pub enum GameStatus {
        /// A challenge waiting for its players.
        Invited = "invited",
        /// Being played.
        Active = "active",
        /// Over: won or drawn.
        Finished = "finished",
        /// Declined or expired before it started.
        Cancelled = "cancelled",
    }
}
