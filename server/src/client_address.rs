//! Which address a request comes from, for rate limits: the TCP peer, or — only when that peer
//! is one of the operator's reverse proxies (`TURNPOST_TRUSTED_PROXIES`) — the client named in
//! `X-Forwarded-For`. A forwarded address from anyone else is ignored: trusting it would let
//! every client pick its own rate-limit bucket.

use std::net::IpAddr;
use std::str::FromStr;

/// One trusted network: an address and how many leading bits must match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Network {
    address: IpAddr,
    prefix: u8,
}

impl Network {
    fn contains(&self, ip: IpAddr) -> bool {
        match (self.address, canonical(ip)) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                let mask = u32::MAX
                    .checked_shl(32 - u32::from(self.prefix))
                    .unwrap_or(0);
                u32::from(net) & mask == u32::from(ip) & mask
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                let mask = u128::MAX
                    .checked_shl(128 - u32::from(self.prefix))
                    .unwrap_or(0);
                u128::from(net) & mask == u128::from(ip) & mask
            }
            _ => false,
        }
    }
}

/// An IPv4 address seen through an IPv6 socket (`::ffff:a.b.c.d`) is that IPv4 address.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        IpAddr::V4(_) => ip,
    }
}

impl FromStr for Network {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let text = text.trim();
        let (address, prefix) = match text.split_once('/') {
            Some((address, prefix)) => (address, Some(prefix)),
            None => (text, None),
        };
        let address = IpAddr::from_str(address).map_err(|_| {
            format!("`{text}`: expected an IP address or network such as 10.0.0.0/8 or ::1")
        })?;
        let address = canonical(address);
        let max = if address.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            None => max,
            Some(prefix) => prefix
                .parse::<u8>()
                .ok()
                .filter(|p| *p <= max)
                .ok_or_else(|| format!("`{text}`: the prefix length must be 0 to {max}"))?,
        };
        Ok(Self { address, prefix })
    }
}

/// The operator's reverse proxies, from a comma-separated list of addresses and networks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrustedProxies(Vec<Network>);

impl FromStr for TrustedProxies {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        text.split(',')
            .filter(|part| !part.trim().is_empty())
            .map(Network::from_str)
            .collect::<Result<Vec<_>, _>>()
            .map(Self)
    }
}

impl TrustedProxies {
    fn trusts(&self, ip: IpAddr) -> bool {
        self.0.iter().any(|network| network.contains(ip))
    }

    /// The client behind `peer`: `peer` itself unless it is trusted; then the right-most
    /// address in `forwarded_for` (the `X-Forwarded-For` values, in order) that is not one of
    /// ours — addresses left of it were written by the client and prove nothing. A malformed
    /// entry stops the walk at the last address known good.
    #[must_use]
    pub fn client(&self, peer: IpAddr, forwarded_for: &[&str]) -> IpAddr {
        let mut client = canonical(peer);
        if !self.trusts(client) {
            return client;
        }
        let hops = forwarded_for
            .iter()
            .flat_map(|value| value.split(','))
            .map(str::trim)
            .rev();
        for hop in hops {
            match IpAddr::from_str(hop) {
                Ok(ip) => {
                    client = canonical(ip);
                    if !self.trusts(client) {
                        break;
                    }
                }
                Err(_) => break,
            }
        }
        client
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]

    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn an_untrusted_peer_cannot_choose_its_address() {
        let proxies: TrustedProxies = "10.0.0.1".parse().unwrap();
        assert_eq!(
            proxies.client(ip("192.0.2.7"), &["203.0.113.9"]),
            ip("192.0.2.7")
        );
    }

    #[test]
    fn a_trusted_proxy_names_the_client_right_to_left() {
        let proxies: TrustedProxies = "10.0.0.0/8, ::1".parse().unwrap();
        assert_eq!(
            proxies.client(ip("10.1.2.3"), &["198.51.100.1, 203.0.113.9", "10.0.0.5"]),
            ip("203.0.113.9")
        );
        assert_eq!(proxies.client(ip("::1"), &[]), ip("::1"));
        assert_eq!(
            proxies.client(ip("::ffff:10.0.0.2"), &["garbage, 203.0.113.9"]),
            ip("203.0.113.9")
        );
        assert_eq!(
            proxies.client(ip("10.0.0.2"), &["203.0.113.9, not-an-ip"]),
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
