//! The challenge option `on-leave`: what becomes of a seat whose player leaves (resigns, runs
//! out of time, loses by a claim) a game of three or more seats still playing.

crate::named_value! {
    noun: "on-leave rule";
    /// `remove` (the default): the seat's pegs leave the board and play goes on without it.
    /// `bot`: a server bot takes the seat over with its pegs and plays on; the player who left is
    /// still named, and placed as a seat that left. With two seats playing, leaving ends the game
    /// either way.
    #[derive(Default)]
    pub enum OnLeave {
        /// The seat leaves the board.
        #[default]
        Remove = "remove",
        /// A server bot plays the seat on.
        Bot = "bot",
    }
}
