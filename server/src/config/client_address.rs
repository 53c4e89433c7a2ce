//! Which address a request comes from, for rate limits: the TCP peer, or — only when that peer
//! is one of the operator's reverse proxies (`TURNPOST_TRUSTED_PROXIES`) — the client named in
//! `X-Forwarded-For`. A forwarded address from anyone else is ignored: trusting it would let
//! every client pick its own rate-limit bucket.

use std::net::IpAddr;
use std::str::FromStr;

use super::network_list::{canonical, NetworkList};

/// The header a trusted proxy names the client in: `X-Forwarded-For` (the default) or the
/// standard `Forwarded` (RFC 7239). Only one is read: a proxy passes the other one on as the
/// client wrote it, so reading both would let every client pick its own bucket again.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ProxyHeader {
    /// `X-Forwarded-For: client, proxy1, proxy2`.
    #[default]
    XForwardedFor,
    /// `Forwarded: for=client, for="[2001:db8::1]:4711"`.
    Forwarded,
}

impl FromStr for ProxyHeader {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text.trim().to_ascii_lowercase().as_str() {
            "x-forwarded-for" => Ok(Self::XForwardedFor),
            "forwarded" => Ok(Self::Forwarded),
            _ => Err(format!("`{text}`: expected x-forwarded-for or forwarded")),
        }
    }
}

impl ProxyHeader {
    /// The header's name, lower case.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::XForwardedFor => "x-forwarded-for",
            Self::Forwarded => "forwarded",
        }
    }

    /// The hops the header's values name, left (the first client) to right (the last proxy):
    /// `Some(ip)` for an address, `None` for an entry that names none (malformed, `unknown`,
    /// or an obfuscated identifier such as `_hidden`).
    fn hops(self, values: &[&str]) -> Vec<Option<IpAddr>> {
        match self {
            Self::XForwardedFor => values
                .iter()
                .flat_map(|value| value.split(','))
                .map(|hop| node_address(hop.trim()))
                .collect(),
            Self::Forwarded => values
                .iter()
                .flat_map(|value| forwarded_elements(value))
                .map(|element| element.and_then(|node| node_address(&node)))
                .collect(),
        }
    }
}

/// The address in a node as proxies write it: `192.0.2.1`, `192.0.2.1:443`, `2001:db8::1`,
/// `[2001:db8::1]` or `[2001:db8::1]:443`.
fn node_address(node: &str) -> Option<IpAddr> {
    let node = node.trim();
    if let Some(rest) = node.strip_prefix('[') {
        let (address, after) = rest.split_once(']')?;
        let port_ok = after.is_empty() || after.strip_prefix(':').is_some_and(is_port);
        return port_ok
            .then(|| std::net::Ipv6Addr::from_str(address).ok())
            .flatten()
            .map(IpAddr::V6);
    }
    if let Ok(ip) = IpAddr::from_str(node) {
        return Some(ip);
    }
    let (address, port) = node.split_once(':')?;
    is_port(port)
        .then(|| std::net::Ipv4Addr::from_str(address).ok())
        .flatten()
        .map(IpAddr::V4)
}

fn is_port(text: &str) -> bool {
    !text.is_empty() && text.len() <= 5 && text.bytes().all(|b| b.is_ascii_digit())
}

/// The `for=` node of each element of one `Forwarded` value (RFC 7239: elements split by `,`,
/// pairs by `;`, values a token or a quoted string); `None` for an element without one or one
/// that cannot be read.
fn forwarded_elements(value: &str) -> Vec<Option<String>> {
    /// Ends one `name=value` pair, keeping the node of `for`.
    fn close_pair(pair: &mut String, node: &mut Option<String>, ok: &mut bool) {
        let text = std::mem::take(pair);
        let text = text.trim();
        if text.is_empty() {
            return;
        }
        match text.split_once('=') {
            Some((name, value)) if name.trim().eq_ignore_ascii_case("for") => {
                // Two `for=` in one element: which one is the client's cannot be told.
                *ok &= node.is_none();
                *node = Some(value.trim().to_owned());
            }
            Some(_) => {}
            None => *ok = false,
        }
    }

    let mut elements = Vec::new();
    let mut current: Option<String> = None;
    let mut ok = true;
    let mut pair = String::new();
    let mut chars = value.chars();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                quoted = !quoted;
            }
            '\\' if quoted => match chars.next() {
                Some(escaped) => pair.push(escaped),
                None => ok = false,
            },
            ';' if !quoted => close_pair(&mut pair, &mut current, &mut ok),
            ',' if !quoted => {
                close_pair(&mut pair, &mut current, &mut ok);
                elements.push(current.take().filter(|_| ok));
                ok = true;
            }
            c => pair.push(c),
        }
    }
    if quoted {
        ok = false;
    }
    close_pair(&mut pair, &mut current, &mut ok);
    elements.push(current.take().filter(|_| ok));
    elements
}

/// The rate-limit bucket of a client address: an IPv4 address on its own, an IPv6 address by
/// its /64 network — one subscriber usually holds a whole /64 and can use any address in it.
#[must_use]
pub fn rate_bucket(ip: IpAddr) -> String {
    match canonical(ip) {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => {
            let network = std::net::Ipv6Addr::from(u128::from(v6) & !(u128::MAX >> 64));
            format!("{network}/64")
        }
    }
}

/// The operator's reverse proxies, from a comma-separated list of addresses and networks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrustedProxies(NetworkList);

impl FromStr for TrustedProxies {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        text.parse().map(Self)
    }
}

impl TrustedProxies {
    fn trusts(&self, ip: IpAddr) -> bool {
        self.0.contains(ip)
    }

    /// The client behind `peer`: `peer` itself unless it is trusted; then the right-most
    /// address in `values` (the values of `header`, in order) that is not one of ours —
    /// addresses left of it were written by the client and prove nothing. An entry that names
    /// no address (malformed, `unknown`, obfuscated) stops the walk at the last address known
    /// good: what lies left of it cannot be told from what the client made up.
    #[must_use]
    pub fn client(&self, peer: IpAddr, header: ProxyHeader, values: &[&str]) -> IpAddr {
        let mut client = canonical(peer);
        if !self.trusts(client) {
            return client;
        }
        for hop in header.hops(values).into_iter().rev() {
            match hop {
                Some(ip) => {
                    client = canonical(ip);
                    if !self.trusts(client) {
                        break;
                    }
                }
                None => break,
            }
        }
        client
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]

    use super::*;

    const XFF: ProxyHeader = ProxyHeader::XForwardedFor;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn forwarded_for_entries_may_carry_ports() {
        let proxies: TrustedProxies = "127.0.0.1".parse().unwrap();
        let peer = ip("127.0.0.1");
        for (entry, client) in [
            ("198.51.100.7:41234", "198.51.100.7"),
            ("[2001:db8::7]:443", "2001:db8::7"),
            ("[2001:db8::7]", "2001:db8::7"),
            ("2001:db8::7", "2001:db8::7"),
            (" 198.51.100.7 ", "198.51.100.7"),
        ] {
            assert_eq!(proxies.client(peer, XFF, &[entry]), ip(client), "{entry}");
        }
        for malformed in [
            "198.51.100.7:",
            "198.51.100.7:http",
            "[2001:db8::7]:",
            "[::1",
            "1.2.3.4:5:6",
        ] {
            assert_eq!(proxies.client(peer, XFF, &[malformed]), peer, "{malformed}");
        }
    }

    #[test]
    fn the_forwarded_header_is_read_as_rfc_7239_says() {
        let proxies: TrustedProxies = "127.0.0.1".parse().unwrap();
        let peer = ip("127.0.0.1");
        let forwarded = ProxyHeader::Forwarded;
        for (values, client) in [
            (
                vec!["for=192.0.2.60;proto=http;by=203.0.113.43"],
                "192.0.2.60",
            ),
            (
                vec!["For=\"[2001:db8:cafe::17]:4711\""],
                "2001:db8:cafe::17",
            ),
            (vec!["for=\"198.51.100.7:80\";proto=https"], "198.51.100.7"),
            (vec!["for=192.0.2.43, for=198.51.100.17"], "198.51.100.17"),
            (
                vec!["for=192.0.2.43", "for=198.51.100.17;by=127.0.0.1"],
                "198.51.100.17",
            ),
            // A trusted hop is walked past, right to left.
            (vec!["for=192.0.2.43, for=127.0.0.1"], "192.0.2.43"),
            // Obfuscated or unknown: no address, and nothing left of it is believed.
            (vec!["for=192.0.2.43, for=_hidden"], "127.0.0.1"),
            (vec!["for=192.0.2.43, for=unknown"], "127.0.0.1"),
            (vec!["for=\"_gazonk\""], "127.0.0.1"),
            // Malformed: an element without `for`, an open quote, two `for` in one element.
            (vec!["proto=https"], "127.0.0.1"),
            (vec!["for=\"192.0.2.43"], "127.0.0.1"),
            (vec!["for=192.0.2.43;for=198.51.100.17"], "127.0.0.1"),
            (vec!["for"], "127.0.0.1"),
        ] {
            assert_eq!(
                proxies.client(peer, forwarded, &values),
                ip(client),
                "{values:?}"
            );
        }
        // The header not configured is not read: the client may have written it.
        assert_eq!(proxies.client(peer, forwarded, &[]), peer);
        assert_eq!(proxies.client(peer, XFF, &[]), peer);
        assert_eq!("Forwarded".parse(), Ok(ProxyHeader::Forwarded));
        assert_eq!("x-forwarded-for".parse(), Ok(XFF));
        assert!("via"
            .parse::<ProxyHeader>()
            .unwrap_err()
            .contains("forwarded"));
    }

    #[test]
    fn ipv6_clients_share_a_bucket_per_64() {
        assert_eq!(rate_bucket(ip("2001:db8:1:2::5")), "2001:db8:1:2::/64");
        assert_eq!(
            rate_bucket(ip("2001:db8:1:2:ffff:1:2:3")),
            rate_bucket(ip("2001:db8:1:2::5"))
        );
        assert_ne!(
            rate_bucket(ip("2001:db8:1:3::5")),
            rate_bucket(ip("2001:db8:1:2::5"))
        );
        assert_eq!(rate_bucket(ip("192.0.2.7")), "192.0.2.7");
        assert_eq!(rate_bucket(ip("::ffff:192.0.2.7")), "192.0.2.7");
        assert_ne!(rate_bucket(ip("192.0.2.7")), rate_bucket(ip("192.0.2.8")));
    }

    #[test]
    fn an_untrusted_peer_cannot_choose_its_address() {
        let proxies: TrustedProxies = "10.0.0.1".parse().unwrap();
        assert_eq!(
            proxies.client(ip("192.0.2.7"), XFF, &["203.0.113.9"]),
            ip("192.0.2.7")
        );
    }

    #[test]
    fn a_trusted_proxy_names_the_client_right_to_left() {
        let proxies: TrustedProxies = "10.0.0.0/8, ::1".parse().unwrap();
        assert_eq!(
            proxies.client(
                ip("10.1.2.3"),
                XFF,
                &["198.51.100.1, 203.0.113.9", "10.0.0.5"]
            ),
            ip("203.0.113.9")
        );
        assert_eq!(proxies.client(ip("::1"), XFF, &[]), ip("::1"));
        assert_eq!(
            proxies.client(ip("::ffff:10.0.0.2"), XFF, &["garbage, 203.0.113.9"]),
            ip("203.0.113.9")
        );
        assert_eq!(
            proxies.client(ip("10.0.0.2"), XFF, &["203.0.113.9, not-an-ip"]),
            ip("10.0.0.2")
        );
    }

    #[test]
    fn bad_lists_are_refused_with_the_entry() {
        let error = "10.0.0.0/33".parse::<TrustedProxies>().unwrap_err();
        assert!(error.contains("10.0.0.0/33"), "{error}");
        assert!("proxy.local".parse::<TrustedProxies>().is_err());
        assert_eq!(
            "".parse::<TrustedProxies>().unwrap(),
            TrustedProxies::default()
        );
        let zero: TrustedProxies = "0.0.0.0/0".parse().unwrap();
        assert!(zero.trusts(ip("192.0.2.1")));
    }
}
