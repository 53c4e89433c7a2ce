//! The fonts board pictures are drawn with: one sans-serif family of the system's, read once.

use std::sync::{Arc, LazyLock};

use resvg::usvg;

/// The family the renderer asks for first.
const PREFERRED_FAMILY: &str = "DejaVu Sans";

/// One sans-serif family of the system's fonts, regular faces only, held in memory: read once
/// per process (scanning the font directories and reading font files on every picture would
/// cost more than drawing it).
pub(super) static SYSTEM_FONTS: LazyLock<Arc<usvg::fontdb::Database>> = LazyLock::new(|| {
    let mut system = usvg::fontdb::Database::new();
    system.load_system_fonts();
    let fonts = regular_faces_in_memory(&system);
    tracing::debug!(faces = fonts.len(), "fonts loaded for board pictures");
    Arc::new(fonts)
});

/// The regular faces of the preferred family (else of the first family with "Sans" in its
/// name, else of any family), read into memory; the generic `sans-serif` maps to it.
fn regular_faces_in_memory(system: &usvg::fontdb::Database) -> usvg::fontdb::Database {
    use usvg::fontdb::{Source, Stretch, Style, Weight};
    let families: Vec<&str> = system
        .faces()
        .flat_map(|face| face.families.iter().map(|(name, _)| name.as_str()))
        .collect();
    let chosen = families
        .iter()
        .find(|name| **name == PREFERRED_FAMILY)
        .or_else(|| families.iter().find(|name| name.contains("Sans")))
        .or_else(|| families.first())
        .map(|name| (*name).to_owned());
    let mut fonts = usvg::fontdb::Database::new();
    let Some(family) = chosen else {
        return fonts;
    };
    let mut read: Vec<&std::path::Path> = Vec::new();
    for face in system.faces() {
        let regular = face.style == Style::Normal
            && face.weight == Weight::NORMAL
            && face.stretch == Stretch::Normal;
        if !regular || !face.families.iter().any(|(name, _)| *name == family) {
            continue;
        }
        if let Source::File(path) = &face.source {
            if read.contains(&path.as_path()) {
                continue;
            }
            read.push(path);
            match std::fs::read(path) {
                Ok(data) => fonts.load_font_data(data),
                Err(error) => tracing::warn!(path = %path.display(), %error, "font not readable"),
            }
        }
    }
    fonts.set_sans_serif_family(family);
    fonts
}
