//! The prepared-answers panel of the game page (issue 47): for the player of a two-player game
//! who waits, their conditional moves as a small tree (their move → your answer → …), each
//! line removable, all clearable, and new lines added by tapping (their move on the board, then
//! your answer on the board as it would stand) or by typing a whole line.
//!
//! Adding by tapping is two pages: the first offers the opponent's legal moves to the board's
//! picker (the move form's script and field ids; the form itself is `#prepare-form`, as
//! `#move-form` means "your turn" to the page's script) and sends the chosen one as `?if=`;
//! the second shows the position after it, offers your answers the same way, and posts the
//! line.

use maud::{html, Markup, PreEscaped};
use turnpost_shared::api::{ConditionalMoves, GameView};
use turnpost_shared::play::GameStatus;
use turnpost_shared::render::BoardView;
use turnpost_shared::AnyGame;

use percent_encoding::{utf8_percent_encode, NON_ALPHANUMERIC};

use super::board;

/// What the panel shows besides the stored lines: which step of adding by tapping.
#[derive(Debug, Clone)]
pub enum Step {
    /// Choose the opponent's move (on the board or typed).
    TheirMove,
    /// Their move chosen: the position after it, and your answers to choose from.
    YourAnswer {
        /// Their move, canonical.
        theirs: String,
        /// The position after it.
        after: Box<AnyGame>,
    },
    /// Their move as asked is not one they can play: why, and the first step again.
    Refused {
        /// The move as asked.
        asked: String,
        /// Why it cannot be played.
        reason: String,
    },
}

/// The panel's content, read for the page of a waiting player.
#[derive(Debug, Clone)]
pub struct Panel {
    /// The player's conditional moves as they stand.
    pub stored: ConditionalMoves,
    /// The step of adding by tapping.
    pub step: Step,
    /// The forms' CSRF token.
    pub csrf: String,
    /// A stored line being edited (`?edit=`), its moves separated by spaces.
    pub editing: Option<String>,
}

impl Panel {
    /// The position the page's board shows while an answer is chosen, with the move that made
    /// it (to mark on the board).
    #[must_use]
    pub fn hypothetical(&self) -> Option<(&AnyGame, &str)> {
        match &self.step {
            Step::YourAnswer { theirs, after } => Some((after, theirs)),
            _ => None,
        }
    }
}

/// Whether the seat `own` of `view` may prepare answers now: a two-player game being played,
/// the other seat to move, `own` still playing, and no dice rolled each turn.
#[must_use]
pub fn applies(view: &GameView, own: u8) -> bool {
    view.status == GameStatus::Active
        && view.seats.len() == 2
        && view.to_move.is_some_and(|seat| seat != own)
        && !view.departed.contains(&own)
        && view.options.get("total").map(String::as_str) != Some("die")
}

/// The step `asked` (the `?if=` of the page) leads to in `position`, the opponent to move.
#[must_use]
pub fn step_for(position: &AnyGame, asked: Option<&str>) -> Step {
    let Some(asked) = asked.map(str::trim).filter(|text| !text.is_empty()) else {
        return Step::TheirMove;
    };
    match position.play(asked) {
        Ok((after, theirs)) => Step::YourAnswer {
            theirs,
            after: Box::new(after),
        },
        Err(error) => Step::Refused {
            asked: asked.to_owned(),
            reason: error.for_player(asked, None),
        },
    }
}

/// What the page says after an edit (`?prepared=`): one word in the address, the sentence
/// here.
#[must_use]
pub fn confirmation(word: &str) -> Option<&'static str> {
    match word {
        "stored" => Some("Your prepared answer is stored."),
        "removed" => Some("That line of prepared answers is removed."),
        "cleared" => Some("Your prepared answers are cleared."),
        _ => None,
    }
}

/// One move of the tree with the moves that follow it, and the lines (by index) that end on it.
#[derive(Debug, Default)]
struct Node {
    notation: String,
    ends: Vec<usize>,
    below: Vec<Node>,
}

/// The lines as a tree: lines sharing their first moves share those nodes.
fn tree(lines: &[Vec<String>]) -> Vec<Node> {
    let mut roots: Vec<Node> = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        let mut level = &mut roots;
        let mut moves = line.iter().peekable();
        while let Some(mv) = moves.next() {
            let at = match level.iter().position(|node| node.notation == *mv) {
                Some(at) => at,
                None => {
                    level.push(Node {
                        notation: mv.clone(),
                        ..Node::default()
                    });
                    level.len() - 1
                }
            };
            let Some(node) = level.get_mut(at) else {
                break;
            };
            if moves.peek().is_none() {
                node.ends.push(index);
            }
            level = &mut node.below;
        }
    }
    roots
}

/// The panel: the stored lines as a tree with their buttons, and the ways to add one. `id` is
/// the game, `opponent` their name, `view` the board shown (for the picker's cells).
#[must_use]
pub fn panel(
    panel: &Panel,
    game: &GameView,
    position: &AnyGame,
    board_view: &BoardView,
    opponent: &str,
) -> Markup {
    let id = game.id;
    let ply = panel.stored.ply.max(game.ply);
    let lines = &panel.stored.lines;
    let roots = tree(lines);
    html! {
        section #prepared aria-labelledby="prepared-title" {
            h2 #prepared-title { "Prepared answers" }
            p.hint {
                "While you wait, prepare your answers to " (opponent) "'s possible moves: "
                "the moment " (opponent) " plays a move a line expects, your answer is played; any other move drops them all."
            }
            @if roots.is_empty() {
                p.none { "No answers prepared." }
            } @else {
                ul.tree { @for node in &roots { (node_item(node, true, lines, panel, id, ply, opponent)) } }
                form.inline method="post" action={ "/games/" (id) "/conditional/clear" } {
                    input type="hidden" name="csrf" value=(panel.csrf);
                    button.secondary type="submit" { "Clear all prepared answers" }
                }
            }
            (add_by_tapping(panel, game, position, board_view, opponent, ply))
            details.type-line open[panel.editing.is_some()] {
                summary { @if panel.editing.is_some() { "Edit a line" } @else { "Type a whole line" } }
                form.stack method="post" action={ "/games/" (id) "/conditional" } {
                    input type="hidden" name="csrf" value=(panel.csrf);
                    input type="hidden" name="ply" value=(ply);
                    @if let Some(editing) = &panel.editing {
                        input type="hidden" name="replace" value=(editing);
                    }
                    label for="prepared-line" { "Their move, your answer, their next move, … (separated by spaces)" }
                    input #prepared-line type="text" name="line" autocomplete="off"
                        autocapitalize="characters" spellcheck="false" required
                        value=[panel.editing.as_deref()];
                    button.secondary type="submit" { @if panel.editing.is_some() { "Store the changed line" } @else { "Store this line" } }
                }
            }
        }
    }
}

/// One node of the tree with the nodes below it; `theirs` tells whose move it is.
fn node_item(
    node: &Node,
    theirs: bool,
    lines: &[Vec<String>],
    panel: &Panel,
    id: i64,
    ply: u32,
    opponent: &str,
) -> Markup {
    html! {
        li {
            @if theirs { "If " (opponent) " plays " strong { (node.notation) } } @else { "you answer " strong { (node.notation) } }
            @for index in &node.ends {
                @if let Some(line) = lines.get(*index) {
                    " "
                    a.edit href={ "/games/" (id) "?edit=" (utf8_percent_encode(&line.join(" "), NON_ALPHANUMERIC)) "#prepared" }
                        aria-label={ "Edit the line " (line.join(" ")) } { "Edit" }
                    " "
                    form.inline method="post" action={ "/games/" (id) "/conditional/remove" } {
                        input type="hidden" name="csrf" value=(panel.csrf);
                        input type="hidden" name="ply" value=(ply);
                        input type="hidden" name="line" value=(line.join(" "));
                        button.secondary.remove type="submit" aria-label={ "Remove the line " (line.join(" ")) } { "Remove" }
                    }
                }
            }
            @if !node.below.is_empty() {
                ul { @for below in &node.below { (node_item(below, !theirs, lines, panel, id, ply, opponent)) } }
            }
        }
    }
}

/// The two steps of adding a line by tapping, with the move form's field ids so that the
/// page's picker drives them.
fn add_by_tapping(
    panel: &Panel,
    game: &GameView,
    position: &AnyGame,
    board_view: &BoardView,
    opponent: &str,
    ply: u32,
) -> Markup {
    let id = game.id;
    let (legal, refused) = match &panel.step {
        Step::YourAnswer { after, .. } => (after.legal_moves(), None),
        Step::TheirMove => (position.legal_moves(), None),
        Step::Refused { asked, reason } => (position.legal_moves(), Some((asked, reason))),
    };
    let legal_json = board::legal_moves_json(
        match &panel.step {
            Step::YourAnswer { after, .. } => after,
            _ => position,
        },
        board_view,
        &legal,
    );
    let picker = |label: &str, name: &str, button: &str| {
        html! {
            label for="move" { (label) }
            div.move-row {
                input #move type="text" name=(name) list="legal-list" autocomplete="off"
                    autocapitalize="characters" spellcheck="false" required
                    data-what=(label) aria-describedby="move-help";
                button #play type="submit" { (button) }
                button.secondary #clear-pick type="button" hidden { "Clear" }
            }
            p #move-help aria-live="polite" {
                (legal.len()) " moves. Type one, or tap its cells on the board."
            }
            div #move-choices role="group" aria-labelledby="move-help" hidden {}
            datalist #legal-list { @for mv in &legal { option value=(mv) {} } }
        }
    };
    html! {
        h3 { "Prepare an answer" }
        @match &panel.step {
            Step::YourAnswer { theirs, .. } => {
                p.notice role="status" {
                    "If " (opponent) " plays " strong { (theirs) } " (the board shows the position after it): choose your answer. "
                    a href={ "/games/" (id) "#prepared" } { "Choose another move of theirs" }
                }
                @if legal.is_empty() {
                    p { "After " (theirs) " you would have no move to choose: the server plays a forced pass itself. Choose another move of theirs." }
                } @else {
                    form #prepare-form method="post" action={ "/games/" (id) "/conditional" } {
                        input type="hidden" name="csrf" value=(panel.csrf);
                        input type="hidden" name="ply" value=(ply);
                        input type="hidden" name="theirs" value=(theirs);
                        (picker("Your answer", "mine", "Store this answer"))
                    }
                }
            }
            _ => {
                @if let Some((asked, reason)) = refused {
                    p.error role="alert" { (asked) " is not a move " (opponent) " can play: " (reason) }
                }
                form #prepare-form method="get" action={ "/games/" (id) "#prepared" } {
                    (picker("Their move", "if", "Next: your answer"))
                }
            }
        }
        script #legal-moves type="application/json" { (PreEscaped(legal_json)) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(moves: &[&str]) -> Vec<String> {
        moves.iter().map(|m| (*m).to_owned()).collect()
    }

    #[test]
    fn every_word_the_forms_send_has_a_sentence() {
        for word in ["stored", "removed", "cleared"] {
            assert!(confirmation(word).is_some(), "{word}");
        }
        assert!(confirmation("other").is_none());
    }

    #[test]
    fn lines_sharing_a_start_share_its_node_and_each_end_is_kept() {
        let lines = vec![
            line(&["A1-A2", "B1-B2"]),
            line(&["A1-A2", "B1-B2", "C1-C2", "D1-D2"]),
            line(&["A1-A2", "E1-E2"]),
            line(&["F1-F2", "G1-G2"]),
        ];
        let roots = tree(&lines);
        assert_eq!(roots.len(), 2);
        let first = &roots[0];
        assert_eq!(first.notation, "A1-A2");
        assert!(first.ends.is_empty());
        assert_eq!(first.below.len(), 2, "two answers to A1-A2");
        assert_eq!(first.below[0].ends, vec![0]);
        assert_eq!(first.below[0].below[0].below[0].ends, vec![1]);
        assert_eq!(first.below[1].ends, vec![2]);
        assert_eq!(roots[1].below[0].ends, vec![3]);
    }

    #[test]
    fn a_move_they_cannot_play_is_refused_with_the_reason() {
        let game = AnyGame::new(turnpost_shared::GameKind::Kefren, &Default::default()).unwrap();
        assert!(matches!(step_for(&game, None), Step::TheirMove));
        assert!(matches!(step_for(&game, Some("  ")), Step::TheirMove));
        let legal = game.legal_moves();
        let first = legal.first().unwrap();
        match step_for(&game, Some(first)) {
            Step::YourAnswer { theirs, after } => {
                assert_eq!(&theirs, first);
                assert_ne!(after.position_text(), game.position_text());
            }
            other => panic!("{other:?}"),
        }
        match step_for(&game, Some("Z99-Z98")) {
            Step::Refused { asked, reason } => {
                assert_eq!(asked, "Z99-Z98");
                assert!(!reason.is_empty());
            }
            other => panic!("{other:?}"),
        }
    }
}
