//! Drawing any game's board: as text for terminals and mail, and as SVG for pages and pictures.

mod svg;
mod svg_number;
mod text;

pub use crate::board_view::{BoardView, CellContent, CellView, LabelView, PieceColour};
pub use crate::counted::counted;
pub use crate::marked_moves::moves_to_mark;
pub use svg::{render_svg, svg_cell_pitch, svg_content_box, svg_size};
pub use text::{render_text, TextStyle};
