//! Analyser versions, cached in the data directory by the binary they come from: `bandit
//! --version` alone costs a Python start (~380 ms), paid once per installed analyser instead of
//! once per gate run. The key is the program resolved on PATH and, for a `#!` script (pip's
//! console scripts), its interpreter: path, size and mtime of each. An upgrade rewrites them;
//! a shim that picks another interpreter by environment (pyenv) is not seen, and shows the
//! version cached for it.

use super::{command, run};
use serde::{Deserialize, Serialize};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A `--version` probe answers in this long or not at all.
const PROBE_TIMEOUT: Duration = Duration::from_secs(30);

/// Where `program` is looked up ([`command`]'s `search_path`) and where its version is cached
/// (`None`: probed on every call).
#[derive(Debug, Clone, Copy, Default)]
pub struct Lookup<'a> {
    pub search_path: Option<&'a OsStr>,
    pub cache: Option<&'a Path>,
}

/// What a cached version was read from.
#[derive(Serialize, Deserialize, PartialEq, Eq, Debug)]
struct Entry {
    key: Vec<String>,
    version: String,
}

/// `program`'s version (`ruff 0.17.5` → `0.17.5`), from the cache in `at.cache` when the same
/// binary answered before, else from `program --version` (then cached).
pub fn version(program: &str, at: Lookup) -> Option<String> {
    let key = at.cache.and_then(|dir| {
        let key = binary_key(&resolve(program, at.search_path)?)?;
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
    let version = first_line(program, at.search_path, PROBE_TIMEOUT)?;
    // "ruff 0.17.5", "bandit 1.9.4", "1.97.0" (semgrep).
    let version = version
        .rsplit(' ')
        .next()
        .filter(|v| !v.is_empty())?
        .to_string();
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

/// The first line of `program --version`, trimmed (`ruff 0.17.5`), when it exits 0 within
/// `timeout` (capped at 30 s).
pub fn first_line(program: &str, search_path: Option<&OsStr>, timeout: Duration) -> Option<String> {
    let mut cmd = command(program, search_path);
    cmd.arg("--version");
    let ran = run(cmd, timeout.min(PROBE_TIMEOUT)).ok()?;
    if ran.code != Some(0) || ran.timed_out {
        return None;
    }
    let text = String::from_utf8_lossy(&ran.stdout);
    Some(text.lines().next()?.trim().to_string())
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

/// The file `program` runs as, looked up as the command would be (`search_path`, else PATH),
/// symbolic links resolved.
fn resolve(program: &str, search_path: Option<&OsStr>) -> Option<PathBuf> {
    let path = search_path
        .map(OsStr::to_os_string)
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
