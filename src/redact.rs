//! Nothing secret leaves: values under secret-sounding keys, well-known token formats anywhere,
//! and `name = "literal"` assignments of secret-sounding names inside code snippets.

use aho_corasick::AhoCorasick;
use regex::Regex;
use serde_json::Value;
use std::sync::LazyLock;

pub const REDACTED: &str = "[REDACTED]";

/// Well-known credential formats (cloud keys, VCS and chat tokens, JWTs, private keys).
static TOKEN_FORMATS: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(AKIA|ASIA)[0-9A-Z]{16}",
        r"|gh[pousr]_[A-Za-z0-9]{36,}",
        r"|github_pat_[A-Za-z0-9_]{40,}",
        r"|glpat-[A-Za-z0-9_\-]{20,}",
        r"|xox[abposr]-[A-Za-z0-9-]{10,}",
        r"|sk-(proj-|ant-)?[A-Za-z0-9_\-]{20,}",
        r"|AIza[0-9A-Za-z_\-]{35}",
        r"|eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}",
        r"|-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)",
    ))
    .ok()
});

/// `password = "x"`, `API_KEY: 'x'`, `"token": "x"`: the literal is replaced, the name kept so
/// the agent still sees what the code does.
static ASSIGNMENTS: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r#"(?i)([A-Za-z0-9_\-]*(?:passw(?:or)?d|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|credential)[A-Za-z0-9_\-]*["']?\s*[:=]\s*)(["'])([^"'\n]{4,})(["'])"#).ok()
});

/// Parts of key names that mark a secret, matched ASCII-case-insensitively in one pass.
static SECRET_KEY_PARTS: LazyLock<Option<AhoCorasick>> = LazyLock::new(|| {
    AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .build([
            "password",
            "passwd",
            "secret",
            "api_key",
            "api-key",
            "apikey",
            "access_key",
            "access-key",
            "private_key",
            "private-key",
            "authorization",
            "credential",
            "cookie",
        ])
        .ok()
});

/// Whether a JSON key names a secret. Runs on every key of every answer, so it allocates nothing.
pub fn is_secret_key(key: &str) -> bool {
    let bytes = key.as_bytes();
    let suffix = bytes.len().checked_sub(6).map(|at| &bytes[at..]);
    key.eq_ignore_ascii_case("token")
        || suffix
            .is_some_and(|s| s.eq_ignore_ascii_case(b"_token") || s.eq_ignore_ascii_case(b"-token"))
        || SECRET_KEY_PARTS
            .as_ref()
            .is_none_or(|parts| parts.is_match(key))
}

/// Redacts secrets in text; returns whether anything changed. Fails closed: if a pattern did
/// not compile, the whole text is redacted.
pub fn redact_text(text: &mut String) -> bool {
    let (Some(formats), Some(assignments)) = (TOKEN_FORMATS.as_ref(), ASSIGNMENTS.as_ref()) else {
        *text = REDACTED.to_owned();
        return true;
    };
    let mut changed = false;
    if formats.is_match(text) {
        *text = formats.replace_all(text, REDACTED).into_owned();
        changed = true;
    }
    // An assignment quotes its literal; most strings have no quote and skip the regex.
    let bytes = text.as_bytes();
    if (bytes.contains(&b'"') || bytes.contains(&b'\'')) && assignments.is_match(text) {
        *text = assignments
            .replace_all(text, format!("${{1}}${{2}}{REDACTED}${{4}}"))
            .into_owned();
        changed = true;
    }
    changed
}

/// Redacts a whole JSON value in place; returns how many values were redacted.
pub fn redact_value(value: &mut Value) -> usize {
    match value {
        Value::Object(map) => map
            .iter_mut()
            .map(|(key, v)| {
                if is_secret_key(key) && (v.is_string() || v.is_number()) {
                    *v = Value::String(REDACTED.to_owned());
                    1
                } else {
                    redact_value(v)
                }
            })
            .sum(),
        Value::Array(items) => items.iter_mut().map(redact_value).sum(),
        Value::String(s) => usize::from(redact_text(s)),
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn secret_keys_token_formats_and_assignments_are_redacted() {
        let mut v = json!({
            "password": "hunter2",
            "dedupe_key": "abc",
            "items": [{"message": "found ghp_0123456789abcdefghijklmnopqrstuvwxyzAB in config"}],
            "snippet": {"text": "DB_PASSWORD = \"s3cr3t-value\"\nx = 1\napi_key: 'abcd1234'"},
        });
        let n = redact_value(&mut v);
        assert_eq!(n, 3);
        assert_eq!(v["password"], REDACTED);
        assert_eq!(v["dedupe_key"], "abc");
        assert_eq!(v["items"][0]["message"], "found [REDACTED] in config");
        assert_eq!(
            v["snippet"]["text"],
            "DB_PASSWORD = \"[REDACTED]\"\nx = 1\napi_key: '[REDACTED]'"
        );
    }

    #[test]
    fn secret_keys_match_in_any_case_and_ordinary_keys_do_not() {
        for key in [
            "password",
            "DB_PASSWORD",
            "Authorization",
            "X-Api-Key",
            "aws_secret_access_key",
            "token",
            "Token",
            "GITHUB_TOKEN",
            "x-auth-token",
            "session_cookie",
        ] {
            assert!(is_secret_key(key), "{key} should be secret");
        }
        for key in [
            "tokens_used",
            "tokenizer",
            "token_count",
            "dedupe_key",
            "path",
            "keyword",
            "é_token_é",
            "",
        ] {
            assert!(!is_secret_key(key), "{key} should not be secret");
        }
    }

    #[test]
    fn ordinary_code_is_left_alone() {
        let mut s = "def hash(data):\n    return hashlib.sha1(data).hexdigest()\n".to_owned();
        assert!(!redact_text(&mut s));
    }
}
