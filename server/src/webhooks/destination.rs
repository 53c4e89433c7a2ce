//! Where a webhook may be sent: the URL's scheme and form when it is added, and each address
//! its host resolves to at delivery time. Refused unless the operator allows the network
//! (`TURNPOST_OUTBOUND_ALLOW`): loopback, private (RFC 1918, ULA), link-local, CGNAT,
//! multicast, broadcast, reserved, unspecified, and this server's own listen address — so a
//! player cannot make the server reach what only it can reach.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

use crate::config::outbound_allow::OutboundAllow;

/// Longest URL accepted.
const URL_MAX: usize = 2_000;

/// What the operator allows outbound requests.
#[derive(Debug, Clone, Default)]
pub struct OutboundPolicy {
    /// Networks allowed although refused by default.
    pub allow: OutboundAllow,
    /// Plain `http://` allowed.
    pub allow_http: bool,
    /// This server's listen address (refused as a destination unless allowed).
    pub own: Option<SocketAddr>,
}

/// Why an address may not be reached, if it may not.
#[must_use]
pub fn refused_range(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) => refused_v4(v4),
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return refused_v4(v4);
            }
            refused_v6(v6)
        }
    }
}

fn refused_v4(ip: Ipv4Addr) -> Option<&'static str> {
    let [a, b, ..] = ip.octets();
    Some(if ip.is_loopback() {
        "loopback"
    } else if ip.is_unspecified() || a == 0 {
        "unspecified (\"this network\")"
    } else if ip.is_private() {
        "private (RFC 1918)"
    } else if ip.is_link_local() {
        "link-local"
    } else if a == 100 && (64..128).contains(&b) {
        "shared address space (CGNAT, RFC 6598)"
    } else if ip.is_multicast() {
        "multicast"
    } else if ip.is_broadcast() || a >= 240 {
        "reserved"
    } else if a == 192 && b == 0 && ip.octets()[2] == 0 {
        "IETF protocol assignments"
    } else if a == 198 && (b == 18 || b == 19) {
        "benchmarking (RFC 2544)"
    } else {
        return None;
    })
}

fn refused_v6(ip: Ipv6Addr) -> Option<&'static str> {
    let first = ip.segments()[0];
    Some(if ip.is_loopback() {
        "loopback"
    } else if ip.is_unspecified() {
        "unspecified"
    } else if first & 0xfe00 == 0xfc00 {
        "private (unique local, fc00::/7)"
    } else if first & 0xffc0 == 0xfe80 || first & 0xffc0 == 0xfec0 {
        "link-local"
    } else if ip.is_multicast() {
        "multicast"
    } else if ip.segments()[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        // NAT64: the embedded IPv4 address is what is reached.
        let [.., hi, lo] = ip.segments();
        let v4 = Ipv4Addr::from((u32::from(hi) << 16) | u32::from(lo));
        return refused_v4(v4);
    } else {
        return None;
    })
}

impl OutboundPolicy {
    /// Why `address` may not be reached under this policy, if it may not.
    #[must_use]
    pub fn refusal(&self, address: SocketAddr) -> Option<String> {
        let ip = address.ip();
        if self.allow.allows(ip) {
            return None;
        }
        if let Some(own) = self.own {
            let same_ip = own.ip() == ip || own.ip().is_unspecified();
            if same_ip && own.port() == address.port() {
                return Some(format!("{address} is this server's own address"));
            }
        }
        refused_range(ip).map(|range| {
            format!("{ip} is a {range} address, which the operator has not allowed (TURNPOST_OUTBOUND_ALLOW)")
        })
    }

    /// Checks a URL a player gives: its form, its scheme, and its host when the host is an
    /// address. Answers the URL as it will be used.
    ///
    /// # Errors
    /// What is wrong with it, for the player.
    pub fn check_url(&self, raw: &str) -> Result<url::Url, String> {
        let raw = raw.trim();
        if raw.len() > URL_MAX {
            return Err(format!("the URL is longer than {URL_MAX} characters"));
        }
        if let Some(why) = not_uri_text(raw) {
            return Err(format!(
                "`{raw}` is not a URL: {why}; expected https://host/path"
            ));
        }
        let url = url::Url::parse(raw).map_err(|error| {
            format!("`{raw}` is not a URL ({error}); expected https://host/path")
        })?;
        match url.scheme() {
            "https" => {}
            "http" if self.allow_http => {}
            "http" => {
                return Err(
                    "only https:// URLs are allowed (the operator has not allowed plain http)"
                        .to_owned(),
                )
            }
            other => {
                return Err(format!(
                    "the scheme {other}:// is not allowed; use https://"
                ))
            }
        }
        if !url.username().is_empty() || url.password().is_some() {
            return Err(
                "a URL with a user name or password is not allowed (give an ntfy token apart)"
                    .to_owned(),
            );
        }
        if url.fragment().is_some() {
            return Err("a URL with a #fragment is not allowed".to_owned());
        }
        let port = url.port_or_known_default().unwrap_or(443);
        let literal = match url.host() {
            Some(url::Host::Ipv4(v4)) => Some(IpAddr::V4(v4)),
            Some(url::Host::Ipv6(v6)) => Some(IpAddr::V6(v6)),
            Some(url::Host::Domain(_)) => None,
            None => return Err("the URL has no host".to_owned()),
        };
        if let Some(ip) = literal {
            if let Some(why) = self.refusal(SocketAddr::new(ip, port)) {
                return Err(why);
            }
        }
        Ok(url)
    }
}

/// What keeps `raw` from being a URI as RFC 3986 writes one, if anything: a character outside
/// its set (a space, `|`, `{`, `"`, non-ASCII, …) or a `%` not followed by two hex digits. The
/// URL parser would quietly percent-encode such text; a player's URL is taken as written or
/// refused (the OpenAPI document says `format: uri`).
fn not_uri_text(raw: &str) -> Option<String> {
    let bytes = raw.as_bytes();
    for (at, c) in raw.char_indices() {
        let allowed = c.is_ascii_alphanumeric() || "-._~:/?#[]@!$&'()*+,;=%".contains(c);
        if !allowed {
            return Some(format!(
                "the character {c:?} at {at} may not stand in a URL unescaped"
            ));
        }
        if c == '%' {
            let hex = |i: usize| bytes.get(i).is_some_and(u8::is_ascii_hexdigit);
            if !(hex(at + 1) && hex(at + 2)) {
                return Some(format!("the `%` at {at} is not followed by two hex digits"));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED))
    }

    #[test]
    fn private_and_special_ranges_are_refused() {
        for refused in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "224.0.0.1",
            "0.0.0.0",
            "255.255.255.255",
            "::1",
            "::",
            "fd00::1",
            "fe80::1",
            "ff02::1",
            "::ffff:127.0.0.1",
            "64:ff9b::a00:1",
        ] {
            assert!(refused_range(ip(refused)).is_some(), "{refused} passed");
        }
        for public in ["93.184.216.34", "1.1.1.1", "2606:4700::1111", "100.128.0.1"] {
            assert!(refused_range(ip(public)).is_none(), "{public} refused");
        }
    }

    #[test]
    fn urls_are_checked_for_scheme_credentials_and_literal_addresses() {
        let policy = OutboundPolicy::default();
        assert!(policy.check_url("https://example.org/hook").is_ok());
        assert!(policy.check_url("http://example.org/hook").is_err());
        assert!(policy.check_url("ftp://example.org/").is_err());
        assert!(policy.check_url("https://user:pw@example.org/").is_err());
        assert!(policy
            .check_url("https://example.org/a%20b?c=d&e=%C3%A9")
            .is_ok());
        for not_uri in [
            "https://0.example/4o2Dq0%|{\"",
            "https://example.org/a b",
            "https://example.org/%zz",
            "https://example.org/%4",
            "https://example.org/é",
        ] {
            let refused = policy.check_url(not_uri).err();
            assert!(
                refused.is_some_and(|why| why.contains("not a URL")),
                "{not_uri} was taken"
            );
        }
        let refused = policy.check_url("https://127.0.0.1:9/hook").err();
        assert!(refused.is_some_and(|why| why.contains("loopback")));
        let allowed = OutboundPolicy {
            allow: "127.0.0.0/8".parse().unwrap_or_default(),
            allow_http: true,
            own: None,
        };
        assert!(allowed.check_url("http://127.0.0.1:9/hook").is_ok());
        let own = OutboundPolicy {
            own: Some(SocketAddr::new(ip("203.0.113.5"), 8080)),
            ..OutboundPolicy::default()
        };
        assert!(own
            .refusal(SocketAddr::new(ip("203.0.113.5"), 8080))
            .is_some());
    }
}
