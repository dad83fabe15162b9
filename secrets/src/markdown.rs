//! Secrets in returned Markdown: the multi-line spans nexus-lite blanks in code snippets
//! (private keys, armored blocks, high-entropy runs: [`crate::spans`]), found over the whole
//! document so an excerpt that starts inside a block is still masked, then the value redaction
//! (credential formats, secret-named assignments: [`crate::redact_text`]), line by line before
//! any line is cut or joined.

use crate::redact_text;
use crate::spans as secret_spans;
use std::borrow::Cow;
use std::ops::Range;

/// `text` as it may be returned. Borrowed when nothing needed masking.
pub fn markdown(text: &str) -> Cow<'_, str> {
    let all = text.split_inclusive('\n').count();
    match excerpt(text, 0..all) {
        Some(s) => Cow::Owned(s),
        None => Cow::Borrowed(text),
    }
}

/// Lines `lines` (0-based) of `text`, masked as [`markdown`] masks the whole text, each with
/// its line ending; `None` when nothing needed masking.
fn excerpt(text: &str, lines: Range<usize>) -> Option<String> {
    let spans = secret_spans::detect(text);
    let mut out = String::with_capacity(text.len().min(1 << 16));
    let mut changed = false;
    for (i, line) in text
        .split_inclusive('\n')
        .enumerate()
        .skip(lines.start)
        .take(lines.len())
    {
        let (content, eol) = match line.strip_suffix('\n') {
            Some(c) => (c, "\n"),
            None => (line, ""),
        };
        let no = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let masked = secret_spans::mask_line(&spans, no, content);
        changed |= masked != content;
        out.push_str(&masked);
        out.push_str(eol);
    }
    changed |= redact_text(&mut out);
    changed.then_some(out)
}

/// Lines `lines` (0-based) of `text`, each masked, without their line endings.
pub fn lines(text: &str, lines: Range<usize>) -> Vec<String> {
    let start = lines.start;
    match excerpt(text, lines.clone()) {
        Some(s) => s.lines().map(str::to_string).collect(),
        None => text
            .lines()
            .skip(start)
            .take(lines.len())
            .map(str::to_string)
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_keys_tokens_and_assignments_are_masked_and_plain_text_is_borrowed() {
        let text = "intro\n-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\ntoken ghp_abcdefghijklmnopqrstuvwxyz0123456789 here\npassword: hunter2xx\n";
        let m = markdown(text);
        assert!(!m.contains("MIIEvQ"), "{m}");
        assert!(!m.contains("ghp_abc"), "{m}");
        assert!(!m.contains("hunter2xx"), "{m}");
        assert!(m.starts_with("intro\n"));
        assert!(matches!(markdown("nothing secret\n"), Cow::Borrowed(_)));
        // An excerpt starting inside the key block still masks it.
        let inner = lines(text, 2..3);
        assert!(!inner[0].contains("MIIEvQ"), "{inner:?}");
    }
}
