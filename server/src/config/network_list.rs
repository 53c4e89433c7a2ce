//! A list of addresses and networks an operator writes in one setting, separated by commas
//! (`10.0.0.0/8, ::1`): the trusted proxies, the networks outbound requests may reach.

use std::net::IpAddr;
use std::str::FromStr;

/// One network: an address and how many leading bits must match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Network {
    address: IpAddr,
    prefix: u8,
}

impl Network {
    /// Whether `ip` lies in the network.
    #[must_use]
    pub fn contains(&self, ip: IpAddr) -> bool {
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
#[must_use]
pub fn canonical(ip: IpAddr) -> IpAddr {
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

/// Addresses and networks (empty: none).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NetworkList(Vec<Network>);

impl FromStr for NetworkList {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        text.split(',')
            .filter(|part| !part.trim().is_empty())
            .map(Network::from_str)
            .collect::<Result<Vec<_>, _>>()
            .map(Self)
    }
}

impl NetworkList {
    /// Whether `ip` lies in one of the networks.
    #[must_use]
    pub fn contains(&self, ip: IpAddr) -> bool {
        self.0.iter().any(|network| network.contains(ip))
    }
}
