//! The daemon's accept loop: only connections from our own uid are served; the others are
//! closed unanswered (the 0700 data directory already keeps them out; this is the second wall).

use axum::serve::Listener;
use tokio::net::{UnixListener, UnixStream, unix::SocketAddr};

pub struct SameUid {
    pub inner: UnixListener,
    pub uid: u32,
}

impl Listener for SameUid {
    type Io = UnixStream;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        loop {
            let (stream, addr) = Listener::accept(&mut self.inner).await;
            match stream.peer_cred() {
                Ok(cred) if cred.uid() == self.uid => return (stream, addr),
                Ok(cred) => {
                    tracing::warn!(
                        peer_uid = cred.uid(),
                        "closed a connection from another user"
                    )
                }
                Err(e) => tracing::warn!(error = %e, "closed a connection whose peer is unknown"),
            }
        }
    }

    fn local_addr(&self) -> std::io::Result<Self::Addr> {
        self.inner.local_addr()
    }
}
