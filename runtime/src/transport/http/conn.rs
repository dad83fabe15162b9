//! The accept loop: HTTP/1.1 connections under a global cap, with a header-read timeout (which
//! also closes idle kept-alive connections) and a write-stall timeout (a client that stops
//! reading its stream is dropped instead of pinning buffers forever).

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, watch};
use tokio::time::{Instant, Sleep};

#[derive(Debug, Clone, Copy)]
pub struct ConnLimits {
    pub max_connections: usize,
    pub header_timeout: Duration,
    pub stall_timeout: Duration,
    /// How long shutdown waits for open connections (SSE streams never end by themselves).
    pub shutdown_grace: Duration,
}

/// Answered, without reading the request, to a connection over the cap. A canned 503 costs a
/// non-blocking write and tells a legitimate client to retry; a bare close would look like a
/// network fault. The write never waits: a peer that is not reading gets the close only.
const OVER_CAP: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nretry-after: 1\r\nconnection: close\r\ncontent-length: 117\r\n\r\n{\"error\":\"the server is at its connection limit; retry shortly, or raise --max-connections (NEXUS_MCP_MAX_CONNECTIONS)\"}";

/// Serves `app` on `listener` until `shutdown` resolves, then lets open connections finish
/// their current requests for up to `shutdown_grace`.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ConnLimits,
    shutdown: impl Future<Output = ()>,
) {
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    let (stop_tx, stop_rx) = watch::channel(false);
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .keep_alive(true);
    let builder = Arc::new(builder);
    tokio::pin!(shutdown);
    loop {
        let tcp = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((tcp, _)) => tcp,
                Err(e) => {
                    // Out of descriptors or a connection reset before accept: wait a little
                    // rather than spin; established connections keep being served.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let Ok(slot) = slots.clone().try_acquire_owned() else {
            let _ = tcp.try_write(OVER_CAP);
            // Closing with unread bytes sends a reset, which can destroy the 503 before the
            // client reads it: discard what has already arrived (never waiting for more).
            let mut scratch = [0u8; 4096];
            for _ in 0..16 {
                if !matches!(tcp.try_read(&mut scratch), Ok(n) if n > 0) {
                    break;
                }
            }
            tracing::warn!(
                max = limits.max_connections,
                "connection refused: at --max-connections"
            );
            continue;
        };
        // Small SSE frames must not wait for Nagle + delayed ACK (~40 ms a call on a reused connection).
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!(error = %e, "cannot set TCP_NODELAY");
        }
        let io = TokioIo::new(StallGuard::new(tcp, limits.stall_timeout));
        let conn = builder.serve_connection(io, TowerToHyperService::new(app.clone()));
        let mut stop = stop_rx.clone();
        tokio::spawn(async move {
            tokio::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => {}
                () = async { let _ = stop.wait_for(|s| *s).await; } => {
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.await;
                }
            }
            drop(slot);
        });
    }
    drop(listener);
    let _ = stop_tx.send(true);
    let all = u32::try_from(limits.max_connections).unwrap_or(u32::MAX);
    if tokio::time::timeout(limits.shutdown_grace, slots.acquire_many(all))
        .await
        .is_err()
    {
        tracing::info!("shutting down with connections still open (long-lived streams)");
    }
}

/// A socket whose writes fail once they have been blocked for `limit`: the peer stopped
/// reading. hyper then drops the connection, and with it the response stream and its queue.
struct StallGuard {
    tcp: TcpStream,
    limit: Duration,
    stalled: Option<Pin<Box<Sleep>>>,
}

impl StallGuard {
    fn new(tcp: TcpStream, limit: Duration) -> Self {
        StallGuard {
            tcp,
            limit,
            stalled: None,
        }
    }

    fn track<T>(
        &mut self,
        cx: &mut Context<'_>,
        polled: Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>> {
        if polled.is_ready() {
            self.stalled = None;
            return polled;
        }
        let limit = self.limit;
        let timer = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep_until(Instant::now() + limit)));
        ready!(timer.as_mut().poll(cx));
        tracing::warn!(
            after = ?limit,
            "closing a connection whose client stopped reading its stream (--stall-timeout)"
        );
        Poll::Ready(Err(io::Error::new(
            io::ErrorKind::TimedOut,
            "the client has not read its stream for the stall timeout",
        )))
    }
}

impl AsyncRead for StallGuard {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.tcp).poll_read(cx, buf)
    }
}

impl AsyncWrite for StallGuard {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.tcp).poll_write(cx, buf);
        self.track(cx, polled)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.tcp).poll_write_vectored(cx, bufs);
        self.track(cx, polled)
    }

    fn is_write_vectored(&self) -> bool {
        self.tcp.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let polled = Pin::new(&mut self.tcp).poll_flush(cx);
        self.track(cx, polled)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.tcp).poll_shutdown(cx)
    }
}

/// Raises the soft descriptor limit to the hard one (the usual soft 1,024 would not hold the
/// default cap) and returns how many connections fit under it, keeping 256 descriptors for the
/// data directory, Nexus connections and child processes.
pub fn fit_connections(wanted: usize) -> usize {
    use rustix::process::{Resource, getrlimit, setrlimit};
    const HEADROOM: u64 = 256;
    let mut limit = getrlimit(Resource::Nofile);
    if limit.current < limit.maximum {
        let raised = rustix::process::Rlimit {
            current: limit.maximum,
            maximum: limit.maximum,
        };
        match setrlimit(Resource::Nofile, raised) {
            Ok(()) => limit.current = limit.maximum,
            Err(e) => tracing::debug!(error = %e, "cannot raise the descriptor limit"),
        }
    }
    let Some(soft) = limit.current else {
        return wanted;
    };
    let fits = usize::try_from(soft.saturating_sub(HEADROOM).max(1)).unwrap_or(usize::MAX);
    if fits < wanted {
        tracing::warn!(
            wanted,
            fits,
            descriptors = soft,
            "--max-connections lowered to fit the descriptor limit (raise it with ulimit -n)"
        );
    }
    wanted.min(fits)
}
