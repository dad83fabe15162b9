//! stdin and stdout for the stdio transport, driven by the reactor when they are pipes or sockets.
//!
//! tokio's `stdin()`/`stdout()` hand every read and write to a blocking-pool thread, so each
//! JSON-RPC message costs several thread hand-offs (about 15 futex calls per tools/call here).
//! Agents start MCP servers with pipes (Python, Codex) or socketpairs (Node's libuv), and both
//! can be polled by epoll: the runtime thread then reads and writes them itself.
//!
//! The descriptors are duplicated and switched to non-blocking mode, which also applies to the
//! client's end of the same open file description; a client only ever owns the other end of
//! each pipe, so it never notices. A terminal, a regular file or anything else that cannot be
//! polled keeps tokio's blocking implementation.

use std::fs::File;
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::fs::FileTypeExt;
use tokio::io::{AsyncRead, AsyncWrite};

pub type Reader = Box<dyn AsyncRead + Send + Unpin>;
pub type Writer = Box<dyn AsyncWrite + Send + Unpin>;

/// The (stdin, stdout) pair rmcp serves the session over. Must run inside the runtime.
pub fn transport() -> (Reader, Writer) {
    let reader = match pollable(io::stdin().as_fd().try_clone_to_owned()) {
        Some(Pollable::Fifo(file)) => {
            tokio::net::unix::pipe::Receiver::from_file(file).map(|r| Box::new(r) as Reader)
        }
        Some(Pollable::Socket(file)) => socket(file).map(|s| Box::new(s) as Reader),
        None => Ok(Box::new(tokio::io::stdin()) as Reader),
    };
    let writer = match pollable(io::stdout().as_fd().try_clone_to_owned()) {
        Some(Pollable::Fifo(file)) => {
            tokio::net::unix::pipe::Sender::from_file(file).map(|w| Box::new(w) as Writer)
        }
        Some(Pollable::Socket(file)) => socket(file).map(|s| Box::new(s) as Writer),
        None => Ok(Box::new(tokio::io::stdout()) as Writer),
    };
    (
        reader.unwrap_or_else(|e| {
            tracing::debug!(error = %e, "stdin stays on a blocking thread");
            Box::new(tokio::io::stdin())
        }),
        writer.unwrap_or_else(|e| {
            tracing::debug!(error = %e, "stdout stays on a blocking thread");
            Box::new(tokio::io::stdout())
        }),
    )
}

enum Pollable {
    Fifo(File),
    Socket(File),
}

/// A duplicated standard descriptor that epoll can watch, or `None` (terminal, regular file,
/// closed descriptor).
fn pollable(fd: io::Result<OwnedFd>) -> Option<Pollable> {
    let file = File::from(fd.ok()?);
    let kind = file.metadata().ok()?.file_type();
    if kind.is_fifo() {
        Some(Pollable::Fifo(file))
    } else if kind.is_socket() {
        Some(Pollable::Socket(file))
    } else {
        None
    }
}

fn socket(file: File) -> io::Result<tokio::net::UnixStream> {
    let stream = std::os::unix::net::UnixStream::from(OwnedFd::from(file));
    stream.set_nonblocking(true)?;
    tokio::net::UnixStream::from_std(stream)
}
