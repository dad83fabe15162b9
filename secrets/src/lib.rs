//! The one secret filter of nexus-mcp: the runtime (as `nexus_mcp_runtime::redact`) and
//! nexus-lite use this crate, one pattern set with one test corpus (`tests/redaction_coverage.rs`).
//!
//! Nothing secret leaves: values under secret-sounding keys, well-known credential formats
//! anywhere (the families gitleaks and trufflehog detect), `name = value` assignments of
//! secret-sounding names in code, `.env`, YAML and INI text, credentials in URLs and
//! Authorization headers, and private-key blocks. Only the secret part becomes `[REDACTED]`: the
//! name, the line and the line count stay, so an agent still reads `password = "[REDACTED]"`.
//!
//! [`spans`] finds the line ranges of multi-line secrets in a file, [`markdown`] masks returned
//! Markdown with both, and [`scrub`] parses an upstream answer with a token's value replaced.

pub mod markdown;
pub mod scrub;
pub mod spans;

use aho_corasick::AhoCorasick;
use regex::{Captures, Regex};
use serde_json::Value;
use std::ops::Range;
use std::sync::LazyLock;

pub const REDACTED: &str = "[REDACTED]";

/// Credential formats, each anchored on a distinctive prefix (or inner literal) so ordinary
/// code is left alone. In each pattern the one capturing group is the secret part. A prefix
/// distinctive on its own needs no word boundary around the token: a key glued to other text
/// (`token%3Dghp_…`, `AKIA…` followed by a letter) is still a key; short or generic prefixes
/// keep theirs.
const FORMATS: &[&str] = &[
    // AWS access key ids; no boundary after: a key glued to the next word is still a key.
    r"((?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA|ASCA)[0-9A-Z]{16})",
    // AWS secret access keys after their name, whatever separates them (`=`, `:`, a space).
    r"(?:AWS_SECRET_ACCESS_KEY|aws_secret_access_key)[\x22'`\]]*[ \t]*[:=]?[ \t]*[\x22'`]?([A-Za-z0-9/+]{40,})",
    // GitHub, GitLab.
    r"((?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,})",
    r"(github_pat_[A-Za-z0-9_]{40,})",
    r"(gl(?:pat|dt|ptt|rt|cbt|imt|soat|ffct|oas)-[A-Za-z0-9_\-]{20,})",
    // Slack tokens and webhooks.
    r"(xox[abposre]-[A-Za-z0-9\-]{10,})",
    r"(xapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+)",
    r"hooks\.slack\.com/(?:services|workflows|triggers)/([A-Za-z0-9+/_\-]{20,})",
    // Stripe secret, restricted and webhook keys.
    r"((?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,})",
    r"(whsec_[A-Za-z0-9]{24,})",
    // Google: API keys, OAuth client secrets and access tokens.
    r"(AIza[0-9A-Za-z_\-]{35})",
    r"(GOCSPX-[A-Za-z0-9_\-]{28})",
    r"(ya29\.[0-9A-Za-z_\-]{20,})",
    // Azure storage / service bus connection strings and SAS signatures, AD client secrets.
    r"(?:AccountKey|SharedAccessKey|SharedAccessSignature)=([^;\s'`]{20,})",
    r"[?&]sig=([A-Za-z0-9%+/=]{20,})",
    r"\b([A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.\-]{31,34})",
    // Twilio, SendGrid, Mailgun, Mailchimp.
    r"\b(SK[0-9a-f]{32})\b",
    r"(SG\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43})",
    r"\b(key-[0-9a-f]{32})\b",
    r"\b([0-9a-f]{32}-us\d{1,2})\b",
    // Package registries and platforms.
    r"(npm_[A-Za-z0-9]{36})",
    r"(pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_\-]{50,})",
    r"(rubygems_[a-f0-9]{48})",
    r"(dckr_pat_[A-Za-z0-9_\-]{20,})",
    r"(HRKU-[A-Za-z0-9_\-]{20,})",
    r"(shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32})",
    r"(sq0(?:atp|csp)-[0-9A-Za-z_\-]{22,43})",
    r"(EAAA[A-Za-z0-9_\-+=]{60})",
    // AI providers: OpenAI (sk-, sk-proj-), Anthropic (sk-ant-), Hugging Face, Replicate, Groq…
    r"\b(sk-[A-Za-z0-9_\-]{20,})",
    r"\b(hf_[A-Za-z0-9]{34,})\b",
    r"\b(api_org_[A-Za-z0-9]{34})\b",
    r"\b(r8_[A-Za-z0-9]{37})\b",
    r"\b(gsk_[A-Za-z0-9]{52})\b",
    r"\b(xai-[A-Za-z0-9]{80})\b",
    r"\b(pplx-[a-f0-9]{48})\b",
    // Infrastructure and SaaS tokens.
    r"(AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58})",
    r"\b(dapi[a-f0-9]{32}(?:-\d)?)\b",
    r"(do[por]_v1_[a-f0-9]{64})",
    r"(dp\.(?:pt|st|ct|scim|audit)\.[A-Za-z0-9]{40,44})",
    r"(lin_api_[A-Za-z0-9]{40})",
    r"discord(?:app)?\.com/api/webhooks/\d+/([A-Za-z0-9_\-]{60,})",
    r"(\d{8,10}:AA[A-Za-z0-9_\-]{33})\b",
    r"(ATATT3[A-Za-z0-9_\-=]{150,})",
    r"\bSSWS\s+(00[A-Za-z0-9_\-]{40})\b",
    r"(sntry[su]_[A-Za-z0-9+/=_]{50,})",
    r"(gl(?:c|sa)_[A-Za-z0-9+/_]{32,}={0,2})",
    r"(NRAK-[A-Z0-9]{27})",
    r"(PMAK-[a-f0-9]{24}-[a-f0-9]{34})",
    r"\b(pul-[a-f0-9]{40})\b",
    r"\b([a-z0-9]{14}\.atlasv1\.[a-z0-9\-_=]{60,70})",
    r"(hv[sb]\.[A-Za-z0-9_\-]{90,})",
    r"(sbp_[a-f0-9]{40})",
    r"\b(LTAI[A-Za-z0-9]{20})\b",
    r"\b(tskey-(?:api|auth|client)-[A-Za-z0-9]+-[A-Za-z0-9]+)",
    r"(figd_[A-Za-z0-9_\-]{40,})",
    r"(ntn_[0-9]{11}[A-Za-z0-9]{35})",
    r"(pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_\-.=]{32,})",
    r"(CFPAT-[A-Za-z0-9_\-]{43})",
    r"(dt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64})",
    r"(FLWSECK(?:_TEST)?-[a-h0-9]{32}-X)",
    // JWTs.
    r"(eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]*)",
    // Authorization headers (the scheme stays) and credentials in URLs (the user stays).
    r"\b(?:[Bb]earer|BEARER)\s+([A-Za-z0-9_\-.~+/]{8,}=*)",
    r"\b(?:[Bb]asic|BASIC)\s+([A-Za-z0-9+/]{8,}={0,2})",
    r"(?i:authorization)[\x22']?\s*[:=]\s*[\x22']?(?:token|digest|bot)\s+([A-Za-z0-9_\-.~+/]{8,}=*)",
    r"://[^\s:/@\x22'<>]*:([^\s@/\x22'<>]+)@",
];

/// Which check a [`FORMATS`] entry gets before its match counts (most need none).
fn format_check(index: usize, secret: &str) -> bool {
    match FORMATS[index] {
        // Bearer and URL passwords: not a placeholder, a template or a word of prose.
        p if p.contains("earer") || p.contains("authorization") => {
            secret.bytes().any(|b| b.is_ascii_digit())
                || (secret.len() >= 16
                    && secret.bytes().any(|b| b.is_ascii_uppercase())
                    && secret.bytes().any(|b| b.is_ascii_lowercase()))
        }
        p if p.contains("asic") => basic_credentials(secret),
        p if p.starts_with("://") => !matches!(secret.as_bytes()[0], b'$' | b'{' | b'%' | b'*'),
        _ => true,
    }
}

/// `Basic …` holds base64 of `user:password`; prose (`Basic authentication`) does not decode.
fn basic_credentials(secret: &str) -> bool {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD
        .decode(secret)
        .is_ok_and(|raw| raw.contains(&b':'))
}

static FORMAT_REGEX: LazyLock<Option<Regex>> = LazyLock::new(|| {
    let alternatives: Vec<String> = FORMATS.iter().map(|p| format!("(?:{p})")).collect();
    Regex::new(&alternatives.join("|")).ok()
});

/// Names that mark the value assigned to them as secret, matched case-insensitively. `pass`,
/// `pwd` and `key` count only after a separator (`db_pass`, not `bypass`); a bare `…_key` is
/// weak: its value must also look random (`sort_key = "name"` stays).
const SECRET_NAMES: &str = concat!(
    r"(?i:(passw(?:or)?d|passphrase|pwd|pass|secret|token|credentials?|",
    r"(?:api|access|private|secret|auth|signing|encryption|master|client|account|app|license)[_\-.]?key|",
    r"key))",
);

/// `name = "literal"` (any quote, escapes and quotes inside the literal), `NAME=value` (.env,
/// shell, query strings, command-line flags), `name = value` (INI), `name: value` (YAML, at the
/// start of a line, also after Markdown markers: `* `, `1. `, `- [ ] `, `> `, `**name**:`,
/// `` `name: `` and a table row's `| name | value |`) and `<name>value</name>`. Group 1 is the name; the first other group that
/// took part is the value.
static ASSIGNMENT_REGEX: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(&format!(
        concat!(
            r#"{names}["'`]?\]?(?:\*\*|__)?(?:"#,
            // Quoted, after `=`, `:`, `:=`, `==`, `=>`, `<-`, or a type annotation and `=`.
            r#"(?:[ \t]*:[ \t]*[A-Za-z_&][0-9A-Za-z_&<>\[\]., |]{{0,40}}?[ \t]*=|[ \t]*(?:[:=!]=|=>|<-|:|=))[ \t]*[rbufRBUF]{{0,2}}"#,
            r#"(?:"((?:[^"\\\n]|\\.|"[^\s,;)\]}}:."+\n])*)"|'((?:[^'\\\n]|\\.|'[^\s,;)\]}}:.'+\n])*)'|`([^`\n]*)`)"#,
            // Unquoted after `=`, `:` (`:**` in bold Markdown) or a table cell's `|`, judged in
            // code by its shape.
            r#"|[ \t]*(=|:(?:\*\*|__)?|\|)[ \t]*([^\s"'`][^\r\n]*)"#,
            // XML element.
            r#"|>([^<\n]{{1,200}})</"#,
            r#")"#,
        ),
        names = SECRET_NAMES
    ))
    .ok()
});

/// What a credential format starts with (or contains), case-sensitive: when none of these is
/// in a string, the format regex does not run (the common case).
static FORMAT_TRIGGERS: LazyLock<Option<AhoCorasick>> =
    LazyLock::new(|| AhoCorasick::new(FORMAT_TRIGGER_WORDS).ok());

const FORMAT_TRIGGER_WORDS: &[&str] = &[
    "://",
    "AKIA",
    "AWS_SECRET_ACCESS_KEY",
    "aws_secret_access_key",
    "ASIA",
    "ABIA",
    "ACCA",
    "AGPA",
    "AIDA",
    "AIPA",
    "ANPA",
    "ANVA",
    "AROA",
    "APKA",
    "ASCA",
    "ghp_",
    "gho_",
    "ghu_",
    "ghs_",
    "ghr_",
    "github_pat_",
    "glpat-",
    "gldt-",
    "glptt-",
    "glrt-",
    "glcbt-",
    "glimt-",
    "glsoat-",
    "glffct-",
    "gloas-",
    "glc_",
    "glsa_",
    "xox",
    "xapp-",
    "hooks.slack",
    "sk_",
    "rk_",
    "sk-",
    "whsec_",
    "AIza",
    "GOCSPX-",
    "ya29.",
    "AccountKey=",
    "SharedAccess",
    "sig=",
    "Q~",
    "SK",
    "SG.",
    "key-",
    "-us",
    "npm_",
    "pypi-",
    "rubygems_",
    "dckr_pat_",
    "HRKU-",
    "shpat_",
    "shpca_",
    "shppa_",
    "shpss_",
    "sq0",
    "EAAA",
    "hf_",
    "api_org_",
    "r8_",
    "gsk_",
    "xai-",
    "pplx-",
    "AGE-SECRET-KEY-",
    "dapi",
    "_v1_",
    "dp.",
    "lin_api_",
    "discord",
    ":AA",
    "ATATT3",
    "SSWS",
    "sntry",
    "NRAK-",
    "PMAK-",
    "pul-",
    ".atlasv1.",
    "hvs.",
    "hvb.",
    "sbp_",
    "LTAI",
    "tskey-",
    "figd_",
    "ntn_",
    "pscale_",
    "CFPAT-",
    "dt0c01.",
    "FLWSECK",
    "eyJ",
    "earer",
    "EARER",
    "asic",
    "ASIC",
    "uthorization",
    "UTHORIZATION",
];

/// Parts of the names an assignment rule looks for, case-insensitive: without one of them the
/// assignment regex does not run.
static NAME_TRIGGERS: LazyLock<Option<AhoCorasick>> = LazyLock::new(|| {
    AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .build(["pass", "pwd", "secret", "token", "credential", "key"])
        .ok()
});

/// Whether a JSON key names a secret. Runs on every key of every answer, so it allocates nothing.
pub fn is_secret_key(key: &str) -> bool {
    let bytes = key.as_bytes();
    let ends_with = |word: &[u8]| {
        bytes.len() >= word.len() && bytes[bytes.len() - word.len()..].eq_ignore_ascii_case(word)
    };
    let is_or_ends_with = |word: &str| {
        key.eq_ignore_ascii_case(word)
            || [b'_', b'-', b'.'].iter().any(|sep| {
                bytes.len() > word.len()
                    && bytes[bytes.len() - word.len() - 1] == *sep
                    && ends_with(word.as_bytes())
            })
    };
    is_or_ends_with("token")
        || is_or_ends_with("pwd")
        || is_or_ends_with("pass")
        || SECRET_KEY_PARTS
            .as_ref()
            .is_none_or(|parts| parts.is_match(key))
}

/// Parts of key names that mark a secret, matched ASCII-case-insensitively in one pass.
static SECRET_KEY_PARTS: LazyLock<Option<AhoCorasick>> = LazyLock::new(|| {
    AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .build([
            "password",
            "passwd",
            "passphrase",
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

/// Redacts secrets in text; returns whether anything changed. Fails closed: if a pattern did
/// not compile, the whole text is redacted.
pub fn redact_text(text: &mut String) -> bool {
    let (Some(format_triggers), Some(name_triggers), Some(formats), Some(assignments)) = (
        FORMAT_TRIGGERS.as_ref(),
        NAME_TRIGGERS.as_ref(),
        FORMAT_REGEX.as_ref(),
        ASSIGNMENT_REGEX.as_ref(),
    ) else {
        *text = REDACTED.to_owned();
        return true;
    };
    // Key bodies need no trigger word: a window can hold nothing but base64 lines.
    let mut changed = redact_blocks(text);
    if format_triggers.is_match(text.as_str()) {
        let spans = find_secrets(text, formats, |_, caps| {
            let (index, group) = first_group(caps, 1)?;
            format_check(index - 1, group.as_str()).then(|| group.range())
        });
        changed |= replace_spans(text, &spans);
    }
    if name_triggers.is_match(text.as_str()) {
        let spans = find_secrets(text, assignments, judge_assignment);
        changed |= replace_spans(text, &spans);
    }
    changed
}

/// The first group from `from` on that took part in the match, with its index.
fn first_group<'t>(caps: &Captures<'t>, from: usize) -> Option<(usize, regex::Match<'t>)> {
    (from..caps.len()).find_map(|i| caps.get(i).map(|m| (i, m)))
}

/// The ranges that `secret` picks out of the matches of `regex`. A refused match is searched
/// again from its second character, so a secret inside it is still found.
fn find_secrets(
    text: &str,
    regex: &Regex,
    secret: impl Fn(&str, &Captures) -> Option<Range<usize>>,
) -> Vec<Range<usize>> {
    let mut spans: Vec<Range<usize>> = Vec::new();
    let mut at = 0;
    while at < text.len() {
        let Some(caps) = regex.captures_at(text, at) else {
            break;
        };
        let Some(whole) = caps.get(0) else { break };
        at = match secret(text, &caps) {
            Some(span) if !span.is_empty() && &text[span.clone()] != REDACTED => {
                spans.push(span);
                whole.end().max(whole.start() + 1)
            }
            _ => whole.start() + 1,
        };
        while at < text.len() && !text.is_char_boundary(at) {
            at += 1;
        }
    }
    spans
}

/// Replaces each (ordered, non-overlapping) span by `[REDACTED]`.
fn replace_spans(text: &mut String, spans: &[Range<usize>]) -> bool {
    rewrite_spans(text, spans, |_, out| out.push_str(REDACTED))
}

/// Rebuilds `text` with each (ordered, non-overlapping) span written by `write`; false when
/// there is no span.
fn rewrite_spans(
    text: &mut String,
    spans: &[Range<usize>],
    write: impl Fn(&str, &mut String),
) -> bool {
    if spans.is_empty() {
        return false;
    }
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for span in spans {
        if span.start < last {
            continue;
        }
        out.push_str(&text[last..span.start]);
        write(&text[span.clone()], &mut out);
        last = span.end;
    }
    out.push_str(&text[last..]);
    *text = out;
    true
}

/// How an unquoted value was assigned.
#[derive(PartialEq)]
enum Form {
    /// `NAME=value`: .env, shell, query strings, `--flag=value`, keyword arguments.
    Tight,
    /// `name = value`: INI, TOML without quotes, or code.
    Spaced,
    /// `name: value` at the start of a line: YAML (or a type annotation).
    Colon,
}

/// Whether an assignment's value is a secret, and which part of it. Quoted literals always
/// are (a weak `…_key` only when random-looking); unquoted values only when they do not read
/// as code: a call, an attribute, a variable, a type, a reference or a keyword.
fn judge_assignment(text: &str, caps: &Captures) -> Option<Range<usize>> {
    let name = caps.get(1)?;
    let word = name.as_str().to_ascii_lowercase();
    let before = text[..name.start()].chars().next_back();
    // `pass`, `pwd` and a bare `key` only as a word of their own: `db_pass`, `dbPass`, not
    // `bypass` or `monkey`.
    if matches!(word.as_str(), "pass" | "pwd" | "key")
        && before.is_some_and(|c| {
            c.is_alphanumeric()
                && !(c.is_lowercase() && name.as_str().starts_with(char::is_uppercase))
        })
    {
        return None;
    }
    let weak = word == "key";
    let (index, value) = first_group(caps, 2)?;
    let v = value.as_str();
    match index {
        2..=4 => {
            let between = &text[name.end()..value.start()];
            // `token == "struct"` is a parser; `password == "root"` is a hard-coded password.
            let comparison = between.contains("==") || between.contains("!=");
            let password_family =
                matches!(word.as_str(), "pass" | "pwd" | "passphrase") || word.starts_with("passw");
            (quoted_secret(v, &word, weak) && (!comparison || password_family))
                .then(|| value.range())
        }
        5 => {
            let separator = value;
            let value = caps.get(6)?;
            let between = &text[name.end()..value.start()];
            let sep = separator.as_str();
            let mut markers = "";
            let form = if sep != "=" {
                markers = line_markers(text, name.start())?;
                // `|` separates a name from its value only in a table row.
                if !between.ends_with([' ', '\t']) || (sep == "|" && !markers.starts_with('|')) {
                    return None;
                }
                Form::Colon
            } else if between.contains([' ', '\t']) {
                Form::Spaced
            } else {
                Form::Tight
            };
            let raw = value.as_str();
            let cut = match form {
                Form::Tight => raw.find([' ', '\t', '&']).unwrap_or(raw.len()),
                Form::Spaced | Form::Colon => [" #", " //", " ;"]
                    .iter()
                    .filter_map(|c| raw.find(c))
                    .min()
                    .unwrap_or(raw.len()),
            };
            let mut v = raw[..cut].trim_end();
            if form == Form::Colon {
                // The cell ends at `|`; a backtick or emphasis opened before the name closes here.
                if markers.starts_with('|') {
                    v = v.split('|').next().unwrap_or(v).trim_end();
                }
                let closers: Vec<char> = markers
                    .chars()
                    .filter(|c| matches!(c, '`' | '*' | '_'))
                    .collect();
                v = v.trim_end_matches(closers.as_slice()).trim_end();
            }
            let trailer = v.ends_with([',', ';']);
            if trailer {
                v = &v[..v.len() - 1];
            }
            (unquoted_secret(v, &form, trailer, &word, weak))
                .then(|| value.start()..value.start() + v.len())
        }
        7 => {
            let line_start = text[..name.start()]
                .rfind(['\n', '\r'])
                .map_or(0, |i| i + 1);
            let opened = text[line_start..name.start()]
                .trim_end_matches(|c: char| {
                    c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | ':')
                })
                .ends_with('<');
            let t = v.trim();
            (opened && !t.is_empty() && !reference(t) && (!weak || random_looking(t)))
                .then(|| value.range())
        }
        _ => None,
    }
}

/// When only indentation, line markers, quotes and the rest of the name precede `at` on its
/// line (a line ends at `\n` or a lone `\r`, as in YAML and Markdown), the markers: YAML and
/// Markdown list items (`- `, `* `, `+ `, `1. `, `1) `), task boxes (`[ ] `, `[x] `), quotes
/// (`>`), a table row's first cell (`|`), then quotes, emphasis and a backtick.
fn line_markers(text: &str, at: usize) -> Option<&str> {
    let line_start = text[..at].rfind(['\n', '\r']).map_or(0, |i| i + 1);
    let line = text[line_start..at].trim_start();
    let mut prefix = line;
    loop {
        let rest = ["- ", "* ", "+ ", ">", "|", "[ ] ", "[x] ", "[X] "]
            .iter()
            .find_map(|m| prefix.strip_prefix(m))
            .or_else(|| {
                let digits = prefix.trim_start_matches(|c: char| c.is_ascii_digit());
                (digits.len() < prefix.len())
                    .then(|| digits.strip_prefix(". ").or(digits.strip_prefix(") ")))
                    .flatten()
            });
        match rest {
            Some(rest) => prefix = rest.trim_start(),
            None => break,
        }
    }
    // What is left is the start of the name (`DB_` of `DB_PASSWORD`).
    let head = prefix.trim_start_matches(['"', '\'', '`', '*', '_']);
    head.chars()
        .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
        .then(|| &line[..line.len() - head.len()])
}

/// Words that, as a whole unquoted value, are a keyword, a type or a placeholder.
const NOT_SECRET_WORDS: &[&str] = &[
    "none",
    "null",
    "nil",
    "true",
    "false",
    "yes",
    "no",
    "on",
    "off",
    "undefined",
    "required",
    "optional",
    "string",
    "str",
    "bytes",
    "int",
    "integer",
    "bool",
    "boolean",
    "number",
    "any",
    "object",
    "float",
    "char",
    "default",
    "empty",
    "unknown",
    "self",
    "this",
    "new",
    "await",
    "return",
    "lambda",
];

/// An unquoted value that reads as a secret rather than as code.
fn unquoted_secret(v: &str, form: &Form, trailer: bool, word: &str, weak: bool) -> bool {
    let Some(first) = v.chars().next() else {
        return false;
    };
    if reference(v)
        || !v.chars().any(char::is_alphanumeric)
        || "{[(<%!*&|>@#\\=:$`".contains(first)
        || v.contains(['(', ')', '[', ']', '{', '}'])
        || NOT_SECRET_WORDS.iter().any(|w| v.eq_ignore_ascii_case(w))
        || v.eq_ignore_ascii_case(word)
        || (word == "pwd" && v.starts_with(['/', '~']))
        || (weak && !random_looking(v))
    {
        return false;
    }
    let identifier = |s: &str| {
        s.chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_')
            && s.chars().all(|c| c.is_alphanumeric() || c == '_')
    };
    // `self.password`, `settings.SECRET_KEY`, `Foo::bar`: an attribute or a path.
    let parts: Vec<&str> = v.split(['.', ':']).filter(|p| !p.is_empty()).collect();
    if parts.len() > 1 && parts.iter().all(|p| identifier(p)) && !v.ends_with('.') {
        return false;
    }
    if v.bytes().all(|b| b.is_ascii_digit()) && v.len() < 6 {
        return false;
    }
    match form {
        Form::Tight => !(identifier(v) && trailer),
        Form::Spaced | Form::Colon => {
            !v.contains(char::is_whitespace)
                && !(identifier(v) && (trailer || !v.bytes().any(|b| b.is_ascii_digit())))
        }
    }
}

/// Private-key blocks inside one string (a snippet or a message), also when the string starts
/// or ends inside the block: every line of the block's body becomes `[REDACTED]`, the BEGIN and
/// END lines and the line count stay.
fn redact_blocks(text: &mut String) -> bool {
    let spans = secret_line_spans(text);
    rewrite_spans(text, &spans, |block, out| {
        for (i, line) in block.split('\n').enumerate() {
            if i > 0 {
                out.push('\n');
            }
            let kept = line.trim_end_matches('\r');
            if kept.trim().is_empty() {
                out.push_str(line);
            } else {
                out.push_str(REDACTED);
                out.push_str(&line[kept.len()..]);
            }
        }
    })
}

/// Byte ranges of the secret bodies of private-key blocks in `text`: between a
/// `-----BEGIN … PRIVATE KEY-----` line and its END line (or the text's end), before an END line
/// whose BEGIN is not in the text (the text starts inside the block), and runs of two or more
/// base64 lines of PEM width (the text is all inside a block). Pure, for callers that record
/// secret spans themselves.
pub fn secret_line_spans(text: &str) -> Vec<Range<usize>> {
    let mut spans: Vec<Range<usize>> = Vec::new();
    if !text.contains("-----") && !text.contains('\n') {
        return spans;
    }
    // (start, content without the line break) of every line.
    let mut lines = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        lines.push((offset, line.trim_end_matches(['\n', '\r'])));
        offset += line.len();
    }
    let span_of = |from: usize, to: usize| lines[from].0..lines[to].0 + lines[to].1.len();
    // A run of PEM-width base64 lines: (first line, lines so far).
    let mut run: Option<(usize, usize)> = None;
    let mut i = 0;
    while i < lines.len() {
        let (start, content) = lines[i];
        match pem_marker(content) {
            Some(Marker::Begin) => {
                run = None;
                let after = pem_marker_end(content);
                let rest = &content[after..];
                // JSON with `\n` escapes: the key sits on the marker's line.
                let same_line = rest.find("-----END").unwrap_or(rest.len());
                if base64_run(&rest[..same_line]) {
                    spans.push(start + after..start + after + same_line);
                }
                let mut j = i + 1;
                while j < lines.len() && key_body_line(lines[j].1) {
                    j += 1;
                }
                if j > i + 1 {
                    spans.push(span_of(i + 1, j - 1));
                }
                // The END line that closes this block has nothing left to redact.
                i = if j < lines.len() && matches!(pem_marker(lines[j].1), Some(Marker::End)) {
                    j + 1
                } else {
                    j
                };
                continue;
            }
            Some(Marker::End) => {
                run = None;
                // The text starts inside the block: its body lines lead up to this END.
                let mut k = i;
                while k > 0 && key_body_line(lines[k - 1].1) {
                    k -= 1;
                }
                if k < i {
                    let body = span_of(k, i - 1);
                    spans.retain(|s| s.end <= body.start);
                    spans.push(body);
                }
                let before = content.find("-----END").unwrap_or(0);
                if base64_run(&content[..before]) {
                    spans.push(start..start + before);
                }
            }
            None if base64_line(content) => {
                let (first, n) = run.unwrap_or((i, 0));
                run = Some((first, n + 1));
                if n + 1 == 2 {
                    spans.push(span_of(first, i));
                } else if n + 1 > 2
                    && let Some(last) = spans.last_mut()
                {
                    *last = span_of(first, i);
                }
            }
            None => run = None,
        }
        i += 1;
    }
    spans.sort_by_key(|s| s.start);
    spans
}

/// A line inside a key block: base64 (any width up to 76, the last line is shorter) or a PEM
/// header (`Proc-Type: 4,ENCRYPTED`, `Version: …`), not empty.
fn key_body_line(line: &str) -> bool {
    let t = line.trim();
    if t.is_empty() || pem_marker(t).is_some() {
        return false;
    }
    let base64 = t.len() <= 76
        && t.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='));
    let header = t.split_once(": ").is_some_and(|(name, _)| {
        !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphabetic() || b == b'-')
    });
    base64 || header
}

/// Somewhere in `s`, 16 base64 characters in a row (a key, not a label).
fn base64_run(s: &str) -> bool {
    let mut n = 0;
    s.bytes().any(|b| {
        n = if b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=') {
            n + 1
        } else {
            0
        };
        n >= 16
    })
}

enum Marker {
    Begin,
    End,
}

/// `-----BEGIN RSA PRIVATE KEY-----`, `-----END PGP PRIVATE KEY BLOCK-----`, … anywhere in a line.
fn pem_marker(line: &str) -> Option<Marker> {
    if !line.contains("PRIVATE KEY") {
        return None;
    }
    if line.contains("-----BEGIN") {
        Some(Marker::Begin)
    } else if line.contains("-----END") {
        Some(Marker::End)
    } else {
        None
    }
}

/// Where the BEGIN marker of a line ends (its closing `-----`).
fn pem_marker_end(line: &str) -> usize {
    let Some(begin) = line.find("-----BEGIN") else {
        return line.len();
    };
    let after = begin + "-----BEGIN".len();
    line[after..]
        .find("-----")
        .map_or(line.len(), |i| after + i + "-----".len())
}

/// A line of a key's base64 body: 60 to 76 base64 characters, letters and digits mixed.
fn base64_line(line: &str) -> bool {
    let t = line.trim();
    (60..=76).contains(&t.len())
        && t.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))
        && t.bytes().any(|b| b.is_ascii_digit())
        && t.bytes().any(|b| b.is_ascii_uppercase())
        && t.bytes().any(|b| b.is_ascii_lowercase())
}

/// A quoted literal that reads as a secret: not a keyword, a mask, a placeholder, a label
/// repeating the name, a colour, a regular expression or an interpolation of other values.
fn quoted_secret(v: &str, word: &str, weak: bool) -> bool {
    let t = v.trim();
    let letters_only = t
        .chars()
        .all(|c| c.is_alphabetic() || matches!(c, '_' | '-' | ' '));
    !(t.chars().count() < 4
        || mask(t)
        || reference(t)
        || NOT_SECRET_WORDS.iter().any(|w| t.eq_ignore_ascii_case(w))
        || (letters_only
            && t.to_ascii_lowercase()
                .replace(['_', '-', ' '], "")
                .contains(word))
        || (word == "pwd" && t.starts_with(['/', '~']))
        || colour(t)
        || regex_like(t)
        || (weak && !random_looking(t)))
}

/// `****`, `...`, `••••`: a mask or a placeholder, not a value (a password of other symbols,
/// `&!%*#%`, is one).
fn mask(t: &str) -> bool {
    let mut chars = t.chars();
    let first = chars.next();
    chars.all(|c| Some(c) == first) || t.chars().all(|c| "*.•·-_ ?".contains(c))
}

/// `#f8f8f2`: a colour (pygments styles map `Token` to colours).
fn colour(t: &str) -> bool {
    t.strip_prefix('#').is_some_and(|hex| {
        matches!(hex.len(), 3 | 4 | 6 | 8) && hex.bytes().all(|b| b.is_ascii_hexdigit())
    })
}

/// A regular expression (lexers name their patterns `token`).
fn regex_like(t: &str) -> bool {
    [
        "(?:", "[^", "\\w", "\\d", "\\s", "]+", "]*", ")+", ")*", ".*", "\\b",
    ]
    .iter()
    .any(|m| t.contains(m))
}

/// `${VAR}`, `$VAR`, `{{ var }}`, `%(name)s`, `<your-password>`, `f"{a}:{b}"`: a reference or
/// a template of other values, not a value.
fn reference(v: &str) -> bool {
    let t = v.trim();
    let mut outside = 0;
    let mut depth = 0usize;
    for c in t.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            c if depth == 0 && c.is_alphanumeric() => outside += 1,
            _ => {}
        }
    }
    t.starts_with('$')
        || (t.contains('{') && outside < 4)
        || t.starts_with("{{")
        || t.starts_with("%(")
        || t == "%s"
        || (t.starts_with('<') && t.ends_with('>'))
        || t == REDACTED
}

/// Random enough to be a key rather than a name: 16+ characters without spaces, letters and
/// digits mixed.
fn random_looking(v: &str) -> bool {
    v.len() >= 16
        && v.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"+/=_-.~".contains(&b))
        && v.bytes().any(|b| b.is_ascii_digit())
        && v.bytes().any(|b| b.is_ascii_alphabetic())
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
            "passphrase",
            "pwd",
            "db_pass",
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
            "bypass",
            "é_token_é",
            "",
        ] {
            assert!(!is_secret_key(key), "{key} should not be secret");
        }
    }

    #[test]
    fn only_the_secret_part_goes_and_the_line_stays_readable() {
        for (text, want) in [
            ("PASSWORD=hunter2", "PASSWORD=[REDACTED]"),
            (r#"password = "&!%*#%""#, r#"password = "[REDACTED]""#),
            (
                "  password: hunter2 # prod",
                "  password: [REDACTED] # prod",
            ),
            ("pwd = \"x9!z\"", "pwd = \"[REDACTED]\""),
            (r#"password = "it's\"x""#, r#"password = "[REDACTED]""#),
            (
                "postgres://app:s3cret@db/shop",
                "postgres://app:[REDACTED]@db/shop",
            ),
            (
                "Authorization: Bearer abc123def456",
                "Authorization: Bearer [REDACTED]",
            ),
        ] {
            let mut s = text.to_owned();
            assert!(redact_text(&mut s), "{text}");
            assert_eq!(s, want);
        }
    }

    #[test]
    fn a_token_glued_to_other_text_is_still_redacted() {
        let ghp = format!("ghp_{}", "a1B2c3D4".repeat(5));
        let akia = format!("AKIA{}", "ABCD2345".repeat(2));
        for text in [
            format!("https://api.example.com/x?token%3D{ghp}&y=1"),
            format!("id {akia}x"),
        ] {
            let mut t = text.clone();
            assert!(redact_text(&mut t), "{text}");
            assert!(!t.contains(&ghp) && !t.contains(&akia), "{t}");
        }
    }

    #[test]
    fn ordinary_code_is_left_alone() {
        for code in [
            r#"password = "********""#,
            "def hash(data):\n    return hashlib.sha1(data).hexdigest()\n",
            "password = get_password()\ntoken = self.token\nsecret_key = settings.SECRET_KEY",
            "def login(password: str, token: Optional[str] = None):",
            "    password: str,\n    token: Token | None = None,",
            "if not password:\n    raise ValueError('no password')",
            "for key, value in items:\n    sort_key = \"name\"\n    bypass = \"yes\"",
            "tokens = tokenize(text)\ntoken_count = len(tokens)",
            "PWD=/home/user\nkey = cache_key(user)",
            "password = None\nsecret = os.environ[\"SECRET\"]\ntoken = ${TOKEN}",
            "Basic authentication and Bearer tokens are supported.",
            "https://example.com:8080/path@v2 and http://host/x",
            "password: ${DB_PASSWORD}\ntoken: \"{{ vault_token }}\"",
        ] {
            let mut s = code.to_owned();
            assert!(!redact_text(&mut s), "changed:\n{code}\n→\n{s}");
        }
    }

    #[test]
    fn key_bodies_are_found_as_line_spans() {
        let body = "MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB\naVdV8R1n2k6cPu0hY2Zk4NQ9FkV8Xq3bT7yR0c1xEw5vJmL8nK2pQ4sD6fG8hJ9k";
        let text =
            format!("a\n-----BEGIN RSA PRIVATE KEY-----\n{body}\n-----END RSA PRIVATE KEY-----\nb");
        let spans = secret_line_spans(&text);
        assert_eq!(spans.len(), 1);
        assert_eq!(text[spans[0].clone()].trim(), body);
        assert!(secret_line_spans("just\ntext\n").is_empty());
    }
}
