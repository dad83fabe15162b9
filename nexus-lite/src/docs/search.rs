//! search_nodes: every word of the query must appear in a document's id, title or body;
//! matches are ranked id first, then title, then body occurrences.

use super::graph;
use super::index::Index;
use nexus_secrets::markdown as redact;
use serde_json::{Value, json};

/// Ranked matches (at most `limit`) and how many documents matched.
pub fn search(
    idx: &Index,
    query: &str,
    types: &[String],
    statuses: &[String],
    lifecycles: &[String],
    limit: usize,
) -> (Vec<Value>, usize) {
    let words: Vec<String> = query
        .split_whitespace()
        .map(|w| w.to_lowercase())
        .filter(|w| !w.is_empty())
        .collect();
    if words.is_empty() {
        return (Vec::new(), 0);
    }
    let phrase = query.trim().to_lowercase();
    let qkey = idx.rules.key(query);
    let keep = |v: Option<&str>, want: &[String]| {
        want.is_empty() || v.is_some_and(|x| want.iter().any(|w| w.eq_ignore_ascii_case(x)))
    };
    let mut hits: Vec<(f64, usize, Option<usize>)> = Vec::new();
    for (i, d) in idx.docs.iter().enumerate() {
        if !keep(Some(&d.doc_type), types)
            || !keep(d.status.as_deref(), statuses)
            || !graph::in_lifecycle(d, lifecycles)
        {
            continue;
        }
        let id = d.id.to_lowercase();
        let title = d.title.to_lowercase();
        let text = idx.body(d);
        let body = text.to_lowercase();
        let mut score = 0.0;
        if d.key == qkey {
            score += 100.0;
        }
        if title.contains(&phrase) {
            score += 20.0;
        }
        let mut first_body: Option<usize> = None;
        let mut all = true;
        for w in &words {
            let in_id = id.contains(w.as_str());
            let in_title = title.contains(w.as_str());
            let count = body.matches(w.as_str()).take(10).count();
            if !(in_id || in_title || count > 0) {
                all = false;
                break;
            }
            score +=
                if in_id { 15.0 } else { 0.0 } + if in_title { 10.0 } else { 0.0 } + count as f64;
            if first_body.is_none() {
                first_body = body.find(w.as_str());
            }
        }
        if all {
            hits.push((score, i, first_body));
        }
    }
    hits.sort_by(|a, b| {
        b.0.total_cmp(&a.0)
            .then(idx.docs[a.1].key.cmp(&idx.docs[b.1].key))
    });
    let total = hits.len();
    let items = hits
        .into_iter()
        .take(limit)
        .map(|(score, i, at)| {
            let mut v = graph::summary(idx, i);
            v["score"] = json!(score);
            v["snippet"] = json!(at.map(|at| snippet(&idx.body(&idx.docs[i]), at)));
            v
        })
        .collect::<Vec<Value>>();
    (items, total)
}

/// About 160 characters around byte `at` of the body (found in the lower-cased body; the same
/// offsets hold for ASCII text, and are moved to a character boundary otherwise): the hit line
/// and its neighbours, each redacted whole ([`redact::lines`]) before any is cut or joined, so a
/// secret is never split where the redaction cannot recognise it.
fn snippet(body: &str, at: usize) -> String {
    let mut at = at.min(body.len());
    while at > 0 && !body.is_char_boundary(at) {
        at -= 1;
    }
    let line = body[..at].matches('\n').count();
    let col = at - body[..at].rfind('\n').map_or(0, |i| i + 1);
    let first = line.saturating_sub(1);
    let lines = redact::lines(body, first..line + 2);
    // The hit's offset in the joined text: the lines before it, then its column (clamped:
    // redaction may have shortened the hit line).
    let mut pos = 0;
    let mut joined = String::new();
    for (i, l) in lines.iter().enumerate() {
        let one_line: String = l.split_whitespace().collect::<Vec<_>>().join(" ");
        if !joined.is_empty() && !one_line.is_empty() {
            joined.push(' ');
        }
        if first + i == line {
            let lead = l.len() - l.trim_start().len();
            pos = joined.len() + col.saturating_sub(lead).min(one_line.len());
        }
        joined.push_str(&one_line);
    }
    let mut start = pos.saturating_sub(60).min(joined.len());
    while start > 0 && !joined.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = (pos + 100).min(joined.len());
    while end < joined.len() && !joined.is_char_boundary(end) {
        end += 1;
    }
    format!(
        "{}{}{}",
        if start > 0 || first > 0 { "…" } else { "" },
        &joined[start..end],
        if end < joined.len() || line + 2 < body.lines().count() {
            "…"
        } else {
            ""
        }
    )
}

/// Typed text longer than any id (the tools cap ids at 200 characters) matches nothing, so a
/// huge completion value costs nothing per document.
const MAX_MATCH_CHARS: usize = 200;

/// Ranks documents against typed text, for completions and node lists (`match=`): the text's
/// lowercase form and id key are computed once, not per document.
pub struct Matcher {
    lower: String,
    key: String,
    too_long: bool,
}

impl Matcher {
    pub fn new(idx: &Index, typed: &str) -> Matcher {
        let too_long = typed.chars().count() > MAX_MATCH_CHARS;
        let (lower, key) = if too_long {
            (String::new(), String::new())
        } else {
            (typed.trim().to_lowercase(), idx.rules.key(typed))
        };
        Matcher {
            lower,
            key,
            too_long,
        }
    }

    /// How well document `i` matches: the tier (0 the exact id, 1 an id prefix, 2 a title word
    /// prefix, 3 a substring of id or title) and the id's length (shorter first within a
    /// tier); `None` when it does not match.
    pub fn rank(&self, idx: &Index, i: usize) -> Option<(u8, usize)> {
        if self.too_long {
            return None;
        }
        let t = &self.lower;
        if t.is_empty() {
            return Some((0, 0));
        }
        let d = &idx.docs[i];
        let id = d.id.to_lowercase();
        let title = d.title.to_lowercase();
        let tier = if d.key == self.key {
            0
        } else if id.starts_with(t.as_str()) || d.key.starts_with(&self.key) {
            1
        } else if title
            .split(|c: char| !c.is_alphanumeric())
            .any(|w| !w.is_empty() && w.starts_with(t.as_str()))
        {
            2
        } else if id.contains(t.as_str()) || title.contains(t.as_str()) {
            3
        } else {
            return None;
        };
        Some((tier, d.id.len()))
    }
}
