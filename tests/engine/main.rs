//! Engine tests on the in-process harness (tests/support/inproc.rs): the rmcp server over
//! `tokio::io::duplex` against an axum stub backend, with no spawned process, no nexus-lite
//! and no analysers. They pin what a client of any surface sees: which tools are listed under
//! which scopes, how a mapped answer is trimmed and continued, and how bad arguments and backend
//! failures come back. The whole binary runs in a few seconds.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../support/mod.rs"]
mod support;

mod arguments;
mod backend_errors;
mod http;
mod listing;
mod notifications;
mod results;
mod subscriptions;

use axum::Json;
use axum::Router;
use axum::extract::Query;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use nexus_mcp_runtime::spec::SurfaceSpec;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::OnceLock;
use support::inproc::{Engine, Options};

/// The surface the engine tests drive: tests/manifests/demo.yaml, loaded as `--manifest` loads
/// it. The tests use only generic features (scopes, modes, mapped tools, paging, budget), so no
/// surface's own code is involved.
fn surface() -> &'static SurfaceSpec {
    static DEMO: OnceLock<&'static SurfaceSpec> = OnceLock::new();
    DEMO.get_or_init(|| {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/manifests/demo.yaml");
        nexus_mcp::manifest_file::load(&path).expect("the demo manifest loads")
    })
}

/// Notes in one stub page, each with a long summary: far over the 8,000-character budget
/// together, so the engine must cut the page.
const PAGE_ITEMS: usize = 50;

/// Subfolders of folder `deep`: ~16,000 characters, two budgets' worth on their own.
const FOLDERS: usize = 300;

/// `GET /notes`: folder `missing` is a 404, `broken` a 500 naming a server path; any other
/// folder a page of notes, `n0`… on the first page (no cursor), `p2-n0`… after `b2`; folder
/// `deep` also lists its [`FOLDERS`] subfolders whole on every page.
async fn list_notes(Query(q): Query<HashMap<String, String>>) -> Response {
    match q.get("folder").map(String::as_str) {
        Some("missing") => {
            return (
                StatusCode::NOT_FOUND,
                Json(
                    json!({"error": {"code": "folder_not_found", "message": "no folder missing"}}),
                ),
            )
                .into_response();
        }
        Some("broken") => {
            return (
                StatusCode::INTERNAL_SERVER_ERROR,
                Json(json!({"error": {"code": "db", "message": "sqlite failed at /srv/notes/secret.db"}})),
            )
                .into_response();
        }
        _ => {}
    }
    let (prefix, next) = match q.get("cursor").map(String::as_str) {
        None => ("n", json!("b2")),
        Some("b2") => ("p2-n", Value::Null),
        Some(other) => panic!("the engine sent a cursor it never got from the backend: {other}"),
    };
    let items: Vec<Value> = (0..PAGE_ITEMS)
        .map(|i| {
            json!({
                "id": format!("{prefix}{i}"),
                "title": format!("Note {i}"),
                "summary": format!("note {i}: {}", "long minutes ".repeat(60)),
                "internal_only": "not picked by the manifest",
            })
        })
        .collect();
    let mut answer = json!({"items": items, "total": 2 * PAGE_ITEMS, "next_cursor": next});
    if q.get("folder").map(String::as_str) == Some("deep") {
        answer["folders"] = json!(deep_folders());
    }
    Json(answer).into_response()
}

/// The subfolders of folder `deep`, sent whole with every page: too many for one answer.
fn deep_folders() -> Vec<String> {
    (0..FOLDERS)
        .map(|i| format!("deep/subfolder-{i:03}-of-the-archived-meeting-minutes"))
        .collect()
}

fn routes() -> Router {
    Router::new().route("/notes", get(list_notes))
}

async fn engine(options: Options) -> Engine {
    Engine::start(surface(), routes(), options).await
}
