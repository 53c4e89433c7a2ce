//! A rating's history as an inline SVG line graph, drawn on the server (no script): one point
//! per rated game, with a title and a description for screen readers, scaling to its box.

use maud::{html, Markup};
use turnpost_shared::api::KindRating;

/// The drawing's size in its own units (it scales to the page's width).
const WIDTH: f64 = 320.0;
const HEIGHT: f64 = 120.0;
const MARGIN: f64 = 8.0;

/// The graph of one kind's rating history, `id` naming its title and description.
#[must_use]
pub fn graph(rating: &KindRating, id: &str) -> Markup {
    let values: Vec<f64> = rating
        .history
        .first()
        .map(|first| f64::from(first.before))
        .into_iter()
        .chain(rating.history.iter().map(|p| f64::from(p.after)))
        .collect();
    let low = values.iter().copied().fold(f64::INFINITY, f64::min);
    let high = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    // A flat history still gets a band around it.
    let (low, high) = if high - low < 50.0 {
        let middle = f64::midpoint(low, high);
        (middle - 25.0, middle + 25.0)
    } else {
        (low, high)
    };
    let as_f64 = |n: usize| f64::from(u32::try_from(n).unwrap_or(u32::MAX));
    let steps = as_f64(values.len().saturating_sub(1).max(1));
    let mut points = String::new();
    for (index, value) in values.iter().enumerate() {
        let x = MARGIN + (WIDTH - 2.0 * MARGIN) * as_f64(index) / steps;
        let y = MARGIN + (HEIGHT - 2.0 * MARGIN) * (high - value) / (high - low);
        points.push_str(&format!("{x:.1},{y:.1} "));
    }
    let first = values.first().copied().unwrap_or_default();
    let last = values.last().copied().unwrap_or_default();
    let title_id = format!("{id}-title");
    let desc_id = format!("{id}-desc");
    html! {
        svg.rating-graph viewBox={ "0 0 " (WIDTH) " " (HEIGHT) } role="img"
            aria-labelledby={ (title_id) " " (desc_id) } width="100%" preserveAspectRatio="none" {
            title id=(title_id) { (rating.kind) " rating history" }
            desc id=(desc_id) {
                "From " (first) " to " (last) " over " (rating.games) " rated games; lowest "
                (low.round()) ", highest " (high.round()) "."
            }
            rect x="0" y="0" width=(WIDTH) height=(HEIGHT) fill="none" stroke="currentColor" stroke-opacity="0.2" {}
            polyline points=(points.trim_end()) fill="none" stroke="currentColor" stroke-width="2" {}
        }
    }
}
