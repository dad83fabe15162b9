//! Small helpers: RFC 3339 timestamps, hashing, cursors, terminal controls.

use base64::Engine;
use sha2::{Digest, Sha256};
use std::time::{SystemTime, UNIX_EPOCH};

/// Seconds since the Unix epoch (0 if the clock is before 1970).
pub fn now_epoch() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

/// Formats Unix seconds as RFC 3339 UTC (`2026-11-30T01:02:03Z`).
pub fn rfc3339(epoch: i64) -> String {
    let days = epoch.div_euclid(86_400);
    let secs = epoch.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        secs / 3600,
        (secs % 3600) / 60,
        secs % 60
    )
}

/// Howard Hinnant's days-to-civil algorithm.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

pub fn sha256_hex(data: &[u8]) -> String {
    hex(&Sha256::digest(data))
}

/// Lower-case hex of `bytes` (a digest).
pub fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push_str(&format!("{b:02x}"));
    }
    out
}

/// Encodes a pagination offset as an opaque cursor.
pub fn encode_cursor(offset: usize) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(format!("nl1:{offset}"))
}

/// Decodes a cursor produced by [`encode_cursor`]; `None` when it is not one.
pub fn decode_cursor(cursor: &str) -> Option<usize> {
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(cursor)
        .ok()?;
    let text = String::from_utf8(bytes).ok()?;
    text.strip_prefix("nl1:")?.parse().ok()
}

/// The (at most five) `names` closest to `query`, best first, that score above `min_score`
/// (Jaro-Winkler): the near matches an unknown-id error names.
pub fn near_names<'a>(
    query: &str,
    names: impl Iterator<Item = &'a str>,
    min_score: f64,
) -> Vec<&'a str> {
    let mut scored: Vec<(f64, &str)> = names
        .map(|n| (strsim::jaro_winkler(query, n), n))
        .filter(|(score, _)| *score > min_score)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    scored.into_iter().take(5).map(|(_, n)| n).collect()
}

/// Whether `c` acts on a terminal instead of showing: every C0 control (tab and newline too),
/// DEL, the C1 controls, the bidi embeddings, overrides and isolates, the direction marks and
/// the line and paragraph separators. The one list the CLI's escaper and the checks on text
/// written into repository files share.
pub fn terminal_control(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{202a}'..='\u{202e}'
                | '\u{2066}'..='\u{2069}'
                | '\u{200e}'
                | '\u{200f}'
                | '\u{061c}'
                | '\u{2028}'
                | '\u{2029}'
        )
}

/// The first terminal control in `s` other than a newline or a tab, with its 1-based
/// character position, for an error that says where it is.
pub fn first_terminal_control(s: &str) -> Option<(usize, char)> {
    s.chars()
        .enumerate()
        .find(|(_, c)| *c != '\n' && *c != '\t' && terminal_control(*c))
        .map(|(i, c)| (i + 1, c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_formats_known_dates() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(1_796_000_000), "2026-11-30T00:53:20Z");
    }

    #[test]
    fn cursors_round_trip_and_reject_garbage() {
        assert_eq!(decode_cursor(&encode_cursor(150)), Some(150));
        assert_eq!(decode_cursor("not-a-cursor"), None);
        assert_eq!(decode_cursor(""), None);
    }
}
