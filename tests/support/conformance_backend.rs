//! The test backend behind tests/manifests/conformance.yaml: a stub Nexus (axum on 127.0.0.1:0,
//! on a runtime of its own) answering the paths that manifest maps with the fixture data the
//! MCP conformance suite's server scenarios expect, plus `nexus-mcp --manifest` served over HTTP
//! against it. Shared by tests/clients.rs and tests/manifest_file.rs, each using part of it.
#![allow(dead_code)]

use crate::support::{bin, free_port, tee_lines, tool_path, wait_for_line};
use axum::Json;
use axum::extract::{Path, Query};
use axum::http::StatusCode;
use axum::routing::get;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

/// A 1x1 red PNG.
pub const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
/// A WAV of eight silent 8-bit samples.
pub const WAV: &str = "UklGRiwAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQgAAACAgICAgICAgA==";

fn router() -> axum::Router {
    let watched = Arc::new(Mutex::new("the first version".to_owned()));
    let fixed = |value: Value| move || async move { Json(value) };
    axum::Router::new()
        .route(
            "/simple-text",
            get(fixed(json!({"text": "This is a simple text response for testing."}))),
        )
        .route("/image", get(fixed(json!({"png": PNG}))))
        .route("/static-binary", get(fixed(json!({"png": PNG}))))
        .route("/audio", get(fixed(json!({"wav": WAV}))))
        .route(
            "/embedded-resource",
            get(fixed(json!({"uri": "test://embedded-resource", "text": "This is an embedded resource content."}))),
        )
        .route(
            "/mixed",
            get(fixed(json!({"png": PNG, "data": {"test": "data", "value": 123}}))),
        )
        .route("/logging", get(fixed(json!({"status": "completed"}))))
        .route("/progress", get(fixed(json!({"status": "completed"}))))
        .route(
            "/error",
            get(|| async {
                (
                    StatusCode::BAD_REQUEST,
                    Json(json!({"error": {"code": "intentional_error", "message": "This tool intentionally returns an error for testing"}})),
                )
            }),
        )
        .route(
            "/echo",
            get(|Query(q): Query<BTreeMap<String, String>>| async move { Json(json!({"echo": q})) }),
        )
        .route(
            "/resource-text",
            get(|Query(q): Query<BTreeMap<String, String>>| async move {
                Json(json!({"text": "Embedded resource content for testing.", "uri": q.get("uri")}))
            }),
        )
        .route(
            "/template/{id}",
            get(|Path(id): Path<String>| async move {
                Json(json!({"id": id, "templateTest": true, "data": format!("Data for ID: {id}")}))
            }),
        )
        // The subscribable resource: a test changes its text with a POST.
        .route(
            "/watched-resource",
            get({
                let text = watched.clone();
                move || async move { Json(json!({"text": *text.lock().unwrap()})) }
            })
            .post(move |Json(body): Json<Value>| async move {
                *watched.lock().unwrap() = body["text"].as_str().unwrap_or_default().to_owned();
                StatusCode::NO_CONTENT
            }),
        )
}

/// Starts the backend; its base URL.
pub fn start_backend() -> String {
    start_router(router())
}

/// Serves `routes` as a stub backend on 127.0.0.1:0 on a runtime of its own; its base URL.
pub fn start_router(routes: axum::Router) -> String {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("backend runtime");
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                .await
                .expect("bind the backend");
            tx.send(listener.local_addr().expect("backend address"))
                .expect("report the address");
            axum::serve(listener, routes)
                .await
                .expect("serve the backend");
        });
    });
    format!("http://{}", rx.recv().expect("backend started"))
}

/// `nexus-mcp --manifest <manifest> serve --transport http --insecure-no-auth` against
/// `backend`; killed on drop.
pub struct ManifestServer {
    child: Child,
    pub addr: SocketAddr,
    pub stderr: Arc<Mutex<String>>,
}

impl ManifestServer {
    pub fn start(manifest: &std::path::Path, backend: &str) -> ManifestServer {
        let port = free_port();
        let mut child = Command::new(bin())
            .arg("--manifest")
            .arg(manifest)
            .args(["--nexus-url", backend])
            .args([
                "serve",
                "--transport",
                "http",
                "--insecure-no-auth",
                "--listen",
            ])
            .arg(format!("127.0.0.1:{port}"))
            .env("NEXUS_API_TOKEN", "conformance-backend-token")
            .env("PATH", tool_path())
            .env_remove("NEXUS_MCP_API_KEY")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn nexus-mcp --manifest serve");
        let stderr = Arc::new(Mutex::new(String::new()));
        let rx = tee_lines(child.stderr.take().expect("piped stderr"), stderr.clone());
        wait_for_line(
            &rx,
            "nexus-mcp listening on",
            Duration::from_secs(60),
            &stderr,
            "nexus-mcp --manifest serve --transport http",
        );
        ManifestServer {
            child,
            addr: SocketAddr::from(([127, 0, 0, 1], port)),
            stderr,
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    pub fn stderr(&self) -> String {
        self.stderr.lock().map(|s| s.clone()).unwrap_or_default()
    }
}

impl Drop for ManifestServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
