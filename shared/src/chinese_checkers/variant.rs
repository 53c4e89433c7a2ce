//! Options and seat layouts (rules: "Players, sets and turn order", "Winning"): which sets each
//! seat plays, where its pegs may rest, and the option values of a game.

use crate::{
    options::OptionError, options::OptionSpec, options::OptionValues, options::RatedValues,
    options::PLAYERS_OPTION, GameKind, Options,
};

use super::points::{opposite, BOARD, POINTS};

const PLAYERS: OptionSpec = OptionSpec {
    key: PLAYERS_OPTION,
    values: OptionValues::OneOf(&["2", "3", "4", "6"]),
    default: "2",
    help: "number of players: 2 (points 1, 4), 3 (1, 3, 5), 4 (1, 3, 4, 6) or 6 (all points)",
    rated: RatedValues::Any,
};
const SETS: OptionSpec = OptionSpec {
    key: "sets",
    values: OptionValues::OneOf(&["1", "2", "3"]),
    default: "1",
    help: "sets each player controls: 1, or 2 with players=3, or 3 with players=2",
    rated: RatedValues::Only(&["1"]),
};
const UNUSED: OptionSpec = OptionSpec {
    key: "unused",
    values: OptionValues::OneOf(&["open", "filled"]),
    default: "open",
    help: "points no set starts in or targets: open (empty and usable) or filled with inert pegs",
    rated: RatedValues::Only(&["open"]),
};
const JUMPS: OptionSpec = OptionSpec {
    key: "jumps",
    values: OptionValues::OneOf(&["short", "long"]),
    default: "short",
    help: "short: hop over an adjacent peg; long (Super Chinese Checkers): over a peg at any \
           distance, landing as far beyond it",
    rated: RatedValues::Only(&["short"]),
};
const ANTI_SPOILING: OptionSpec = OptionSpec {
    key: "anti-spoiling",
    values: OptionValues::OneOf(&["parlett", "none", "swap"]),
    default: "parlett",
    help:
        "parlett: a full target with one own peg is home; none: all ten own pegs; swap: as none, \
           and a peg may swap with another player's peg in its full target",
    rated: RatedValues::Only(&["parlett"]),
};

pub(crate) const OPTION_SPECS: [OptionSpec; 5] = [PLAYERS, SETS, UNUSED, JUMPS, ANTI_SPOILING];

/// When a set is home, and whether the swap move exists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum AntiSpoiling {
    Parlett,
    None,
    Swap,
}

/// Which sets each seat plays, in turn order, and what follows from it.
#[derive(Debug, PartialEq, Eq, Hash)]
pub(crate) struct Layout {
    pub(crate) players: u8,
    pub(crate) sets: u8,
    /// The sets of each seat, as a bit mask over points (bit k: the set starting in point k).
    pub(crate) seat_sets: [u8; POINTS],
    /// The seat playing each set (index: the set's point; 0 and sets not in play unused).
    pub(crate) seat_of_set: [u8; POINTS + 1],
    /// Every set in play, as a bit mask over points.
    pub(crate) in_play: u8,
    /// Points that no set starts in or targets, as a bit mask over points.
    pub(crate) unused: u8,
    /// Where each seat's moves may end (rules: "Resting in other points", 3 or more players).
    pub(crate) rest: [u128; POINTS],
}

const fn points_mask(points: u8) -> u128 {
    let mut holes = 0;
    let mut point = 1;
    while point <= POINTS {
        if points & (1 << point) != 0 {
            holes |= super::points::POINT_MASK[point];
        }
        point += 1;
    }
    holes
}

/// The start and target points of the sets in `sets` (a bit mask over points).
const fn starts_and_targets(sets: u8) -> u8 {
    let mut points = 0;
    let mut point = 1;
    while point <= POINTS {
        if sets & (1 << point) != 0 {
            points |= (1 << point) | (1 << opposite(point));
        }
        point += 1;
    }
    points
}

const fn layout(players: u8, sets: u8, seat_sets: [u8; POINTS]) -> Layout {
    let mut seat_of_set = [0; POINTS + 1];
    let mut in_play = 0;
    let mut seat = 0;
    while seat < players as usize {
        in_play |= seat_sets[seat];
        let mut point = 1;
        while point <= POINTS {
            if seat_sets[seat] & (1 << point) != 0 {
                seat_of_set[point] = seat as u8;
            }
            point += 1;
        }
        seat += 1;
    }
    let used = starts_and_targets(in_play);
    let mut rest = [BOARD; POINTS];
    if players >= 3 {
        let mut seat = 0;
        while seat < players as usize {
            let own = starts_and_targets(seat_sets[seat]);
            let others = starts_and_targets(in_play & !seat_sets[seat]);
            rest[seat] = BOARD & !points_mask(others & !own);
            seat += 1;
        }
    }
    Layout {
        players,
        sets,
        seat_sets,
        seat_of_set,
        in_play,
        unused: 0b111_1110 & !used,
        rest,
    }
}

/// Seats are listed in turn order: clockwise from the seat holding point 1.
const LAYOUTS: [Layout; 6] = [
    layout(2, 1, [1 << 1, 1 << 4, 0, 0, 0, 0]),
    layout(3, 1, [1 << 1, 1 << 3, 1 << 5, 0, 0, 0]),
    layout(4, 1, [1 << 1, 1 << 3, 1 << 4, 1 << 6, 0, 0]),
    layout(6, 1, [1 << 1, 1 << 2, 1 << 3, 1 << 4, 1 << 5, 1 << 6]),
    layout(2, 3, [0b10_1010, 0b101_0100, 0, 0, 0, 0]),
    layout(3, 2, [0b110, 0b1_1000, 0b110_0000, 0, 0, 0]),
];

/// A game variant: the options, checked, with the seat layout they give.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Variant {
    pub(crate) layout: &'static Layout,
    pub(crate) unused_filled: bool,
    pub(crate) long_jumps: bool,
    pub(crate) anti_spoiling: AntiSpoiling,
}

fn conflict(key: &str, value: &str, reason: &str) -> OptionError {
    OptionError::Conflict {
        key: key.to_string(),
        value: value.to_string(),
        reason: reason.to_string(),
    }
}

impl Variant {
    /// The variant of `options`.
    ///
    /// # Errors
    /// An [`OptionError`] for an unknown key, a bad value, a `sets` value the player count does
    /// not take, or `unused=filled` where no point is unused.
    pub(crate) fn from_options(options: &Options) -> Result<Variant, OptionError> {
        options.check_keys(GameKind::ChineseCheckers.name(), &OPTION_SPECS)?;
        let players = options.choice(&PLAYERS)?;
        let sets = options.choice(&SETS)?;
        let unused = options.choice(&UNUSED)?;
        let jumps = options.choice(&JUMPS)?;
        let anti_spoiling = match options.choice(&ANTI_SPOILING)? {
            "none" => AntiSpoiling::None,
            "swap" => AntiSpoiling::Swap,
            _ => AntiSpoiling::Parlett,
        };
        let layout = match (players, sets) {
            ("2", "1") => &LAYOUTS[0],
            ("3", "1") => &LAYOUTS[1],
            ("4", "1") => &LAYOUTS[2],
            ("6", "1") => &LAYOUTS[3],
            ("2", "3") => &LAYOUTS[4],
            ("3", "2") => &LAYOUTS[5],
            (_, "2") => {
                return Err(conflict(
                    "sets",
                    "2",
                    &format!("players={players} (sets=2 is for players=3 only)"),
                ))
            }
            _ => {
                return Err(conflict(
                    "sets",
                    sets,
                    &format!("players={players} (sets=3 is for players=2 only)"),
                ))
            }
        };
        let unused_filled = unused == "filled";
        if unused_filled && layout.unused == 0 {
            let why = if layout.sets > 1 {
                format!("sets={sets}")
            } else {
                format!("players={players}")
            };
            return Err(conflict(
                "unused",
                "filled",
                &format!("{why} (every point is then a start or a target: no point is unused)"),
            ));
        }
        Ok(Variant {
            layout,
            unused_filled,
            long_jumps: jumps == "long",
            anti_spoiling,
        })
    }

    /// Every option with its value, defaults included.
    pub(crate) fn options(&self) -> Options {
        let mut options = Options::new();
        options.set(PLAYERS_OPTION, self.layout.players.to_string());
        options.set("sets", self.layout.sets.to_string());
        options.set("unused", if self.unused_filled { "filled" } else { "open" });
        options.set("jumps", if self.long_jumps { "long" } else { "short" });
        options.set(
            "anti-spoiling",
            match self.anti_spoiling {
                AntiSpoiling::Parlett => "parlett",
                AntiSpoiling::None => "none",
                AntiSpoiling::Swap => "swap",
            },
        );
        options
    }

    pub(crate) fn seat_count(&self) -> usize {
        usize::from(self.layout.players)
    }

    /// The sets of `seat` (0-based), as a bit mask over points.
    pub(crate) fn sets_of(&self, seat: usize) -> u8 {
        self.layout.seat_sets.get(seat).copied().unwrap_or(0)
    }

    /// The seat (0-based) playing `set`.
    pub(crate) fn seat_of(&self, set: usize) -> usize {
        usize::from(self.layout.seat_of_set.get(set).copied().unwrap_or(0))
    }

    /// Whether the set starting in `point` is in play.
    pub(crate) fn in_play(&self, point: usize) -> bool {
        point <= POINTS && self.layout.in_play & (1 << point) != 0
    }

    /// The holes filled with inert pegs at the start (none with `unused=open`).
    pub(crate) fn filled_holes(&self) -> u128 {
        if self.unused_filled {
            points_mask(self.layout.unused)
        } else {
            0
        }
    }

    /// Where a move of `seat` (0-based) may end.
    pub(crate) fn rest_mask(&self, seat: usize) -> u128 {
        self.layout.rest.get(seat).copied().unwrap_or(BOARD)
    }

    /// Where a move of `seat` (0-based) may end once only the sets in `active` (a bit mask over
    /// points) are still played: the points of sets that left are free, as unused points are.
    pub(crate) fn rest_mask_among(&self, seat: usize, active: u8) -> u128 {
        if self.layout.players < 3 {
            return BOARD;
        }
        let own_sets = self.sets_of(seat);
        let own = starts_and_targets(own_sets);
        let others = starts_and_targets(active & !own_sets);
        BOARD & !points_mask(others & !own)
    }
}

/// The sets in a bit mask over points, in point order.
pub(crate) fn sets_in(points: u8) -> impl Iterator<Item = usize> {
    (1..=POINTS).filter(move |point| points & (1 << point) != 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chinese_checkers::points::mask;

    fn variant(pairs: &[&str]) -> Result<Variant, OptionError> {
        Variant::from_options(&Options::from_pairs(pairs).unwrap())
    }

    #[test]
    fn layouts_follow_the_rules() {
        let two = variant(&[]).unwrap();
        assert_eq!((two.sets_of(0), two.sets_of(1)), (1 << 1, 1 << 4));
        assert_eq!(two.layout.unused, 0b110_1100);
        let four = variant(&["players=4"]).unwrap();
        assert_eq!(four.layout.unused, (1 << 2) | (1 << 5));
        let three = variant(&["players=3", "sets=2"]).unwrap();
        assert_eq!(three.seat_of(4), 1);
        assert_eq!(three.layout.unused, 0);
        // Three players: seat 1 (set 1) may rest in points 1 and 4 only.
        let three = variant(&["players=3"]).unwrap();
        assert_eq!(three.rest_mask(0), mask(1) | mask(4) | mask(0));
        // Four players: points 2 and 5 are unused, so free.
        assert_eq!(
            four.rest_mask(0),
            mask(0) | mask(1) | mask(2) | mask(4) | mask(5)
        );
    }

    #[test]
    fn refused_combinations_say_why() {
        for pairs in [
            &["players=3", "unused=filled"][..],
            &["players=6", "unused=filled"],
            &["players=2", "sets=3", "unused=filled"],
            &["players=3", "sets=2", "unused=filled"],
            &["players=2", "sets=2"],
            &["players=4", "sets=3"],
            &["players=6", "sets=2"],
        ] {
            let error = variant(pairs).unwrap_err();
            assert!(matches!(error, OptionError::Conflict { .. }), "{pairs:?}");
        }
        let error = variant(&["players=6", "unused=filled"]).unwrap_err();
        assert!(error.to_string().contains("no point is unused"), "{error}");
        assert!(matches!(
            variant(&["players=5"]),
            Err(OptionError::BadValue { .. })
        ));
        assert!(variant(&["players=4", "unused=filled", "sets=1"]).is_ok());
    }
}
