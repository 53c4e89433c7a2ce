//! How the engine commands describe a position's status for people.

use turnpost_shared::{AnyGame, Seat, Status};

/// "Black (seat 1) to move", "White (seat 2) won", with scores where the game keeps them, the
/// seats that have left and, once the game is over, every seat's place.
pub fn describe_status(game: &AnyGame) -> String {
    let mut text = match game.status() {
        Status::Ongoing { to_move } => format!("{} to move", game.seat_name(to_move)),
        Status::Won { winners } => {
            let names: Vec<String> = winners.iter().map(|seat| game.seat_name(*seat)).collect();
            format!("{} won", names.join(" and "))
        }
        Status::Draw => "draw".to_string(),
    };
    if let Some(scores) = game.scores() {
        let scores: Vec<String> = scores
            .iter()
            .enumerate()
            .map(|(index, score)| {
                let seat = Seat::from_index(index);
                format!("{} {score}", game.seat_name(seat))
            })
            .collect();
        text.push_str(&format!("; scores: {}", scores.join(", ")));
    }
    let departed = game.departed();
    if !departed.is_empty() {
        let names: Vec<String> = departed.iter().map(|seat| game.seat_name(*seat)).collect();
        text.push_str(&format!("\nleft (in order): {}", names.join(", ")));
    }
    if let Some(places) = game.placings() {
        let mut seats: Vec<(u8, Seat)> = (0..)
            .zip(places)
            .map(|(index, place)| (place, Seat::from_index(index)))
            .collect();
        seats.sort();
        let places: Vec<String> = seats
            .iter()
            .map(|(place, seat)| format!("{place}. {}", game.seat_name(*seat)))
            .collect();
        text.push_str(&format!("\nplaces: {}", places.join(", ")));
    }
    text
}
