//! Secrets in returned Markdown: the multi-line spans nexus-lite blanks in code snippets
//! (private keys, armored blocks, high-entropy runs: `code::secret_spans`), plus single-line
//! tokens with a well-known prefix (cloud and forge access tokens).

use crate::code::secret_spans;
use std::borrow::Cow;

/// Prefixes of access tokens and the shortest such token.
const TOKEN_PREFIXES: &[(&str, usize)] = &[
    ("AKIA", 20),
    ("ASIA", 20),
    ("ghp_", 36),
    ("gho_", 36),
    ("ghs_", 36),
    ("ghu_", 36),
    ("github_pat_", 40),
    ("glpat-", 26),
    ("xoxb-", 20),
    ("xoxp-", 20),
    ("sk_live_", 24),
    ("sk-ant-", 40),
];

/// `text` as it may be returned: secret spans replaced by their marker line, tokens by
/// `[REDACTED token]`. Borrowed when nothing needed masking.
pub fn markdown(text: &str) -> Cow<'_, str> {
    let spans = secret_spans::detect(text);
    let has_token = TOKEN_PREFIXES.iter().any(|(p, _)| text.contains(p));
    if spans.is_empty() && !has_token {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let (content, eol) = match line.strip_suffix('\n') {
            Some(c) => (c, "\n"),
            None => (line, ""),
        };
        let no = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let masked = secret_spans::mask_line(&spans, no, content);
        out.push_str(&mask_tokens(&masked));
        out.push_str(eol);
    }
    Cow::Owned(out)
}

fn mask_tokens(line: &str) -> Cow<'_, str> {
    if !TOKEN_PREFIXES.iter().any(|(p, _)| line.contains(p)) {
        return Cow::Borrowed(line);
    }
    let is_tok = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while !rest.is_empty() {
        let start = rest.find(is_tok).unwrap_or(rest.len());
        out.push_str(&rest[..start]);
        rest = &rest[start..];
        let end = rest.find(|c: char| !is_tok(c)).unwrap_or(rest.len());
        let word = &rest[..end];
        let secret = TOKEN_PREFIXES
            .iter()
            .any(|(p, min)| word.starts_with(p) && word.len() >= *min);
        out.push_str(if secret { "[REDACTED token]" } else { word });
        rest = &rest[end..];
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_keys_and_tokens_are_masked_and_plain_text_is_borrowed() {
        let text = "intro\n-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\ntoken ghp_abcdefghijklmnopqrstuvwxyz0123456789 here\n";
        let m = markdown(text);
        assert!(!m.contains("MIIEvQ"), "{m}");
        assert!(!m.contains("ghp_abc"), "{m}");
        assert!(m.contains("[REDACTED token] here"));
        assert!(m.starts_with("intro\n"));
        assert!(matches!(markdown("nothing secret\n"), Cow::Borrowed(_)));
    }
}
