mod svg;
mod svg_number;
mod text;

pub use svg::{render_svg, svg_cell_pitch, svg_size};
pub use text::{render_text, TextStyle};
