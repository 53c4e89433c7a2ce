//! Reply addresses: `TURNPOST_REPLY_ADDRESS`, a template such as `games+%{key}@example.org`
//! with `%{key}` in its local part. Each seat of each game gets its own key, so the address a
//! reply is sent to says which seat it is for (the sender must match too: see the handler).

use std::fmt;

/// What stands for the key in the template.
const PLACEHOLDER: &str = "%{key}";

/// A reply-address template, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplyAddressTemplate {
    /// The local part before and after the key.
    before: String,
    after: String,
    /// The domain, lower case.
    domain: String,
}

/// Why a template cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("reply address template `{template}`: {problem}")]
pub struct TemplateError {
    template: String,
    problem: &'static str,
}

impl ReplyAddressTemplate {
    /// Reads a template (`games+%{key}@example.org`).
    ///
    /// # Errors
    /// A [`TemplateError`] when there is not exactly one `@`, the key placeholder is not in the
    /// local part exactly once, or a part holds a space or a character mail addresses cannot.
    pub fn parse(template: &str) -> Result<Self, TemplateError> {
        let fail = |problem| TemplateError {
            template: template.to_owned(),
            problem,
        };
        let (local, domain) = template
            .trim()
            .split_once('@')
            .ok_or_else(|| fail("expected local-part@domain"))?;
        if domain.is_empty() || domain.contains('@') {
            return Err(fail(
                "expected one @ followed by a domain such as example.org",
            ));
        }
        let (before, after) = local
            .split_once(PLACEHOLDER)
            .ok_or_else(|| fail("the local part must contain %{key}"))?;
        if after.contains(PLACEHOLDER) {
            return Err(fail("%{key} may appear only once"));
        }
        let allowed = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-/=?^_`{|}~.".contains(c);
        if !before.chars().chain(after.chars()).all(allowed)
            || !domain
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.')
        {
            return Err(fail(
                "only letters, digits and . + - _ belong around the key",
            ));
        }
        // Each game mail carries such an address: one the mail library refuses would fail
        // every game mail for good, so it is refused here, at start.
        let local_ok = format!("{before}key{after}")
            .split('.')
            .all(|part| !part.is_empty());
        let domain_ok = domain
            .split('.')
            .all(|label| !label.is_empty() && !label.starts_with('-') && !label.ends_with('-'));
        if !local_ok || !domain_ok {
            return Err(fail(
                "the addresses it makes are not valid (a dot at the start or end of a part, two \
                 dots in a row, or a domain that is not a host name)",
            ));
        }
        Ok(Self {
            before: before.to_owned(),
            after: after.to_owned(),
            domain: domain.to_ascii_lowercase(),
        })
    }

    /// The default: the sender address (`TURNPOST_MAIL_FROM`, `Name <local@domain>` or a bare
    /// address) with `+%{key}` added to its local part.
    ///
    /// # Errors
    /// A [`TemplateError`] when the sender is not an address this can extend.
    pub fn from_sender(mail_from: &str) -> Result<Self, TemplateError> {
        let address = match (mail_from.rfind('<'), mail_from.rfind('>')) {
            (Some(open), Some(close)) if open < close => {
                mail_from.get(open + 1..close).unwrap_or(mail_from)
            }
            _ => mail_from,
        };
        let (local, domain) = address
            .trim()
            .split_once('@')
            .ok_or_else(|| TemplateError {
                template: mail_from.to_owned(),
                problem: "the sender address has no @",
            })?;
        Self::parse(&format!("{local}+{PLACEHOLDER}@{domain}"))
    }

    /// The address for `key`.
    #[must_use]
    pub fn address_for(&self, key: &str) -> String {
        format!("{}{key}{}@{}", self.before, self.after, self.domain)
    }

    /// The key in `address` if it is one of this template's addresses: the domain compared
    /// regardless of case, the local part's fixed text too (mail systems differ), and the key
    /// made of letters and digits only.
    #[must_use]
    pub fn key_in(&self, address: &str) -> Option<String> {
        let (local, domain) = address.trim().rsplit_once('@')?;
        if !domain.eq_ignore_ascii_case(&self.domain) {
            return None;
        }
        let lower = local.to_ascii_lowercase();
        let key = lower
            .strip_prefix(&self.before.to_ascii_lowercase())?
            .strip_suffix(&self.after.to_ascii_lowercase())?;
        let plausible = (16..=64).contains(&key.len())
            && key
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
        plausible.then(|| key.to_owned())
    }

    /// Whether `address` is one of ours (a reply address of any key, or the bare address the
    /// template is made from): mail from it is turnpost's own, never to be answered.
    #[must_use]
    pub fn is_ours(&self, address: &str) -> bool {
        if self.key_in(address).is_some() {
            return true;
        }
        let bare = format!(
            "{}{}@{}",
            self.before.trim_end_matches('+'),
            self.after,
            self.domain
        );
        address.trim().eq_ignore_ascii_case(&bare)
    }
}

impl fmt::Display for ReplyAddressTemplate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{PLACEHOLDER}{}@{}",
            self.before, self.after, self.domain
        )
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]

    use super::*;

    const KEY: &str = "k3y0123456789abcdefghijk";

    #[test]
    fn addresses_carry_the_key_and_give_it_back() {
        let template = ReplyAddressTemplate::parse("games+%{key}@Example.org").unwrap();
        let address = template.address_for(KEY);
        assert_eq!(address, format!("games+{KEY}@example.org"));
        assert_eq!(template.key_in(&address).as_deref(), Some(KEY));
        assert_eq!(
            template
                .key_in(&format!("GAMES+{}@EXAMPLE.ORG", KEY.to_uppercase()))
                .as_deref(),
            Some(KEY)
        );
        assert_eq!(template.key_in(&format!("games+{KEY}@example.com")), None);
        assert_eq!(template.key_in(&format!("other+{KEY}@example.org")), None);
        assert_eq!(template.key_in("games+short@example.org"), None);
        assert_eq!(
            template.key_in("games+bad;key;with;stuff@example.org"),
            None
        );
        assert!(template.is_ours("games@example.org"));
        assert!(template.is_ours(&address));
        assert!(!template.is_ours("anna@example.org"));
        assert_eq!(template.to_string(), "games+%{key}@example.org");
    }

    #[test]
    fn the_default_extends_the_sender() {
        let template = ReplyAddressTemplate::from_sender("turnpost <games@example.org>").unwrap();
        assert_eq!(template.to_string(), "games+%{key}@example.org");
        let bare = ReplyAddressTemplate::from_sender("play@club.example").unwrap();
        assert_eq!(bare.address_for(KEY), format!("play+{KEY}@club.example"));
    }

    #[test]
    fn bad_templates_say_what_is_expected() {
        for (template, expected) in [
            ("games@example.org", "%{key}"),
            ("games+%{key}", "local-part@domain"),
            ("%{key}+%{key}@example.org", "only once"),
            ("ga mes+%{key}@example.org", "letters"),
            ("games+%{key}@", "domain"),
            ("games+%{key}@example..org", "not valid"),
            ("games+%{key}@.example.org", "not valid"),
            ("games+%{key}@-example.org", "not valid"),
            (".%{key}@example.org", "not valid"),
            ("games..%{key}@example.org", "not valid"),
            ("%{key}.@example.org", "not valid"),
        ] {
            let error = ReplyAddressTemplate::parse(template)
                .unwrap_err()
                .to_string();
            assert!(error.contains(expected), "{template}: {error}");
        }
        for good in [
            "%{key}@example.org",
            "games+%{key}@localhost",
            "games.%{key}.x@mail.example.org",
        ] {
            assert!(ReplyAddressTemplate::parse(good).is_ok(), "{good}");
        }
    }
}
