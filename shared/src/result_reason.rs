//! Why a game ended, as the API shows it and the server stores it.

crate::named_value! {
    noun: "result reason";
    /// Why a game ended (or never started). JSON (and the server's `games.result_reason` column)
    /// writes the lower-case name and reads it in any case.
    pub enum ResultReason {
        /// The engine's rules ended it (a win or a draw on the board).
        Rules = "rules",
        /// A player resigned.
        Resignation = "resignation",
        /// The players agreed a draw.
        Agreement = "agreement",
        /// A seat ran out of time (ended by the server or claimed by another seat).
        Timeout = "timeout",
        /// A player declined the challenge.
        Declined = "declined",
        /// Nobody answered the challenge in time; only shown, never stored (challenges expire
        /// lazily).
        Expired = "expired",
        /// A move made a position stand for the third time: drawn (see
        /// [`crate::play::PositionHistory`]).
        Repetition = "repetition",
        /// The game reached its move limit: drawn.
        MoveLimit = "move_limit",
    }
}

impl ResultReason {
    /// How the result came about, as words that follow "won" or "drawn": " by resignation",
    /// " on time", and nothing for a result on the board.
    #[must_use]
    pub fn after_result(self) -> &'static str {
        match self {
            Self::Rules => "",
            Self::Resignation => " by resignation",
            Self::Agreement => " by agreement",
            Self::Timeout => " on time",
            Self::Declined => " (declined)",
            Self::Expired => " (expired)",
            Self::Repetition => " by repetition",
            Self::MoveLimit => " by the move limit",
        }
    }
}
