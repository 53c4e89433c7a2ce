//! Conditional moves: a tree of "if they play X, I play Y" for one seat of a two-player game,
//! checked by the engine move by move along each line, and followed as the opponent moves.
//!
//! A line is a list of moves from the current position, the opponent's first; forced moves
//! (a `pass` that is a seat's only move) are played by the engine between them and never
//! written. Where the owner is to move a line says what they play; where the opponent is to
//! move, lines may branch (one branch per expected move), so the owner has one answer per
//! position.

use crate::{AnyGame, Seat, Status};

/// The most moves a line may hold (plies, both seats counted).
pub const MAX_CONDITIONAL_DEPTH: usize = 12;
/// The most moves a whole tree may hold (each distinct position once).
pub const MAX_CONDITIONAL_NODES: usize = 200;

/// Why a set of conditional lines is refused, naming the line (1-based) and move where it can.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConditionalError {
    /// A line with no moves.
    #[error("line {line} holds no moves")]
    EmptyLine {
        /// The line.
        line: usize,
    },
    /// The owner is to move now: conditional moves start with the opponent's move.
    #[error("it is your turn: play your move first, then give the moves that answer theirs")]
    YourTurn,
    /// The game is not going on.
    #[error("the game is over")]
    GameOver,
    /// A line longer than [`MAX_CONDITIONAL_DEPTH`].
    #[error("line {line} holds {moves} moves; at most {MAX_CONDITIONAL_DEPTH} are allowed")]
    TooDeep {
        /// The line.
        line: usize,
        /// Its length.
        moves: usize,
    },
    /// More than [`MAX_CONDITIONAL_NODES`] moves in the tree.
    #[error("the lines hold more than {MAX_CONDITIONAL_NODES} different moves")]
    TooMany,
    /// The engine refused a move in its line.
    #[error("line {line}, move {index} (`{text}`): {reason}")]
    Illegal {
        /// The line.
        line: usize,
        /// The move's place in the line (1-based).
        index: usize,
        /// The move as written.
        text: String,
        /// The engine's reason.
        reason: String,
    },
    /// A line goes on after the game ended.
    #[error("line {line}: the game is over after move {index}, yet the line goes on")]
    PastTheEnd {
        /// The line.
        line: usize,
        /// The move that ended the game.
        index: usize,
    },
    /// Two lines give different answers in the same position.
    #[error(
        "line {line}, move {index}: you already answer with `{kept}` there (one answer per \
         position); `{text}` is a second one"
    )]
    TwoAnswers {
        /// The line.
        line: usize,
        /// The move's place in the line (1-based).
        index: usize,
        /// The answer an earlier line gives.
        kept: String,
        /// The other answer.
        text: String,
    },
    /// A line that ends with the opponent's move, answering nothing.
    #[error(
        "line {line} ends with your opponent's move `{text}`: add the move you answer it with"
    )]
    EndsWithTheirs {
        /// The line.
        line: usize,
        /// The opponent's last move.
        text: String,
    },
}

/// One move of the tree and the moves that may follow it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Node {
    /// Canonical move text.
    notation: String,
    /// What follows: the opponent's expected moves, or the owner's one answer.
    children: Vec<Node>,
}

/// A seat's conditional moves from one position: the moves that may come next, each with
/// what follows it. Empty when there are none.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ConditionalTree {
    next: Vec<Node>,
}

/// What following the opponent's move through a tree gives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Followed {
    /// The move was expected: the tree below it (its first level is the owner's answer when
    /// the owner is to move).
    Expected(ConditionalTree),
    /// The move was not expected: the tree is dropped.
    Unexpected,
}

impl ConditionalTree {
    /// Checks `lines` for `owner` from `position` (the game as it stands, the opponent to
    /// move) with the engine and merges them into one tree of canonical moves.
    ///
    /// # Errors
    /// A [`ConditionalError`] naming the line and move that fails.
    pub fn build<S: AsRef<str>>(
        position: &AnyGame,
        owner: Seat,
        lines: &[Vec<S>],
    ) -> Result<Self, ConditionalError> {
        match position.status() {
            Status::Ongoing { to_move } if to_move == owner => {
                return Err(ConditionalError::YourTurn)
            }
            Status::Ongoing { .. } => {}
            _ => return Err(ConditionalError::GameOver),
        }
        let mut tree = ConditionalTree::default();
        for (at, line) in lines.iter().enumerate() {
            let number = at + 1;
            if line.is_empty() {
                return Err(ConditionalError::EmptyLine { line: number });
            }
            if line.len() > MAX_CONDITIONAL_DEPTH {
                return Err(ConditionalError::TooDeep {
                    line: number,
                    moves: line.len(),
                });
            }
            let mut here = position.clone();
            let mut level = &mut tree.next;
            let mut last_mover = owner;
            let mut last_text = String::new();
            for (index, text) in line.iter().enumerate() {
                let text = text.as_ref();
                let Status::Ongoing { to_move } = here.status() else {
                    return Err(ConditionalError::PastTheEnd {
                        line: number,
                        index,
                    });
                };
                let (after, canonical) =
                    here.play(text).map_err(|error| ConditionalError::Illegal {
                        line: number,
                        index: index + 1,
                        text: text.to_owned(),
                        reason: error.to_string(),
                    })?;
                here = after.forced_continuation().position;
                let found = level.iter().position(|node| node.notation == canonical);
                let slot = match found {
                    Some(slot) => slot,
                    None => {
                        if to_move == owner {
                            if let Some(kept) = level.first() {
                                return Err(ConditionalError::TwoAnswers {
                                    line: number,
                                    index: index + 1,
                                    kept: kept.notation.clone(),
                                    text: canonical,
                                });
                            }
                        }
                        level.push(Node {
                            notation: canonical.clone(),
                            children: Vec::new(),
                        });
                        level.len() - 1
                    }
                };
                last_mover = to_move;
                last_text = canonical;
                level = &mut level[slot].children;
            }
            if last_mover != owner {
                return Err(ConditionalError::EndsWithTheirs {
                    line: number,
                    text: last_text,
                });
            }
            if tree.size() > MAX_CONDITIONAL_NODES {
                return Err(ConditionalError::TooMany);
            }
        }
        Ok(tree)
    }

    /// Whether the tree holds no moves.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.next.is_empty()
    }

    /// How many moves the tree holds.
    #[must_use]
    pub fn size(&self) -> usize {
        fn count(nodes: &[Node]) -> usize {
            nodes.iter().map(|n| 1 + count(&n.children)).sum()
        }
        count(&self.next)
    }

    /// Every line from the root to a leaf, in the order the lines were given.
    #[must_use]
    pub fn lines(&self) -> Vec<Vec<String>> {
        fn walk(nodes: &[Node], prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
            for node in nodes {
                prefix.push(node.notation.clone());
                if node.children.is_empty() {
                    out.push(prefix.clone());
                } else {
                    walk(&node.children, prefix, out);
                }
                prefix.pop();
            }
        }
        let mut out = Vec::new();
        walk(&self.next, &mut Vec::new(), &mut out);
        out
    }

    /// The tree below the move `played` (canonical text), or [`Followed::Unexpected`].
    #[must_use]
    pub fn follow(self, played: &str) -> Followed {
        match self.next.into_iter().find(|node| node.notation == played) {
            Some(node) => Followed::Expected(ConditionalTree {
                next: node.children,
            }),
            None => Followed::Unexpected,
        }
    }

    /// The owner's answer where the owner is to move: the one move of the first level.
    #[must_use]
    pub fn answer(&self) -> Option<&str> {
        match self.next.as_slice() {
            [one] => Some(&one.notation),
            _ => None,
        }
    }
}
