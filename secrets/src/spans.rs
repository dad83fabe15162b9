//! Secret spans: the line ranges of a file that hold a multi-line secret (PEM/PGP/OpenSSH
//! private-key blocks and other BEGIN/END blocks, PuTTY key files, runs of high-entropy
//! base64/hex lines, a service-account `private_key`). Every piece of file text nexus-lite
//! returns blanks the lines of these spans: a window that starts inside a block never sees its
//! BEGIN line, so string redaction of the window alone cannot know the block is a key.
//!
//! Pure functions over text; the indexer stores the spans with the graph and the API detects
//! them again on text it reads at request time.

use aho_corasick::AhoCorasick;
use std::borrow::Cow;
use std::sync::LazyLock;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpanKind {
    /// A private-key block (PEM, OpenSSH, PGP, PuTTY, SSH2) or a `private_key` value.
    PrivateKey,
    /// Another `-----BEGIN …-----` block (certificate, PGP message…): blanked all the same.
    ArmoredBlock,
    /// Consecutive lines of high-entropy base64 or hex without a header.
    HighEntropy,
}

impl SpanKind {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            SpanKind::PrivateKey => "private_key",
            SpanKind::ArmoredBlock => "armored_block",
            SpanKind::HighEntropy => "high_entropy",
        }
    }

    /// The stored name back; an unknown name (a newer writer) is treated as a private key.
    pub fn parse(name: &str) -> SpanKind {
        match name {
            "armored_block" => SpanKind::ArmoredBlock,
            "high_entropy" => SpanKind::HighEntropy,
            _ => SpanKind::PrivateKey,
        }
    }

    fn label(self) -> &'static str {
        match self {
            SpanKind::PrivateKey => "private key block",
            SpanKind::ArmoredBlock => "armored block",
            SpanKind::HighEntropy => "high-entropy block",
        }
    }
}

/// Lines `start..=end` (1-based) of a file hold a secret.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SecretSpan {
    pub start: u32,
    pub end: u32,
    pub kind: SpanKind,
}

impl SecretSpan {
    /// What replaces each line of the span: `[REDACTED: private key block, lines 12-24]`.
    pub fn marker(&self) -> String {
        if self.start == self.end {
            format!("[REDACTED: {}, line {}]", self.kind.label(), self.start)
        } else {
            format!(
                "[REDACTED: {}, lines {}-{}]",
                self.kind.label(),
                self.start,
                self.end
            )
        }
    }

    /// Whether the span shares a line with `start..=end`.
    pub fn overlaps(&self, start: u32, end: u32) -> bool {
        self.start <= end && start <= self.end
    }
}

/// A block without its END line is followed this far at most.
const MAX_BLOCK_LINES: usize = 4000;
/// A high-entropy line has a run of at least this many base64/hex characters…
const MIN_RUN: usize = 40;
/// …making up at least 60% of its non-blank characters…
const MIN_SHARE_PERCENT: usize = 60;
/// …and a span needs at least this many such lines in a row.
const MIN_RUN_LINES: usize = 3;
/// Shannon entropy (bits per character) above which a run is random-looking: random base64
/// lines of 40-64 characters reach about 5, long identifiers and prose about 4 (and a random
/// base64 run mixes digits with both cases, which identifiers rarely do).
const MIN_ENTROPY_BASE64: f64 = 4.5;
/// Random hex reaches about 3.7 on 40 characters (at most 4).
const MIN_ENTROPY_HEX: f64 = 3.2;

const PUTTY: &str = "PuTTY-User-Key-File-";

/// `private_key` in any case (what [`is_private_key_value`] looks for).
static PRIVATE_KEY: LazyLock<Option<AhoCorasick>> = LazyLock::new(|| {
    AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .build(["private_key"])
        .ok()
});

/// The secret spans of `text`, sorted by start line, overlapping ones merged.
pub fn detect(text: &str) -> Vec<SecretSpan> {
    let lines: Vec<&str> = text.lines().collect();
    let mut spans = Vec::new();
    let mut covered = vec![false; lines.len()];
    // Each line test below needs a word the whole text is asked for once: most files have
    // none of them, and looking for a word line by line costs more than the rest of the scan.
    let (markers, putty) = (text.contains("BEGIN "), text.contains(PUTTY));
    let key_values = PRIVATE_KEY.as_ref().is_none_or(|ac| ac.is_match(text));
    let mut i = 0;
    while (markers || putty || key_values) && i < lines.len() {
        let line = lines[i];
        let begin = if markers { begin_label(line) } else { None };
        let found = if let Some((at, label)) = begin {
            let kind = if label.contains("PRIVATE") || label.contains("SECRET") {
                SpanKind::PrivateKey
            } else {
                SpanKind::ArmoredBlock
            };
            let end = if has_end_marker(&line[at..]) {
                i // the whole block on one line (`\n` escapes, as in JSON key files)
            } else {
                block_end(&lines, i, has_end_marker)
            };
            Some((end, kind))
        } else if putty && line.trim_start().starts_with(PUTTY) {
            Some((block_end(&lines, i, putty_end), SpanKind::PrivateKey))
        } else if key_values && is_private_key_value(line) {
            Some((i, SpanKind::PrivateKey))
        } else {
            None
        };
        match found {
            Some((end, kind)) => {
                covered[i..=end].iter_mut().for_each(|c| *c = true);
                spans.push(span(i, end, kind));
                i = end + 1;
            }
            None => i += 1,
        }
    }
    let mut i = 0;
    while i < lines.len() {
        if covered[i] || !high_entropy(lines[i]) {
            i += 1;
            continue;
        }
        let mut end = i;
        while end + 1 < lines.len() && !covered[end + 1] && high_entropy(lines[end + 1]) {
            end += 1;
        }
        if end + 1 - i >= MIN_RUN_LINES {
            // A base64 body usually ends with a shorter line.
            if end + 1 < lines.len() && !covered[end + 1] && base64_tail(lines[end + 1]) {
                end += 1;
            }
            spans.push(span(i, end, SpanKind::HighEntropy));
        }
        i = end + 1;
    }
    merge(spans)
}

fn span(first: usize, last: usize, kind: SpanKind) -> SecretSpan {
    let line_no = |i: usize| u32::try_from(i + 1).unwrap_or(u32::MAX);
    SecretSpan {
        start: line_no(first),
        end: line_no(last),
        kind,
    }
}

/// Sorts `spans` and merges the overlapping ones (a private key wins over the other kinds).
pub fn merge(mut spans: Vec<SecretSpan>) -> Vec<SecretSpan> {
    spans.sort_by_key(|s| (s.start, s.end));
    let mut out: Vec<SecretSpan> = Vec::with_capacity(spans.len());
    for s in spans {
        match out.last_mut() {
            Some(last) if s.start <= last.end => {
                last.end = last.end.max(s.end);
                if s.kind == SpanKind::PrivateKey {
                    last.kind = SpanKind::PrivateKey;
                }
            }
            _ => out.push(s),
        }
    }
    out
}

/// The first span sharing a line with `start..=end`.
pub fn overlapping(spans: &[SecretSpan], start: u32, end: u32) -> Option<&SecretSpan> {
    spans.iter().find(|s| s.overlaps(start, end))
}

/// Line `line_no` (1-based) as it may be shown: its span's marker when a span covers it.
pub fn mask_line<'a>(spans: &[SecretSpan], line_no: u32, line: &'a str) -> Cow<'a, str> {
    match overlapping(spans, line_no, line_no) {
        Some(s) => Cow::Owned(s.marker()),
        None => Cow::Borrowed(line),
    }
}

/// A message about lines `start..=end` as it may be shown: a message about a line of a span
/// may quote it (a syntax error "near `MIIE…`"), so it is replaced whole.
pub fn mask_message(spans: &[SecretSpan], start: u32, end: u32) -> Option<String> {
    overlapping(spans, start, end).map(|s| {
        format!(
            "{} (the message is withheld: it is about a line of a secret span)",
            s.marker()
        )
    })
}

/// The label of a `-----BEGIN LABEL-----` (or `---- BEGIN LABEL ----`) marker in `line`.
fn begin_label(line: &str) -> Option<(usize, &str)> {
    line.match_indices("BEGIN ").find_map(|(at, _)| {
        if !line[..at].trim_end_matches(' ').ends_with("---") {
            return None;
        }
        let rest = &line[at + "BEGIN ".len()..];
        let label = rest[..rest.find('-')?].trim();
        let plausible = !label.is_empty()
            && label
                .bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b' ');
        plausible.then_some((at, label))
    })
}

fn has_end_marker(line: &str) -> bool {
    line.match_indices("END ")
        .any(|(at, _)| line[..at].trim_end_matches(' ').ends_with("---"))
}

fn putty_end(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("Private-MAC:") || t.starts_with("Private-Hash:")
}

/// The line closing the block opened at `begin`: the first line where `is_end` holds; without
/// one, the last line that still looks like a block body.
fn block_end(lines: &[&str], begin: usize, is_end: fn(&str) -> bool) -> usize {
    let mut last_body = begin;
    for (j, line) in lines
        .iter()
        .enumerate()
        .skip(begin + 1)
        .take(MAX_BLOCK_LINES)
    {
        if is_end(line) {
            return j;
        }
        if !body_like(line) {
            break;
        }
        last_body = j;
    }
    last_body
}

/// Base64, a `Name: value` header or nothing, once string quoting and comment marks are off.
fn body_like(line: &str) -> bool {
    let core = core(line);
    core.is_empty()
        || core.bytes().all(is_base64)
        || core.split_once(": ").is_some_and(|(name, _)| {
            !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        })
}

/// The line without indentation, comment marks, string quotes, `\n` escapes and concatenation.
fn core(line: &str) -> &str {
    let mut s = line.trim();
    loop {
        let before = s.len();
        for prefix in ["//", "#", "*", "+", "\"", "'", "`", "b\"", "r\""] {
            s = s.strip_prefix(prefix).unwrap_or(s).trim_start();
        }
        for suffix in [
            "\\r\\n", "\\n", "\\", "+", ",", ";", ")", "\"", "'", "`", "|",
        ] {
            s = s.strip_suffix(suffix).unwrap_or(s).trim_end();
        }
        if s.len() == before {
            return s;
        }
    }
}

fn is_base64(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'+' || b == b'/' || b == b'='
}

/// The longest run of base64 characters in `line` and the count of non-blank characters.
fn longest_run(line: &str) -> (&str, usize) {
    let bytes = line.as_bytes();
    let (mut best, mut start) = ((0, 0), None);
    for (i, &b) in bytes.iter().chain(std::iter::once(&b' ')).enumerate() {
        match (is_base64(b), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                if i - s > best.1 - best.0 {
                    best = (s, i);
                }
                start = None;
            }
            _ => {}
        }
    }
    let non_blank = bytes.iter().filter(|b| !b.is_ascii_whitespace()).count();
    (&line[best.0..best.1], non_blank)
}

/// A line that is mostly one long random-looking base64 or hex run.
fn high_entropy(line: &str) -> bool {
    if line.len() < MIN_RUN {
        return false;
    }
    let (run, non_blank) = longest_run(line);
    if run.len() < MIN_RUN || run.len() * 100 < non_blank * MIN_SHARE_PERCENT {
        return false;
    }
    if run.bytes().all(|b| b.is_ascii_hexdigit()) {
        return entropy(run) >= MIN_ENTROPY_HEX;
    }
    let has = |f: fn(&u8) -> bool| run.as_bytes().iter().any(f);
    has(u8::is_ascii_digit)
        && has(u8::is_ascii_uppercase)
        && has(u8::is_ascii_lowercase)
        && entropy(run) >= MIN_ENTROPY_BASE64
}

/// The short last line of a base64 body.
fn base64_tail(line: &str) -> bool {
    let core = core(line);
    core.len() >= 4
        && core.bytes().all(is_base64)
        && core.bytes().any(|b| b.is_ascii_alphanumeric())
}

/// Shannon entropy of `s` in bits per byte.
fn entropy(s: &str) -> f64 {
    let mut counts = [0usize; 256];
    for b in s.bytes() {
        counts[usize::from(b)] += 1;
    }
    let n = s.len() as f64;
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = c as f64 / n;
            -p * p.log2()
        })
        .sum()
}

/// A JSON `"private_key": "…"` member (a GCP service-account key) with a real value.
fn is_private_key_value(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    ["\"private_key\"", "'private_key'"].iter().any(|key| {
        lower.find(key).is_some_and(|at| {
            let rest = lower[at + key.len()..].trim_start();
            rest.strip_prefix(':')
                .map(str::trim_start)
                .is_some_and(|v| (v.starts_with('"') || v.starts_with('\'')) && v.len() > 32)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine;
    use sha2::{Digest, Sha256};

    /// `n` pseudo-random bytes from `seed` (the repository carries no key-shaped text).
    fn random_bytes(seed: &str, n: usize) -> Vec<u8> {
        let mut out = Vec::with_capacity(n + 32);
        let mut block = Sha256::digest(seed.as_bytes()).to_vec();
        while out.len() < n {
            out.extend_from_slice(&block);
            block = Sha256::digest(&block).to_vec();
        }
        out.truncate(n);
        out
    }

    /// A fake key body: base64 lines of 64 characters and a shorter last one.
    fn body_lines(seed: &str, bytes: usize) -> Vec<String> {
        let b64 = base64::engine::general_purpose::STANDARD.encode(random_bytes(seed, bytes));
        b64.as_bytes()
            .chunks(64)
            .map(|c| String::from_utf8_lossy(c).into_owned())
            .collect()
    }

    fn pem(label: &str, seed: &str) -> Vec<String> {
        let mut out = vec![format!("-----BEGIN {label}-----")];
        out.extend(body_lines(seed, 600));
        out.push(format!("-----END {label}-----"));
        out
    }

    /// `before` code lines, the block, `after` code lines: (text, first block line, last).
    fn embed(block: &[String], before: usize, after: usize) -> (String, u32, u32) {
        let mut lines: Vec<String> = (0..before)
            .map(|i| format!("def f{i}(x):  # code line"))
            .collect();
        lines.extend(block.iter().cloned());
        lines.extend((0..after).map(|i| format!("    return g{i}(x) + 1")));
        let first = before as u32 + 1;
        (lines.join("\n"), first, before as u32 + block.len() as u32)
    }

    fn only(spans: &[SecretSpan]) -> (u32, u32, SpanKind) {
        assert_eq!(spans.len(), 1, "{spans:?}");
        (spans[0].start, spans[0].end, spans[0].kind)
    }

    #[test]
    fn pem_private_key_blocks_are_spans_from_begin_to_end() {
        for label in [
            "PRIVATE KEY",
            "RSA PRIVATE KEY",
            "EC PRIVATE KEY",
            "OPENSSH PRIVATE KEY",
            "ENCRYPTED PRIVATE KEY",
            "PGP PRIVATE KEY BLOCK",
        ] {
            let block = pem(label, label);
            let (text, first, last) = embed(&block, 5, 4);
            assert_eq!(
                only(&detect(&text)),
                (first, last, SpanKind::PrivateKey),
                "{label}"
            );
        }
    }

    #[test]
    fn a_key_inside_a_string_literal_and_with_headers_is_one_span() {
        let mut block = vec!["KEY = \"\"\"-----BEGIN RSA PRIVATE KEY-----".to_owned()];
        block.push("Proc-Type: 4,ENCRYPTED".into());
        block.push("DEK-Info: AES-128-CBC,0123456789ABCDEF".into());
        block.push(String::new());
        block.extend(body_lines("enc", 300));
        block.push("-----END RSA PRIVATE KEY-----\"\"\"".into());
        let (text, first, last) = embed(&block, 3, 3);
        assert_eq!(only(&detect(&text)), (first, last, SpanKind::PrivateKey));
        // JavaScript concatenation: quotes, `\n` escapes and `+` around each body line.
        let mut js = vec!["const key = '-----BEGIN PRIVATE KEY-----\\n' +".to_owned()];
        js.extend(
            body_lines("js", 300)
                .into_iter()
                .map(|l| format!("  '{l}\\n' +")),
        );
        js.push("  '-----END PRIVATE KEY-----\\n';".into());
        let (text, first, last) = embed(&js, 2, 2);
        assert_eq!(only(&detect(&text)), (first, last, SpanKind::PrivateKey));
    }

    #[test]
    fn ssh2_and_putty_key_files_are_private_key_spans() {
        let mut ssh2 = vec!["---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----".to_owned()];
        ssh2.push("Comment: \"rsa-key-20261201\"".into());
        ssh2.extend(body_lines("ssh2", 400));
        ssh2.push("---- END SSH2 ENCRYPTED PRIVATE KEY ----".into());
        let (text, first, last) = embed(&ssh2, 1, 1);
        assert_eq!(only(&detect(&text)), (first, last, SpanKind::PrivateKey));

        let public = body_lines("putty-pub", 200);
        let private = body_lines("putty-priv", 400);
        let mut putty = vec![
            "PuTTY-User-Key-File-3: ssh-rsa".to_owned(),
            "Encryption: none".into(),
            "Comment: rsa-key".into(),
            format!("Public-Lines: {}", public.len()),
        ];
        putty.extend(public);
        putty.push(format!("Private-Lines: {}", private.len()));
        putty.extend(private);
        putty.push("Private-MAC: 0123456789abcdef0123456789abcdef01234567".into());
        let (text, first, last) = embed(&putty, 2, 2);
        assert_eq!(only(&detect(&text)), (first, last, SpanKind::PrivateKey));
    }

    #[test]
    fn a_block_without_end_covers_its_body_and_stops_at_code() {
        let mut block = pem("PRIVATE KEY", "cut");
        block.pop();
        let (text, first, last) = embed(&block, 2, 3);
        assert_eq!(only(&detect(&text)), (first, last, SpanKind::PrivateKey));
        // Code that only names the marker blanks that one line, not the code after it.
        let code =
            "if line.startswith(\"-----BEGIN CERTIFICATE-----\"):\n    start = i\nreturn start\n";
        assert_eq!(only(&detect(code)), (1, 1, SpanKind::ArmoredBlock));
    }

    #[test]
    fn a_one_line_service_account_key_is_a_span() {
        let body = body_lines("gcp", 300).join("\\n");
        let json = format!(
            "{{\n  \"type\": \"service_account\",\n  \"private_key_id\": \"abc\",\n  \"private_key\": \"-----BEGIN PRIVATE KEY-----\\n{body}\\n-----END PRIVATE KEY-----\\n\",\n  \"client_email\": \"x@y.iam.gserviceaccount.com\"\n}}\n"
        );
        assert_eq!(only(&detect(&json)), (4, 4, SpanKind::PrivateKey));
        // The key name alone is enough, whatever the value's shape.
        let bare = format!("{{\"private_key\": \"{}\"}}", body_lines("v", 60).concat());
        assert_eq!(only(&detect(&bare)), (1, 1, SpanKind::PrivateKey));
    }

    #[test]
    fn headerless_high_entropy_runs_are_spans_and_ordinary_code_is_not() {
        let block: Vec<String> = body_lines("blob", 500)
            .into_iter()
            .map(|l| format!("    \"{l}\","))
            .collect();
        let (text, first, last) = embed(&block, 4, 4);
        assert_eq!(only(&detect(&text)), (first, last, SpanKind::HighEntropy));
        let hex: Vec<String> = random_bytes("hex", 96)
            .chunks(32)
            .map(|c| c.iter().map(|b| format!("{b:02x}")).collect())
            .collect();
        let (text, first, last) = embed(&hex, 1, 1);
        assert_eq!(only(&detect(&text)), (first, last, SpanKind::HighEntropy));
        // Two random lines are not a run; long identifiers, prose and padding are not random.
        let two = body_lines("two", 90).join("\n");
        assert!(detect(&two).is_empty());
        let ordinary = [
            "def compute_the_total_amount_of_all_orders_for_this_customer_quickly(orders):",
            "    ThisIsAVeryLongCamelCaseIdentifierNameThatKeepsGoingOnAndOn = 1",
            "    ThisIsAVeryLongCamelCaseIdentifierNameThatKeepsGoingOnAndOn += 2",
            "    ThisIsAVeryLongCamelCaseIdentifierNameThatKeepsGoingOnAndOn *= 3",
            "# ================================================================",
            "# ================================================================",
            "# ================================================================",
            "github.com/some/module v1.2.3 h1:abcdefghijABCDEFGHIJ0123456789abcdefghijKLM=",
            "github.com/some/module v1.2.4 h1:bcdefghijkBCDEFGHIJK1234567890bcdefghijkLMN=",
            "github.com/some/module v1.2.5 h1:cdefghijklCDEFGHIJKL2345678901cdefghijklMNO=",
        ]
        .join("\n");
        assert!(detect(&ordinary).is_empty(), "{:?}", detect(&ordinary));
    }

    #[test]
    fn masking_keeps_line_numbers_and_withholds_messages_about_span_lines() {
        let block = pem("PRIVATE KEY", "mask");
        let (text, first, last) = embed(&block, 3, 3);
        let spans = detect(&text);
        let shown: Vec<String> = text
            .lines()
            .enumerate()
            .map(|(i, l)| mask_line(&spans, i as u32 + 1, l).into_owned())
            .collect();
        assert_eq!(shown.len(), text.lines().count());
        let marker = format!("[REDACTED: private key block, lines {first}-{last}]");
        for (i, line) in shown.iter().enumerate() {
            let n = i as u32 + 1;
            if (first..=last).contains(&n) {
                assert_eq!(line, &marker);
            } else {
                assert_eq!(line, text.lines().nth(i).unwrap());
            }
        }
        for key_line in &block[1..block.len() - 1] {
            assert!(!shown.join("\n").contains(key_line.as_str()));
        }
        assert!(mask_message(&spans, first + 2, first + 2).is_some());
        assert!(mask_message(&spans, last + 1, last + 2).is_none());
        assert!(mask_message(&spans, 1, first).is_some());
    }

    #[test]
    fn overlapping_spans_merge_and_kinds_round_trip() {
        let s = |start, end, kind| SecretSpan { start, end, kind };
        let merged = merge(vec![
            s(10, 12, SpanKind::HighEntropy),
            s(1, 3, SpanKind::ArmoredBlock),
            s(11, 20, SpanKind::PrivateKey),
        ]);
        assert_eq!(
            merged,
            vec![
                s(1, 3, SpanKind::ArmoredBlock),
                s(10, 20, SpanKind::PrivateKey)
            ]
        );
        for k in [
            SpanKind::PrivateKey,
            SpanKind::ArmoredBlock,
            SpanKind::HighEntropy,
        ] {
            assert_eq!(SpanKind::parse(k.as_str()), k);
        }
    }
}
