//! Nothing secret leaves: values under secret-sounding keys, well-known token formats anywhere,
//! and `name = "literal"` assignments of secret-sounding names inside code snippets.

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

/// Whether a JSON key names a secret.
pub fn is_secret_key(key: &str) -> bool {
    let k = key.to_ascii_lowercase();
    [
        "password",
        "passwd",
        "secret",
        "api_key",
        "apikey",
        "access_key",
        "private_key",
        "authorization",
        "credential",
        "cookie",
    ]
    .iter()
    .any(|s| k.contains(s))
        || k == "token"
        || k.ends_with("_token")
}

/// Redacts secrets in text; returns whether anything changed.
pub fn redact_text(text: &mut String) -> bool {
    let mut changed = false;
    if let Some(re) = TOKEN_FORMATS.as_ref()
        && re.is_match(text)
    {
        *text = re.replace_all(text, REDACTED).into_owned();
        changed = true;
    }
    if let Some(re) = ASSIGNMENTS.as_ref()
        && re.is_match(text)
    {
        *text = re
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
    fn ordinary_code_is_left_alone() {
        let mut s = "def hash(data):\n    return hashlib.sha1(data).hexdigest()\n".to_owned();
        assert!(!redact_text(&mut s));
    }
}
