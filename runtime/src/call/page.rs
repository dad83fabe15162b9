//! Cursors of paginated tools. An engine cursor is the backend's cursor of a page, how many of
//! that page's `items` earlier answers showed, and, for each `also` list (sent whole with every
//! page), how many of its items they showed. So a page cut by the budget or by `max_items`
//! continues exactly where it stopped, whichever list was cut, and no cut is out of reach.

use crate::arguments;
use crate::error::ToolError;
use crate::spec::{CONTINUED_KEY, PaginationSpec, ToolSpec};
use crate::trim::Report;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Map, Value, json};

/// The key under which a page's start travels from the request to [`next_cursor`].
pub(super) const PAGE_KEY: &str = "_page";

/// Where a page starts, from the cursor a caller passed back (default: a first page).
#[derive(Default)]
pub(super) struct Start {
    /// The backend's cursor of the page (none: its first page).
    pub backend: Option<String>,
    skip: usize,
    /// Items of each `also` list already shown.
    also: Map<String, Value>,
}

impl Start {
    /// Decodes a cursor this server issued for `tool`.
    pub fn decode(tool: &ToolSpec, p: &PaginationSpec, cursor: &str) -> Result<Start, ToolError> {
        let bad = || {
            ToolError::invalid_field(
                tool.name,
                arguments::child("", p.cursor),
                "cursor",
                "`cursor` is not a cursor this server issued. Pass a next_cursor from a previous answer, or omit it to start over.",
            )
        };
        let bytes = URL_SAFE_NO_PAD.decode(cursor).map_err(|_| bad())?;
        let value: Value = serde_json::from_slice(&bytes).map_err(|_| bad())?;
        let skip = value.get("s").and_then(Value::as_u64).ok_or_else(bad)?;
        let also = match value.get("a") {
            None => Map::new(),
            Some(Value::Object(a)) => a.clone(),
            Some(_) => return Err(bad()),
        };
        let known = also
            .iter()
            .all(|(list, n)| p.also.contains(&list.as_str()) && n.is_u64());
        if !known {
            return Err(bad());
        }
        Ok(Start {
            backend: value.get("b").and_then(Value::as_str).map(str::to_owned),
            skip: usize::try_from(skip).map_err(|_| bad())?,
            also,
        })
    }
}

fn encode(backend: Option<&str>, skip: usize, also: &Map<String, Value>) -> String {
    let mut cursor = json!({"b": backend, "s": skip});
    if !also.is_empty() {
        cursor["a"] = Value::Object(also.clone());
    }
    URL_SAFE_NO_PAD.encode(cursor.to_string())
}

fn pointer(dotted: &str) -> String {
    dotted.split('.').map(|s| format!("/{s}")).collect()
}

fn drain(response: &mut Value, list: &str, skip: usize) {
    if let Some(Value::Array(items)) = response.pointer_mut(&pointer(list)) {
        items.drain(..skip.min(items.len()));
    }
}

/// Drops already-shown items from every paged list and remembers where this page started
/// (under [`PAGE_KEY`]) for [`next_cursor`]. `start` is none on a first page.
pub(super) fn prepare(response: &mut Value, p: &PaginationSpec, start: Option<Start>) {
    let resumed = start.is_some();
    let start = start.unwrap_or_default();
    drain(response, p.items, start.skip);
    for list in p.also {
        drain(response, list, shown_before(&start.also, list));
    }
    if let Some(obj) = response.as_object_mut() {
        obj.insert(
            PAGE_KEY.to_owned(),
            json!({"cursor": start.backend, "skip": start.skip, "also": start.also, "resumed": resumed}),
        );
    }
}

fn shown_before(also: &Map<String, Value>, list: &str) -> usize {
    also.get(list)
        .and_then(Value::as_u64)
        .and_then(|n| usize::try_from(n).ok())
        .unwrap_or(0)
}

fn len_at(value: &Value, list: &str) -> usize {
    value
        .pointer(&pointer(list))
        .and_then(Value::as_array)
        .map_or(0, Vec::len)
}

/// The engine cursor of the next page of this (trimmed) answer, if anything is left: the page's
/// own items were cut, the backend has a next page, or an `also` list was cut. `value` still
/// holds the backend's next-page cursor under `p.next`.
pub(super) fn next_cursor(
    value: &Value,
    p: &PaginationSpec,
    page: &Value,
    report: &Report,
) -> Option<String> {
    let skip = page
        .get("skip")
        .and_then(Value::as_u64)
        .and_then(|s| usize::try_from(s).ok())
        .unwrap_or(0);
    let page_cursor = page.get("cursor").and_then(Value::as_str);
    let before = page.get("also").and_then(Value::as_object);
    let mut also = Map::new();
    let mut also_cut = false;
    for list in p.also {
        also_cut |= report.kept_at(list).is_some();
        let shown = before.map_or(0, |b| shown_before(b, list)) + len_at(value, list);
        if shown > 0 {
            also.insert((*list).to_owned(), json!(shown));
        }
    }
    let (backend, skip, more) = match report.kept_at(p.items) {
        // The page was cut: continue inside it.
        Some(kept) => (page_cursor, skip + kept, true),
        None => match value.get(p.next).and_then(Value::as_str) {
            Some(next) => (Some(next), 0, true),
            // This page's items are all shown: a next page only continues the other lists.
            None => (page_cursor, skip + len_at(value, p.items), false),
        },
    };
    (more || also_cut).then(|| encode(backend, skip, &also))
}

/// On a page reached with a cursor of a tool with `also` lists: how many items of each list
/// earlier pages showed (the page's own `items` only while their count is absolute, on the
/// backend's first page).
pub(super) fn continued(p: &PaginationSpec, page: &Value) -> Option<(&'static str, Value)> {
    if p.also.is_empty() || page.get("resumed") != Some(&Value::Bool(true)) {
        return None;
    }
    let mut counts = Map::new();
    if page.get("cursor").is_none_or(Value::is_null) {
        counts.insert(
            p.items.to_owned(),
            page.get("skip").cloned().unwrap_or(json!(0)),
        );
    }
    let before = page.get("also").and_then(Value::as_object);
    for list in p.also {
        let n = before.map_or(0, |b| shown_before(b, list));
        counts.insert((*list).to_owned(), json!(n));
    }
    Some((CONTINUED_KEY, Value::Object(counts)))
}
