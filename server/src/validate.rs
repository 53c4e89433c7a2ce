//! Domain values parsed from requests: account names, email addresses, token labels.

/// Why a value was refused, in words for the person who typed it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ValidationError {
    /// Not a usable account name.
    #[error("{0}")]
    Name(String),
    /// Not a usable email address.
    #[error("{0}")]
    Email(String),
    /// Not a usable token label.
    #[error("{0}")]
    Label(String),
}

/// A valid account name and its case-folded key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountName {
    /// As spelled.
    pub name: String,
    /// Lower case, for uniqueness.
    pub key: String,
}

/// A valid email address and its case-folded key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmailAddress {
    /// As given (trimmed).
    pub email: String,
    /// Lower case, for uniqueness and look-up.
    pub key: String,
}

/// Parses an account name: 2–32 ASCII letters, digits, `-` or `_`; not `open`, which marks
/// an open seat in a challenge.
///
/// # Errors
/// [`ValidationError::Name`] saying what is wrong.
pub fn account_name(raw: &str) -> Result<AccountName, ValidationError> {
    let len = raw.chars().count();
    if !(2..=32).contains(&len) {
        return Err(ValidationError::Name(format!(
            "a name has 2 to 32 characters (this one has {len})"
        )));
    }
    if let Some(bad) = raw
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '-' || *c == '_'))
    {
        return Err(ValidationError::Name(format!(
            "a name has only letters, digits, '-' and '_' (found {bad:?})"
        )));
    }
    if raw.eq_ignore_ascii_case(turnpost_shared::api::OPEN_SEAT) {
        return Err(ValidationError::Name(format!(
            "`{}` marks an open seat in challenges; choose another name",
            turnpost_shared::api::OPEN_SEAT
        )));
    }
    Ok(AccountName {
        name: raw.to_owned(),
        key: raw.to_ascii_lowercase(),
    })
}

/// Parses an email address: one `@`, a plausible local part and a dotted domain, at most 254
/// characters, no spaces or control characters.
///
/// # Errors
/// [`ValidationError::Email`] saying what is wrong.
pub fn email(raw: &str) -> Result<EmailAddress, ValidationError> {
    let email = raw.trim();
    let bad = |why: &str| ValidationError::Email(format!("not a usable email address: {why}"));
    if email.is_empty() {
        return Err(bad("it is empty"));
    }
    if email.len() > 254 {
        return Err(bad("longer than 254 characters"));
    }
    if email.chars().any(|c| {
        c.is_whitespace()
            || c.is_control()
            || matches!(
                c,
                '<' | '>' | '(' | ')' | ',' | ';' | ':' | '\\' | '"' | '[' | ']'
            )
    }) {
        return Err(bad(
            "it contains spaces or characters not allowed in an address",
        ));
    }
    let Some((local, domain)) = email.rsplit_once('@') else {
        return Err(bad("there is no '@'"));
    };
    if local.is_empty() || local.len() > 64 || local.contains('@') {
        return Err(bad(
            "the part before '@' is empty, too long, or has another '@'",
        ));
    }
    if local.starts_with('.') || local.ends_with('.') || local.contains("..") {
        return Err(bad("misplaced '.' before the '@'"));
    }
    let labels: Vec<&str> = domain.split('.').collect();
    if labels.len() < 2
        || labels.iter().any(|l| {
            l.is_empty()
                || l.len() > 63
                || l.starts_with('-')
                || l.ends_with('-')
                || !l.chars().all(|c| c.is_alphanumeric() || c == '-')
        })
    {
        return Err(bad("the domain after '@' is not a dotted host name"));
    }
    if email.parse::<lettre::Address>().is_err() {
        return Err(bad("the mail library refuses it"));
    }
    Ok(EmailAddress {
        email: email.to_owned(),
        key: email.to_lowercase(),
    })
}

/// Refuses an address with non-ASCII characters unless the relay can deliver it
/// (`smtp_utf8`: the operator says the SMTP relay supports SMTPUTF8). Without SMTPUTF8 such an
/// address can never receive mail, so it must not become an account.
///
/// # Errors
/// [`ValidationError::Email`] saying why.
pub fn deliverable_email(email: &EmailAddress, smtp_utf8: bool) -> Result<(), ValidationError> {
    if smtp_utf8 || email.email.is_ascii() {
        return Ok(());
    }
    Err(ValidationError::Email(
        "not a usable email address: this server's mail relay cannot deliver to addresses \
         with non-ASCII characters (the operator can set TURNPOST_SMTP_UTF8=true when the \
         relay supports SMTPUTF8)"
            .to_owned(),
    ))
}

/// Parses an optional token label: at most 64 characters, no control characters (both judged
/// on the text as sent, as the API document's pattern says), then trimmed.
///
/// # Errors
/// [`ValidationError::Label`] saying what is wrong.
pub fn token_label(raw: Option<&str>) -> Result<String, ValidationError> {
    let sent = raw.unwrap_or("");
    if sent.chars().count() > 64 {
        return Err(ValidationError::Label(
            "a token label has at most 64 characters".to_owned(),
        ));
    }
    let label = sent.trim();
    if sent.chars().any(char::is_control) {
        return Err(ValidationError::Label(
            "a token label has no control characters".to_owned(),
        ));
    }
    Ok(if label.is_empty() {
        "token".to_owned()
    } else {
        label.to_owned()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_labels() {
        assert_eq!(token_label(None).ok(), Some("token".to_owned()));
        assert_eq!(
            token_label(Some(" laptop ")).ok(),
            Some("laptop".to_owned())
        );
        // Judged as sent: a control character at an edge is refused, not trimmed away.
        assert!(token_label(Some("laptop\n")).is_err());
        assert!(token_label(Some("\u{85}")).is_err());
        assert!(token_label(Some(&"x".repeat(64))).is_ok());
        assert!(token_label(Some(&format!(" {}", "x".repeat(64)))).is_err());
    }

    #[test]
    fn names() {
        assert!(account_name("ab").is_ok());
        assert!(account_name("Anna_K-2").is_ok());
        assert!(account_name("a").is_err());
        assert!(account_name(&"x".repeat(33)).is_err());
        assert!(account_name("anna k").is_err());
        assert!(account_name("änna").is_err());
        assert!(account_name("Open").is_err());
        assert!(account_name("opener").is_ok());
        assert_eq!(
            account_name("AnNa").map(|n| n.key).ok(),
            Some("anna".to_owned())
        );
    }

    #[test]
    fn emails() {
        for good in ["a@b.co", "anna.k+games@example.org", " A@Example.ORG "] {
            assert!(email(good).is_ok(), "{good}");
        }
        for bad in [
            "",
            "anna",
            "anna@",
            "@x.org",
            "a@b",
            "a b@c.org",
            "a@@b.org",
            "a@b..org",
            "a@-b.org",
            "<a@b.org>",
            "a@b.org\r\nBcc: x@y.org",
        ] {
            assert!(email(bad).is_err(), "{bad:?}");
        }
    }
}
