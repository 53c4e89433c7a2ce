//! What a player wrote in a reply, without what their mail program added: quoted lines (`>`),
//! the "On … wrote:" line and everything after it, Outlook's "-----Original Message-----" and
//! "From: …" header blocks, the signature after `-- `, and the "Sent from my iPhone" line of
//! mobile mail programs.

/// Whether a line opens the quoted original in the common clients' wording: "On <date>,
/// <name> wrote:" (Gmail, Apple Mail, Thunderbird; possibly wrapped over two lines) and a few
/// translations.
fn opens_quote(line: &str, next: Option<&str>) -> bool {
    let lower = line.trim().to_lowercase();
    let starts = ["on ", "le ", "am ", "el ", "op ", "il "];
    let ends = [
        "wrote:",
        "a écrit :",
        "a écrit:",
        "schrieb:",
        "escribió:",
        "schreef:",
        "ha scritto:",
    ];
    if starts.iter().any(|s| lower.starts_with(s)) {
        if ends.iter().any(|e| lower.ends_with(e)) {
            return true;
        }
        // Long "On … wrote:" lines get wrapped by some clients.
        if let Some(next) = next {
            let joined = format!("{lower} {}", next.trim().to_lowercase());
            return ends.iter().any(|e| joined.ends_with(e));
        }
    }
    false
}

/// Whether a line starts Outlook's block that repeats the original's headers.
fn opens_outlook_block(line: &str, next: Option<&str>) -> bool {
    let trimmed = line.trim();
    if trimmed.starts_with("-----Original Message-----")
        || trimmed.starts_with("________________________________")
    {
        return true;
    }
    // "From: Name <…>" followed by "Sent:"/"Date:" is the header block Outlook writes inline.
    let lower = trimmed.to_lowercase();
    (lower.starts_with("from:") || lower.starts_with("de :") || lower.starts_with("von:"))
        && next.is_some_and(|next| {
            let next = next.trim().to_lowercase();
            ["sent:", "date:", "envoyé :", "gesendet:", "to:"]
                .iter()
                .any(|h| next.starts_with(h))
        })
}

/// Whether a line is the signature a mobile mail program adds without a `-- ` separator
/// ("Sent from my iPhone", "Get Outlook for Android").
fn is_mobile_signature(line: &str) -> bool {
    let lower = line.trim().to_lowercase();
    [
        "sent from my ",
        "sent from mail for ",
        "get outlook for ",
        "envoyé de mon ",
        "von meinem ",
        "enviado desde mi ",
    ]
    .iter()
    .any(|start| lower.starts_with(start))
}

/// The lines a player wrote, in order, trimmed, empty ones dropped.
#[must_use]
pub fn written_lines(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        let next = lines.get(index + 1).copied();
        // The signature separator is "-- " (with its space); some clients strip the space.
        if *line == "-- " || *line == "--" {
            break;
        }
        if opens_quote(line, next) || opens_outlook_block(line, next) || is_mobile_signature(line) {
            break;
        }
        let trimmed = line.trim();
        if trimmed.starts_with('>') || trimmed.is_empty() {
            continue;
        }
        out.push(trimmed.to_owned());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_signatures_and_client_headers_are_dropped() {
        let text = "F3-E4\n\nresign\n> your move in Kefren #4\n>> older\n-- \nAnna\nplayer";
        assert_eq!(written_lines(text), ["F3-E4", "resign"]);
        let gmail = "f3:e4:e7\r\n\r\nOn Mon, Nov 23, 2026 at 10:00 AM turnpost <games@example.org> wrote:\r\n> Kefren #4\r\n";
        assert_eq!(written_lines(gmail), ["f3:e4:e7"]);
        let wrapped = "draw offer\nOn Mon, 23 Nov 2026 at 10:00, turnpost <games+abc@example.org>\nwrote:\nR@d4\n";
        assert_eq!(written_lines(wrapped), ["draw offer"]);
        let outlook = "move A5-G11\r\n\r\n-----Original Message-----\r\nFrom: turnpost\r\nR@d4";
        assert_eq!(written_lines(outlook), ["move A5-G11"]);
        let inline = "show\nFrom: turnpost <games@example.org>\nSent: Monday\nSubject: x\nresign";
        assert_eq!(written_lines(inline), ["show"]);
        let french = "help\nLe lun. 23 nov. 2026 à 10:00, turnpost a écrit :\n> x";
        assert_eq!(written_lines(french), ["help"]);
        assert!(written_lines("> only quoted\n\n").is_empty());
        let phone = "E2-E3\n\nSent from my iPhone\n\nOn 24 Nov 2026, at 10:00, turnpost wrote:";
        assert_eq!(written_lines(phone), ["E2-E3"]);
        assert_eq!(written_lines("resign\nGet Outlook for Android"), ["resign"]);
    }

    #[test]
    fn ordinary_lines_that_look_alike_stay() {
        // "From:" without a header block after it, and "on" lines that are not quote headers.
        assert_eq!(
            written_lines("From: me, a move:\nF3-E4\non second thought, show"),
            ["From: me, a move:", "F3-E4", "on second thought, show"]
        );
    }
}
