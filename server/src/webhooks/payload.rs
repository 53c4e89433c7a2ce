//! What a delivery says: the event as the account's stream shows it, with one line for people
//! and the game's link ([`WebhookPayload`]); every format is written from it.

use turnpost_shared::api::{StreamEvent, StreamEventType, WebhookPayload};

/// The type of a test delivery.
pub const TEST_TYPE: &str = "test";

/// The payload of `event` as told to its reader, `site` being the public base URL.
#[must_use]
pub fn of_event(event: StreamEvent, site: &str) -> WebhookPayload {
    WebhookPayload {
        event: event.event.as_str().to_owned(),
        timestamp: event.at.clone(),
        text: line(&event),
        url: format!("{site}/games/{}", event.game),
        data: Some(event),
    }
}

/// The payload of a test delivery made at `at` (RFC 3339).
#[must_use]
pub fn test(site: &str, at: String) -> WebhookPayload {
    WebhookPayload {
        event: TEST_TYPE.to_owned(),
        timestamp: at,
        text: "A test delivery from turnpost: this webhook works.".to_owned(),
        url: site.to_owned(),
        data: None,
    }
}

/// A short title: what the event is to the reader.
#[must_use]
pub fn title(payload: &WebhookPayload) -> String {
    let Some(event) = &payload.data else {
        return "turnpost: test".to_owned();
    };
    let game = format!("{} #{}", event.kind.title(), event.game);
    match (event.event, event.for_you.as_deref()) {
        (
            StreamEventType::Move | StreamEventType::Started | StreamEventType::Left,
            Some("turn"),
        ) => {
            format!("Your turn: {game}")
        }
        (StreamEventType::Challenge, _) => format!("Challenge: {game}"),
        (StreamEventType::DrawOffer, _) => format!("Draw offer: {game}"),
        (StreamEventType::GameOver, _) => format!("Game over: {game}"),
        _ => game,
    }
}

/// One line for people.
fn line(event: &StreamEvent) -> String {
    let game = format!("{} #{}", event.kind.title(), event.game);
    let by = event.by.as_deref().unwrap_or("someone");
    let yours = event.for_you.as_deref() == Some("turn");
    match event.event {
        StreamEventType::Move => {
            let played = match &event.last_move {
                Some(mv) if event.prepared => format!("{by}'s prepared answer {mv} was played"),
                Some(mv) => format!("{by} played {mv}"),
                None => "the turn passed".to_owned(),
            };
            if yours {
                format!("Your turn in {game}: {played}.")
            } else {
                format!("{game}: {played}.")
            }
        }
        StreamEventType::Challenge => format!("{by} challenges you to {game}."),
        StreamEventType::Accepted => format!("{by} accepted the challenge to {game}."),
        StreamEventType::Started if yours => format!("{game} started: your move."),
        StreamEventType::Started => format!("{game} started."),
        StreamEventType::Declined => format!("{by} declined the challenge to {game}."),
        StreamEventType::DrawOffer => format!("{by} offers a draw in {game}."),
        StreamEventType::DrawDeclined => format!("{by} declined the draw offer in {game}."),
        StreamEventType::Left if yours => format!("A player left {game}: your move."),
        StreamEventType::Left => format!("A player left {game}."),
        StreamEventType::GameOver => match &event.result {
            Some(result) => format!("{game} is over: {result}."),
            None => format!("{game} is over."),
        },
        StreamEventType::Lapsed => format!("The challenge to {game} lapsed: nobody took a seat."),
    }
}
