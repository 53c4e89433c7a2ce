//! A palette PNG: one byte a pixel instead of four, so less to filter and to compress.
//!
//! Written here rather than by the `png` crate's encoder, with the same compressor
//! (`fdeflate`, the crate's `Compression::Fast`): the filter is one pass fused with the copy
//! into the compressor's input, and the file is assembled in one buffer. A card's picture is
//! encoded for every turn card; with `png` 0.17 these copies were a fifth of its cost.
//!
//! Measured against `png` 0.18 writing the same 180 turn-card pictures (9 boards, 20 positions
//! each) with the same choices, `cargo bench -p turnpost-server --bench hand_written`
//! (2026-11-28, 2-core machine loaded by other builds, load average 5; best of 5 rounds):
//!
//! | encoder | µs a card | kB a card |
//! |---|---|---|
//! | ours: "up", `fdeflate` | 325.9, 325.8 | 19.41 |
//! | `png`: `Filter::Up`, `Compression::Fast` | 315.6, 249.0 | 19.65 |
//! | `png`: `Filter::Adaptive`, `Compression::Fast` | 480.6, 658.5 | 18.13 |
//! | `png`: `Filter::Up`, `Compression::Balanced` | 4868.3, 5304.6 | 15.84 |
//!
//! So `png` 0.18 is now as fast (two runs: 3% and 24% faster, within this machine's noise),
//! and its files are 1.2% larger: kept for the smaller mail, and because the tests below check
//! every index and colour through the crate's decoder. Should the crate also match the size,
//! this function becomes a call to its encoder (and `fdeflate` and `crc32fast` leave the
//! dependencies); its adaptive filter is smaller still but twice the time, and its default
//! compression 15 times.

use super::PictureError;

/// The PNG file signature.
const SIGNATURE: &[u8; 8] = b"\x89PNG\r\n\x1a\n";
/// Colour type 3: palette indices.
const INDEXED: u8 = 3;
/// Filter type 2, "up": each byte minus the one above it.
const FILTER_UP: u8 = 2;
/// Entries of a PNG palette at most.
const PALETTE_SIZE: usize = 256;

/// Encodes `indices` (one palette index a pixel, row by row) with `palette` (RGBA, not
/// premultiplied; the opacities go into a `tRNS` chunk when any is below 255).
///
/// Every row is filtered "up". Palette indices are not numbers on a scale, so no filter
/// predicts them as a gradient; but the fast compressor only finds runs of zeros, and "up"
/// turns every pixel that matches the one above it (most of a board: background, straight
/// edges, a cell drawn like the one above) into a zero: a card is about 40% smaller than
/// unfiltered, for no more time.
///
/// # Errors
/// [`PictureError::Png`] if the sizes do not match or the palette is empty or holds more than
/// 256 colours; [`PictureError::Size`] for a picture without pixels.
pub(super) fn encode_indexed(
    indices: &[u8],
    width: u32,
    height: u32,
    palette: &[[u8; 4]],
) -> Result<Vec<u8>, PictureError> {
    let (Ok(columns), Ok(rows)) = (usize::try_from(width), usize::try_from(height)) else {
        return Err(PictureError::Size(width, height));
    };
    if columns == 0 || rows == 0 {
        return Err(PictureError::Size(width, height));
    }
    if columns.checked_mul(rows) != Some(indices.len()) {
        return Err(PictureError::Png(format!(
            "{} pixels for a picture of {width}x{height}",
            indices.len()
        )));
    }
    if palette.is_empty() || palette.len() > PALETTE_SIZE {
        return Err(PictureError::Png(format!(
            "a palette of {} colours (1 to {PALETTE_SIZE})",
            palette.len()
        )));
    }
    let image = compressed_rows(indices, columns)?;
    let rgb: Vec<u8> = palette.iter().flat_map(|c| [c[0], c[1], c[2]]).collect();
    // Entries after the last translucent one need no opacity (255 is implied).
    let translucent = palette
        .iter()
        .rposition(|c| c[3] < u8::MAX)
        .map_or(0, |at| at + 1);
    let opacities: Vec<u8> = palette.iter().take(translucent).map(|c| c[3]).collect();

    let mut header = Vec::with_capacity(13);
    header.extend_from_slice(&width.to_be_bytes());
    header.extend_from_slice(&height.to_be_bytes());
    // Bit depth 8, palette, deflate, adaptive filtering (the only method), no interlace.
    header.extend_from_slice(&[8, INDEXED, 0, 0, 0]);

    let mut png = Vec::with_capacity(image.len() + rgb.len() + opacities.len() + 64);
    png.extend_from_slice(SIGNATURE);
    chunk(&mut png, *b"IHDR", &header)?;
    chunk(&mut png, *b"PLTE", &rgb)?;
    if !opacities.is_empty() {
        chunk(&mut png, *b"tRNS", &opacities)?;
    }
    chunk(&mut png, *b"IDAT", &image)?;
    chunk(&mut png, *b"IEND", &[])?;
    Ok(png)
}

/// The image data: every row filtered "up" behind its filter byte, compressed as one zlib
/// stream.
fn compressed_rows(indices: &[u8], columns: usize) -> Result<Vec<u8>, PictureError> {
    // Filled row by row, never zeroed first: zeroing a fresh buffer of a card's size cost as
    // much as filtering it.
    let mut filtered = Vec::with_capacity(indices.len() + indices.len() / columns);
    let mut above: Option<&[u8]> = None;
    for row in indices.chunks_exact(columns) {
        filtered.push(FILTER_UP);
        match above {
            // The row above the first is zeros: its bytes stay as they are.
            None => filtered.extend_from_slice(row),
            Some(above) => filtered.extend(
                row.iter()
                    .zip(above)
                    .map(|(&pixel, &up)| pixel.wrapping_sub(up)),
            ),
        }
        above = Some(row);
    }
    let compress = || -> std::io::Result<Vec<u8>> {
        let mut compressor =
            fdeflate::Compressor::new(Vec::with_capacity(filtered.len() / 8 + 64))?;
        compressor.write_data(&filtered)?;
        compressor.finish()
    };
    compress().map_err(|error| PictureError::Png(error.to_string()))
}

/// Appends a chunk: its length, type, data and CRC (of type and data).
fn chunk(png: &mut Vec<u8>, kind: [u8; 4], data: &[u8]) -> Result<(), PictureError> {
    let length = u32::try_from(data.len())
        .ok()
        .filter(|length| *length <= i32::MAX.unsigned_abs())
        .ok_or_else(|| PictureError::Png(format!("a chunk of {} bytes", data.len())))?;
    png.extend_from_slice(&length.to_be_bytes());
    let mut crc = crc32fast::Hasher::new();
    crc.update(&kind);
    crc.update(data);
    png.extend_from_slice(&kind);
    png.extend_from_slice(data);
    png.extend_from_slice(&crc.finalize().to_be_bytes());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decodes `png` with the `png` crate: (width, height, palette as RGBA, indices).
    fn decode(png: &[u8]) -> (u32, u32, Vec<[u8; 4]>, Vec<u8>) {
        let decoder = png::Decoder::new(std::io::Cursor::new(png));
        let mut reader = decoder.read_info().unwrap();
        let info = reader.info();
        assert_eq!(info.color_type, png::ColorType::Indexed);
        assert_eq!(info.bit_depth, png::BitDepth::Eight);
        let rgb = info.palette.as_deref().unwrap().to_vec();
        let alpha = info.trns.as_deref().map(<[u8]>::to_vec).unwrap_or_default();
        let palette = rgb
            .chunks(3)
            .enumerate()
            .map(|(i, c)| [c[0], c[1], c[2], alpha.get(i).copied().unwrap_or(255)])
            .collect();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let frame = reader.next_frame(&mut buf).unwrap();
        buf.truncate(frame.buffer_size());
        (frame.width, frame.height, palette, buf)
    }

    #[test]
    fn a_decoder_reads_back_every_index_and_colour() {
        let (width, height) = (37u32, 23u32);
        // Runs, repeats of the row above and a byte that wraps when filtered.
        let indices: Vec<u8> = (0..width * height)
            .map(|i| {
                let (x, y) = (i % width, i / width);
                u8::try_from(if x < 10 { y % 3 } else { (x * 7 + y * 13) % 5 }).unwrap()
            })
            .collect();
        let palette = [
            [255, 255, 255, 0],
            [10, 20, 30, 128],
            [1, 2, 3, 255],
            [200, 100, 0, 255],
            [0, 0, 0, 255],
        ];
        let png = encode_indexed(&indices, width, height, &palette).unwrap();
        let (w, h, read_palette, read) = decode(&png);
        assert_eq!((w, h), (width, height));
        assert_eq!(read_palette, palette);
        assert_eq!(read, indices);
    }

    #[test]
    fn an_opaque_palette_has_no_opacities_and_one_row_is_enough() {
        let png = encode_indexed(&[0, 1, 1, 0], 4, 1, &[[0, 0, 0, 255], [9, 9, 9, 255]]).unwrap();
        assert!(!png.windows(4).any(|w| w == b"tRNS"));
        let (_, _, _, read) = decode(&png);
        assert_eq!(read, [0, 1, 1, 0]);
    }

    #[test]
    fn wrong_sizes_and_palettes_are_refused() {
        let opaque = [[0, 0, 0, 255]];
        assert!(matches!(
            encode_indexed(&[0; 6], 4, 2, &opaque),
            Err(PictureError::Png(_))
        ));
        assert!(matches!(
            encode_indexed(&[], 0, 0, &opaque),
            Err(PictureError::Size(0, 0))
        ));
        assert!(matches!(
            encode_indexed(&[0; 4], 2, 2, &[]),
            Err(PictureError::Png(_))
        ));
        assert!(matches!(
            encode_indexed(&[0; 4], 2, 2, &[[0; 4]; 257]),
            Err(PictureError::Png(_))
        ));
    }
}
