//! Analyser versions, cached in the data directory by the binary they come from: `bandit
//! --version` alone costs a Python start (~380 ms), paid once per installed analyser instead of
//! once per gate run. The key is the program resolved on PATH and, for a `#!` script (pip's
//! console scripts), its interpreter: path, size and mtime of each. An upgrade rewrites them;
//! a shim that picks another interpreter by environment (pyenv) is not seen, and shows the
//! version cached for it.

use crate::rules::gate::analysers::{Options, run_with_timeout, tool};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What a cached version was read from.
#[derive(Serialize, Deserialize, PartialEq, Eq, Debug)]
struct Entry {
    key: Vec<String>,
    version: String,
}

/// `program`'s version (`ruff 0.17.5` → `0.17.5`), from the cache in `opts.version_cache` when
/// the same binary answered before, else from `program --version` (then cached).
pub fn version(program: &str, opts: &Options) -> Option<String> {
    let key = opts.version_cache.as_ref().and_then(|dir| {
        let key = binary_key(&resolve(program, opts)?)?;
        Some((dir.join(format!("{program}.version.json")), key))
    });
    if let Some((file, key)) = &key
        && let Some(cached) = std::fs::read(file)
            .ok()
            .and_then(|b| serde_json::from_slice::<Entry>(&b).ok())
            .filter(|e| e.key == *key)
    {
        return Some(cached.version);
    }
    let version = probe(program, opts)?;
    if let Some((file, key)) = key {
        store(
            &file,
            &Entry {
                key,
                version: version.clone(),
            },
        );
    }
    Some(version)
}

/// Runs `program --version`.
fn probe(program: &str, opts: &Options) -> Option<String> {
    let mut cmd = tool(program, opts);
    cmd.arg("--version");
    let ran = run_with_timeout(cmd, Duration::from_secs(30)).ok()?;
    if ran.code != Some(0) {
        return None;
    }
    let text = String::from_utf8_lossy(&ran.stdout);
    let first = text.lines().next()?.trim();
    // "ruff 0.17.5", "bandit 1.9.4", "1.97.0" (semgrep).
    Some(first.rsplit(' ').next().unwrap_or(first).to_string()).filter(|v| !v.is_empty())
}

/// Writes the entry through a temporary file and a rename: a concurrent gate reads the old
/// entry or the new one, never half of one. A cache that cannot be written is only slower.
fn store(file: &Path, entry: &Entry) {
    let Some(dir) = file.parent() else { return };
    let written = std::fs::create_dir_all(dir).and_then(|()| {
        let tmp = tempfile::NamedTempFile::new_in(dir)?;
        serde_json::to_writer(&tmp, entry)?;
        tmp.persist(file).map_err(|e| e.error)?;
        Ok(())
    });
    if let Err(e) = written {
        tracing::debug!(file = %file.display(), error = %e, "analyser version not cached");
    }
}

/// The file `program` runs as, looked up as the command would be (`opts.search_path`, else
/// PATH), symbolic links resolved.
fn resolve(program: &str, opts: &Options) -> Option<PathBuf> {
    let path = opts
        .search_path
        .clone()
        .or_else(|| std::env::var_os("PATH"))?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p| is_executable(p))
        .and_then(|p| p.canonicalize().ok())
}

#[cfg(unix)]
fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(p: &Path) -> bool {
    p.is_file()
}

/// Path, size and mtime of `binary`, and of its `#!` interpreter when it is a script.
fn binary_key(binary: &Path) -> Option<Vec<String>> {
    let mut key = vec![stamp(binary)?];
    let head = {
        use std::io::Read;
        let mut buf = [0u8; 256];
        let n = std::fs::File::open(binary).ok()?.read(&mut buf).ok()?;
        buf[..n].to_vec()
    };
    if let Some(line) = head.strip_prefix(b"#!") {
        let line = line.split(|b| *b == b'\n').next().unwrap_or(line);
        let interpreter = String::from_utf8_lossy(line);
        let interpreter = interpreter.split_whitespace().next()?;
        key.push(stamp(&Path::new(interpreter).canonicalize().ok()?)?);
    }
    Some(key)
}

fn stamp(p: &Path) -> Option<String> {
    let m = std::fs::metadata(p).ok()?;
    let mtime = m
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?
        .as_nanos();
    Some(format!("{} {} {mtime}", p.display(), m.len()))
}
