//! A list of legal moves for people: every move when there are few; otherwise, for games whose
//! moves have parts (a Kechi turn `a1-a2,e1-b1`), one line per first part with how many moves
//! start with it and one of them, or else a count and the first few. `--all` lists every one.

/// Up to this many moves are listed one per line.
const LISTED: usize = 40;

/// `moves` (sorted) as lines of text; `all`: every move, one per line; `all_hint`: how to ask
/// for every move ("turnpost moves 42 --all").
pub fn move_listing(moves: &[String], all: bool, all_hint: &str) -> String {
    if all || moves.len() <= LISTED {
        return moves.iter().map(|mv| format!("{mv}\n")).collect();
    }
    let mut text = String::new();
    if moves.iter().any(|mv| mv.contains(',')) {
        let mut groups: Vec<(&str, usize, &str)> = Vec::new();
        for mv in moves {
            let first = mv.split(',').next().unwrap_or(mv);
            match groups.last_mut() {
                Some((key, count, _)) if *key == first => *count += 1,
                _ => groups.push((first, 1, mv)),
            }
        }
        // Sorted moves keep a first part's moves together only when it is their first
        // part in the sort order; merge what the sort split.
        let mut merged: Vec<(&str, usize, &str)> = Vec::new();
        for (key, count, example) in groups {
            match merged.iter_mut().find(|(seen, _, _)| *seen == key) {
                Some(entry) => entry.1 += count,
                None => merged.push((key, count, example)),
            }
        }
        let width = merged
            .iter()
            .map(|(key, _, _)| key.len())
            .max()
            .unwrap_or(0);
        text.push_str(&format!(
            "{} legal moves, by their first stone move ({all_hint} lists every one):\n",
            moves.len()
        ));
        for (key, count, example) in merged {
            let line = match count {
                1 => format!("{key:<width$}  1 move: {example}\n"),
                n => format!("{key:<width$}  {n} moves, e.g. {example}\n"),
            };
            text.push_str(&line);
        }
    } else {
        text.push_str(&format!(
            "{} legal moves; the first {LISTED} ({all_hint} lists every one):\n",
            moves.len()
        ));
        for mv in moves.iter().take(LISTED) {
            text.push_str(mv);
            text.push('\n');
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn few_moves_or_all_are_listed_one_per_line() {
        let moves: Vec<String> = ["F2-F3", "G2-G3"].map(String::from).to_vec();
        assert_eq!(move_listing(&moves, false, "--all"), "F2-F3\nG2-G3\n");
        let many: Vec<String> = (0..100).map(|i| format!("m{i:03}")).collect();
        assert_eq!(move_listing(&many, true, "--all").lines().count(), 100);
        let short = move_listing(&many, false, "turnpost moves 7 --all");
        assert!(
            short.starts_with(
                "100 legal moves; the first 40 (turnpost moves 7 --all lists every one):\nm000\n"
            ),
            "{short}"
        );
        assert_eq!(short.lines().count(), 41);
    }

    #[test]
    fn multi_part_moves_are_grouped_by_their_first_part() {
        let mut moves: Vec<String> = Vec::new();
        for first in ["a1-a2", "a1-a3", "e1-e2"] {
            for second in 0..20 {
                moves.push(format!("{first},i1-i{}", second + 2));
            }
        }
        moves.push("m1-m7".into());
        let text = move_listing(&moves, false, "--all");
        assert_eq!(
            text,
            "61 legal moves, by their first stone move (--all lists every one):\n\
             a1-a2  20 moves, e.g. a1-a2,i1-i2\n\
             a1-a3  20 moves, e.g. a1-a3,i1-i2\n\
             e1-e2  20 moves, e.g. e1-e2,i1-i2\n\
             m1-m7  1 move: m1-m7\n"
        );
    }
}
