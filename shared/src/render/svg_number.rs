//! A drawing's coordinate as SVG text: exactly what `f32`'s `Display` writes, without its
//! float-to-text algorithm for the whole numbers most coordinates are (a turn card's drawing
//! writes a few hundred of them, and that algorithm was a tenth of composing one).

use std::fmt;

/// Whole numbers of at most this size are written as integers (far beyond any board).
const WHOLE_BELOW: f32 = 1.0e7;

/// `f32` written as its `Display` does.
#[derive(Debug, Clone, Copy)]
pub(super) struct SvgNumber(pub f32);

impl fmt::Display for SvgNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let value = self.0;
        // `-0` keeps its sign under `Display`; an integer would lose it.
        let whole = value.fract() == 0.0 && value.abs() < WHOLE_BELOW && !value.is_sign_negative();
        if whole {
            #[allow(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                reason = "a whole, non-negative number below WHOLE_BELOW"
            )]
            let integer = value as u32;
            fmt::Display::fmt(&integer, f)
        } else {
            fmt::Display::fmt(&value, f)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_as_display_writes_it() {
        let mut values = vec![
            0.0,
            -0.0,
            1.0,
            21.0,
            11.2,
            15.2,
            5.6,
            -3.0,
            -2.5,
            9_999_999.0,
            10_000_000.0,
            1.0e20,
            f32::MAX,
            f32::MIN_POSITIVE,
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
        ];
        values.extend((0..2000).map(|i| i as f32 * 0.5));
        values.extend((0..2000).map(|i| 14.0 + (i as f32 + 0.5) * 14.0));
        for value in values {
            assert_eq!(SvgNumber(value).to_string(), value.to_string(), "{value:?}");
        }
    }
}
