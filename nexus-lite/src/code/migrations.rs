//! The code domain's schema, in the version range 1..=999 (see `crate::core::db`). Versions 1-5
//! were written before the domain split and keep their numbers: databases created then open
//! without re-index.

use crate::core::db::Migration;

pub const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        description: "initial schema: graphs, files, nodes, edges, imports, findings, anomalies, regenerations",
        sql: r#"
CREATE TABLE graphs(
  gpk INTEGER PRIMARY KEY AUTOINCREMENT,
  graph_id TEXT NOT NULL UNIQUE,
  repository TEXT NOT NULL,
  branch TEXT NOT NULL,
  commit_sha TEXT NOT NULL,
  worktree_dirty INTEGER NOT NULL,
  dirty_files TEXT NOT NULL,
  generated_at TEXT NOT NULL,
  generator TEXT NOT NULL,
  status TEXT NOT NULL,
  error TEXT,
  counts TEXT NOT NULL,
  analysers TEXT NOT NULL,
  stats TEXT NOT NULL
);
CREATE INDEX graphs_by_repo ON graphs(repository, branch, status, gpk);
CREATE TABLE files(gpk INTEGER NOT NULL, path TEXT NOT NULL, language TEXT NOT NULL,
  content_hash TEXT NOT NULL, size INTEGER NOT NULL, PRIMARY KEY(gpk, path)) WITHOUT ROWID;
CREATE TABLE nodes(gpk INTEGER NOT NULL, id INTEGER NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL,
  qualified_name TEXT NOT NULL, path TEXT, line INTEGER, end_line INTEGER, language TEXT,
  PRIMARY KEY(gpk, id)) WITHOUT ROWID;
CREATE INDEX nodes_by_path ON nodes(gpk, path);
CREATE TABLE edges(gpk INTEGER NOT NULL, kind TEXT NOT NULL, src INTEGER NOT NULL, dst INTEGER NOT NULL,
  confidence REAL NOT NULL, line INTEGER);
CREATE INDEX edges_by_graph ON edges(gpk, kind);
CREATE TABLE imports(gpk INTEGER NOT NULL, path TEXT NOT NULL, module TEXT NOT NULL,
  resolved_path TEXT, external INTEGER NOT NULL, line INTEGER NOT NULL);
CREATE INDEX imports_by_path ON imports(gpk, path);
CREATE INDEX imports_by_target ON imports(gpk, resolved_path);
CREATE TABLE findings(gpk INTEGER NOT NULL, finding_id INTEGER NOT NULL, source_tool TEXT NOT NULL,
  finding_type TEXT NOT NULL, rule_id TEXT NOT NULL, path TEXT NOT NULL, line INTEGER, end_line INTEGER,
  message TEXT NOT NULL, severity TEXT NOT NULL, sev_order INTEGER NOT NULL, confidence TEXT,
  dedupe_key TEXT NOT NULL, symbol TEXT, rank INTEGER NOT NULL, rank_reason TEXT NOT NULL,
  category TEXT NOT NULL, cluster_key TEXT, cluster_size INTEGER, false_positive_hint TEXT,
  PRIMARY KEY(gpk, finding_id)) WITHOUT ROWID;
CREATE INDEX findings_by_rank ON findings(gpk, rank, sev_order, path, line);
CREATE TABLE anomalies(gpk INTEGER NOT NULL, anomaly_id INTEGER NOT NULL, kind TEXT NOT NULL,
  path TEXT NOT NULL, line INTEGER, message TEXT NOT NULL, severity TEXT NOT NULL, details TEXT NOT NULL,
  PRIMARY KEY(gpk, anomaly_id)) WITHOUT ROWID;
CREATE TABLE regenerations(regeneration_id TEXT PRIMARY KEY, plan_id TEXT NOT NULL,
  repository TEXT NOT NULL, branch TEXT NOT NULL, status TEXT NOT NULL, phase TEXT NOT NULL,
  done INTEGER NOT NULL, total INTEGER NOT NULL, graph_id TEXT, previous_graph_id TEXT,
  error TEXT, warnings TEXT NOT NULL, created_at TEXT NOT NULL);
"#,
    },
    Migration {
        version: 2,
        description: "nodes.detail: the language's own kind of a class (Rust struct/enum/union/trait)",
        sql: "ALTER TABLE nodes ADD COLUMN detail TEXT;",
    },
    Migration {
        version: 3,
        description: "plans: regeneration plans outlive the process that made them (single use, expiry)",
        sql: r#"
CREATE TABLE plans(
  plan_id TEXT PRIMARY KEY,
  repository TEXT NOT NULL,
  branch TEXT NOT NULL,
  current_branch TEXT,
  head_sha TEXT,
  dirty_fingerprint TEXT NOT NULL,
  dirty_files TEXT NOT NULL,
  ambiguous INTEGER NOT NULL,
  ambiguity_reason TEXT,
  previous_graph_id TEXT,
  expires_at INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  used INTEGER NOT NULL DEFAULT 0,
  used_at INTEGER,
  regeneration_id TEXT,
  plan_json TEXT NOT NULL
);
CREATE INDEX plans_by_expiry ON plans(expires_at);
"#,
    },
    Migration {
        version: 4,
        description: "parse_cache and analyser_cache: incremental runs survive a restart",
        sql: r#"
CREATE TABLE parse_cache(
  grammar TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  language TEXT NOT NULL,
  format TEXT NOT NULL,
  parse TEXT NOT NULL,
  PRIMARY KEY(content_hash, grammar)
) WITHOUT ROWID;
CREATE TABLE analyser_cache(
  tool TEXT NOT NULL,
  path TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  version TEXT,
  findings TEXT NOT NULL,
  PRIMARY KEY(tool, path, content_hash, fingerprint)
) WITHOUT ROWID;
"#,
    },
    Migration {
        version: 5,
        description: "secret_spans: line ranges of multi-line secrets, blanked in every text the API returns",
        sql: r#"
CREATE TABLE secret_spans(
  gpk INTEGER NOT NULL,
  path TEXT NOT NULL,
  start_line INTEGER NOT NULL,
  end_line INTEGER NOT NULL,
  kind TEXT NOT NULL,
  PRIMARY KEY(gpk, path, start_line)
) WITHOUT ROWID;
"#,
    },
    Migration {
        version: 6,
        description: "parts: a graph is a set of per-file parts, shared with the graphs whose file is the same (nodes, edges and imports become views)",
        sql: r#"
CREATE TABLE parts(part INTEGER PRIMARY KEY AUTOINCREMENT, path TEXT, digest TEXT NOT NULL);
CREATE UNIQUE INDEX parts_by_digest ON parts(digest);
CREATE TABLE graph_parts(gpk INTEGER NOT NULL, part INTEGER NOT NULL, PRIMARY KEY(gpk, part))
  WITHOUT ROWID;
CREATE TABLE part_nodes(part INTEGER NOT NULL, id INTEGER NOT NULL, kind TEXT NOT NULL,
  name TEXT NOT NULL, qualified_name TEXT NOT NULL, path TEXT, line INTEGER, end_line INTEGER,
  language TEXT, detail TEXT, PRIMARY KEY(part, id)) WITHOUT ROWID;
CREATE TABLE part_edges(part INTEGER NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL,
  src INTEGER NOT NULL, dst INTEGER NOT NULL, confidence REAL NOT NULL, line INTEGER,
  PRIMARY KEY(part, seq)) WITHOUT ROWID;
CREATE TABLE part_imports(part INTEGER NOT NULL, seq INTEGER NOT NULL, path TEXT NOT NULL,
  module TEXT NOT NULL, resolved_path TEXT, external INTEGER NOT NULL, line INTEGER NOT NULL,
  PRIMARY KEY(part, seq)) WITHOUT ROWID;
CREATE INDEX part_imports_by_target ON part_imports(resolved_path, part);
ALTER TABLE files ADD COLUMN part INTEGER;
-- A graph written before is one part holding all its rows (never shared).
INSERT INTO parts(part, path, digest) SELECT gpk, NULL, 'graph:' || graph_id FROM graphs;
INSERT INTO graph_parts SELECT gpk, gpk FROM graphs;
INSERT INTO part_nodes SELECT gpk, id, kind, name, qualified_name, path, line, end_line, language,
  detail FROM nodes;
INSERT INTO part_edges SELECT gpk, rowid, kind, src, dst, confidence, line FROM edges;
INSERT INTO part_imports SELECT gpk, rowid, path, module, resolved_path, external, line FROM imports;
UPDATE files SET part = gpk;
DROP TABLE nodes;
DROP TABLE edges;
DROP TABLE imports;
CREATE VIEW nodes AS SELECT gp.gpk AS gpk, n.id AS id, n.kind AS kind, n.name AS name,
  n.qualified_name AS qualified_name, n.path AS path, n.line AS line, n.end_line AS end_line,
  n.language AS language, n.detail AS detail
  FROM graph_parts gp JOIN part_nodes n ON n.part = gp.part;
CREATE VIEW edges AS SELECT gp.gpk AS gpk, e.kind AS kind, e.src AS src, e.dst AS dst,
  e.confidence AS confidence, e.line AS line
  FROM graph_parts gp JOIN part_edges e ON e.part = gp.part;
CREATE VIEW imports AS SELECT gp.gpk AS gpk, i.path AS path, i.module AS module,
  i.resolved_path AS resolved_path, i.external AS external, i.line AS line
  FROM graph_parts gp JOIN part_imports i ON i.part = gp.part;
"#,
    },
    Migration {
        version: 7,
        description: "pruned_graphs: what is left of a graph the retention rule removed, so asking for it says so",
        sql: r#"
CREATE TABLE pruned_graphs(graph_id TEXT PRIMARY KEY, repository TEXT NOT NULL,
  branch TEXT NOT NULL, commit_sha TEXT NOT NULL, generated_at TEXT NOT NULL,
  pruned_at TEXT NOT NULL) WITHOUT ROWID;
"#,
    },
    Migration {
        version: 8,
        description: "file_reads: what the last read of each tracked file found, so a new process reads only what changed",
        sql: r#"
CREATE TABLE file_reads(repository TEXT NOT NULL, path TEXT NOT NULL, size INTEGER NOT NULL,
  mtime_ns INTEGER NOT NULL, ctime_ns INTEGER NOT NULL, ino INTEGER NOT NULL, hash TEXT,
  spans TEXT NOT NULL, skipped TEXT, PRIMARY KEY(repository, path)) WITHOUT ROWID;
"#,
    },
    Migration {
        version: 9,
        description: "pruned_graphs.kept: how many graphs the pruning process kept, which its message states (the serving process's setting may differ)",
        sql: r#"
ALTER TABLE pruned_graphs ADD COLUMN kept INTEGER;
"#,
    },
];
