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
//!
//! [`LineTransport`] frames the session itself rather than handing the streams to rmcp, so
//! that a line which is not a valid message is answered (-32700, -32600, -32602, JSON-RPC 2.0
//! §5.1) instead of dropped; see [`framing`].

pub mod framing;

use framing::Frame;
use rmcp::RoleServer;
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use std::fs::File;
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::fs::FileTypeExt;
use std::sync::Arc;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};

pub type Reader = Box<dyn AsyncRead + Send + Unpin>;
pub type Writer = Box<dyn AsyncWrite + Send + Unpin>;

/// The session's transport over stdin and stdout. Must run inside the runtime.
pub fn transport() -> LineTransport<Reader, Writer> {
    let (reader, writer) = streams();
    LineTransport::new(reader, writer)
}

/// stdin and stdout, polled by the reactor where they can be.
fn streams() -> (Reader, Writer) {
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

/// Longest line read as one message; longer ones are dropped with an error answer, so a peer
/// that never sends a newline cannot grow the buffer without bound (rmcp's limit too).
pub const MAX_LINE: usize = 16 * 1024 * 1024;

/// Newline-delimited JSON-RPC over a reader and a writer (the MCP stdio transport).
///
/// Responses from the session and the transport's own error answers go through one writer
/// with one pending buffer, so lines never interleave, even when rmcp cancels a `receive`
/// mid-write (it polls `receive` in a `select!`).
pub struct LineTransport<R, W> {
    read: BufReader<R>,
    line: Vec<u8>,
    /// Dropping the rest of an oversized line until its newline.
    discarding: bool,
    out: Arc<tokio::sync::Mutex<Output<W>>>,
    /// An error answer not yet handed to the writer.
    reply: Option<Vec<u8>>,
    /// The writer holds bytes of an error answer not yet written.
    unflushed: bool,
}

struct Output<W> {
    io: Option<W>,
    pending: Vec<u8>,
}

impl<W: AsyncWrite + Unpin> Output<W> {
    /// Writes out `pending`. Cancel-safe: what is not written stays for the next flush.
    async fn flush(&mut self) -> io::Result<()> {
        let io = self
            .io
            .as_mut()
            .ok_or_else(|| io::Error::new(io::ErrorKind::NotConnected, "stdio transport closed"))?;
        while !self.pending.is_empty() {
            let n = io.write(&self.pending).await?;
            if n == 0 {
                return Err(io::ErrorKind::WriteZero.into());
            }
            self.pending.drain(..n);
        }
        io.flush().await
    }
}

enum Line {
    Complete,
    Oversized,
    Eof,
}

impl<R: AsyncRead + Unpin, W: AsyncWrite + Unpin> LineTransport<R, W> {
    pub fn new(read: R, write: W) -> Self {
        LineTransport {
            read: BufReader::new(read),
            line: Vec::new(),
            discarding: false,
            out: Arc::new(tokio::sync::Mutex::new(Output {
                io: Some(write),
                pending: Vec::new(),
            })),
            reply: None,
            unflushed: false,
        }
    }

    /// Reads up to a newline into `self.line`. Cancel-safe: a partial line stays in
    /// `self.line` and the next call goes on with it.
    async fn read_line(&mut self) -> io::Result<Line> {
        loop {
            let available = self.read.fill_buf().await?;
            if available.is_empty() {
                return Ok(Line::Eof);
            }
            let newline = available.iter().position(|b| *b == b'\n');
            let take = newline.map_or(available.len(), |i| i + 1);
            let mut oversized = false;
            if self.discarding {
                self.discarding = newline.is_none();
            } else if self.line.len().saturating_add(take) > MAX_LINE {
                self.line.clear();
                self.discarding = newline.is_none();
                oversized = true;
            } else {
                self.line.extend_from_slice(&available[..take]);
            }
            self.read.consume(take);
            if oversized {
                return Ok(Line::Oversized);
            }
            if newline.is_some() && !self.line.is_empty() {
                return Ok(Line::Complete);
            }
        }
    }

    /// Hands a pending error answer to the writer and writes it out.
    async fn answer(&mut self) -> io::Result<()> {
        let out = self.out.clone();
        let mut out = out.lock().await;
        if let Some(reply) = self.reply.take() {
            out.pending.extend_from_slice(&reply);
            self.unflushed = true;
        }
        out.flush().await?;
        self.unflushed = false;
        Ok(())
    }
}

fn reply_line(reply: &serde_json::Value) -> Vec<u8> {
    let mut bytes = reply.to_string().into_bytes();
    bytes.push(b'\n');
    bytes
}

impl<R, W> rmcp::transport::Transport<RoleServer> for LineTransport<R, W>
where
    R: AsyncRead + Send + Unpin,
    W: AsyncWrite + Send + Unpin + 'static,
{
    type Error = io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let out = self.out.clone();
        async move {
            let mut out = out.lock().await;
            let start = out.pending.len();
            if let Err(e) = serde_json::to_writer(&mut out.pending, &item) {
                out.pending.truncate(start);
                return Err(e.into());
            }
            out.pending.push(b'\n');
            out.flush().await
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            if (self.reply.is_some() || self.unflushed)
                && let Err(e) = self.answer().await
            {
                tracing::error!(error = %e, "cannot write to stdout");
                return None;
            }
            let line = match self.read_line().await {
                Ok(Line::Complete) => std::mem::take(&mut self.line),
                Ok(Line::Oversized) => {
                    tracing::warn!(max = MAX_LINE, "dropped an input line over the size limit");
                    self.reply = Some(reply_line(&framing::too_long(MAX_LINE)));
                    continue;
                }
                // The last line may lack its newline.
                Ok(Line::Eof) if !self.line.is_empty() => std::mem::take(&mut self.line),
                Ok(Line::Eof) => return None,
                Err(e) => {
                    tracing::error!(error = %e, "cannot read stdin");
                    return None;
                }
            };
            let frame = framing::frame(line.strip_suffix(b"\n").unwrap_or(&line));
            // Keep the buffer's capacity for the next line.
            self.line = line;
            self.line.clear();
            match frame {
                Frame::Message(message) => return Some(*message),
                Frame::Skip => {}
                Frame::Reply(reply) => {
                    tracing::debug!(%reply, "answered a malformed input line");
                    self.reply = Some(reply_line(&reply));
                }
            }
        }
    }

    /// Drops the writer like rmcp's own transport: no flush, which could wait forever on a
    /// client that stopped reading.
    async fn close(&mut self) -> Result<(), Self::Error> {
        self.out.lock().await.io = None;
        Ok(())
    }
}
