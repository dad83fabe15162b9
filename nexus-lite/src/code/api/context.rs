//! What the graph knows about one file, with a snippet (secret lines masked).

use super::findings::{FINDING_COLS, finding_json};
use super::*;
use rusqlite::OptionalExtension;

pub(super) async fn file_context(State(s): State<Arc<AppState>>, q: Q) -> ApiResult {
    let p = P::new(q)?;
    blocking(s, move |s| {
        let path = p.path("path")?.ok_or_else(|| ApiError::bad("`path` (repo-relative) is required"))?;
        let line = p.opt_int("line", 1, i64::from(u32::MAX))?;
        let radius = p.int("radius", 8, 0, 40)?;
        let conn = s.reader()?;
        let (gpk, g) = select(s, &conn, &p)?;
        let indexed_hash: Option<String> = conn
            .query_row(
                "SELECT content_hash FROM files WHERE gpk=?1 AND path=?2",
                rusqlite::params![gpk, path],
                |r| r.get(0),
            )
            .optional()?;
        let in_graph = indexed_hash.is_some();
        // Through the file's part: its nodes and imports are together, whatever the graph's
        // size.
        let mut st = conn.prepare(
            "SELECT n.kind, n.name, n.qualified_name, n.line, n.end_line, n.detail
             FROM files f JOIN part_nodes n ON n.part = f.part
             WHERE f.gpk=?1 AND f.path=?2 AND n.path=?2 AND n.kind IN ('class','function','method')
             ORDER BY n.line, n.id",
        )?;
        let symbols: Vec<Value> = st
            .query_map(rusqlite::params![gpk, path], |r| {
                Ok(json!({
                    "kind": r.get::<_, String>(0)?,
                    "name": r.get::<_, String>(1)?,
                    "qualified_name": r.get::<_, String>(2)?,
                    "line": r.get::<_, Option<i64>>(3)?,
                    "end_line": r.get::<_, Option<i64>>(4)?,
                    "detail": r.get::<_, Option<String>>(5)?,
                }))
            })?
            .collect::<Result<_, _>>()?;
        let enclosing = line.and_then(|l| {
            symbols
                .iter()
                .filter(|s| s["line"].as_i64().unwrap_or(i64::MAX) <= l && l <= s["end_line"].as_i64().unwrap_or(0))
                .max_by_key(|s| s["line"].as_i64().unwrap_or(0))
                .cloned()
        });
        let mut st = conn.prepare(
            "SELECT i.module, i.resolved_path, i.external, i.line
             FROM files f JOIN part_imports i ON i.part = f.part
             WHERE f.gpk=?1 AND f.path=?2 AND i.path=?2 ORDER BY i.line",
        )?;
        let imports: Vec<Value> = st
            .query_map(rusqlite::params![gpk, path], |r| {
                Ok(json!({
                    "module": r.get::<_, String>(0)?,
                    "resolved_path": r.get::<_, Option<String>>(1)?,
                    "external": r.get::<_, bool>(2)?,
                    "line": r.get::<_, i64>(3)?,
                }))
            })?
            .collect::<Result<_, _>>()?;
        // Paged (`limit`, `cursor`) in (path, line) order, so every importer is on some page.
        let (limit, offset) = p.page()?;
        let importers_total: i64 = conn.query_row(
            &format!("SELECT COUNT(*) FROM (SELECT DISTINCT i.path, i.line {IMPORTERS})"),
            rusqlite::params![gpk, path],
            |r| r.get(0),
        )?;
        let mut st = conn.prepare(
            &format!("SELECT DISTINCT i.path, i.line {IMPORTERS} ORDER BY i.path, i.line LIMIT ?3 OFFSET ?4"),
        )?;
        let imported_by: Vec<Value> = st
            .query_map(rusqlite::params![gpk, path, limit as i64, offset as i64], |r| {
                Ok(json!({"path": r.get::<_, String>(0)?, "line": r.get::<_, i64>(1)?}))
            })?
            .collect::<Result<_, _>>()?;
        let mut st = conn.prepare(&format!(
            "SELECT {FINDING_COLS} FROM findings WHERE gpk=?1 AND path=?2 ORDER BY line, sev_order, finding_id"
        ))?;
        let findings: Vec<Value> = st
            .query_map(rusqlite::params![gpk, path], |r| finding_json(r, false))?
            .collect::<Result<_, _>>()?;
        let stored_spans = store::secret_spans(&conn, gpk, &path)?;
        let clean_graph = g["worktree_dirty"] == false;
        let snippet = g["repository"]
            .as_str()
            .and_then(|r| s.repo(r))
            .zip(g["commit_sha"].as_str())
            .and_then(|(repo, sha)| {
                indexed_hash
                    .as_deref()
                    .filter(|_| clean_graph)
                    .and_then(|h| work_tree_copy(&repo.root, &path, h))
                    .or_else(|| git::show(&repo.root, sha, &path).ok())
            })
            .and_then(|bytes| {
                let text = String::from_utf8(bytes).ok()?;
                snippet(&text, line, radius, stored_spans)
            });
        Ok(json!({
            "graph": g,
            "path": path,
            "language": index::language_of(&path),
            "in_graph": in_graph,
            "symbols": symbols,
            "enclosing_symbol": enclosing,
            "imports": imports,
            "imported_by": imported_by,
            "imported_by_total": importers_total,
            "next_cursor": next_cursor(offset, limit, usize::try_from(importers_total).unwrap_or(0)),
            "findings": findings,
            "snippet": snippet,
        }))
    })
    .await
}

/// The file's bytes from the work tree when they are still the ones a clean graph indexed
/// (`hash`, so the committed ones): spawning `git cat-file` was most of a file-context call.
fn work_tree_copy(root: &std::path::Path, path: &str, hash: &str) -> Option<Vec<u8>> {
    let full = root.join(path);
    let meta = std::fs::symlink_metadata(&full).ok()?;
    if !meta.is_file() || meta.len() > index::MAX_FILE_BYTES {
        return None;
    }
    let bytes = std::fs::read(&full).ok()?;
    let same = hash.strip_prefix("sha256:") == Some(crate::core::util::sha256_hex(&bytes).as_str());
    same.then_some(bytes)
}

/// The window of `radius` lines around `line` of `text`, every line of a secret span replaced by
/// its marker. The spans are those recorded at index time plus those found in `text` now: the
/// text is read from git at request time and a window that starts inside a key block never
/// shows the block's BEGIN line, so the whole file is what decides.
pub(super) fn snippet(
    text: &str,
    line: Option<i64>,
    radius: i64,
    stored: Vec<SecretSpan>,
) -> Option<Value> {
    let lines: Vec<&str> = text.lines().collect();
    if lines.is_empty() {
        return None;
    }
    let center = line.unwrap_or(1 + radius).max(1) as usize;
    let start = center.saturating_sub(radius as usize).max(1);
    let end = (center + radius as usize).min(lines.len());
    if start > end {
        return None;
    }
    let mut spans = stored;
    spans.extend(secret_spans::detect(text));
    let spans = secret_spans::merge(spans);
    let shown: Vec<Cow<'_, str>> = (start..=end)
        .map(|n| {
            let no = u32::try_from(n).unwrap_or(u32::MAX);
            secret_spans::mask_line(&spans, no, lines[n - 1])
        })
        .collect();
    Some(json!({"start_line": start, "end_line": end, "text": shown.join("\n")}))
}

/// The import rows of graph ?1 that resolve to path ?2 from another file: found by target
/// first (every stored version of them), then kept if their part is in the graph.
const IMPORTERS: &str =
    "FROM part_imports i INDEXED BY part_imports_by_target CROSS JOIN graph_parts gp
     WHERE i.resolved_path=?2 AND gp.gpk=?1 AND gp.part=i.part AND i.path<>?2";
