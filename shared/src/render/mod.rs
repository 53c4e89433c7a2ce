mod svg;
mod text;

pub use svg::render_svg;
pub use text::{render_text, TextStyle};
