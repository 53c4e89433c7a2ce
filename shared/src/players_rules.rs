use crate::GameKind;

/// The rules of `kind` written for players (Markdown with small text diagrams): the goal, the
/// board and pieces, a move, every option and the notation with examples. The same text serves
/// `turnpost rules KIND` and the web rules page; its example moves are played by a test.
pub const fn rules_for_players(kind: GameKind) -> &'static str {
    match kind {
        GameKind::Kefren => include_str!("kefren/PLAYING.md"),
        GameKind::Kechi => include_str!("kechi/PLAYING.md"),
        GameKind::SanQi => include_str!("sanqi/PLAYING.md"),
        GameKind::ChineseCheckers => include_str!("chinese_checkers/PLAYING.md"),
    }
}
