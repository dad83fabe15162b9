//! What a gate run looks at: every file not deleted on `base...head` (added, copied, modified,
//! renamed, or changed in type)
//! (from the merge base to head, as a pull request shows them) and, per file, the lines head
//! added or changed (`git diff -U0`). Findings outside those lines are not the change's.
//!
//! Every git call goes through [`crate::core::git::command`]: the repository is not trusted.
//! Its attributes and diff settings cannot make a changed file "binary" (and its findings
//! "on unchanged lines"): the diff is read as text with attributes from the empty tree, and a
//! file git still shows only as binary has unknown lines, all of them the change's.

use crate::core::error::LiteError;
use crate::core::git;
// The one git wrapper (hardened builder, errors, text), under the names this module used.
use crate::core::git::{output as run_with, run, run_text as text};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A commit as the gate recorded it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Revisions {
    /// What `--base` resolved to (the reviewed target: its playbook is binding).
    pub base_sha: String,
    /// Where head forked from base: the diff starts here.
    pub merge_base_sha: String,
    pub head_sha: String,
    pub head_tree_sha: String,
}

/// One file of the diff, at head.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangedFile {
    /// Repo-relative, `/`-separated, at head.
    pub path: String,
    /// The blob at head (what the analysers read).
    pub blob: String,
    /// Git mode at head (`100644`, `100755`, `120000` for a symlink, `160000` a submodule).
    pub mode: String,
    /// Lines head added or changed: (line number at head, text).
    pub added: Vec<(u32, String)>,
    /// Head lines on either side of a deletion: removing `timeout=5,` changes what the lines
    /// around it mean, so a finding there is the change's.
    pub near_deletions: Vec<u32>,
    /// Which lines changed is unknown (git printed no text diff, or the file ends lines with a
    /// lone CR, which Python counts and git does not): every line counts as the change's, and
    /// the file is listed as not fully analysed.
    pub lines_unknown: bool,
}

impl ChangedFile {
    /// Whether `line` (1-based, at head) is one the change added or changed (every line, when
    /// that is unknown).
    pub fn touches(&self, line: u32) -> bool {
        self.lines_unknown
            || self.added.binary_search_by_key(&line, |(n, _)| *n).is_ok()
            || self.near_deletions.contains(&line)
    }

    /// Whether any line of `first..=last` is the change's (a finding on a multi-line
    /// statement is the change's when any of its lines is).
    pub fn touches_range(&self, first: u32, last: u32) -> bool {
        (first..=last.max(first)).any(|l| self.touches(l))
    }

    /// A regular file (not a symlink or a submodule): something an analyser can read.
    pub fn is_regular(&self) -> bool {
        self.mode.starts_with("100")
    }
}

/// The diff of a gate run.
#[derive(Debug, Clone)]
pub struct Diff {
    pub revisions: Revisions,
    pub files: Vec<ChangedFile>,
}

impl Diff {
    pub fn file(&self, path: &str) -> Option<&ChangedFile> {
        self.files.iter().find(|f| f.path == path)
    }
}

/// The commit `rev` names in `repo`, or an error saying what to pass instead.
pub fn resolve_commit(repo: &Path, rev: &str) -> Result<String, LiteError> {
    let out = run(
        repo,
        &[
            "rev-parse",
            "--verify",
            "--quiet",
            "--end-of-options",
            &format!("{rev}^{{commit}}"),
        ],
    )
    .ok()
    .map(|o| String::from_utf8_lossy(&o).trim().to_string())
    .filter(|s| !s.is_empty());
    out.ok_or_else(|| LiteError::Git {
        path: repo.to_path_buf(),
        args: format!("rev-parse {rev}"),
        message: format!(
            "`{rev}` names no commit in this repository; pass a branch, tag or sha that exists here (in CI, fetch it first: `git fetch origin {rev}` or checkout with fetch-depth: 0)"
        ),
    })
}

/// Base's and head's commits and head's tree, in one `git rev-parse`; when that does not give
/// exactly three object names (an unknown ref, a range), one ref at a time, so that the error
/// names the ref.
fn resolve(repo: &Path, base: &str, head: &str) -> Result<(String, String, String), LiteError> {
    let names = [
        format!("{base}^{{commit}}"),
        format!("{head}^{{commit}}"),
        format!("{head}^{{tree}}"),
    ];
    // Without `--verify`, rev-parse echoes `--end-of-options` and any option: a name that
    // starts with `-` goes the slow way.
    let mut args = vec!["rev-parse"];
    args.extend(names.iter().map(String::as_str));
    let plain = !base.starts_with('-') && !head.starts_with('-');
    if plain && let Ok(out) = run(repo, &args) {
        let out = String::from_utf8_lossy(&out);
        let shas: Vec<&str> = out.lines().collect();
        if let [b, h, t] = shas[..]
            && shas
                .iter()
                .all(|s| matches!(s.len(), 40 | 64) && s.bytes().all(|c| c.is_ascii_hexdigit()))
        {
            return Ok((b.to_string(), h.to_string(), t.to_string()));
        }
    }
    let base_sha = resolve_commit(repo, base)?;
    let head_sha = resolve_commit(repo, head)?;
    let tree = text(
        repo,
        &[
            "rev-parse",
            "--verify",
            "--end-of-options",
            &format!("{head_sha}^{{tree}}"),
        ],
    )?;
    Ok((base_sha, head_sha, tree))
}

/// Resolves `base` and `head` and reads the diff between them.
pub fn read(repo: &Path, base: &str, head: &str) -> Result<Diff, LiteError> {
    let (base_sha, head_sha, head_tree_sha) = resolve(repo, base, head)?;
    let merge_base_sha = text(repo, &["merge-base", "--end-of-options", &base_sha, &head_sha])
        .map_err(|e| LiteError::Git {
            path: repo.to_path_buf(),
            args: format!("merge-base {base} {head}"),
            message: format!(
                "{base} and {head} share no history ({e}); the gate compares a change to the branch it merges into"
            ),
        })?;
    let range = format!("{merge_base_sha}..{head_sha}");
    // The repository's attributes (`*.py -diff`, `binary`, a diff driver) must not turn a
    // change into "Binary files differ": attributes come from the empty tree, drivers are
    // neutralised, and `--text` diffs what `$GIT_DIR/info/attributes` still marks binary.
    let [raw_cmd, patch_cmd] = git::content_commands(repo)?;
    let raw = run_with(
        repo,
        raw_cmd,
        &[
            "diff",
            "--raw",
            "-z",
            "-M",
            "--no-abbrev",
            // Everything but deletions: a type change (`T`, a symlink that became a file),
            // an unmerged or unknown entry is as much the change's as a modification.
            "--diff-filter=d",
            "--no-ext-diff",
            "--no-textconv",
            "--end-of-options",
            &range,
            "--",
        ],
    )?;
    let mut files = parse_raw(&raw);
    let patch = run_with(
        repo,
        patch_cmd,
        &[
            "diff",
            "-U0",
            "-M",
            "--text",
            "--no-color",
            "--diff-filter=d",
            "--no-ext-diff",
            "--no-textconv",
            "--src-prefix=a/",
            "--dst-prefix=b/",
            "--end-of-options",
            &range,
            "--",
        ],
    )?;
    let (mut added, mut near, binary) = parse_patch(&patch);
    for f in &mut files {
        if let Some(lines) = added.remove(&f.path) {
            f.added = lines;
        }
        if let Some(lines) = near.remove(&f.path) {
            f.near_deletions = lines;
        }
        f.lines_unknown = binary.contains(&f.path);
    }
    Ok(Diff {
        revisions: Revisions {
            base_sha,
            merge_base_sha,
            head_sha,
            head_tree_sha,
        },
        files,
    })
}

/// Every Python file (by name) of head's tree as the diff of a whole-file run: all its lines
/// are the run's.
pub fn whole_files(repo: &Path, head_sha: &str) -> Result<Vec<ChangedFile>, LiteError> {
    let tree = crate::rules::gate::snapshot::regular_files(repo, head_sha)?;
    Ok(tree
        .into_iter()
        .filter(|(path, _)| [".py", ".pyi", ".pyw"].iter().any(|e| path.ends_with(e)))
        .map(|(path, (blob, _))| ChangedFile {
            path,
            blob,
            mode: "100644".into(),
            added: Vec::new(),
            near_deletions: Vec::new(),
            lines_unknown: true,
        })
        .collect())
}

/// `git diff --raw -z`: `:<mode> <mode> <sha> <sha> <status>\0<path>\0`, with a second path
/// (the new one) for renames and copies.
fn parse_raw(out: &[u8]) -> Vec<ChangedFile> {
    let mut fields = out.split(|b| *b == 0);
    let mut files = Vec::new();
    while let Some(meta) = fields.next() {
        let meta = String::from_utf8_lossy(meta);
        let Some(meta) = meta.strip_prefix(':') else {
            continue;
        };
        let parts: Vec<&str> = meta.split(' ').collect();
        let [_, mode, _, blob, status] = parts[..] else {
            continue;
        };
        let Some(mut path) = fields.next() else { break };
        if status.starts_with('R') || status.starts_with('C') {
            match fields.next() {
                Some(new_path) => path = new_path,
                None => break,
            }
        }
        files.push(ChangedFile {
            path: String::from_utf8_lossy(path).into_owned(),
            blob: blob.to_string(),
            mode: mode.to_string(),
            added: Vec::new(),
            near_deletions: Vec::new(),
            lines_unknown: false,
        });
    }
    files
}

/// Per file (new path): the lines head added, (line number at head, text).
type AddedLines = BTreeMap<String, Vec<(u32, String)>>;

/// Per file (new path): head lines next to a deletion.
type NearDeletions = BTreeMap<String, Vec<u32>>;

/// The added lines per file (new path) of a `git diff -U0` patch, the head lines next to a
/// deletion-only hunk, and the files git showed only as "Binary files ... differ" (their
/// changed lines are unknown).
fn parse_patch(out: &[u8]) -> (AddedLines, NearDeletions, BTreeSet<String>) {
    let mut map = AddedLines::new();
    let mut near = NearDeletions::new();
    let mut binary = BTreeSet::new();
    let mut current: Option<String> = None;
    // Lines left in the current hunk, old and new side: inside a hunk nothing is a header.
    let (mut old_left, mut new_left, mut next_line) = (0u32, 0u32, 0u32);
    for raw_line in out.split(|b| *b == b'\n') {
        if old_left > 0 || new_left > 0 {
            match raw_line.first() {
                Some(b'+') => {
                    if let Some(path) = &current {
                        let text = String::from_utf8_lossy(&raw_line[1..]).into_owned();
                        map.entry(path.clone()).or_default().push((next_line, text));
                    }
                    next_line += 1;
                    new_left = new_left.saturating_sub(1);
                }
                Some(b'-') => old_left = old_left.saturating_sub(1),
                Some(b' ') => {
                    next_line += 1;
                    old_left = old_left.saturating_sub(1);
                    new_left = new_left.saturating_sub(1);
                }
                // "\ No newline at end of file" and anything unexpected.
                _ => {}
            }
            continue;
        }
        let line = String::from_utf8_lossy(raw_line);
        if line.starts_with("diff --git ") {
            current = None;
        } else if let Some(p) = line.strip_prefix("+++ ") {
            current = unquote(p).and_then(|p| p.strip_prefix("b/").map(str::to_string));
        } else if let Some(path) = binary_new_path(&line) {
            binary.insert(path);
        } else if let Some(hunk) = line.strip_prefix("@@ ")
            && let Some((old, new)) = parse_hunk(hunk)
        {
            old_left = old;
            new_left = new.1;
            next_line = new.0;
            // `+c,0`: lines were deleted after head line c, between c and c + 1.
            if new.1 == 0
                && let Some(path) = &current
            {
                let lines = near.entry(path.clone()).or_default();
                lines.extend([new.0, new.0 + 1].into_iter().filter(|l| *l > 0));
            }
        }
    }
    for lines in map.values_mut() {
        lines.sort_by_key(|(n, _)| *n);
    }
    (map, near, binary)
}

/// The new path of `Binary files <old> and b/<new> differ` (`--text` makes it rare: only
/// what git still refuses to show as text).
fn binary_new_path(line: &str) -> Option<String> {
    let pair = line
        .strip_prefix("Binary files ")?
        .strip_suffix(" differ")?;
    let (_, new) = pair
        .rmatch_indices(" and ")
        .map(|(i, _)| pair.split_at(i + 5))
        .find(|(_, new)| new.starts_with("b/") || new.starts_with("\"b/"))?;
    unquote(new).and_then(|p| p.strip_prefix("b/").map(str::to_string))
}

/// `-a[,b] +c[,d] @@ ...` → (b, (c, d)); a missing count is 1.
fn parse_hunk(hunk: &str) -> Option<(u32, (u32, u32))> {
    let mut parts = hunk.split(' ');
    let old = parts.next()?.strip_prefix('-')?;
    let new = parts.next()?.strip_prefix('+')?;
    let range = |s: &str| -> Option<(u32, u32)> {
        match s.split_once(',') {
            Some((start, count)) => Some((start.parse().ok()?, count.parse().ok()?)),
            None => Some((s.parse().ok()?, 1)),
        }
    };
    let (_, old_count) = range(old)?;
    Some((old_count, range(new)?))
}

/// A path as git prints it in a patch header: verbatim, or C-quoted when it holds special
/// characters; git ends the `---`/`+++` line with a tab when the name holds a space (a name
/// ending in a tab is quoted, so the tab is never the name's). `/dev/null` is no path.
fn unquote(p: &str) -> Option<String> {
    let p = p.trim_end_matches('\r');
    let p = p.strip_suffix('\t').unwrap_or(p);
    if p == "/dev/null" {
        return None;
    }
    let Some(inner) = p.strip_prefix('"').and_then(|s| s.strip_suffix('"')) else {
        return Some(p.to_string());
    };
    let mut bytes = Vec::new();
    let mut chars = inner.bytes().peekable();
    while let Some(b) = chars.next() {
        if b != b'\\' {
            bytes.push(b);
            continue;
        }
        match chars.next()? {
            b'n' => bytes.push(b'\n'),
            b't' => bytes.push(b'\t'),
            b'r' => bytes.push(b'\r'),
            b'a' => bytes.push(7),
            b'b' => bytes.push(8),
            b'f' => bytes.push(12),
            b'v' => bytes.push(11),
            d @ b'0'..=b'7' => {
                let mut n = u32::from(d - b'0');
                for _ in 0..2 {
                    let next = chars.next_if(|c| (b'0'..=b'7').contains(c))?;
                    n = n * 8 + u32::from(next - b'0');
                }
                bytes.push(u8::try_from(n).ok()?);
            }
            other => bytes.push(other),
        }
    }
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_patch_gives_the_added_lines_at_head_even_when_they_look_like_headers() {
        let patch = b"diff --git a/x.py b/x.py\nindex 1..2 100644\n--- a/x.py\n+++ b/x.py\n@@ -2,0 +3,2 @@ def f():\n+++counter\n+y = 1\n@@ -10 +11 @@\n-old\n+new\ndiff --git a/\"t\\303\\251\\tx.py\" b/\"t\\303\\251\\tx.py\"\nnew file mode 100644\n--- /dev/null\n+++ \"b/t\\303\\251\\tx.py\"\n@@ -0,0 +1 @@\n+z = 2\n\\ No newline at end of file\n";
        let (map, _, binary) = parse_patch(patch);
        assert!(binary.is_empty());
        assert_eq!(
            map["x.py"],
            vec![
                (3, "++counter".to_string()),
                (4, "y = 1".to_string()),
                (11, "new".to_string())
            ]
        );
        assert_eq!(map["té\tx.py"], vec![(1, "z = 2".to_string())]);
    }

    /// What git still shows as binary has unknown changed lines, never "unchanged" ones.
    #[test]
    fn a_binary_patch_marks_its_file_as_having_unknown_lines() {
        let patch = b"diff --git a/x.py b/x.py\nindex 1..2 100644\nBinary files a/x.py and b/x.py differ\ndiff --git a/n and b.py b/n and b.py\nnew file mode 100644\nindex 0..3\nBinary files /dev/null and \"b/n and b\\303\\251.py\" differ\n";
        let (map, _, binary) = parse_patch(patch);
        assert!(map.is_empty());
        // git ends a header naming a file with a space with a tab.
        let spaced = b"diff --git a/my app.py b/my app.py\n--- a/my app.py\t\n+++ b/my app.py\t\n@@ -1 +1 @@\n-x\n+y\n";
        assert_eq!(
            parse_patch(spaced).0["my app.py"],
            vec![(1, "y".to_string())]
        );
        let binary: Vec<&str> = binary.iter().map(String::as_str).collect();
        assert_eq!(binary, ["n and b\u{e9}.py", "x.py"]);
    }

    /// A deletion-only hunk (`+c,0`) makes head lines c and c + 1 the change's.
    #[test]
    fn the_lines_around_a_deletion_are_the_changes() {
        let patch = b"diff --git a/n.py b/n.py\n--- a/n.py\n+++ b/n.py\n@@ -7 +6,0 @@\n-        timeout=5,\n@@ -1 +0,0 @@\n-import os\n";
        let (added, near, _) = parse_patch(patch);
        assert!(added.is_empty());
        assert_eq!(near["n.py"], vec![6, 7, 1]);
    }

    #[test]
    fn raw_output_takes_the_new_path_of_a_rename() {
        let raw = b":100644 100644 aaa bbb M\0a.py\0:100644 100644 ccc ddd R090\0old.py\0new.py\0:000000 120000 000 eee A\0link\0";
        let files = parse_raw(raw);
        let paths: Vec<(&str, &str, &str)> = files
            .iter()
            .map(|f| (f.path.as_str(), f.blob.as_str(), f.mode.as_str()))
            .collect();
        assert_eq!(
            paths,
            vec![
                ("a.py", "bbb", "100644"),
                ("new.py", "ddd", "100644"),
                ("link", "eee", "120000")
            ]
        );
        assert!(!files[2].is_regular());
    }
}
