//! A number with its noun in the right form: "1 move", "3 moves" (never "move(s)").

/// `count` followed by `one` when it is 1 and `many` otherwise.
#[must_use]
pub fn counted<T>(count: T, one: &str, many: &str) -> String
where
    T: std::fmt::Display + PartialEq + From<u8>,
{
    let noun = if count == T::from(1) { one } else { many };
    format!("{count} {noun}")
}

#[cfg(test)]
mod tests {
    use super::counted;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(counted(1_u32, "move", "moves"), "1 move");
        assert_eq!(counted(0_u32, "move", "moves"), "0 moves");
        assert_eq!(counted(2_usize, "mail", "mails"), "2 mails");
        assert_eq!(counted(-1_i64, "row", "rows"), "-1 rows");
    }
}
