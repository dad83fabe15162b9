//! Ids: the comparison key of an id (prefix case, leading zeros per dotted segment, bare
//! numbers under the default prefix), prefix aliases (declared, or implied by a Backlog.md
//! `task_prefix` other than `task`), the leading id of a file name, and null sentinels.

use std::collections::BTreeMap;

/// How ids compare in one workspace.
#[derive(Debug, Clone)]
pub struct IdRules {
    pub case_insensitive_prefix: bool,
    pub strip_leading_zeros: bool,
    /// Upper case.
    pub default_prefix: String,
    /// Old prefix (upper case) → (new prefix, implied by the Backlog.md prefix rename).
    pub aliases: BTreeMap<String, (String, bool)>,
}

/// An alias that was applied to find a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AliasApplied {
    pub written: String,
    pub resolved: String,
    pub from_prefix: String,
    pub to_prefix: String,
    pub implied: bool,
}

impl IdRules {
    pub fn new(
        case_insensitive_prefix: bool,
        strip_leading_zeros: bool,
        default_prefix: &str,
        declared: &BTreeMap<String, String>,
    ) -> IdRules {
        let mut aliases: BTreeMap<String, (String, bool)> = declared
            .iter()
            .map(|(k, v)| (k.to_ascii_uppercase(), (v.to_ascii_uppercase(), false)))
            .collect();
        let default_prefix = default_prefix.to_ascii_uppercase();
        if default_prefix != "TASK" {
            aliases
                .entry("TASK".into())
                .or_insert((default_prefix.clone(), true));
        }
        IdRules {
            case_insensitive_prefix,
            strip_leading_zeros,
            default_prefix,
            aliases,
        }
    }

    /// The comparison key of an id as written (`bill-03.01` → `BILL-3.1`, `12` → `TASK-12`;
    /// other ids compare case-insensitively: `Getting-Started` → `getting-started`).
    pub fn key(&self, raw: &str) -> String {
        let raw = raw.trim();
        if is_number_path(raw) {
            return format!("{}-{}", self.default_prefix, self.segments(raw));
        }
        match split_structured(raw) {
            Some((prefix, num)) => {
                let prefix = if self.case_insensitive_prefix {
                    prefix.to_ascii_uppercase()
                } else {
                    prefix.to_string()
                };
                format!("{prefix}-{}", self.segments(num))
            }
            None => raw.to_lowercase(),
        }
    }

    /// The id to display: as written, except a bare number gets the default prefix.
    pub fn display(&self, raw: &str) -> String {
        let raw = raw.trim();
        if is_number_path(raw) {
            format!("{}-{raw}", self.default_prefix)
        } else {
            raw.to_string()
        }
    }

    fn segments(&self, num: &str) -> String {
        if !self.strip_leading_zeros {
            return num.to_string();
        }
        num.split('.')
            .map(|s| {
                let t = s.trim_start_matches('0');
                if t.is_empty() { "0" } else { t }
            })
            .collect::<Vec<_>>()
            .join(".")
    }

    /// The key under a prefix alias, if the id's prefix has one.
    pub fn alias(&self, raw: &str) -> Option<(String, AliasApplied)> {
        let (prefix, num) = split_structured(raw.trim())?;
        let (to, implied) = self.aliases.get(&prefix.to_ascii_uppercase())?;
        let key = format!("{to}-{}", self.segments(num));
        Some((
            key.clone(),
            AliasApplied {
                written: raw.trim().to_string(),
                resolved: key,
                from_prefix: prefix.to_ascii_uppercase(),
                to_prefix: to.clone(),
                implied: *implied,
            },
        ))
    }
}

fn is_number_path(s: &str) -> bool {
    !s.is_empty()
        && s.split('.')
            .all(|seg| !seg.is_empty() && seg.bytes().all(|b| b.is_ascii_digit()))
}

/// `PREFIX-1.2` → (`PREFIX`, `1.2`); the prefix starts with a letter.
pub fn split_structured(s: &str) -> Option<(&str, &str)> {
    let (prefix, num) = s.rsplit_once('-')?;
    let starts_with_letter = prefix
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic());
    let prefix_ok = prefix
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    (starts_with_letter && prefix_ok && is_number_path(num)).then_some((prefix, num))
}

/// The leading `<prefix>-<n>[.<m>…]` of a file stem (`bill-3.1 - Validate payloads`), if any.
pub fn filename_id(stem: &str) -> Option<&str> {
    let bytes = stem.as_bytes();
    let mut i = 0;
    if !bytes.first().is_some_and(u8::is_ascii_alphabetic) {
        return None;
    }
    while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
        i += 1;
    }
    if bytes.get(i) != Some(&b'-') {
        return None;
    }
    i += 1;
    let num_start = i;
    while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'.') {
        i += 1;
    }
    let mut end = i;
    while end > num_start && bytes[end - 1] == b'.' {
        end -= 1;
    }
    if end == num_start {
        return None;
    }
    // `bill-3 - Title`, `bill-3`, `bill-3_title`; not `task-3a` nor `task-3-foo` (a slug).
    match bytes.get(end) {
        None => Some(&stem[..end]),
        Some(b' ') | Some(b'_') | Some(b'.') => Some(&stem[..end]),
        _ => None,
    }
}

/// Whether a value is a null sentinel (`n/a`, `TBD`, `-`, ...), compared trimmed and
/// case-insensitively.
pub fn is_sentinel(value: &str, null_values: &[String]) -> bool {
    let v = value.trim();
    null_values.iter().any(|n| n.trim().eq_ignore_ascii_case(v)) || v.is_empty()
}

/// The trailing number of an id (`BILL-42` → `42`), for number-only suggestions.
pub fn trailing_number(s: &str) -> Option<&str> {
    split_structured(s.trim())
        .map(|(_, n)| n)
        .or_else(|| is_number_path(s.trim()).then_some(s.trim()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules() -> IdRules {
        IdRules::new(true, true, "bill", &BTreeMap::new())
    }

    #[test]
    fn keys_ignore_prefix_case_and_leading_zeros_and_bare_numbers_take_the_default_prefix() {
        let r = rules();
        assert_eq!(r.key("bill-03.01"), "BILL-3.1");
        assert_eq!(r.key("BILL-3.1"), "BILL-3.1");
        assert_eq!(r.key("12"), "BILL-12");
        assert_eq!(r.key("DOC-8"), "DOC-8");
        assert_ne!(r.key("DOC-8"), r.key("BILL-8"));
        assert_eq!(r.key("Getting-Started"), "getting-started");
        assert_eq!(r.key("2001-pod-overhead"), "2001-pod-overhead");
        assert_eq!(r.display("12"), "BILL-12");
    }

    #[test]
    fn a_renamed_default_prefix_implies_the_task_alias() {
        let r = rules();
        let (key, applied) = r.alias("task-1").unwrap();
        assert_eq!(key, "BILL-1");
        assert!(applied.implied);
        assert!(r.alias("doc-1").is_none());
        let plain = IdRules::new(true, true, "task", &BTreeMap::new());
        assert!(plain.alias("task-1").is_none());
        let declared = IdRules::new(
            true,
            true,
            "task",
            &BTreeMap::from([("old".to_string(), "NEW".to_string())]),
        );
        assert_eq!(declared.alias("OLD-2").unwrap().0, "NEW-2");
    }

    #[test]
    fn filename_ids_take_the_leading_id_only() {
        assert_eq!(
            filename_id("bill-3.1 - Validate payloads"),
            Some("bill-3.1")
        );
        assert_eq!(filename_id("task-12"), Some("task-12"));
        assert_eq!(filename_id("task-7 - Fix `x` & (y) #2"), Some("task-7"));
        assert_eq!(filename_id("2001-pod-overhead"), None);
        assert_eq!(filename_id("getting-started"), None);
        assert_eq!(filename_id("task-3-foo"), None);
    }

    #[test]
    fn sentinels_are_case_insensitive_and_trimmed() {
        let nulls: Vec<String> = ["n/a", "tbd", "-"].iter().map(|s| s.to_string()).collect();
        assert!(is_sentinel(" N/A ", &nulls));
        assert!(is_sentinel("TBD", &nulls));
        assert!(is_sentinel("", &nulls));
        assert!(!is_sentinel("BILL-1", &nulls));
    }
}
