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
    let Some(o) = out.as_object_mut() else {
        return out;
    };
    let paged = paginate(matched, q.offset, q.max_chars);
    let (total, shown_total) = (paged.matched, paged.shown);
    for (c, list) in paged.lists {
        o.insert(c, Value::Array(list));
    }
    let categories = paged.categories;
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

/// One page of findings: per category the findings shown and `{matched, shown, before,
/// after}`, and the totals over all categories.
pub struct Paged {
    pub lists: Vec<(String, Vec<Value>)>,
    pub categories: Map<String, Value>,
    pub matched: usize,
    pub shown: usize,
}

/// The page of `findings` (in category order) that starts `offset` findings in: whole findings
/// while their JSON fits `max_chars`, and at least one. Public for the fuzz targets.
pub fn paginate<C: ToString>(
    findings: Vec<(C, Vec<Value>)>,
    offset: usize,
    max_chars: usize,
) -> Paged {
    let matched: usize = findings.iter().map(|(_, l)| l.len()).sum();
    let mut seen = 0usize;
    let mut used = 0usize;
    let mut full = false;
    let mut shown_total = 0usize;
    let mut categories = Map::new();
    let mut lists = Vec::new();
    for (c, list) in findings {
        let mut shown = Vec::new();
        let mut before = 0usize;
        let count = list.len();
        for f in list {
            let at = seen;
            seen += 1;
            if at < offset {
                before += 1;
                continue;
            }
            if full {
                continue;
            }
            let size = f.to_string().len();
            if used + size > max_chars && shown_total > 0 {
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
        lists.push((c.to_string(), shown));
    }
    Paged {
        lists,
        categories,
        matched,
        shown: shown_total,
    }
}
