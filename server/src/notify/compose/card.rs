//! The pieces every game mail is made of: the stable subject, the players, the last move, the
//! board (text and picture) and the move command. The turn card is these pieces in order.

use chrono::{DateTime, Utc};
use turnpost_shared::render::{render_svg, render_text, svg_size, TextStyle};
use turnpost_shared::Seat;

use super::input::{GameFacts, Player, Recipient, Site};
use super::letter::{local_time, Letter};
use crate::mail::{picture, ComposedMail, Drawing, InlineImage};

/// How many legal moves a card lists as examples.
const EXAMPLES: usize = 5;

/// The subject of every mail of a game: the same for the whole game, so clients keep one thread.
#[must_use]
pub fn subject(game: &GameFacts) -> String {
    let names: Vec<&str> = game.players.iter().map(|p| p.name.as_str()).collect();
    let joined = if names.len() == 2 {
        names.join(" vs ")
    } else {
        names.join(", ")
    };
    format!("{}: {joined}", game.title())
}

/// "anna, Black (seat 1)"; in a rated game "anna (1500?), Black (seat 1)".
pub(super) fn player_line(player: &Player) -> String {
    match &player.rating {
        Some(rating) => format!("{} ({rating}), {}", player.name, player.seat_name),
        None => format!("{}, {}", player.name, player.seat_name),
    }
}

/// Every player: "anna, Black (seat 1); bob, White (seat 2)".
pub(super) fn players_line(game: &GameFacts) -> String {
    game.players
        .iter()
        .map(player_line)
        .collect::<Vec<_>>()
        .join("; ")
}

/// Who played the reported moves: "bob, White (seat 2): F3:E4:E7".
pub(super) fn last_moves_line(game: &GameFacts) -> Option<String> {
    if game.last_moves.is_empty() {
        return None;
    }
    let parts: Vec<String> = game
        .last_moves
        .iter()
        .map(|mv| {
            let who = game
                .player(mv.seat)
                .map_or_else(|| format!("seat {}", mv.seat), player_line);
            let how = match (mv.automatic, mv.prepared) {
                (true, _) => " (automatic)",
                (false, true) => " (prepared answer)",
                (false, false) => "",
            };
            format!("{who}: {}{how}", mv.notation)
        })
        .collect();
    Some(parts.join("; then "))
}

/// What the reported moves that were prepared answers (played by the server from their
/// player's conditional moves) say, one sentence each: "bert's prepared answer D3-D4 was
/// played." ("Your prepared answer …" to its own player); `None` when there was none.
pub(super) fn prepared_answers(to: &Recipient, game: &GameFacts) -> Option<String> {
    let own = game.seat_of(&to.name);
    let said: Vec<String> = game
        .last_moves
        .iter()
        .filter(|mv| mv.prepared)
        .map(|mv| {
            let whose = if own == Some(mv.seat) {
                "Your".to_owned()
            } else {
                format!("{}'s", name_at(game, mv.seat))
            };
            format!("{whose} prepared answer {} was played.", mv.notation)
        })
        .collect();
    (!said.is_empty()).then(|| said.join(" "))
}

/// The name of the player at `seat`, or "seat N".
pub(super) fn name_at(game: &GameFacts, seat: u8) -> String {
    game.player(seat)
        .map_or_else(|| format!("seat {seat}"), |p| p.name.clone())
}

/// The other players' messages since the recipient last moved, one paragraph each: "bob
/// wrote, with move 7: your turn, good luck", each further line of it marked `> `. Plain text
/// in both parts: the HTML part escapes it, and no link is made of it.
pub(super) fn messages(letter: &mut Letter, game: &GameFacts) {
    for message in &game.messages {
        let with = match message.action {
            turnpost_shared::api::MessageAction::Move => format!("with move {}", message.ply + 1),
            other => format!("with their {}", other.describe()),
        };
        letter.quoted(&format!("{} wrote, {with}:", message.player), &message.text);
    }
}

/// The deadline row, in the recipient's time zone.
pub(super) fn deadline_text(deadline: DateTime<Utc>, to: &Recipient) -> String {
    local_time(deadline, to.time_zone)
}

/// The board with the reported moves highlighted, once in each part: the picture in the HTML
/// part (its source, with its Content-ID and pixel size), the text drawing (highlighted cells in
/// brackets) in the text part.
pub(super) fn board(letter: &mut Letter, site: &Site, game: &GameFacts) -> InlineImage {
    // Each reported move in its mover's colour (oldest first, so a later move wins a cell).
    let marks: Vec<(Seat, &str)> = game
        .last_moves
        .iter()
        .filter_map(|mv| Seat::new(mv.seat).map(|seat| (seat, mv.notation.as_str())))
        .collect();
    let view = game.position.board_view_with_moves(marks.iter().copied());
    // The picture is queued as its source and drawn when delivered; the drawing itself only
    // where the source would not give the same board.
    let drawing = picture::BoardSource::of(&game.position, &marks, &view).map_or_else(
        || {
            tracing::warn!(
                game_id = game.id,
                ply = game.ply,
                "board source does not redraw the board; queued as SVG"
            );
            Drawing::Svg(render_svg(&view))
        },
        Drawing::Board,
    );
    let (svg_width, svg_height) = svg_size(&view);
    let (width, height, _) = picture::pixel_size(svg_width, svg_height);
    let image = InlineImage {
        content_id: format!("board-{}-{}@{}", game.id, game.ply, site.domain),
        drawing,
        width,
        height,
    };
    let played = match game.ply {
        1 => "1 move".to_owned(),
        n => format!("{n} moves"),
    };
    let alt = format!("{} after {played}", game.title());
    letter.picture(&image.content_id, &alt, image.width, image.height);
    letter.text_pre(&render_text(&view, TextStyle::Marked));
    image
}

/// A move text as a shell word: quoted when it holds anything a shell would read.
fn shell_word(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "@:,.+=/_-".contains(c));
    if plain {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

/// The command that plays `mv` in `game`: `turnpost move 42 --ply 7 F3:E4:E7`.
#[must_use]
pub fn move_command(game: &GameFacts, mv: &str) -> String {
    format!(
        "turnpost move {} --ply {} {}",
        game.id,
        game.ply,
        shell_word(mv)
    )
}

/// A few legal moves spread over the sorted list, the first first.
pub(super) fn examples(moves: &[String]) -> Vec<&str> {
    if moves.len() <= EXAMPLES {
        return moves.iter().map(String::as_str).collect();
    }
    let last = moves.len() - 1;
    let mut picked: Vec<&str> = (0..EXAMPLES)
        .filter_map(|i| moves.get(i * last / (EXAMPLES - 1)).map(String::as_str))
        .collect();
    picked.dedup();
    picked
}

/// "1 legal move", "27 legal moves".
pub(super) fn legal_move_count(count: usize) -> String {
    match count {
        1 => "1 legal move".to_owned(),
        n => format!("{n} legal moves"),
    }
}

/// `count` ("There are 27 legal moves") and `examples` of them (`all`: every one), then the
/// sentence `after`: inline, or one per line with how such a move is written for games whose
/// moves have parts joined by commas (a list of those would not read).
pub(super) fn example_moves(
    letter: &mut Letter,
    game: &GameFacts,
    count: &str,
    (examples, all): (&[&str], bool),
    after: Option<&str>,
) {
    let after = after
        .map(|sentence| format!(" {sentence}"))
        .unwrap_or_default();
    match game.kind().multi_part_move() {
        Some(how) if examples.iter().any(|mv| mv.contains(',')) => {
            let which = if all { "They are" } else { "For example" };
            letter.para(&format!("{count}.{after} {how} {which}:"));
            letter.pre(&examples.join("\n"));
        }
        _ => {
            let lead = if all {
                format!("{count}:")
            } else {
                format!("{count}, for example")
            };
            letter.para_with_moves(&lead, examples, &format!(".{after}"));
        }
    }
}

/// The legal moves and the command to play one.
pub(super) fn how_to_move(letter: &mut Letter, game: &GameFacts) {
    let moves = game.position.legal_moves();
    let examples = examples(&moves);
    let Some(first) = examples.first() else {
        return;
    };
    let count = match moves.len() {
        1 => "There is 1 legal move".to_owned(),
        n => format!("There are {n} legal moves"),
    };
    let all = examples.len() == moves.len();
    example_moves(letter, game, &count, (&examples, all), None);
    letter.command(
        &format!(
            "To play one, paste this command (with the move you choose; --ply {} is the number \
             of moves played so far, so a move is refused if the game has moved on):",
            game.ply
        ),
        &move_command(game, first),
    );
}

/// How to answer by mail: a move on the first line of a reply.
pub(super) fn reply_hint(letter: &mut Letter, game: &GameFacts) {
    let moves = game.position.legal_moves();
    let example = moves.first().map_or("your move", String::as_str);
    letter.para(&format!(
        "Or simply reply to this mail with your move on the first line (for example \
         {example}); a reply may also say resign, draw offer, show, moves or help."
    ));
}

/// The facts of a turn: game, players, last move, whose move, deadline.
pub(super) fn turn_facts(letter: &mut Letter, to: &Recipient, game: &GameFacts) {
    let mut rows = vec![("Game", game.title()), ("Players", players_line(game))];
    if let Some(last) = last_moves_line(game) {
        rows.push(("Last move", last));
    }
    if let Some(seat) = game.to_move() {
        let who = if game.seat_of(&to.name) == Some(seat) {
            "you".to_owned()
        } else {
            name_at(game, seat)
        };
        let seat_name =
            Seat::new(seat).map_or_else(|| format!("seat {seat}"), |s| game.position.seat_name(s));
        rows.push((
            "To move",
            format!("{who}, {seat_name}, move {}", game.ply + 1),
        ));
    }
    if let Some(deadline) = game.deadline {
        rows.push(("Deadline", deadline_text(deadline, to)));
    }
    if let Some(seat) = game.seat_of(&to.name).and_then(Seat::new) {
        rows.push(("Your goal", game.position.goal(seat)));
    }
    letter.facts(&rows);
}

/// A complete turn card for the player to move: `headline` first, then (HTML) one large button
/// to play in the browser, the facts, the board, the legal moves and the command, and (text)
/// the browser link after the command.
pub(super) fn turn_card(
    site: &Site,
    to: &Recipient,
    game: &GameFacts,
    headline: &str,
) -> ComposedMail {
    let mut letter = Letter::to(&to.name);
    letter.para(headline);
    if let Some(prepared) = prepared_answers(to, game) {
        letter.para(&prepared);
    }
    messages(&mut letter, game);
    if let Some(play) = &to.play_url {
        letter.button(
            "Play this move in your browser",
            play,
            "Your personal link: do not share it.",
        );
    }
    turn_facts(&mut letter, to, game);
    let image = Some(board(&mut letter, site, game));
    how_to_move(&mut letter, game);
    if to.reply_to.is_some() {
        reply_hint(&mut letter, game);
    }
    if let Some(play) = &to.play_url {
        letter.text_link(
            "Play in your browser (your personal link: do not share it)",
            play,
        );
    }
    letter.link("The game", &site.game_url(game.id));
    finish(letter, site, to, game, image)
}

/// Wraps a finished game letter into a mail of the game's thread.
pub(super) fn finish(
    letter: Letter,
    site: &Site,
    to: &Recipient,
    game: &GameFacts,
    image: Option<InlineImage>,
) -> ComposedMail {
    let subject = subject(game);
    let (text, html) = letter.finish(&subject, &site.public_url, to.unsubscribe_url.as_deref());
    ComposedMail {
        subject,
        text,
        html: Some(html),
        image,
        thread: Some(site.thread_id(game.id)),
        unsubscribe_url: to.unsubscribe_url.clone(),
        reply_to: to.reply_to.clone(),
        auto_replied: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_words_are_quoted_only_when_needed() {
        assert_eq!(shell_word("F3:E4:E7"), "F3:E4:E7");
        assert_eq!(shell_word("a13-a8,e13-e12"), "a13-a8,e13-e12");
        assert_eq!(shell_word("R@d4"), "R@d4");
        assert_eq!(shell_word("a b"), "'a b'");
        assert_eq!(shell_word("it's"), r"'it'\''s'");
    }

    #[test]
    fn examples_spread_over_the_list() {
        let moves: Vec<String> = (0..100).map(|i| format!("m{i:02}")).collect();
        assert_eq!(examples(&moves), ["m00", "m24", "m49", "m74", "m99"]);
        assert_eq!(examples(&moves[..3]), ["m00", "m01", "m02"]);
        assert!(examples(&[]).is_empty());
    }
}
