//! The traceability audit, paged: its findings in category order (problems first), filtered by
//! category (`kind`) and by the file they are about (`path`, a prefix), cut into pages of at
//! most `max_chars` characters of findings. Every page carries the whole summary and, per
//! category, the exact number of findings matched, shown and left, so a caller knows what a
//! cursor still reaches.

use super::graph;
use super::index::Index;
use crate::core::http::{ApiError, Params};
use crate::core::util::{decode_cursor, encode_cursor};
use serde_json::{Map, Value, json};

/// The audit's categories, in page order, with the keys of a finding that name its files.
pub const CATEGORIES: [(&str, &[&str]); 13] = [
    ("parseErrors", &["path"]),
    ("duplicateIds", &["paths"]),
    ("cycles", &["paths"]),
    ("selfLoops", &["file"]),
    ("brokenLinks", &["fromPath"]),
    ("danglingDependencies", &["fromPath"]),
    ("danglingParents", &["fromPath"]),
    ("ambiguousLinks", &["fromPath"]),
    ("oneSidedSupersession", &["newerPath", "olderPath"]),
    ("aliasesApplied", &["fromPath"]),
    ("externalPaths", &["fromPath"]),
    ("externalLinks", &["fromPath"]),
    ("sentinels", &["fromPath"]),
];

/// Characters of findings per page when the caller does not say: with the summary, a page
/// stays within the 8,000 characters an MCP answer is held to.
pub const DEFAULT_PAGE_CHARS: usize = 4000;

/// What a caller asked of the audit.
pub struct Query {
    kinds: Vec<String>,
    path: Option<String>,
    offset: usize,
    max_chars: usize,
}

impl Query {
    pub fn from_params(p: &Params) -> Result<Query, ApiError> {
        let names: Vec<&str> = CATEGORIES.iter().map(|(c, _)| *c).collect();
        let offset = match p.str("cursor") {
            None => 0,
            Some(c) => decode_cursor(c).ok_or_else(|| {
                ApiError::bad("invalid cursor: pass back exactly the `nextCursor` of the previous audit page (with the same `kind` and `path`), or omit it to start over")
            })?,
        };
        Ok(Query {
            kinds: p.list("kind", &names)?,
            path: p.path("path")?.filter(|s| !s.is_empty()),
            offset,
            max_chars: p.int("max_chars", DEFAULT_PAGE_CHARS as i64, 200, 1_000_000)? as usize,
        })
    }
}

/// Whether `finding` of `category` is about a file under `prefix` (a folder or file prefix).
fn under(finding: &Value, keys: &[&str], prefix: &str) -> bool {
    keys.iter()
        .filter_map(|k| finding.get(*k))
        .flat_map(|v| match v {
            Value::Array(a) => a.iter().filter_map(Value::as_str).collect::<Vec<_>>(),
            other => other.as_str().into_iter().collect(),
        })
        .any(|file| file.starts_with(prefix))
}

/// One page of the audit of `idx` for `q`.
pub fn page(idx: &Index, q: &Query) -> Value {
    let (mut out, findings) = graph::audit(idx);
    let matched: Vec<(&str, Vec<Value>)> = findings
        .into_iter()
        .filter(|(c, _)| q.kinds.is_empty() || q.kinds.iter().any(|k| k == c))
        .map(|(c, list)| {
            let keys = CATEGORIES
                .iter()
                .find(|(name, _)| *name == c)
                .map_or(&[][..], |(_, k)| *k);
            let kept = match &q.path {
                None => list,
                Some(prefix) => list
                    .into_iter()
                    .filter(|f| under(f, keys, prefix))
                    .collect(),
            };
            (c, kept)
        })
        .collect();
    let total: usize = matched.iter().map(|(_, l)| l.len()).sum();
    // Walk the flattened order from the cursor, keeping whole findings within the page.
    let mut seen = 0usize;
    let mut used = 0usize;
    let mut full = false;
    let mut shown_total = 0usize;
    let mut categories = Map::new();
    let Some(o) = out.as_object_mut() else {
        return out;
    };
    for (c, list) in matched {
        let mut shown = Vec::new();
        let mut before = 0usize;
        let count = list.len();
        for f in list {
            let at = seen;
            seen += 1;
            if at < q.offset {
                before += 1;
                continue;
            }
            if full {
                continue;
            }
            let size = f.to_string().len();
            if used + size > q.max_chars && shown_total > 0 {
                full = true;
                continue;
            }
            used += size;
            shown_total += 1;
            shown.push(f);
        }
        let n = shown.len();
        categories.insert(
            c.to_string(),
            json!({"matched": count, "shown": n, "before": before, "after": count - before - n}),
        );
        o.insert(c.to_string(), Value::Array(shown));
    }
    let next = q.offset + shown_total;
    o.insert(
        "page".into(),
        json!({
            "filters": {"kind": q.kinds, "path": q.path},
            "matched": total, "offset": q.offset, "shown": shown_total, "maxChars": q.max_chars,
            "categories": categories,
        }),
    );
    o.insert(
        "nextCursor".into(),
        if next < total {
            json!(encode_cursor(next))
        } else {
            Value::Null
        },
    );
    out
}
