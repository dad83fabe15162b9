//! The client end of the local daemon: finds the nexus-lite serving a data directory (starting
//! it when none does), registers this process's repositories, workspaces and routes, holds the
//! registration open, and registers again at once when the daemon goes away.
//!
//! Starting is serialised by the start lock, so two processes starting at once make one daemon;
//! the daemon's own data-directory lock settles any other race.

use crate::core::repos::ServedRepo;
use crate::docs::config::Limits;
use nexus_mcp_runtime::backend::{
    Credentials, LOCAL_BASE_URL, LocalFuture, LocalNexus, Secret, local_http,
};
use serde::Deserialize;
use serde_json::{Value, json};
use std::ffi::OsString;
use std::fs::{File, OpenOptions};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Weak};
use std::time::Duration;

use super::files::{self, DaemonFile as DaemonInfo};

use super::admin::{CLIENTS_PATH, STATUS_PATH};

/// A URL on the daemon's socket.
fn url(path: &str) -> String {
    format!("{LOCAL_BASE_URL}{path}")
}

/// How long a daemon may take to say it is ready (a first start migrates the database).
const READY_TIMEOUT: Duration = Duration::from_secs(60);
/// How long a registration may take (the daemon runs git to name the repositories).
const REGISTER_TIMEOUT: Duration = Duration::from_secs(60);
/// How long a live daemon takes to answer its health check.
const PROBE_TIMEOUT: Duration = Duration::from_secs(2);
/// How long a daemon that holds the directory on this machine gets to answer (a busy machine).
const BUSY_DAEMON_WAIT: Duration = Duration::from_secs(10);
/// Waits between attempts when re-joining fails (a daemon that cannot start), at most.
const REJOIN_BACKOFF_MAX: Duration = Duration::from_secs(5);

#[derive(Debug, thiserror::Error)]
pub enum JoinError {
    /// The data directory is not usable (another user's, unreadable).
    #[error(transparent)]
    DataDir(#[from] crate::core::error::LiteError),
    #[error(
        "{dir} is served by nexus-lite pid {pid} on host {host}: a data directory cannot be shared between machines (it holds a SQLite database and a Unix socket); give this machine its own --data-dir"
    )]
    OtherMachine {
        dir: PathBuf,
        pid: u32,
        host: String,
    },
    #[error(
        "{dir} is held by nexus-lite pid {pid}, which does not answer on {socket} (a standalone `nexus-lite serve`?); stop it, or pass another --data-dir"
    )]
    Unreachable {
        dir: PathBuf,
        pid: u32,
        socket: PathBuf,
    },
    #[error("the local nexus-lite for {dir} did not start: {reason}; its log is {log}")]
    Start {
        dir: PathBuf,
        reason: String,
        log: PathBuf,
    },
    #[error("the local nexus-lite refused this client: {0}")]
    Refused(String),
    #[error("cannot {what} {path}: {source}")]
    Io {
        what: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("the local nexus-lite at {socket} answered unexpectedly: {reason}")]
    Protocol { socket: PathBuf, reason: String },
}

fn io<'a>(what: &'static str, path: &'a Path) -> impl FnOnce(std::io::Error) -> JoinError + 'a {
    move |source| JoinError::Io {
        what,
        path: path.to_path_buf(),
        source,
    }
}

/// What a process asks the daemon for.
#[derive(Debug, Clone)]
pub struct Registration {
    /// `serve`, `call`, `gate`, `rules`: shown by `status`.
    pub kind: String,
    pub surface: Option<String>,
    /// (METHOD, OpenAPI path) pairs the client uses: its view serves their domains only.
    pub routes: Vec<(String, String)>,
    /// `[NAME=]PATH` specs are resolved by the daemon (names from git, like `--repo`).
    pub repos: Vec<crate::RepoSpec>,
    pub workspaces: Vec<crate::WorkspaceSpec>,
    /// The operator's caps for these workspaces.
    pub limits: Limits,
}

impl Registration {
    fn body(&self) -> Result<Value, JoinError> {
        let absolute = |p: &Path| std::path::absolute(p).map_err(io("resolve", p));
        let mut repos = Vec::new();
        for r in &self.repos {
            repos.push(json!({"name": r.name, "path": absolute(&r.path)?}));
        }
        let mut workspaces = Vec::new();
        for w in &self.workspaces {
            let path = absolute(&w.path)?;
            workspaces.push(json!({"name": w.name, "path": path, "limits": self.limits}));
        }
        Ok(json!({
            "pid": std::process::id(),
            "kind": self.kind,
            "surface": self.surface,
            "routes": self.routes,
            "repos": repos,
            "workspaces": workspaces,
        }))
    }
}

/// How to start a daemon: a program and its arguments, to which `--data-dir D` is appended.
#[derive(Debug, Clone)]
pub struct Starter {
    pub program: PathBuf,
    pub args: Vec<OsString>,
}

/// What the daemon registered for this process.
#[derive(Debug, Clone)]
pub struct Joined {
    pub client: Arc<LocalClient>,
    /// The daemon's socket: the NexusClient's transport.
    pub socket: PathBuf,
    pub repos: Vec<ServedRepo>,
    /// Workspace name → root.
    pub workspaces: Vec<(String, PathBuf)>,
}

#[derive(Deserialize)]
struct Registered {
    token: String,
    #[serde(default)]
    repos: Vec<NamedRoot>,
    #[serde(default)]
    workspaces: Vec<NamedRoot>,
}

#[derive(Deserialize)]
struct NamedRoot {
    name: String,
    root: PathBuf,
}

/// This process's registration with the daemon of one data directory.
#[derive(Debug)]
pub struct LocalClient {
    data_dir: PathBuf,
    body: Value,
    starter: Starter,
    current: tokio::sync::Mutex<Credentials>,
    myself: Weak<LocalClient>,
}

/// Joins the daemon of `data_dir` (starting it if none runs) with `registration`.
pub async fn join(
    data_dir: &Path,
    registration: &Registration,
    starter: Starter,
) -> Result<Joined, JoinError> {
    let data_dir = prepare_dir(data_dir)?;
    let body = registration.body()?;
    let (info, registered, lease) = register(&data_dir, &body, &starter).await?;
    let client = Arc::new_cyclic(|myself| LocalClient {
        data_dir: data_dir.clone(),
        body,
        starter,
        current: tokio::sync::Mutex::new(Credentials {
            token: Secret::new(registered.token.clone()),
            generation: 1,
        }),
        myself: myself.clone(),
    });
    client.hold(lease, 1);
    Ok(Joined {
        client,
        socket: info.socket,
        repos: registered
            .repos
            .into_iter()
            .map(|r| ServedRepo {
                name: r.name,
                root: r.root,
            })
            .collect(),
        workspaces: registered
            .workspaces
            .into_iter()
            .map(|w| (w.name, w.root))
            .collect(),
    })
}

impl LocalClient {
    /// Holds the registration stream open in the background; when it ends, joins again.
    fn hold(&self, mut lease: reqwest::Response, generation: u64) {
        let myself = self.myself.clone();
        tokio::spawn(async move {
            while let Ok(Some(_)) = lease.chunk().await {}
            drop(lease);
            let mut wait = Duration::from_millis(100);
            loop {
                let Some(client) = myself.upgrade() else {
                    return;
                };
                match client.rejoin(generation).await {
                    Ok(_) => return,
                    Err(e) => {
                        tracing::warn!(error = %e, "cannot join the local nexus-lite again; retrying");
                        drop(client);
                        tokio::time::sleep(wait).await;
                        wait = (wait * 2).min(REJOIN_BACKOFF_MAX);
                    }
                }
            }
        });
    }

    /// Registers again unless another caller already did since `generation`.
    async fn rejoin(&self, generation: u64) -> Result<Credentials, JoinError> {
        let mut current = self.current.lock().await;
        if current.generation > generation {
            return Ok(current.clone());
        }
        let (_, registered, lease) = register(&self.data_dir, &self.body, &self.starter).await?;
        *current = Credentials {
            token: Secret::new(registered.token),
            generation: current.generation + 1,
        };
        tracing::info!(
            generation = current.generation,
            "joined the local nexus-lite again"
        );
        self.hold(lease, current.generation);
        Ok(current.clone())
    }
}

impl LocalNexus for LocalClient {
    fn current(&self) -> LocalFuture<'_> {
        Box::pin(async move { Ok(self.current.lock().await.clone()) })
    }

    fn recover(&self, generation: u64) -> LocalFuture<'_> {
        Box::pin(async move { self.rejoin(generation).await.map_err(|e| e.to_string()) })
    }
}

/// Creates the data directory (0700) or checks that it and its files are this user's.
fn prepare_dir(dir: &Path) -> Result<PathBuf, JoinError> {
    files::prepare_data_dir(dir)?;
    dir.canonicalize()
        .map_err(io("open the data directory", dir))
}

/// Finds or starts the daemon, then registers `body`: the daemon, the registration and the
/// open stream that keeps it.
async fn register(
    dir: &Path,
    body: &Value,
    starter: &Starter,
) -> Result<(DaemonInfo, Registered, reqwest::Response), JoinError> {
    let (info, http) = match probe(dir).await {
        Some(found) if !older_than_ours(&found.0.version) => found,
        _ => start(dir, starter).await?,
    };
    if info.version != OUR_VERSION {
        tracing::warn!(
            daemon = %info.version,
            ours = OUR_VERSION,
            "the local nexus-lite is a newer release than this process; joining it"
        );
    }
    let mut response = tokio::time::timeout(
        REGISTER_TIMEOUT,
        http.post(url(CLIENTS_PATH))
            .bearer_auth(&info.token)
            .json(body)
            .send(),
    )
    .await
    .map_err(|_| protocol(&info, "the registration timed out".into()))?
    .map_err(|e| protocol(&info, e.to_string()))?;
    if !response.status().is_success() {
        let status = response.status();
        let text = response.text().await.unwrap_or_default();
        let message = serde_json::from_str::<Value>(&text)
            .ok()
            .and_then(|v| v["error"]["message"].as_str().map(str::to_owned))
            .unwrap_or_else(|| format!("HTTP {status}: {text}"));
        return Err(JoinError::Refused(message));
    }
    let mut line = Vec::new();
    while !line.contains(&b'\n') {
        match tokio::time::timeout(REGISTER_TIMEOUT, response.chunk()).await {
            Ok(Ok(Some(chunk))) => line.extend_from_slice(&chunk),
            Ok(Ok(None)) => break,
            Ok(Err(e)) => return Err(protocol(&info, e.to_string())),
            Err(_) => return Err(protocol(&info, "the registration timed out".into())),
        }
    }
    let first = line.split(|b| *b == b'\n').next().unwrap_or_default();
    let registered: Registered = serde_json::from_slice(first)
        .map_err(|e| protocol(&info, format!("the registration is not JSON ({e})")))?;
    Ok((info, registered, response))
}

fn protocol(info: &DaemonInfo, reason: String) -> JoinError {
    JoinError::Protocol {
        socket: info.socket.clone(),
        reason,
    }
}

/// The running daemon of `dir`, if one answers its health check, and a client of its socket
/// (no timeout of its own: it also holds registration streams).
async fn probe(dir: &Path) -> Option<(DaemonInfo, reqwest::Client)> {
    let info = files::read_daemon_file(dir)?;
    let http = local_http(&info.socket)
        .connect_timeout(PROBE_TIMEOUT)
        .build()
        .ok()?;
    let answer = http
        .get(url("/healthz"))
        .timeout(PROBE_TIMEOUT)
        .send()
        .await
        .ok()?;
    if !answer.status().is_success() {
        return None;
    }
    // Read again: the file read above may be the previous daemon's (a restart in between), and
    // a daemon writes its file before it answers, so the one read now is the answering one's.
    let info = files::read_daemon_file(dir)?;
    Some((info, http))
}

/// The ready line a daemon prints on stdout.
#[derive(Deserialize)]
struct Ready {
    ready: bool,
    #[serde(default)]
    error: Option<String>,
    #[serde(default)]
    in_use_by: Option<Holder>,
}

#[derive(Deserialize)]
struct Holder {
    pid: u32,
    #[serde(default)]
    host: Option<String>,
}

/// Starts the daemon of `dir` under the start lock (unless another process just did).
async fn start(dir: &Path, starter: &Starter) -> Result<(DaemonInfo, reqwest::Client), JoinError> {
    let lock_path = dir.join(files::START_LOCK_FILE);
    let lock = open_private(&lock_path, false)?;
    let lock = tokio::task::spawn_blocking(move || lock.lock().map(|()| lock))
        .await
        .map_err(|e| JoinError::Start {
            dir: dir.to_path_buf(),
            reason: e.to_string(),
            log: dir.join(files::LOG_FILE),
        })?
        .map_err(io("lock", &lock_path))?;
    if let Some(found) = probe(dir).await {
        if !older_than_ours(&found.0.version) {
            return Ok(found);
        }
        retire(dir, &found.0).await?;
    }
    let log_path = dir.join(files::LOG_FILE);
    let log = open_private(&log_path, true)?;
    let mut child = tokio::process::Command::new(&starter.program)
        .args(&starter.args)
        .arg("--data-dir")
        .arg(dir)
        .current_dir(dir)
        // Not in the caller's process group: a Ctrl-C meant for a `gate` stops the gate only.
        .process_group(0)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(log)
        .spawn()
        .map_err(io("start the local nexus-lite", &starter.program))?;
    let failed = |reason: String| JoinError::Start {
        dir: dir.to_path_buf(),
        reason,
        log: log_path.clone(),
    };
    let stdout = child
        .stdout
        .take()
        .ok_or_else(|| failed("its standard output is missing".into()))?;
    let mut line = String::new();
    let mut stdout = tokio::io::BufReader::new(stdout);
    let read = tokio::io::AsyncBufReadExt::read_line(&mut stdout, &mut line);
    match tokio::time::timeout(READY_TIMEOUT, read).await {
        Ok(Ok(_)) => {}
        Ok(Err(e)) => return Err(failed(e.to_string())),
        Err(_) => {
            return Err(failed(format!(
                "it did not say it was ready within {} s",
                READY_TIMEOUT.as_secs()
            )));
        }
    }
    let ready: Ready = serde_json::from_str(line.trim()).map_err(|_| {
        failed(if line.trim().is_empty() {
            "it exited before it was ready".into()
        } else {
            format!("it printed {:?} instead of its ready line", line.trim())
        })
    })?;
    if !ready.ready {
        if let Some(holder) = ready.in_use_by {
            // Held on this machine: a daemon too busy to answer the probe in time, or one still
            // starting (its lock taken, its socket not yet bound). Give it time to answer.
            if holder
                .host
                .as_deref()
                .is_none_or(|h| h == files::hostname())
                && let Some(found) = answering_within(dir, BUSY_DAEMON_WAIT).await
            {
                return Ok(found);
            }
            return Err(held_by(dir, holder));
        }
        return Err(failed(
            ready.error.unwrap_or_else(|| "no reason given".into()),
        ));
    }
    drop(lock);
    probe(dir).await.ok_or_else(|| {
        failed(format!(
            "it said it was ready, but does not answer on the socket named in {}",
            files::DAEMON_FILE
        ))
    })
}

/// This build's release, which the daemon it starts writes in its daemon file.
const OUR_VERSION: &str = env!("CARGO_PKG_VERSION");
/// How long a retired daemon gets to stop (it gives a running regeneration 10 s to commit).
const RETIRE_TIMEOUT: Duration = Duration::from_secs(30);

/// Whether a daemon of release `version` is older than this build (an unreadable version
/// counts as older): after an upgrade the first new client replaces it, instead of every new
/// client being served by the old code until the last old client leaves. A newer daemon is
/// joined as it is, so two releases never take turns stopping each other.
fn older_than_ours(version: &str) -> bool {
    fn release(v: &str) -> Option<[u64; 3]> {
        let mut parts = v.split(['-', '+']).next()?.split('.').map(str::parse);
        let mut out = [0; 3];
        for slot in &mut out {
            *slot = parts.next()?.ok()?;
        }
        Some(out)
    }
    match (release(version), release(OUR_VERSION)) {
        (Some(theirs), Some(ours)) => theirs < ours,
        (None, _) => true,
        (Some(_), None) => false,
    }
}

/// Stops the older daemon `info` of `dir` the way the system would (SIGTERM: its clients'
/// registrations end and they join the daemon started next) and waits until it has exited, so
/// its data-directory lock is free. Called under the start lock.
async fn retire(dir: &Path, info: &DaemonInfo) -> Result<(), JoinError> {
    use rustix::process::{Pid, PidfdFlags, Signal, kill_process, pidfd_open};
    let failed = |reason: String| JoinError::Start {
        dir: dir.to_path_buf(),
        reason,
        log: dir.join(files::LOG_FILE),
    };
    tracing::info!(
        pid = info.pid,
        daemon = %info.version,
        ours = OUR_VERSION,
        "stopping the local nexus-lite of an older release"
    );
    let pid = i32::try_from(info.pid)
        .ok()
        .and_then(Pid::from_raw)
        .ok_or_else(|| failed(format!("its daemon file names pid {}", info.pid)))?;
    // The pidfd is taken before the signal, so the wait is for that process even if the pid
    // is reused; a process already gone has nothing to wait for.
    let Ok(pidfd) = pidfd_open(pid, PidfdFlags::empty()) else {
        return Ok(());
    };
    if let Err(e) = kill_process(pid, Signal::TERM) {
        return Err(failed(format!(
            "nexus-lite {} (pid {}) is an older release and cannot be stopped: {e}",
            info.version, info.pid
        )));
    }
    // A pidfd becomes readable when its process exits.
    let exited = tokio::task::spawn_blocking(move || {
        use rustix::event::{PollFd, PollFlags, Timespec, poll};
        let timeout = Timespec {
            tv_sec: RETIRE_TIMEOUT.as_secs() as _,
            tv_nsec: 0,
        };
        poll(&mut [PollFd::new(&pidfd, PollFlags::IN)], Some(&timeout))
    })
    .await
    .map_err(|e| failed(e.to_string()))?;
    match exited {
        Ok(n) if n > 0 => Ok(()),
        Err(e) => Err(failed(format!("waiting for pid {} to exit: {e}", info.pid))),
        Ok(_) => Err(failed(format!(
            "nexus-lite {} (pid {}) is an older release and did not stop within {} s of SIGTERM",
            info.version,
            info.pid,
            RETIRE_TIMEOUT.as_secs()
        ))),
    }
}

/// The daemon of `dir` once it answers, probing until `wait` has passed.
async fn answering_within(dir: &Path, wait: Duration) -> Option<(DaemonInfo, reqwest::Client)> {
    let deadline = tokio::time::Instant::now() + wait;
    loop {
        if let Some(found) = probe(dir).await {
            return Some(found);
        }
        if tokio::time::Instant::now() >= deadline {
            return None;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The directory is locked by `holder`, which we could not reach: another machine, or a
/// process that serves no socket.
fn held_by(dir: &Path, holder: Holder) -> JoinError {
    let here = files::hostname();
    match holder.host {
        Some(host) if host != here => JoinError::OtherMachine {
            dir: dir.to_path_buf(),
            pid: holder.pid,
            host,
        },
        _ => JoinError::Unreachable {
            dir: dir.to_path_buf(),
            pid: holder.pid,
            socket: dir.join(files::SOCKET_FILE),
        },
    }
}

/// Opens (creating, mode 0600) a file of the data directory.
fn open_private(path: &Path, append: bool) -> Result<File, JoinError> {
    let mut options = OpenOptions::new();
    options.create(true).mode(0o600);
    if append {
        options.append(true);
    } else {
        options.read(true).write(true).truncate(false);
    }
    options.open(path).map_err(io("open", path))
}

/// The status of the daemon serving `dir` (see the daemon's status route), or `None` when no
/// daemon answers there. Never starts one.
pub async fn status(dir: &Path) -> Result<Option<Value>, JoinError> {
    if dir.exists() {
        files::prepare_data_dir(dir)?;
    }
    let Some((info, http)) = probe(dir).await else {
        return Ok(None);
    };
    let answer = http
        .get(url(STATUS_PATH))
        .bearer_auth(&info.token)
        .timeout(REGISTER_TIMEOUT)
        .send()
        .await
        .map_err(|e| protocol(&info, e.to_string()))?;
    if !answer.status().is_success() {
        return Err(protocol(
            &info,
            format!("status answered HTTP {}", answer.status()),
        ));
    }
    answer
        .json()
        .await
        .map(Some)
        .map_err(|e| protocol(&info, e.to_string()))
}
