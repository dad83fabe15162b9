//! A new surface is a manifest: tests/manifests/demo.yaml (mapped tools, a resource template
//! read from the backend, a prompt that fetches, a hidden capability behind the generated
//! meta-tools) served with `nexus-mcp --manifest` against a stub backend, driven by the
//! Python SDK over stdio and Streamable HTTP (tests/clients/demo_surface.py). Its backend answers
//! carry a `graph` key, and no freshness block appears: the engine knows no surface's words.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/conformance_backend.rs"]
mod conformance_backend;
mod support;

use axum::Json;
use axum::extract::{Path, Query};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::get;
use conformance_backend::{ManifestServer, start_router};
use serde_json::json;
use std::collections::BTreeMap;
use std::process::Command;
use std::time::Duration;

const PYTHON_WHAT: &str = "Python with the `mcp` package (.venv/bin/python or $NEXUS_MCP_PYTHON)";

fn backend() -> String {
    let note = |Path(id): Path<String>| async move {
        let (title, body) = match id.as_str() {
            "welcome" => ("Welcome", "# Welcome\n\nRead the roadmap first."),
            "roadmap" => (
                "Roadmap",
                "# Roadmap\n\nShip the engine, then the surfaces.",
            ),
            _ => {
                return (
                    StatusCode::NOT_FOUND,
                    Json(
                        json!({"error": {"code": "not_found", "message": format!("no note {id}")}}),
                    ),
                )
                    .into_response();
            }
        };
        Json(json!({"id": id, "title": title, "body": body, "graph": {"graph_id": "g1", "commit_sha": "abc"}}))
            .into_response()
    };
    let history = |Path(_id): Path<String>, Query(q): Query<BTreeMap<String, String>>| async move {
        let limit: usize = q.get("limit").and_then(|l| l.parse().ok()).unwrap_or(50);
        let edits: Vec<_> = (0..limit)
            .map(|i| json!({"at": format!("2026-11-{:02}", 30 - i), "by": "ana"}))
            .collect();
        Json(json!({"edits": edits}))
    };
    start_router(
        axum::Router::new()
            .route("/notes/{id}", get(note))
            .route("/notes/{id}/history", get(history)),
    )
}

fn manifest() -> std::path::PathBuf {
    support::root().join("tests/manifests/demo.yaml")
}

fn script() -> std::path::PathBuf {
    support::root().join("tests/clients/demo_surface.py")
}

fn run(command: &mut Command, what: &str) {
    support::run_client_script(command, Duration::from_secs(120), what);
}

#[test]
fn a_manifest_alone_is_a_surface_over_stdio() {
    let Some(py) = support::require(
        support::python_with_mcp(),
        PYTHON_WHAT,
        "a_manifest_alone_is_a_surface_over_stdio",
    ) else {
        return;
    };
    let backend = backend();
    run(
        Command::new(py)
            .arg(script())
            .args(["stdio", "--binary"])
            .arg(support::bin())
            .arg("--manifest")
            .arg(manifest())
            .args(["--backend", &backend]),
        "the Python SDK over stdio (demo surface)",
    );
}

#[test]
fn a_manifest_alone_is_a_surface_over_streamable_http() {
    let Some(py) = support::require(
        support::python_with_mcp(),
        PYTHON_WHAT,
        "a_manifest_alone_is_a_surface_over_streamable_http",
    ) else {
        return;
    };
    let backend = backend();
    let server = ManifestServer::start(&manifest(), &backend);
    run(
        Command::new(py)
            .arg(script())
            .args(["http", "--url"])
            .arg(server.url("/mcp")),
        "the Python SDK over Streamable HTTP (demo surface)",
    );
}
