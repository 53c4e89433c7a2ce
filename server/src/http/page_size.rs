//! How many rows a page of a leaderboard holds (`limit=N`), read alike by the API and the
//! pages so that both take the same sizes and refuse with the same words.

/// Rows a page when the query names no size.
pub const DEFAULT_PAGE_SIZE: u32 = 50;
/// The most rows a page.
pub const MAX_PAGE_SIZE: u32 = 100;

/// The page size the query's `limit` asks for, [`DEFAULT_PAGE_SIZE`] without one.
///
/// # Errors
/// `limit=TEXT: expected 1 to 100`, the caller's refusal's message, for anything but a whole
/// number from 1 to [`MAX_PAGE_SIZE`].
pub fn page_size(limit: Option<&str>) -> Result<u32, String> {
    let Some(text) = limit else {
        return Ok(DEFAULT_PAGE_SIZE);
    };
    text.trim()
        .parse::<u32>()
        .ok()
        .filter(|n| (1..=MAX_PAGE_SIZE).contains(n))
        .ok_or_else(|| format!("limit={text}: expected 1 to {MAX_PAGE_SIZE}"))
}
