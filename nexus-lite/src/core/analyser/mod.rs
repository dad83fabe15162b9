//! The one analyser runner of nexus-lite: every analyser process (ruff, bandit, semgrep, their
//! `--version` and rule look-ups) is spawned here, with piped output, a timeout that kills it,
//! its JSON parsed, and the paths it prints made repository-relative. The index run
//! (`code::findings`) and the gate (`rules::gate::analysers`) each map what it returns onto
//! their own records; a hung analyser times out in both.

pub mod severity;
pub mod version;

use std::ffi::{OsStr, OsString};
use std::io::Read;
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// How long one analyser run may take unless configured.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(600);

/// Seconds one analyser run of an index may take (default [`DEFAULT_TIMEOUT`]).
pub const TIMEOUT_ENV: &str = "NEXUS_LITE_ANALYSER_TIMEOUT";

/// The timeout of [`TIMEOUT_ENV`], else the default (also when it is not a number of seconds).
pub fn timeout_from_env() -> Duration {
    std::env::var(TIMEOUT_ENV)
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .map_or(DEFAULT_TIMEOUT, Duration::from_secs)
}

/// A command for analyser `program`, looked up in `search_path` when given (and run with it as
/// its PATH), else in this process's PATH.
pub fn command(program: &str, search_path: Option<&OsStr>) -> Command {
    let mut cmd = Command::new(program);
    if let Some(path) = search_path {
        cmd.env("PATH", path);
    }
    cmd
}

/// [`command`] with the search path as an owned value (the gate's options hold one).
pub fn command_in(program: &str, search_path: Option<&OsString>) -> Command {
    command(program, search_path.map(OsString::as_os_str))
}

/// What a finished (or killed) process left.
#[derive(Debug)]
pub struct Ran {
    pub status: ExitStatus,
    pub code: Option<i32>,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// It ran longer than its timeout and was killed.
    pub timed_out: bool,
}

impl Ran {
    /// stdout as JSON.
    pub fn json<T: serde::de::DeserializeOwned>(&self) -> serde_json::Result<T> {
        serde_json::from_slice(&self.stdout)
    }

    /// The first `n` characters of stderr, for a reason shown to people.
    pub fn stderr_head(&self, n: usize) -> String {
        String::from_utf8_lossy(&self.stderr)
            .chars()
            .take(n)
            .collect()
    }
}

/// Runs `cmd` with no stdin and piped output, killing it after `timeout`. An error: it could
/// not be started (not found, not executable).
///
/// The analyser runs in a process group of its own, killed whole once it ends or times out: a
/// child it started (semgrep's semgrep-core, a worker pool) would otherwise keep the output
/// pipes open, and reading them would outlast the timeout.
pub fn run(mut cmd: Command, timeout: Duration) -> std::io::Result<Ran> {
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let read = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut buf);
            }
            buf
        })
    };
    let out = read(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let err = read(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let started = Instant::now();
    let mut timed_out = false;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if started.elapsed() > timeout {
            timed_out = true;
            kill_group(&child);
            let _ = child.kill();
            break child.wait()?;
        }
        // Polling a child process: analysers run for seconds, a 20 ms tick costs nothing.
        std::thread::sleep(Duration::from_millis(20));
    };
    // What it left running would hold the pipes (and the CPU) past its end.
    kill_group(&child);
    Ok(Ran {
        status,
        code: status.code(),
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
        timed_out,
    })
}

/// Kills the process group `child` leads (see [`run`]); a group already gone is no error.
#[cfg(target_os = "linux")]
fn kill_group(child: &std::process::Child) {
    let _ = rustix::process::kill_process_group(
        rustix::process::Pid::from_child(child),
        rustix::process::Signal::KILL,
    );
}

/// Elsewhere the analyser alone is killed (by [`run`]).
#[cfg(not(target_os = "linux"))]
fn kill_group(_child: &std::process::Child) {}

/// A path an analyser printed (absolute, relative to `root`, or a `file://` URI), relative to
/// `root` with `/` separators; `None` when it is absolute and outside `root`, also once
/// symbolic links are resolved.
pub fn relative(root: &Path, printed: &str) -> Option<String> {
    let printed = printed.strip_prefix("file://").unwrap_or(printed);
    let p = Path::new(printed);
    let rel = if p.is_absolute() {
        match p.strip_prefix(root) {
            Ok(r) => r.to_string_lossy().into_owned(),
            Err(_) => {
                let canon = p.canonicalize().ok()?;
                canon
                    .strip_prefix(root)
                    .ok()?
                    .to_string_lossy()
                    .into_owned()
            }
        }
    } else {
        printed.to_string()
    };
    // A `\\` is a character of a file name on Unix, never a separator.
    let rel = if cfg!(windows) {
        rel.replace('\\', "/")
    } else {
        rel
    };
    Some(rel.strip_prefix("./").unwrap_or(&rel).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printed_paths_become_repository_relative() {
        let root = Path::new("/repo");
        assert_eq!(relative(root, "/repo/a/b.py").as_deref(), Some("a/b.py"));
        assert_eq!(relative(root, "file:///repo/a.py").as_deref(), Some("a.py"));
        assert_eq!(relative(root, "./a.py").as_deref(), Some("a.py"));
        assert_eq!(relative(root, "a/b.py").as_deref(), Some("a/b.py"));
        assert_eq!(relative(root, "/elsewhere/nothing-here.py"), None);
    }

    #[cfg(unix)]
    #[test]
    fn a_process_over_its_timeout_is_killed_and_said_so() {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "echo out; exec sleep 30"]);
        let started = Instant::now();
        let ran = run(cmd, Duration::from_millis(200)).ok();
        assert!(ran.as_ref().is_some_and(|r| r.timed_out), "{ran:?}");
        assert!(started.elapsed() < Duration::from_secs(20));
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "echo '[1]'; exit 3"]);
        let ran = run(cmd, Duration::from_secs(20)).ok();
        assert_eq!(
            ran.as_ref().map(|r| (r.code, r.timed_out)),
            Some((Some(3), false))
        );
        assert_eq!(ran.and_then(|r| r.json::<Vec<u8>>().ok()), Some(vec![1]));
        assert!(run(Command::new("nexus-no-such-analyser"), DEFAULT_TIMEOUT).is_err());
    }

    /// An analyser that leaves a child holding its output (semgrep starts semgrep-core) is
    /// bounded too: the whole group goes, at the timeout and after a normal exit.
    #[cfg(target_os = "linux")]
    #[test]
    fn an_analyser_s_children_do_not_outlive_it() {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "sleep 120 & echo started; sleep 120"]);
        let started = Instant::now();
        let ran = run(cmd, Duration::from_millis(300)).ok();
        assert!(ran.as_ref().is_some_and(|r| r.timed_out), "{ran:?}");
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "waited {:?} for a killed analyser's child",
            started.elapsed()
        );
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "sleep 120 & echo done"]);
        let started = Instant::now();
        let ran = run(cmd, Duration::from_secs(100)).ok();
        assert_eq!(
            ran.as_ref()
                .map(|r| (r.code, r.timed_out, r.stdout.as_slice())),
            Some((Some(0), false, &b"done\n"[..]))
        );
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "waited {:?} for a finished analyser's child",
            started.elapsed()
        );
    }
}
