//! A rating's history as an inline SVG line graph, drawn on the server (no script): one point
//! per rated game, a rating axis and a date axis, the current rating's band (± its
//! deviation), with a title and a description for screen readers, scaling to its box.

use maud::{html, Markup};
use turnpost_shared::api::KindRating;

/// The drawing's size in its own units (it scales to the page's width, keeping its shape so
/// that the labels are not stretched).
const WIDTH: f64 = 360.0;
const HEIGHT: f64 = 180.0;
/// Room for the rating labels on the left, the date labels below.
const LEFT: f64 = 40.0;
const RIGHT: f64 = 14.0;
const TOP: f64 = 10.0;
const BOTTOM: f64 = 24.0;

/// "2026-11-29T15:29:00Z" as "29 Nov 2026"; anything unreadable as its date part.
fn day(at: &str) -> String {
    chrono::DateTime::parse_from_rfc3339(at).map_or_else(
        |_| at.chars().take(10).collect(),
        |time| time.format("%-d %b %Y").to_string(),
    )
}

/// The graph of one kind's rating history: `name` is the kind as players say it, `id` names
/// the graph's title and description.
#[must_use]
pub fn graph(rating: &KindRating, name: &str, id: &str) -> Markup {
    let values: Vec<f64> = rating
        .history
        .first()
        .map(|first| f64::from(first.before))
        .into_iter()
        .chain(rating.history.iter().map(|p| f64::from(p.after)))
        .collect();
    let last = values.last().copied().unwrap_or(f64::from(rating.rating));
    let first = values.first().copied().unwrap_or(last);
    let deviation = f64::from(rating.deviation.max(0));
    // The band of the rating now: the scale reaches it, so that it is drawn whole.
    let (band_low, band_high) = (last - deviation, last + deviation);
    let low = values.iter().copied().fold(band_low, f64::min);
    let high = values.iter().copied().fold(band_high, f64::max);
    // A flat history still gets some room around it.
    let (low, high) = if high - low < 50.0 {
        let middle = f64::midpoint(low, high);
        (middle - 25.0, middle + 25.0)
    } else {
        (low, high)
    };
    let as_f64 = |n: usize| f64::from(u32::try_from(n).unwrap_or(u32::MAX));
    let steps = as_f64(values.len().saturating_sub(1).max(1));
    let plot_width = WIDTH - LEFT - RIGHT;
    let plot_height = HEIGHT - TOP - BOTTOM;
    let x_of = |index: usize| LEFT + plot_width * as_f64(index) / steps;
    let y_of = |value: f64| TOP + plot_height * (high - value) / (high - low);
    let mut points = String::new();
    for (index, value) in values.iter().enumerate() {
        points.push_str(&format!("{:.1},{:.1} ", x_of(index), y_of(*value)));
    }
    let ticks = [high, f64::midpoint(low, high), low];
    let bottom = TOP + plot_height;
    let right = LEFT + plot_width;
    let from = rating.history.first().map(|p| day(&p.at));
    let to = rating.history.last().map(|p| day(&p.at));
    let last_x = x_of(values.len().saturating_sub(1));
    let title_id = format!("{id}-title");
    let desc_id = format!("{id}-desc");
    html! {
        svg.rating-graph viewBox={ "0 0 " (WIDTH) " " (HEIGHT) } role="img"
            aria-labelledby={ (title_id) " " (desc_id) } width="100%" {
            title id=(title_id) { (name) " rating history" }
            desc id=(desc_id) {
                "From " (first) " to " (last) " over "
                (turnpost_shared::render::counted(rating.games, "rated game", "rated games"))
                @if let (Some(from), Some(to)) = (&from, &to) { ", " (from) " to " (to) }
                "; lowest " (values.iter().copied().fold(last, f64::min).round())
                ", highest " (values.iter().copied().fold(last, f64::max).round())
                ". The rating now is " (rating.rating) " ± " (rating.deviation)
                " (the shaded band)."
            }
            // The rating now ± its deviation: the history holds no past deviations, so
            // the band is drawn at the last point.
            rect.band x={ (format!("{:.1}", last_x - 6.0)) } y={ (format!("{:.1}", y_of(band_high))) }
                width="12" height={ (format!("{:.1}", y_of(band_low) - y_of(band_high))) }
                fill="currentColor" fill-opacity="0.15" {}
            g.axis font-size="11" fill="currentColor" {
                @for tick in ticks {
                    line x1=(LEFT) x2=(right) y1={ (format!("{:.1}", y_of(tick))) } y2={ (format!("{:.1}", y_of(tick))) }
                        stroke="currentColor" stroke-opacity="0.15" {}
                    text x={ (LEFT - 4.0) } y={ (format!("{:.1}", y_of(tick) + 4.0)) } text-anchor="end" { (tick.round()) }
                }
                line x1=(LEFT) x2=(LEFT) y1=(TOP) y2=(bottom) stroke="currentColor" stroke-opacity="0.5" {}
                line x1=(LEFT) x2=(right) y1=(bottom) y2=(bottom) stroke="currentColor" stroke-opacity="0.5" {}
                @if let Some(from) = &from { text x=(LEFT) y={ (bottom + 16.0) } text-anchor="start" { (from) } }
                @if let Some(to) = to.as_ref().filter(|to| Some(*to) != from.as_ref()) {
                    text x=(right) y={ (bottom + 16.0) } text-anchor="end" { (to) }
                }
            }
            polyline points=(points.trim_end()) fill="none" stroke="currentColor" stroke-width="2" {}
        }
    }
}
