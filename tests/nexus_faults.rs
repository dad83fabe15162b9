//! Faults a real Nexus cannot be made to show on demand (500s, hangs, malformed bodies), from a
//! tiny in-test HTTP server: what the agent is told, what is retried, and that the service token
//! never appears in any of it.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use nexus_mcp::handler::ToolError;
use nexus_mcp::nexus_client::{NexusClient, NexusRequest, Secret};
use serde_json::json;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::sync::mpsc;
use std::time::Duration;

const TOKEN: &str = "nexus-service-token-4f1c";

/// What one connection gets back; `None` holds the connection open without answering.
type Reply = Option<(u16, &'static str)>;

/// Serves `replies` in order, one per connection; reports each request line and its
/// Authorization header.
fn backend(replies: Vec<Reply>) -> (String, mpsc::Receiver<(String, String)>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for reply in replies {
            let Ok((stream, _)) = listener.accept() else {
                return;
            };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut request_line = String::new();
            reader.read_line(&mut request_line).unwrap();
            let mut auth = String::new();
            let mut length = 0usize;
            loop {
                let mut header = String::new();
                reader.read_line(&mut header).unwrap();
                let lower = header.to_ascii_lowercase();
                if let Some(v) = lower.strip_prefix("authorization:") {
                    auth = header[header.len() - v.len()..].trim().to_owned();
                }
                if let Some(v) = lower.strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap();
                }
                if header == "\r\n" || header.is_empty() {
                    break;
                }
            }
            let mut body = vec![0; length];
            std::io::Read::read_exact(&mut reader, &mut body).unwrap();
            tx.send((request_line.trim().to_owned(), auth)).unwrap();
            let mut stream = stream;
            match reply {
                Some((status, body)) => {
                    let response = format!(
                        "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                        body.len()
                    );
                    stream.write_all(response.as_bytes()).unwrap();
                }
                // Hold the connection until the client gives up (its timeout), then move on.
                None => {
                    let _ = std::io::Read::read(&mut reader, &mut [0u8; 1]);
                }
            }
        }
    });
    (url, rx)
}

fn client(url: &str) -> NexusClient {
    NexusClient::new(
        url,
        Secret::new(TOKEN.to_owned()),
        Duration::from_millis(300),
    )
    .unwrap()
}

fn no_token(e: &ToolError) {
    let shown = format!("{e} {e:?} {}", e.to_json());
    assert!(!shown.contains(TOKEN), "the service token leaked: {shown}");
}

#[tokio::test]
async fn server_errors_are_retried_for_gets_and_reported_as_retryable() {
    let err = r#"{"error":{"code":"internal","message":"database is locked"}}"#;
    let (url, seen) = backend(vec![Some((500, err)), Some((503, err)), Some((500, err))]);
    let e = client(&url)
        .send(&NexusRequest::get("/api/v1/summary").param("graph_id", Some("g1")))
        .await
        .unwrap_err();
    assert!(
        matches!(&e, ToolError::Backend { retryable: true, code, .. } if code == "nexus_unavailable"),
        "{e:?}"
    );
    assert!(
        e.to_string().contains("database is locked") && e.to_string().contains("can be retried"),
        "{e}"
    );
    let requests: Vec<(String, String)> = seen.try_iter().collect();
    assert_eq!(requests.len(), 3, "a GET is tried three times");
    assert!(requests.iter().all(
        |(line, auth)| line == "GET /api/v1/summary?graph_id=g1 HTTP/1.1"
            && auth == &format!("Bearer {TOKEN}")
    ));
    no_token(&e);
}

#[tokio::test]
async fn a_post_is_never_retried() {
    let (url, seen) = backend(vec![Some((500, "{}")), Some((200, "{}"))]);
    let e = client(&url)
        .send(&NexusRequest::post(
            "/api/v1/regenerations",
            json!({"plan_id": "p"}),
        ))
        .await
        .unwrap_err();
    assert!(matches!(
        e,
        ToolError::Backend {
            retryable: true,
            ..
        }
    ));
    assert_eq!(
        seen.try_iter().count(),
        1,
        "a regeneration must not be started twice"
    );
}

#[tokio::test]
async fn a_hanging_backend_times_out_then_recovers() {
    let (url, seen) = backend(vec![None, Some((200, r#"{"graph":{"graph_id":"g1"}}"#))]);
    let v = client(&url)
        .send(&NexusRequest::get("/api/v1/graphs/select"))
        .await
        .unwrap();
    assert_eq!(v["graph"]["graph_id"], "g1", "the second attempt answers");
    assert_eq!(seen.try_iter().count(), 2);
}

#[tokio::test]
async fn malformed_bodies_and_client_errors_say_what_went_wrong() {
    let (url, _seen) = backend(vec![Some((200, "<html>proxy login</html>"))]);
    let e = client(&url)
        .send(&NexusRequest::get("/api/v1/summary"))
        .await
        .unwrap_err();
    assert!(
        matches!(&e, ToolError::Backend { retryable: false, code, .. } if code == "bad_response"),
        "{e:?}"
    );
    assert!(e.to_string().contains("NEXUS_API_URL"), "{e}");

    let (url, _seen) = backend(vec![Some((
        404,
        r#"{"error":{"code":"not_found","message":"no graph `g9`"}}"#,
    ))]);
    let e = client(&url)
        .send(&NexusRequest::get("/api/v1/graphs/select"))
        .await
        .unwrap_err();
    assert!(
        matches!(&e, ToolError::NotFound { message } if message == "no graph `g9`"),
        "{e:?}"
    );

    let (url, _seen) = backend(vec![Some((
        409,
        r#"{"error":{"code":"plan_stale","message":"HEAD moved"}}"#,
    ))]);
    let e = client(&url)
        .send(&NexusRequest::post("/api/v1/regenerations", json!({})))
        .await
        .unwrap_err();
    assert!(
        matches!(&e, ToolError::Backend { code, .. } if code == "plan_stale"),
        "{e:?}"
    );

    let (url, _seen) = backend(vec![Some((
        401,
        r#"{"error":{"code":"unauthorized","message":"bad token"}}"#,
    ))]);
    let e = client(&url)
        .send(&NexusRequest::get("/api/v1/summary"))
        .await
        .unwrap_err();
    assert!(
        e.to_string().contains("NEXUS_API_TOKEN") && e.to_string().contains("operator"),
        "{e}"
    );
    no_token(&e);
}
