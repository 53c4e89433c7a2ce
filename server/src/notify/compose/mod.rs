//! Composers: one function per message kind, each a pure function of plain data
//! ([`Site`], [`Recipient`], [`GameFacts`] and a few values) returning a [`ComposedMail`].
//!
//! Every mail about a game belongs to the game's thread (stable [`subject`], `References` to
//! [`Site::thread_id`]) and shows the board, as text and, for turn cards, as an inline PNG.
//! Turn cards end with the exact command to paste ([`move_command`]).
//!
//! | kind | composer |
//! |---|---|
//! | a challenge for you | [`challenge`] |
//! | challenge accepted / declined | [`challenge_accepted`], [`challenge_declined`] |
//! | an open challenge lapsed, nobody took its seat | [`challenge_lapsed`] |
//! | game started (turn card for the first mover) | [`game_started`] |
//! | your turn (the turn card) | [`your_turn`], [`your_turn_after_drop`] |
//! | reminder before the deadline | [`reminder`] |
//! | draw offered | [`draw_offered`] |
//! | game over | [`game_over`] |
//! | a seat left a game that goes on (3+ seats) | [`left_game`] |
//! | a player left and a bot plays the seat on (`on-leave=bot`) | [`bot_took_over`] |
//! | you may claim a win on time / game ended on time | [`may_claim_on_time`], [`ended_on_time`] |
//! | daily digest | [`digest`] |
//! | the answer to a reply with commands | [`mail_answer`] |
//! | a sign-in code / a sign-up with a verified address | [`sign_in_code`], [`sign_up_attempt`] |

mod account;
mod answer;
mod card;
mod challenge;
mod digest;
mod ending;
mod input;
mod letter;
mod turn;

pub use account::{sign_in_code, sign_up_attempt};
pub use answer::{mail_answer, MailAnswer, Refusal, HELP};
pub use card::{move_command, subject};
pub use challenge::{
    challenge, challenge_accepted, challenge_declined, challenge_lapsed, game_started,
};
pub use digest::digest;
pub use ending::{
    bot_took_over, draw_offered, ended_on_time, game_over, left_game, may_claim_on_time,
};
pub use input::{GameFacts, PlayedMove, Player, Recipient, Site};
pub use letter::{escape, local_time};
pub use turn::{reminder, your_turn, your_turn_after_drop};
