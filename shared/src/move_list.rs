//! The moves of a `--moves` list, one text per move or departure line.

use crate::departure::BOT;
use crate::{departure::Departure, departure::DepartureText};

/// Splits a space-separated list of moves (`--moves "F2-F3 E18-E17"`). Spaces next to a
/// separator belong to the move (`a13-a8, e13-e12` is one Kechi turn; `F3 - E4` one move),
/// and a departure word takes the word after it, its seat (`resign 2` is one line), and a
/// departure line takes a `bot` after it (`resign 2 bot` is one line).
pub fn split_move_list(text: &str) -> Vec<String> {
    const JOINERS: [char; 4] = ['-', ':', ',', '@'];
    let mut moves: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        let joins = moves.last().is_some_and(|last| {
            last.ends_with(JOINERS)
                || last.parse::<Departure>().is_ok()
                // `resign 2 bot`: the bot word belongs to the departure line before it.
                || (word.eq_ignore_ascii_case(BOT)
                    && DepartureText::parse(last).is_ok_and(|line| !line.bot))
        }) || word.starts_with(JOINERS);
        match moves.last_mut() {
            Some(last) if joins => {
                last.push(' ');
                last.push_str(word);
            }
            _ => moves.push(word.to_string()),
        }
    }
    moves
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_lists_split_on_spaces_between_moves_only() {
        assert_eq!(split_move_list(" F2-F3  E18-E17 "), ["F2-F3", "E18-E17"]);
        assert_eq!(
            split_move_list("a13-a8, e13-e12 a1-a5"),
            ["a13-a8, e13-e12", "a1-a5"]
        );
        assert_eq!(split_move_list("F3 - E4 :E7 pass"), ["F3 - E4 :E7", "pass"]);
        assert!(split_move_list("  ").is_empty());
        assert_eq!(
            split_move_list("A5-B6 resign 2 Timeout 3 claim x"),
            ["A5-B6", "resign 2", "Timeout 3", "claim x"]
        );
        assert_eq!(
            split_move_list("A5-B6 resign 2 BOT bot claim 3 bot"),
            ["A5-B6", "resign 2 BOT", "bot", "claim 3 bot"]
        );
    }
}
