//! The networks outbound requests (webhooks) may reach although they are loopback, private,
//! link-local or otherwise refused (`TURNPOST_OUTBOUND_ALLOW`): a comma-separated list of
//! addresses and networks, as the trusted proxies are written.

use std::net::IpAddr;
use std::str::FromStr;

use super::network_list::NetworkList;

/// The operator's allowed networks (empty: none).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OutboundAllow(NetworkList);

impl FromStr for OutboundAllow {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        text.parse().map(Self)
    }
}

impl OutboundAllow {
    /// Whether `ip` lies in one of the networks.
    #[must_use]
    pub fn allows(&self, ip: IpAddr) -> bool {
        self.0.contains(ip)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn networks_are_read_and_matched() {
        let allow: OutboundAllow = "127.0.0.0/8, fd00::/8".parse().unwrap_or_default();
        assert!(allow.allows("127.0.0.1".parse().unwrap_or(IpAddr::from([0, 0, 0, 0]))));
        assert!(allow.allows("fd12::1".parse().unwrap_or(IpAddr::from([0, 0, 0, 0]))));
        assert!(!allow.allows("10.0.0.1".parse().unwrap_or(IpAddr::from([127, 0, 0, 1]))));
        assert!("10.0.0.0/33".parse::<OutboundAllow>().is_err());
        assert!(OutboundAllow::default() == "".parse().unwrap_or_default());
    }
}
