//! Analyser versions, cached in the data directory by the binary they come from: `bandit
//! --version` alone costs a Python start (~200-380 ms), paid once per installed analyser instead
//! of once per gate run, and not at all when the script's environment names the version of its
//! distribution (`bandit-1.9.4.dist-info`), as a venv or pipx does: a fresh CI runner then asks
//! Python nothing. The key is the program resolved on PATH and, for a `#!` script (pip's
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
/// binary answered before, else from its distribution's metadata (a `dist-info` directory) or
/// `program --version` (then cached).
pub fn version(program: &str, at: Lookup) -> Option<String> {
    let binary = resolve(program, at.search_path);
    let key = at.cache.zip(binary.as_deref()).and_then(|(dir, binary)| {
        let key = binary_key(binary)?;
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
    let version = match binary
        .as_deref()
        .and_then(|b| installed_version(program, b))
    {
        Some(v) => v,
        None => {
            let line = first_line(program, at.search_path, PROBE_TIMEOUT)?;
            // "ruff 0.17.5", "bandit 1.9.4", "1.97.0" (semgrep).
            line.rsplit(' ')
                .next()
                .filter(|v| !v.is_empty())?
                .to_string()
        }
    };
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

/// The interpreter of `binary` when it is a `#!` script, as written (a venv's `python` is a
/// link whose place, not target, says which environment it runs).
fn interpreter(binary: &Path) -> Option<PathBuf> {
    use std::io::Read;
    let mut buf = [0u8; 256];
    let n = std::fs::File::open(binary).ok()?.read(&mut buf).ok()?;
    let line = buf[..n].strip_prefix(b"#!")?;
    let line = line.split(|b| *b == b'\n').next().unwrap_or(line);
    let line = String::from_utf8_lossy(line);
    Some(PathBuf::from(line.split_whitespace().next()?))
}

/// Path, size and mtime of `binary`, and of its `#!` interpreter when it is a script.
fn binary_key(binary: &Path) -> Option<Vec<String>> {
    let mut key = vec![stamp(binary)?];
    if let Some(interpreter) = interpreter(binary) {
        key.push(stamp(&interpreter.canonicalize().ok()?)?);
    }
    Some(key)
}

/// The version of the Python distribution `program` is installed from, read from its
/// `NAME-VERSION.dist-info` directory (PEP 376) in the site-packages of the script's
/// interpreter, without starting Python (bandit's `--version` is a ~200 ms Python start, paid
/// on every fresh CI runner). `None` (then the program is asked) unless exactly one such
/// directory is there: a system interpreter, `#!/usr/bin/env`, or leftovers of an upgrade.
fn installed_version(program: &str, binary: &Path) -> Option<String> {
    let prefix = interpreter(binary)?.parent()?.parent()?.to_path_buf();
    let wanted = normalised(program);
    let mut found = Vec::new();
    for lib in ["lib", "lib64"] {
        let Ok(pythons) = std::fs::read_dir(prefix.join(lib)) else {
            continue;
        };
        for python in pythons.flatten() {
            if !python.file_name().to_string_lossy().starts_with("python3") {
                continue;
            }
            let Ok(entries) = std::fs::read_dir(python.path().join("site-packages")) else {
                continue;
            };
            for entry in entries.flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                if let Some((dist, version)) = name
                    .strip_suffix(".dist-info")
                    .and_then(|n| n.rsplit_once('-'))
                    && normalised(dist) == wanted
                    && !version.is_empty()
                {
                    found.push(version.to_owned());
                }
            }
        }
    }
    // A venv's lib64 is often a link to lib: the same directory twice is one.
    found.sort();
    found.dedup();
    match found.as_slice() {
        [one] => Some(one.clone()),
        _ => None,
    }
}

/// A distribution name as PEP 503 compares them: case and runs of `-`, `_`, `.` do not matter.
fn normalised(name: &str) -> String {
    name.to_ascii_lowercase()
        .split(['-', '_', '.'])
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("-")
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A venv-shaped directory whose `bandit` script cannot run (its interpreter is not
    /// executable): a version found comes from the metadata, not from a probe.
    fn venv(dists: &[&str]) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let bin = dir.path().join("bin");
        std::fs::create_dir_all(&bin).unwrap();
        std::fs::write(bin.join("python3"), "not a program").unwrap();
        let script = bin.join("bandit");
        std::fs::write(
            &script,
            format!("#!{}\nimport sys\n", bin.join("python3").display()),
        )
        .unwrap();
        let site = dir.path().join("lib/python3.11/site-packages");
        std::fs::create_dir_all(&site).unwrap();
        for d in dists {
            std::fs::create_dir_all(site.join(d)).unwrap();
        }
        (dir, script)
    }

    #[cfg(unix)]
    #[test]
    fn a_python_script_s_version_is_read_from_its_installed_metadata() {
        let (_dir, script) = venv(&["bandit-1.9.4.dist-info", "PyYAML-6.0.2.dist-info"]);
        assert_eq!(
            installed_version("bandit", &script).as_deref(),
            Some("1.9.4")
        );
        // What the gate asks: found on the search path, answered without running it.
        std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .unwrap();
        let bin = script.parent().unwrap().as_os_str().to_owned();
        let at = Lookup {
            search_path: Some(&bin),
            cache: None,
        };
        assert_eq!(version("bandit", at).as_deref(), Some("1.9.4"));
        let (_dir, script) = venv(&["Bandit-1.9.4.dist-info"]);
        assert_eq!(
            installed_version("bandit", &script).as_deref(),
            Some("1.9.4")
        );
        // Leftovers of an upgrade, or nothing: the program is asked instead.
        let (_dir, script) = venv(&["bandit-1.8.0.dist-info", "bandit-1.9.4.dist-info"]);
        assert_eq!(installed_version("bandit", &script), None);
        let (_dir, script) = venv(&["bandit_extras-1.0.dist-info"]);
        assert_eq!(installed_version("bandit", &script), None);
    }

    /// On the analysers installed here (the CI's venv), the metadata says what `--version`
    /// says.
    #[test]
    fn the_metadata_agrees_with_the_installed_analysers_own_answer() {
        let mut compared = 0;
        for program in ["bandit", "ruff", "semgrep"] {
            let Some(binary) = resolve(program, None) else {
                continue;
            };
            let Some(read) = installed_version(program, &binary) else {
                continue;
            };
            let said = first_line(program, None, PROBE_TIMEOUT).unwrap();
            assert_eq!(
                said.rsplit(' ').next(),
                Some(read.as_str()),
                "{program}: {said}"
            );
            compared += 1;
        }
        if std::env::var("NEXUS_LITE_REQUIRE_ANALYSERS").as_deref() == Ok("1") {
            assert!(
                compared > 0,
                "bandit is required but was not found in a venv"
            );
        }
    }
}
