//! Sender authentication, as the receiving mail server found it: its `Authentication-Results`
//! header (RFC 8601). With `TURNPOST_INBOUND_REQUIRE_AUTH=dmarc` a reply acts only when the
//! header written by the trusted server (its authserv-id) says `dmarc=pass`, or `dkim=pass`
//! with a signing domain aligned with the From address (the same domain or a parent of it).
//!
//! Only the topmost header with the trusted authserv-id counts: the trusted server adds its
//! own above what the message brought, and must remove headers claiming its id that arrive
//! from outside (RFC 8601, section 5); a header from any other id proves nothing.

/// Whether `from` is `account`'s address: the local part exactly, the domain in any case.
pub(super) fn same_address(from: &str, account: &str) -> bool {
    match (
        from.trim().rsplit_once('@'),
        account.trim().rsplit_once('@'),
    ) {
        (Some((from_local, from_domain)), Some((local, domain))) => {
            from_local == local && from_domain.eq_ignore_ascii_case(domain)
        }
        _ => false,
    }
}

/// What a reply must prove about its sender before it may act.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum SenderAuth {
    /// Nothing beyond the reply key and the From address.
    #[default]
    None,
    /// DMARC (or aligned DKIM) passed, as the server with this authserv-id says.
    Dmarc {
        /// The trusted server's authserv-id, compared without regard to case.
        authserv_id: String,
    },
}

impl SenderAuth {
    /// Whether a message from `from` with these `Authentication-Results` values (top to
    /// bottom, as in the message) may act.
    #[must_use]
    pub fn passes(&self, results: &[String], from: &str) -> bool {
        let Self::Dmarc { authserv_id } = self else {
            return true;
        };
        let Some(from_domain) = from
            .trim()
            .rsplit_once('@')
            .map(|(_, d)| d.to_ascii_lowercase())
        else {
            return false;
        };
        results
            .iter()
            .filter_map(|value| AuthenticationResults::parse(value))
            .find(|header| header.authserv_id.eq_ignore_ascii_case(authserv_id.trim()))
            .is_some_and(|header| header.vouches_for(&from_domain))
    }
}

/// One `method=result` of an `Authentication-Results` header, with its properties.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MethodResult {
    /// The method, lower case (`dmarc`, `dkim`, `spf`, …), without its version.
    pub method: String,
    /// The result, lower case (`pass`, `fail`, `none`, …).
    pub result: String,
    /// `reason` and `ptype.property` values (`header.from`, `header.d`, …), keys lower case,
    /// values unquoted.
    pub properties: Vec<(String, String)>,
}

impl MethodResult {
    fn property(&self, key: &str) -> Option<&str> {
        self.properties
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// One `Authentication-Results` header, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthenticationResults {
    /// Who wrote it.
    pub authserv_id: String,
    /// What it found, in order (empty for `none`).
    pub results: Vec<MethodResult>,
}

impl AuthenticationResults {
    /// Reads a header's value (unfolded or not; comments anywhere); `None` when it names no
    /// authserv-id.
    #[must_use]
    pub fn parse(value: &str) -> Option<Self> {
        let text = without_comments(value);
        let mut parts = split_outside_quotes(&text, ';').into_iter();
        let authserv_id = words(&parts.next()?).into_iter().next()?;
        let authserv_id = unquote(&authserv_id);
        if authserv_id.is_empty() {
            return None;
        }
        let results = parts.filter_map(|part| method_result(&part)).collect();
        Some(Self {
            authserv_id,
            results,
        })
    }

    /// Whether these results show that the From domain `from_domain` (lower case) sent it.
    fn vouches_for(&self, from_domain: &str) -> bool {
        let dmarc = self.results.iter().filter(|r| r.method == "dmarc");
        // A failed DMARC check is not overruled by a DKIM signature it did not count.
        if dmarc.clone().any(|r| r.result == "fail") {
            return false;
        }
        let dmarc_pass = dmarc.clone().any(|r| {
            r.result == "pass"
                && r.property("header.from")
                    .is_none_or(|domain| domain.eq_ignore_ascii_case(from_domain))
        });
        let dkim_pass = self
            .results
            .iter()
            .filter(|r| r.method == "dkim" && r.result == "pass")
            .filter_map(|r| {
                r.property("header.d").map(str::to_owned).or_else(|| {
                    r.property("header.i")
                        .and_then(|i| i.rsplit_once('@'))
                        .map(|(_, domain)| domain.to_owned())
                })
            })
            .any(|domain| aligned(&domain.to_ascii_lowercase(), from_domain));
        dmarc_pass || dkim_pass
    }
}

/// Relaxed alignment without a public suffix list: the signing domain is the From domain or a
/// parent of it with at least two labels (`example.org` signs for `mail.example.org`; `org`
/// signs for nobody).
fn aligned(signer: &str, from_domain: &str) -> bool {
    let signer = signer.trim_end_matches('.');
    let from_domain = from_domain.trim_end_matches('.');
    signer.contains('.')
        && (signer == from_domain
            || from_domain
                .strip_suffix(signer)
                .is_some_and(|rest| rest.ends_with('.')))
}

/// `method[/version]=result` followed by `key=value` properties.
fn method_result(part: &str) -> Option<MethodResult> {
    let mut words = words(part).into_iter();
    let (method, result) = words.next()?.split_once('=').map(|(m, r)| {
        (
            m.split('/').next().unwrap_or(m).trim().to_ascii_lowercase(),
            unquote(r).to_ascii_lowercase(),
        )
    })?;
    if method.is_empty() {
        return None;
    }
    let properties = words
        .filter_map(|word| {
            word.split_once('=')
                .map(|(k, v)| (k.trim().to_ascii_lowercase(), unquote(v)))
        })
        .collect();
    Some(MethodResult {
        method,
        result,
        properties,
    })
}

/// The text with each comment (parenthesised, nested, quoted pairs inside) turned into a space;
/// quoted strings are kept as they are.
fn without_comments(value: &str) -> String {
    let mut text = String::with_capacity(value.len());
    let mut depth = 0_usize;
    let mut quoted = false;
    let mut escaped = false;
    for c in value.chars() {
        if escaped {
            escaped = false;
            if depth == 0 {
                text.push(c);
            }
            continue;
        }
        match c {
            '\\' if quoted || depth > 0 => {
                escaped = true;
                if depth == 0 {
                    text.push(c);
                }
            }
            '"' if depth == 0 => {
                quoted = !quoted;
                text.push(c);
            }
            '(' if !quoted => depth += 1,
            ')' if !quoted && depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    text.push(' ');
                }
            }
            _ if depth > 0 => {}
            _ => text.push(c),
        }
    }
    text
}

/// Where a text read one character at a time stands: inside a quoted string (`"…"`, where
/// `\` escapes the next character) or not.
#[derive(Default)]
struct Quoting {
    quoted: bool,
    escaped: bool,
}

impl Quoting {
    /// Takes the next character `c`: whether it stands outside every quoted string (a quote
    /// mark, and a character inside quotes, does not).
    fn outside(&mut self, c: char) -> bool {
        if self.escaped {
            self.escaped = false;
        } else if c == '\\' && self.quoted {
            self.escaped = true;
        } else if c == '"' {
            self.quoted = !self.quoted;
        } else {
            return !self.quoted;
        }
        false
    }
}

/// `text` split at `separator` where it is not inside a quoted string.
fn split_outside_quotes(text: &str, separator: char) -> Vec<String> {
    let mut parts = vec![String::new()];
    let mut quoting = Quoting::default();
    for c in text.chars() {
        if quoting.outside(c) && c == separator {
            parts.push(String::new());
            continue;
        }
        if let Some(part) = parts.last_mut() {
            part.push(c);
        }
    }
    parts
}

/// The words of a part, split at white space outside quoted strings, with `key = value`
/// written with spaces around `=` joined into one word.
fn words(part: &str) -> Vec<String> {
    let mut raw: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut quoting = Quoting::default();
    for c in part.chars() {
        if quoting.outside(c) && c.is_whitespace() {
            if !word.is_empty() {
                raw.push(std::mem::take(&mut word));
            }
            continue;
        }
        word.push(c);
    }
    if !word.is_empty() {
        raw.push(word);
    }
    let mut words: Vec<String> = Vec::with_capacity(raw.len());
    for word in raw {
        match words.last_mut() {
            Some(last) if last.ends_with('=') || word.starts_with('=') => last.push_str(&word),
            _ => words.push(word),
        }
    }
    words
}

/// A value without its quotes and quoted pairs, trimmed.
fn unquote(value: &str) -> String {
    let value = value.trim();
    let Some(inner) = value
        .strip_prefix('"')
        .and_then(|rest| rest.strip_suffix('"'))
    else {
        return value.to_owned();
    };
    let mut text = String::with_capacity(inner.len());
    let mut escaped = false;
    for c in inner.chars() {
        if c == '\\' && !escaped {
            escaped = true;
            continue;
        }
        escaped = false;
        text.push(c);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dmarc(id: &str) -> SenderAuth {
        SenderAuth::Dmarc {
            authserv_id: id.to_owned(),
        }
    }

    fn passes(id: &str, headers: &[&str], from: &str) -> bool {
        let headers: Vec<String> = headers.iter().map(|h| (*h).to_owned()).collect();
        dmarc(id).passes(&headers, from)
    }

    #[test]
    fn reads_a_header_with_comments_versions_quotes_and_folding() {
        let header = AuthenticationResults::parse(
            "mx.example.org 1 (our \"mx\" (inner));\r\n\tdkim=pass (2048-bit key)\r\n header.d=Example.ORG header.s=\"sel;1\";\r\n spf = pass smtp.mailfrom=anna@example.org; dmarc/1=pass header.from=example.org",
        );
        let header = header.unwrap();
        assert_eq!(header.authserv_id, "mx.example.org");
        let methods: Vec<(&str, &str)> = header
            .results
            .iter()
            .map(|r| (r.method.as_str(), r.result.as_str()))
            .collect();
        assert_eq!(
            methods,
            [("dkim", "pass"), ("spf", "pass"), ("dmarc", "pass")]
        );
        assert_eq!(header.results[0].property("header.d"), Some("Example.ORG"));
        assert_eq!(header.results[0].property("header.s"), Some("sel;1"));
        assert_eq!(
            AuthenticationResults::parse("mx.example.org; none").map(|h| h.results.len()),
            Some(0)
        );
        assert_eq!(AuthenticationResults::parse(" ; dkim=pass"), None);
        assert_eq!(AuthenticationResults::parse(""), None);
    }

    #[test]
    fn senders_match_with_the_domain_in_any_case() {
        assert!(same_address("anna@Example.ORG", "anna@example.org"));
        assert!(same_address(" anna@example.org ", "anna@example.org"));
        assert!(!same_address("Anna@example.org", "anna@example.org"));
        assert!(!same_address("anna@example.org.evil", "anna@example.org"));
        assert!(!same_address("anna", "anna@example.org"));
    }

    #[test]
    fn dmarc_pass_from_the_trusted_server_is_enough() {
        let ok = "MX.example.org; dmarc=pass (p=none) header.from=example.org";
        assert!(passes("mx.example.org", &[ok], "anna@example.org"));
        assert!(passes("mx.example.org", &[ok], "anna@EXAMPLE.org"));
        // For another From domain, or from another server, it proves nothing.
        assert!(!passes("mx.example.org", &[ok], "anna@example.com"));
        assert!(!passes("mx.other.net", &[ok], "anna@example.org"));
        assert!(!passes("mx.example.org", &[], "anna@example.org"));
        assert!(!passes(
            "mx.example.org",
            &["mx.example.org; dmarc=fail header.from=example.org"],
            "anna@example.org"
        ));
        // Without this setting nothing is asked.
        assert!(SenderAuth::None.passes(&[], "anna@example.org"));
    }

    #[test]
    fn only_the_topmost_header_of_the_trusted_server_counts() {
        let forged = "mx.example.org; dmarc=pass header.from=example.org";
        let genuine = "mx.example.org; dmarc=fail header.from=example.org";
        assert!(!passes(
            "mx.example.org",
            &[genuine, forged],
            "anna@example.org"
        ));
        // Another server's header above ours is skipped, not taken.
        let other = "evil.example; dmarc=pass header.from=example.org";
        assert!(!passes(
            "mx.example.org",
            &[other, genuine],
            "anna@example.org"
        ));
        assert!(passes(
            "mx.example.org",
            &[other, forged],
            "anna@example.org"
        ));
    }

    #[test]
    fn dkim_counts_when_its_domain_is_aligned_with_the_sender() {
        let ours = |results: &str| format!("mx.example.org; {results}");
        let dkim = |d: &str| ours(&format!("spf=fail; dkim=pass header.d={d}"));
        let anna = "anna@example.org";
        let cases = [
            (dkim("example.org"), anna, true),
            (dkim("example.org"), "anna@mail.example.org", true),
            (dkim("evil.example"), anna, false),
            (dkim("ample.org"), anna, false),
            (dkim("org"), anna, false),
            (ours("dkim=fail header.d=example.org"), anna, false),
            (ours("dkim=pass header.i=@example.org"), anna, true),
            // A DMARC failure is not overruled by a signature.
            (
                ours("dkim=pass header.d=example.org; dmarc=fail"),
                anna,
                false,
            ),
        ];
        for (header, from, expected) in cases {
            assert_eq!(
                passes("mx.example.org", &[&header], from),
                expected,
                "{header} / {from}"
            );
        }
    }
}
