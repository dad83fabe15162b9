#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Regeneration plans live in SQLite: a plan made by one server instance is submitted to
//! another one on the same data directory (what `nexus-mcp call kg_regenerate_dry_run` then
//! `nexus-mcp call kg_regenerate_submit` does: two processes), single use across instances,
//! expiry through the injectable clock (no sleeping), and the 409 codes of API.md.

mod common;

use common::*;
use nexus_lite::code::engine::PLAN_TTL_SECS;
use serde_json::Value;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn start(repo: &Path, data: &Path) -> Server {
    start_server(repo, data, None, false)
}

fn plan(addr: SocketAddr) -> String {
    let p = post(
        addr,
        "/api/v1/regenerations/plan",
        r#"{"repository":"acme/fixture"}"#,
    );
    assert_eq!(p.status, 200, "{}", p.body);
    p.body["plan_id"].as_str().unwrap().to_string()
}

fn submit(addr: SocketAddr, plan_id: &str, allow_dirty: bool) -> Resp {
    post(
        addr,
        "/api/v1/regenerations",
        &format!(r#"{{"plan_id":"{plan_id}","allow_dirty":{allow_dirty}}}"#),
    )
}

fn expect_error(r: &Resp, status: u16, code: &str) {
    assert_eq!(r.status, status, "{}", r.body);
    assert_eq!(r.body["error"]["code"], code, "{}", r.body);
}

/// Polls the real status (each GET is a round trip; no fixed sleeps) until it is not running.
fn wait_regeneration(addr: SocketAddr, id: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let r = get(addr, &format!("/api/v1/regenerations/{id}"));
        assert_eq!(r.status, 200, "{}", r.body);
        if r.body["status"] != "running" {
            return r.body;
        }
        assert!(
            Instant::now() < deadline,
            "regeneration {id} did not finish in time"
        );
        std::thread::yield_now();
    }
}

#[test]
fn a_plan_made_by_one_instance_runs_on_the_next_one_once() {
    let repo_dir = tempfile::tempdir().unwrap();
    let data_dir = tempfile::tempdir().unwrap();
    let repo = repo_dir.path();
    fixture_repo(repo);

    // Instance 1 makes the plan and stops (the dry-run process exits).
    let first = start(repo, data_dir.path());
    let pid = plan(first.addr);
    first.stop();

    // Instance 2 on the same data directory runs it.
    let second = start(repo, data_dir.path());
    let r = submit(second.addr, &pid, false);
    assert_eq!(r.status, 202, "{}", r.body);
    assert_eq!(r.body["plan_id"], pid.as_str());
    let done = wait_regeneration(second.addr, r.body["regeneration_id"].as_str().unwrap());
    assert_eq!(done["status"], "ready", "{done}");
    assert_eq!(done["plan_id"], pid.as_str());

    // Single use: a second submit is refused, on this instance and on a fresh one.
    let again = submit(second.addr, &pid, false);
    expect_error(&again, 404, "not_found");
    assert!(
        again.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("already used"),
        "{}",
        again.body
    );
    second.stop();
    let third = start(repo, data_dir.path());
    expect_error(&submit(third.addr, &pid, false), 404, "not_found");
    expect_error(
        &submit(third.addr, "00000000-0000-0000-0000-000000000000", false),
        404,
        "not_found",
    );
}

#[test]
fn expired_stale_and_dirty_plans_across_instances() {
    let repo_dir = tempfile::tempdir().unwrap();
    let data_dir = tempfile::tempdir().unwrap();
    let repo = repo_dir.path();
    fixture_repo(repo);

    // Expiry through the injectable clock, on another instance than the one that planned.
    let a = start(repo, data_dir.path());
    let pid = plan(a.addr);
    a.stop();
    let b = start(repo, data_dir.path());
    b.state.clock.advance(PLAN_TTL_SECS + 1);
    let r = submit(b.addr, &pid, false);
    expect_error(&r, 409, "plan_expired");
    // Expired stays expired (not consumed, not unknown).
    expect_error(&submit(b.addr, &pid, false), 409, "plan_expired");
    b.stop();

    // dirty_not_allowed does not consume the plan: the retry with allow_dirty runs it, on a
    // restarted instance.
    write(
        repo,
        "app/a.py",
        "from . import b\n\n\ndef fa():\n    return 1\n",
    );
    let c = start(repo, data_dir.path());
    let pid = plan(c.addr);
    expect_error(&submit(c.addr, &pid, false), 409, "dirty_not_allowed");
    c.stop();
    let d = start(repo, data_dir.path());
    let r = submit(d.addr, &pid, true);
    assert_eq!(r.status, 202, "{}", r.body);
    let done = wait_regeneration(d.addr, r.body["regeneration_id"].as_str().unwrap());
    assert_eq!(done["status"], "ready", "{done}");

    // A plan bound to the old dirty set is stale once the set changes (here: committed).
    let pid = plan(d.addr);
    d.stop();
    git(repo, &["commit", "-qam", "change a"]);
    let e = start(repo, data_dir.path());
    expect_error(&submit(e.addr, &pid, true), 409, "plan_stale");
}

/// Concurrent submits of one plan start exactly one regeneration. (A second process on the same
/// data directory is refused at start-up: tests/data_dir_lock.rs.)
#[test]
fn two_submits_of_one_plan_start_exactly_one_regeneration() {
    let repo_dir = tempfile::tempdir().unwrap();
    let data_dir = tempfile::tempdir().unwrap();
    let repo = repo_dir.path();
    fixture_repo(repo);
    let a = start(repo, data_dir.path());
    // Two submits at once: one wins, the other is refused.
    let pid = plan(a.addr);
    let barrier = Arc::new(std::sync::Barrier::new(2));
    let results: Vec<Resp> = (0..2)
        .map(|_| {
            let barrier = barrier.clone();
            let pid = pid.clone();
            let addr = a.addr;
            std::thread::spawn(move || {
                barrier.wait();
                submit(addr, &pid, false)
            })
        })
        .collect::<Vec<_>>()
        .into_iter()
        .map(|t| t.join().unwrap())
        .collect();
    let won: Vec<&Resp> = results.iter().filter(|r| r.status == 202).collect();
    assert_eq!(won.len(), 1);
    let lost = results.iter().find(|r| r.status != 202).unwrap();
    assert!(
        (lost.status == 404 && lost.body["error"]["code"] == "not_found")
            || (lost.status == 409 && lost.body["error"]["code"] == "regeneration_running"),
        "{}",
        lost.body
    );
    let done = wait_regeneration(a.addr, won[0].body["regeneration_id"].as_str().unwrap());
    assert_eq!(done["status"], "ready", "{done}");
}
