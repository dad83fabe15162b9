//! Persistent parse and analyser caches (SQLite), so the first incremental run after a restart
//! reuses the work of the previous process instead of re-parsing and re-analysing everything.
//!
//! - `parse_cache`: one [`FileParse`] (postcard-encoded) per (grammar, content sha256), valid for one
//!   [`parse_format`] (a fingerprint of the parser code and grammars: an upgraded nexus-lite
//!   never reuses parses made by another version).
//! - `analyser_cache`: ruff/bandit findings per (tool, path, content sha256, fingerprint), the
//!   fingerprint covering the analyser configuration files, the normalizer code and the tool
//!   executable found on `PATH` (its path, size and mtime: an upgrade invalidates).
//! - `file_reads`: what the last read of each tracked file found, by repository and path (see
//!   `index::FileRead`), so a new process reads again only the files whose metadata changed.
//!   Written in the graph's transaction too; a file no longer tracked loses its row.
//!
//! Parses and results are written in the graph's transaction and pruned there: entries not
//! referenced by the latest ready graph of some (repository, branch) are deleted, so the size
//! stays bounded by the files of the graphs being served.

use crate::code::findings::{FileResults, RawFinding};
use crate::code::index::FileRead;
use crate::code::lang::FileParse;
use crate::code::store::insert_each;
use crate::core::analyser::severity::Level;
use crate::core::error::LiteError;
use rusqlite::{Connection, OptionalExtension, Transaction, params};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::{Arc, LazyLock};

/// Every source file under `lang/` (a test checks none is missing), and the crate's manifest
/// (the grammars' versions).
const PARSER_SOURCES: [(&str, &str); 9] = [
    ("lang/mod.rs", include_str!("lang/mod.rs")),
    ("lang/python.rs", include_str!("lang/python.rs")),
    ("lang/python/types.rs", include_str!("lang/python/types.rs")),
    (
        "lang/python/docstring.rs",
        include_str!("lang/python/docstring.rs"),
    ),
    ("lang/ecmascript.rs", include_str!("lang/ecmascript.rs")),
    (
        "lang/ecmascript/types.rs",
        include_str!("lang/ecmascript/types.rs"),
    ),
    ("lang/rust_lang.rs", include_str!("lang/rust_lang.rs")),
    (
        "lang/rust_lang/types.rs",
        include_str!("lang/rust_lang/types.rs"),
    ),
    ("../../Cargo.toml", include_str!("../../Cargo.toml")),
];

/// Fingerprint of everything that shapes a [`FileParse`]: the language modules' source, the
/// tree-sitter grammars (ABI, node kinds, fields), and `Cargo.toml` (the pinned Ruff parser).
pub fn parse_format() -> &'static str {
    static FORMAT: LazyLock<String> = LazyLock::new(|| {
        let mut all: String = PARSER_SOURCES.iter().map(|(_, text)| *text).collect();
        let grammars: [tree_sitter::Language; 3] = [
            tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            tree_sitter_typescript::LANGUAGE_TSX.into(),
            tree_sitter_rust::LANGUAGE.into(),
        ];
        let js: tree_sitter::Language = tree_sitter_javascript::LANGUAGE.into();
        for g in grammars.iter().chain(std::iter::once(&js)) {
            all.push_str(&format!(
                "\0{}:{}:{}",
                g.abi_version(),
                g.node_kind_count(),
                g.field_count()
            ));
        }
        crate::core::util::sha256_hex(all.as_bytes())
    });
    &FORMAT
}

/// The executable `program` would run as from `PATH`: path, size and mtime (or `missing`).
fn executable_fingerprint(program: &str) -> String {
    let Some(path) = std::env::var_os("PATH") else {
        return "missing".into();
    };
    for dir in std::env::split_paths(&path) {
        let p = dir.join(program);
        if let Ok(m) = std::fs::metadata(&p)
            && m.is_file()
        {
            let mtime = m
                .modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map(|d| d.as_nanos())
                .unwrap_or(0);
            return format!("{}\0{}\0{mtime}", p.display(), m.len());
        }
    }
    "missing".into()
}

/// Cache fingerprint of one analyser: configuration files, our normalizer, the executable.
pub fn analyser_fingerprint(tool: &str, config_fingerprint: &str) -> String {
    let mut all = Vec::new();
    for part in [
        tool,
        config_fingerprint,
        include_str!("findings.rs"),
        include_str!("../core/analyser/severity.rs"),
        &executable_fingerprint(tool),
    ] {
        all.extend_from_slice(part.as_bytes());
        all.push(0);
    }
    crate::core::util::sha256_hex(&all)
}

/// Splits a parse-cache key `grammar:sha256:…` into (grammar, content hash).
fn split_key(key: &str) -> Option<(&str, &str)> {
    key.split_once(':')
}

/// Stored parses for `keys` (`grammar:content hash`) made by this parser version. A row that
/// does not deserialize is treated as a miss.
pub fn load_parses(
    conn: &Connection,
    keys: &[String],
) -> Result<HashMap<String, FileParse>, LiteError> {
    let mut out = HashMap::new();
    if keys.is_empty() {
        return Ok(out);
    }
    let mut st = conn
        .prepare_cached(
            "SELECT parse FROM parse_cache WHERE content_hash=?1 AND grammar=?2 AND format=?3",
        )
        .map_err(LiteError::db("preparing the parse cache lookup"))?;
    let mut stored: Vec<(&String, Vec<u8>)> = Vec::new();
    for key in keys {
        let Some((grammar, hash)) = split_key(key) else {
            continue;
        };
        let bytes: Option<Vec<u8>> = st
            .query_row(params![hash, grammar, parse_format()], |r| r.get(0))
            .optional()
            .map_err(LiteError::db("reading the parse cache"))?;
        if let Some(bytes) = bytes {
            stored.push((key, bytes));
        }
    }
    // Decoding is most of the load at a million lines: on every core.
    let parses = crate::code::index::parallel_map(
        stored.len(),
        || (),
        |_, i| postcard::from_bytes::<FileParse>(&stored[i].1).ok(),
    );
    for ((key, _), parse) in stored.iter().zip(parses) {
        if let Some(Some(parse)) = parse {
            out.insert((*key).clone(), parse);
        }
    }
    Ok(out)
}

/// Writes parses (`key`, files.language, parse) inside the graph transaction.
pub fn store_parses(
    tx: &Transaction<'_>,
    entries: &[(String, &'static str, Arc<FileParse>)],
) -> Result<usize, LiteError> {
    let mut st = tx
        .prepare_cached(
            "INSERT OR REPLACE INTO parse_cache(content_hash, grammar, language, format, parse)
             VALUES (?1, ?2, ?3, ?4, ?5)",
        )
        .map_err(LiteError::db("preparing the parse cache write"))?;
    let mut n = 0;
    for (key, language, parse) in entries {
        let Some((grammar, hash)) = split_key(key) else {
            continue;
        };
        let Ok(bytes) = postcard::to_allocvec(parse.as_ref()) else {
            continue;
        };
        st.execute(params![hash, grammar, language, parse_format(), bytes])
            .map_err(LiteError::db("writing the parse cache"))?;
        n += 1;
    }
    Ok(n)
}

/// True when the stored parse cache holds entries for files of graph `gpk` (a plan then says
/// `incremental` even right after a restart).
pub fn has_parses_for_graph(conn: &Connection, gpk: i64) -> Result<bool, LiteError> {
    conn.query_row(
        "SELECT EXISTS(SELECT 1 FROM files f JOIN parse_cache p
           ON p.content_hash=f.content_hash AND p.language=f.language
         WHERE f.gpk=?1 AND p.format=?2)",
        params![gpk, parse_format()],
        |r| r.get(0),
    )
    .map_err(LiteError::db("reading the parse cache"))
}

/// A [`RawFinding`] as stored (its `&'static str` fields as text).
#[derive(Serialize, Deserialize)]
struct StoredFinding {
    source_tool: String,
    finding_type: String,
    rule_id: String,
    path: String,
    line: Option<u32>,
    end_line: Option<u32>,
    message: String,
    severity: String,
    confidence: Option<String>,
    category: String,
    false_positive: Option<String>,
}

fn intern(value: &str, known: &[&'static str]) -> Option<&'static str> {
    known.iter().find(|k| **k == value).copied()
}

impl StoredFinding {
    fn from_raw(f: &RawFinding) -> StoredFinding {
        StoredFinding {
            source_tool: f.source_tool.into(),
            finding_type: f.finding_type.clone(),
            rule_id: f.rule_id.clone(),
            path: f.path.clone(),
            line: f.line,
            end_line: f.end_line,
            message: f.message.clone(),
            severity: f.severity.as_str().into(),
            confidence: f.confidence.map(str::to_string),
            category: f.category.into(),
            false_positive: f.false_positive.clone(),
        }
    }

    fn into_raw(self) -> Option<RawFinding> {
        let confidence = match &self.confidence {
            None => None,
            Some(c) => Some(intern(c, &["high", "medium", "low"])?),
        };
        Some(RawFinding {
            source_tool: intern(&self.source_tool, &["ruff", "bandit"])?,
            finding_type: self.finding_type,
            rule_id: self.rule_id,
            path: self.path,
            line: self.line,
            end_line: self.end_line,
            message: self.message,
            severity: Level::parse(&self.severity)?,
            confidence,
            category: intern(
                &self.category,
                &[
                    "security",
                    "runtime",
                    "architecture",
                    "maintainability",
                    "style",
                ],
            )?,
            false_positive: self.false_positive,
        })
    }
}

/// Stored findings of `tool` for (path, content hash) pairs under `fingerprint`, and the tool
/// version recorded with them.
pub type LoadedFindings = (HashMap<(String, String), FileResults>, Option<String>);

pub fn load_findings(
    conn: &Connection,
    tool: &str,
    fingerprint: &str,
    files: &[(String, String)],
) -> Result<LoadedFindings, LiteError> {
    let mut out = HashMap::new();
    let mut version = None;
    if files.is_empty() {
        return Ok((out, version));
    }
    let mut st = conn
        .prepare_cached(
            "SELECT version, findings FROM analyser_cache
             WHERE tool=?1 AND path=?2 AND content_hash=?3 AND fingerprint=?4",
        )
        .map_err(LiteError::db("preparing the analyser cache lookup"))?;
    for (path, hash) in files {
        let row: Option<(Option<String>, String)> = st
            .query_row(params![tool, path, hash, fingerprint], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .optional()
            .map_err(LiteError::db("reading the analyser cache"))?;
        let Some((v, text)) = row else { continue };
        let Ok(stored) = serde_json::from_str::<StoredResults>(&text) else {
            continue;
        };
        let Some(findings) = stored
            .findings
            .into_iter()
            .map(StoredFinding::into_raw)
            .collect::<Option<Vec<_>>>()
        else {
            continue;
        };
        if version.is_none() {
            version = v;
        }
        let results = FileResults {
            findings,
            unscanned: stored.unscanned,
        };
        out.insert((path.clone(), hash.clone()), results);
    }
    Ok((out, version))
}

/// One analyser cache entry to write: (tool, path, content hash, fingerprint) -> findings.
pub struct FindingsEntry<'a> {
    pub tool: &'a str,
    pub path: &'a str,
    pub content_hash: &'a str,
    pub fingerprint: &'a str,
    pub version: Option<&'a str>,
    pub results: &'a FileResults,
}

/// One file's stored results: its findings, or why the tool could not scan it.
#[derive(Serialize, Deserialize)]
struct StoredResults {
    findings: Vec<StoredFinding>,
    unscanned: Option<String>,
}

pub fn store_findings(
    tx: &Transaction<'_>,
    entries: &[FindingsEntry<'_>],
) -> Result<usize, LiteError> {
    let mut st = tx
        .prepare_cached(
            "INSERT OR REPLACE INTO analyser_cache(tool, path, content_hash, fingerprint, version, findings)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )
        .map_err(LiteError::db("preparing the analyser cache write"))?;
    for e in entries {
        let stored = StoredResults {
            findings: e
                .results
                .findings
                .iter()
                .map(StoredFinding::from_raw)
                .collect(),
            unscanned: e.results.unscanned.clone(),
        };
        let Ok(text) = serde_json::to_string(&stored) else {
            continue;
        };
        st.execute(params![
            e.tool,
            e.path,
            e.content_hash,
            e.fingerprint,
            e.version,
            text
        ])
        .map_err(LiteError::db("writing the analyser cache"))?;
    }
    Ok(entries.len())
}

/// Forgets `tool`'s stored results for `paths` (the tool failed or is missing in this run:
/// never mix old results with a tool that does not run).
pub fn forget_findings(tx: &Transaction<'_>, tool: &str, paths: &[&str]) -> Result<(), LiteError> {
    let mut st = tx
        .prepare_cached("DELETE FROM analyser_cache WHERE tool=?1 AND path=?2")
        .map_err(LiteError::db("preparing the analyser cache delete"))?;
    for p in paths {
        st.execute(params![tool, p])
            .map_err(LiteError::db("clearing the analyser cache"))?;
    }
    Ok(())
}

/// Deletes cache entries not referenced by the latest ready graph of any (repository, branch),
/// and parses made by another parser version. Runs inside the graph transaction, after the new
/// graph is marked ready. Returns (parse rows, analyser rows) deleted.
pub fn prune(tx: &Transaction<'_>) -> Result<(usize, usize), LiteError> {
    const LIVE: &str =
        "SELECT MAX(gpk) FROM graphs WHERE status='ready' GROUP BY repository, branch";
    let parses = tx
        .execute(
            &format!(
                "DELETE FROM parse_cache WHERE format<>?1 OR (content_hash, language) NOT IN
                   (SELECT f.content_hash, f.language FROM files f WHERE f.gpk IN ({LIVE}))"
            ),
            [parse_format()],
        )
        .map_err(LiteError::db("pruning the parse cache"))?;
    let findings = tx
        .execute(
            &format!(
                "DELETE FROM analyser_cache WHERE (path, content_hash) NOT IN
                   (SELECT f.path, f.content_hash FROM files f WHERE f.gpk IN ({LIVE}))"
            ),
            [],
        )
        .map_err(LiteError::db("pruning the analyser cache"))?;
    Ok((parses, findings))
}

/// The stored reads of `repository`'s files (see `index::FileRead`).
pub fn load_reads(conn: &Connection, repository: &str) -> Result<Vec<FileRead>, LiteError> {
    let mut st = conn
        .prepare_cached(
            "SELECT path, size, mtime_ns, ctime_ns, ino, hash, spans, skipped FROM file_reads
             WHERE repository=?1",
        )
        .map_err(LiteError::db("preparing the file reads lookup"))?;
    st.query_map([repository], |r| {
        Ok(FileRead {
            path: r.get(0)?,
            size: r.get(1)?,
            mtime_ns: r.get(2)?,
            ctime_ns: r.get(3)?,
            ino: r.get(4)?,
            hash: r.get(5)?,
            spans: r.get(6)?,
            skipped: r.get(7)?,
        })
    })
    .and_then(Iterator::collect)
    .map_err(LiteError::db("reading the file reads"))
}

/// Writes `write` and deletes the reads of `delete` inside the graph transaction.
pub fn store_reads(
    tx: &Transaction<'_>,
    repository: &str,
    write: &[FileRead],
    delete: &[String],
) -> Result<(), LiteError> {
    insert_each(
        tx,
        "the file reads",
        "INSERT OR REPLACE INTO file_reads VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        write,
        |st, r| {
            st.execute(params![
                repository, r.path, r.size, r.mtime_ns, r.ctime_ns, r.ino, r.hash, r.spans,
                r.skipped
            ])
        },
    )?;
    insert_each(
        tx,
        "the deletion of untracked files' reads",
        "DELETE FROM file_reads WHERE repository=?1 AND path=?2",
        delete,
        |st, path| st.execute(params![repository, path]),
    )
}

/// Row counts of the two caches (tests, bench).
pub fn sizes(conn: &Connection) -> Result<(i64, i64), LiteError> {
    let count = |table: &str| -> Result<i64, LiteError> {
        conn.query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get(0))
            .map_err(LiteError::db("counting cache rows"))
    };
    Ok((count("parse_cache")?, count("analyser_cache")?))
}

#[cfg(test)]
mod tests {
    use super::PARSER_SOURCES;
    use std::path::Path;

    fn sources_under(dir: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                sources_under(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let code = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/code");
                let rel = path.strip_prefix(&code).unwrap();
                out.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }

    /// A walker's file left out of the fingerprint would let an upgraded nexus-lite reuse the
    /// parses of the version before it.
    #[test]
    fn every_language_module_shapes_the_parse_format() {
        let lang = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/code/lang");
        let mut on_disk = Vec::new();
        sources_under(&lang, &mut on_disk);
        on_disk.sort();
        let mut fingerprinted: Vec<String> = PARSER_SOURCES
            .iter()
            .map(|(name, _)| name.to_string())
            .filter(|name| name.starts_with("lang/"))
            .collect();
        fingerprinted.sort();
        assert_eq!(fingerprinted, on_disk);
    }
}
