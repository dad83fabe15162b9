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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::local::files::my_uid;
    use tokio::io::AsyncReadExt;

    #[tokio::test]
    async fn a_peer_of_another_uid_is_closed_unanswered_and_ours_is_accepted() {
        let dir = tempfile::tempdir().unwrap();
        let theirs = dir.path().join("theirs.sock");
        // A listener for some other user: our own connection is the stranger here.
        let mut strict = SameUid {
            inner: UnixListener::bind(&theirs).unwrap(),
            uid: my_uid().wrapping_add(1),
        };
        let accepting = tokio::spawn(async move { strict.accept().await });
        let mut stranger = UnixStream::connect(&theirs).await.unwrap();
        let mut buf = [0u8; 1];
        let read =
            tokio::time::timeout(std::time::Duration::from_secs(10), stranger.read(&mut buf))
                .await
                .expect("the connection was closed");
        assert_eq!(read.unwrap(), 0, "closed without an answer");
        assert!(!accepting.is_finished(), "nothing was handed to the server");
        accepting.abort();

        let ours = dir.path().join("ours.sock");
        let mut listener = SameUid {
            inner: UnixListener::bind(&ours).unwrap(),
            uid: my_uid(),
        };
        let _client = UnixStream::connect(&ours).await.unwrap();
        let (stream, _) =
            tokio::time::timeout(std::time::Duration::from_secs(10), listener.accept())
                .await
                .expect("our own connection is accepted");
        assert_eq!(stream.peer_cred().unwrap().uid(), my_uid());
    }
}
