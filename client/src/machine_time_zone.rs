//! The machine's IANA time zone name ("Europe/Berlin"), for `turnpost signup` to set the new
//! account's mail time zone: `TZ` when it names a zone, else `/etc/timezone`, else the target of
//! the `/etc/localtime` link.

use std::path::Path;

/// The machine's time zone name, when it can be told (the server checks the name).
pub fn machine_time_zone() -> Option<String> {
    let from_env = std::env::var("TZ")
        .ok()
        .and_then(|value| zone_name(value.trim_start_matches(':')));
    from_env
        .or_else(|| {
            std::fs::read_to_string("/etc/timezone")
                .ok()
                .and_then(|text| zone_name(text.trim()))
        })
        .or_else(|| {
            std::fs::read_link("/etc/localtime")
                .ok()
                .and_then(|target| from_zoneinfo_path(&target))
        })
}

/// `name` if it looks like an IANA zone name ("Europe/Berlin", "UTC"), not a POSIX rule
/// ("CET-1CEST") or a path.
fn zone_name(name: &str) -> Option<String> {
    let plausible = !name.is_empty()
        && !name.starts_with('/')
        && name
            .chars()
            .all(|c| c.is_ascii_alphabetic() || "/_-+".contains(c) || c.is_ascii_digit())
        && (name.contains('/') || name == "UTC");
    plausible.then(|| name.to_string())
}

/// "Europe/Berlin" from ".../zoneinfo/Europe/Berlin".
fn from_zoneinfo_path(target: &Path) -> Option<String> {
    let text = target.to_str()?;
    let (_, zone) = text.rsplit_once("zoneinfo/")?;
    zone_name(zone)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zone_names_are_told_from_rules_and_paths() {
        assert_eq!(zone_name("Europe/Berlin").as_deref(), Some("Europe/Berlin"));
        assert_eq!(zone_name("UTC").as_deref(), Some("UTC"));
        assert_eq!(
            zone_name("America/Port-au-Prince").as_deref(),
            Some("America/Port-au-Prince")
        );
        assert_eq!(zone_name("CET-1CEST"), None);
        assert_eq!(zone_name("/usr/share/zoneinfo/UTC"), None);
        assert_eq!(zone_name(""), None);
        assert_eq!(
            from_zoneinfo_path(Path::new("/usr/share/zoneinfo/Asia/Tokyo")).as_deref(),
            Some("Asia/Tokyo")
        );
    }
}
