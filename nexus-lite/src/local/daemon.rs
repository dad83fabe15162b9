//! `nexus-lite daemon --data-dir D`: start-up (data directory, lock, socket, daemon.json, the
//! ready line), serving, and the way out (idle, data directory or socket gone, SIGTERM/SIGINT).

use super::admin::{self, Daemon};
use super::files::{self, DaemonFile, SOCKET_FILE};
use super::listener::SameUid;
use super::registry::Registry;
use crate::core::error::LiteError;
use crate::core::util::{now_epoch, rfc3339};
use crate::server::Server;
use serde_json::{Value, json};
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::signal::unix::Signal;

/// Seconds without a client after which the daemon exits, when no `--idle-timeout` is given.
pub const IDLE_ENV: &str = "NEXUS_LITE_IDLE_TIMEOUT";
pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(300);

/// How often the daemon looks at its clients, its data directory and its socket.
const TICK: Duration = Duration::from_millis(250);

/// How long a starting daemon waits for a stopping one (lock held, socket already gone) to
/// release the data directory, and how often it tries.
const HANDOVER: Duration = Duration::from_secs(5);
const HANDOVER_POLL: Duration = Duration::from_millis(50);

/// Exit code of a daemon that found its data directory served by another one.
pub const EXIT_IN_USE: u8 = 3;

#[derive(Debug, Clone)]
pub struct DaemonConfig {
    pub data_dir: PathBuf,
    pub idle_timeout: Duration,
    /// Ready code graphs kept per (repository, branch).
    pub keep_graphs: usize,
}

impl DaemonConfig {
    /// `idle_timeout_secs` given, else `NEXUS_LITE_IDLE_TIMEOUT`, else 300 s.
    pub fn new(data_dir: PathBuf, idle_timeout_secs: Option<u64>) -> DaemonConfig {
        let from_env = || {
            let v = std::env::var(IDLE_ENV).ok()?;
            let secs = v.trim().parse::<u64>();
            if secs.is_err() {
                tracing::warn!(
                    value = v,
                    "{IDLE_ENV} is not a number of seconds; using 300"
                );
            }
            secs.ok()
        };
        DaemonConfig {
            data_dir,
            keep_graphs: crate::core::config::DEFAULT_KEEP_GRAPHS,
            idle_timeout: idle_timeout_secs
                .or_else(from_env)
                .map(Duration::from_secs)
                .unwrap_or(DEFAULT_IDLE_TIMEOUT),
        }
    }
}

/// The process exit code for a failed start-up: [`EXIT_IN_USE`] when another nexus-lite serves
/// the data directory, 1 otherwise.
pub fn exit_code(e: &LiteError) -> u8 {
    match e {
        LiteError::DataDirInUse { .. } | LiteError::OtherHost { .. } => EXIT_IN_USE,
        _ => 1,
    }
}

/// The daemon's command line (`nexus-lite daemon`, and `nexus-mcp daemon` that clients start).
#[derive(clap::Args, Debug, Clone)]
pub struct DaemonArgs {
    /// The data directory to serve (default: the user data directory).
    #[arg(long)]
    pub data_dir: Option<PathBuf>,
    /// Exit after this many seconds without a client (default: NEXUS_LITE_IDLE_TIMEOUT, else 300).
    #[arg(long)]
    pub idle_timeout: Option<u64>,
    #[command(flatten)]
    pub retention: crate::core::config::Retention,
}

/// Runs the daemon of `args` (blocking) and says how it ended as an exit code.
pub fn main(args: &DaemonArgs) -> std::process::ExitCode {
    let data_dir = args
        .data_dir
        .clone()
        .unwrap_or_else(crate::default_data_dir);
    let config = DaemonConfig {
        keep_graphs: args.retention.keep_graphs(),
        ..DaemonConfig::new(data_dir, args.idle_timeout)
    };
    match run(config) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("nexus-lite daemon: {e}");
            std::process::ExitCode::from(exit_code(&e))
        }
    }
}

/// Runs the daemon on a runtime of its own until it stops (blocking). Inside a tokio runtime,
/// call [`serve`] instead.
pub fn run(config: DaemonConfig) -> Result<(), LiteError> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| LiteError::Task(format!("cannot start the async runtime: {e}")))?;
    let result = rt.block_on(serve(config));
    // A regeneration still writing gets time to commit (the lock is held until it ends).
    rt.shutdown_timeout(Duration::from_secs(10));
    result
}

/// Starts the daemon, prints the ready line (`{"ready":true,"pid":N}`, or `{"ready":false,
/// "error","in_use_by"}`) on stdout, stops using stdout and serves until it stops.
pub async fn serve(config: DaemonConfig) -> Result<(), LiteError> {
    let (daemon, listener, socket_id) = match start(&config).await {
        Ok(started) => started,
        Err(e) => {
            announce(
                &json!({"ready": false, "error": e.to_string(), "in_use_by": in_use_by(&config.data_dir, &e)}),
            );
            return Err(e);
        }
    };
    // Before the ready line: a SIGTERM right after it must find the handlers (not kill us).
    use tokio::signal::unix::{SignalKind, signal};
    let signals = (
        signal(SignalKind::terminate()).ok(),
        signal(SignalKind::interrupt()).ok(),
    );
    announce(&json!({"ready": true, "pid": std::process::id()}));
    if let Err(e) =
        std::fs::File::open("/dev/null").and_then(|n| Ok(rustix::stdio::dup2_stdout(n)?))
    {
        tracing::warn!(error = %e, "cannot point stdout at /dev/null");
    }
    tracing::info!(data_dir = %daemon.data_dir.display(), pid = daemon.file.pid, "nexus-lite daemon ready");
    let app = admin::router(daemon.clone());
    let dir_id = files::identity(&daemon.data_dir);
    tokio::select! {
        served = axum::serve(listener, app).into_future() => {
            if let Err(e) = served {
                tracing::error!(error = %e, "the daemon's server stopped with an error");
            }
        }
        reason = stopped(&daemon, dir_id, socket_id, signals) => {
            tracing::info!(reason, "nexus-lite daemon stopping");
        }
    }
    files::remove_own(&daemon.data_dir, socket_id, &daemon.file.token);
    Ok(())
}

fn announce(line: &Value) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

fn in_use_by(dir: &Path, e: &LiteError) -> Value {
    match e {
        LiteError::DataDirInUse { holder, .. } => json!({
            "pid": holder,
            "host": files::read_daemon_file(dir).map(|f| f.host).unwrap_or_else(files::hostname),
        }),
        LiteError::OtherHost { pid, host, .. } => json!({"pid": pid, "host": host}),
        _ => Value::Null,
    }
}

type Started = (Arc<Daemon>, SameUid, Option<(u64, u64)>);

async fn start(config: &DaemonConfig) -> Result<Started, LiteError> {
    let (dir, keep_graphs) = (config.data_dir.clone(), config.keep_graphs);
    let opened = tokio::task::spawn_blocking(move || {
        files::prepare_data_dir(&dir)?;
        let dir = dir.canonicalize().map_err(|source| LiteError::DataDir {
            path: dir.clone(),
            source,
        })?;
        let deadline = Instant::now() + HANDOVER;
        let mut waiting = false;
        loop {
            match Server::open(&dir, "", true, keep_graphs) {
                Ok(server) => return Ok((dir, server)),
                Err(LiteError::DataDirInUse { path, holder }) => {
                    if let Some(e) = other_host(&dir, holder) {
                        return Err(e);
                    }
                    // A daemon that is stopping has removed its socket and releases the lock
                    // once its last request ends: wait for it rather than fail the client.
                    if dir.join(SOCKET_FILE).exists() || Instant::now() >= deadline {
                        return Err(LiteError::DataDirInUse { path, holder });
                    }
                    if !waiting {
                        tracing::info!(
                            ?holder,
                            "waiting for the stopping daemon to release the data directory"
                        );
                        waiting = true;
                    }
                    std::thread::sleep(HANDOVER_POLL);
                }
                Err(e) => return Err(e),
            }
        }
    })
    .await
    .map_err(|e| LiteError::Task(e.to_string()))?;
    let (dir, server) = opened?;
    let socket = dir.join(SOCKET_FILE);
    // We hold the lock: a socket file here is a dead daemon's.
    let _ = std::fs::remove_file(&socket);
    files::owner_only(&dir.join(files::LOG_FILE))?;
    files::owner_only(&dir.join(crate::core::lock::LOCK_FILE))?;
    let io = |what: &str| {
        let (what, path) = (what.to_string(), socket.clone());
        move |source| LiteError::Local { what, path, source }
    };
    let listener = tokio::net::UnixListener::bind(&socket).map_err(io("bind the socket"))?;
    std::fs::set_permissions(&socket, std::fs::Permissions::from_mode(0o600))
        .map_err(io("restrict to its owner (0600)"))?;
    let file = DaemonFile {
        pid: std::process::id(),
        host: files::hostname(),
        uid: files::my_uid(),
        version: env!("CARGO_PKG_VERSION").to_string(),
        started_at: rfc3339(now_epoch()),
        socket: socket.clone(),
        token: uuid::Uuid::new_v4().simple().to_string(),
    };
    files::write_daemon_file(&dir, &file)?;
    let listener = SameUid {
        inner: listener,
        uid: file.uid,
    };
    let daemon = Arc::new(Daemon {
        server,
        registry: Arc::new(Registry::default()),
        file,
        data_dir: dir,
        started: Instant::now(),
        idle_timeout: config.idle_timeout,
    });
    Ok((daemon, listener, files::identity(&socket)))
}

/// The lock is held by a daemon that daemon.json places on another host.
fn other_host(dir: &Path, holder: Option<u32>) -> Option<LiteError> {
    let f = files::read_daemon_file(dir)?;
    (f.host != files::hostname() && holder.is_none_or(|p| p == f.pid)).then(|| {
        LiteError::OtherHost {
            path: dir.to_path_buf(),
            pid: f.pid,
            host: f.host,
        }
    })
}

/// Why the daemon stops: idle for its timeout with no client and no regeneration running, its
/// data directory or socket removed or replaced, SIGTERM or SIGINT.
async fn stopped(
    d: &Daemon,
    dir_id: Option<(u64, u64)>,
    socket_id: Option<(u64, u64)>,
    (mut term, mut int): (Option<Signal>, Option<Signal>),
) -> &'static str {
    let mut tick = tokio::time::interval(TICK);
    let mut idle_since = Instant::now();
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            Some(()) = async { match term.as_mut() { Some(s) => s.recv().await, None => std::future::pending().await } } => return "SIGTERM",
            Some(()) = async { match int.as_mut() { Some(s) => s.recv().await, None => std::future::pending().await } } => return "SIGINT",
        }
        if files::identity(&d.data_dir) != dir_id {
            return "the data directory was removed or replaced";
        }
        if files::identity(&d.data_dir.join(SOCKET_FILE)) != socket_id {
            return "the socket was removed or replaced";
        }
        let regenerating = d.server.regenerating();
        if !d.registry.is_empty() || regenerating {
            idle_since = Instant::now();
        } else if idle_since.elapsed() >= d.idle_timeout {
            return "idle: no client for the idle timeout";
        }
    }
}
