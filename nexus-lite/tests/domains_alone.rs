#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Each domain starts alone: a server of docs only or rules only serves its routes, never opens
//! the code domain (no code tables in the database, no code state), and answers a code route
//! with a 404 saying the domain is not served here.

mod common;

use common::{TOKEN, fixture_repo, get, git, write};
use nexus_lite::{LiteConfig, RepoSpec, Serving, WorkspaceSpec};
use std::collections::BTreeSet;
use std::path::Path;

fn config(data: &Path, repos: Vec<RepoSpec>, workspaces: Vec<WorkspaceSpec>) -> LiteConfig {
    LiteConfig {
        keep_graphs: nexus_lite::DEFAULT_KEEP_GRAPHS,
        data_dir: data.to_path_buf(),
        repos,
        token: TOKEN.into(),
        index_on_first_use: false,
        workspaces,
        docs_limits: Default::default(),
    }
}

fn serve(rt: &tokio::runtime::Runtime, config: LiteConfig, domains: &[&str]) -> Serving {
    let domains: BTreeSet<&str> = domains.iter().copied().collect();
    rt.block_on(nexus_lite::spawn_domains(
        config,
        "127.0.0.1:0".parse().unwrap(),
        &domains,
    ))
    .unwrap()
}

/// The tables of the database in `data`.
/// The tables and views of the database.
fn tables(data: &Path) -> BTreeSet<String> {
    let conn = nexus_lite::core::db::open(data).unwrap();
    let mut st = conn
        .prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")
        .unwrap();
    st.query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

const CODE_TABLES: [&str; 5] = ["graphs", "nodes", "edges", "part_edges", "regenerations"];

fn assert_no_code(serving: &Serving, data: &Path) {
    assert!(serving.code().is_none(), "a code state was built");
    assert!(!serving.server.code_is_open(), "the code domain was opened");
    let tables = tables(data);
    for t in CODE_TABLES {
        assert!(!tables.contains(t), "code's table {t} exists: {tables:?}");
    }
}

fn assert_code_not_served(addr: std::net::SocketAddr) {
    let r = get(addr, "/api/v1/graphs?repository=acme%2Fshop");
    assert_eq!(r.status, 404, "{}", r.body);
    assert_eq!(r.body["error"]["code"], "not_found");
    let msg = r.body["error"]["message"].as_str().unwrap();
    assert!(
        msg.contains("code domain") && msg.contains("--domain code"),
        "{msg}"
    );
}

/// The fixture repository at `dir`, registered as `acme/shop`.
fn shop(dir: &Path) -> RepoSpec {
    std::fs::create_dir_all(dir).unwrap();
    fixture_repo(dir);
    RepoSpec {
        name: Some("acme/shop".into()),
        path: dir.to_path_buf(),
    }
}

/// A committed two-page handbook at `dir`, registered as `handbook`.
fn workspace(dir: &Path) -> WorkspaceSpec {
    std::fs::create_dir_all(dir).unwrap();
    git(dir, &["init", "-q", "-b", "main"]);
    write(
        dir,
        "docs/index.md",
        "# Index\n\nSee [install](install.md).\n",
    );
    write(dir, "docs/install.md", "# Install\n");
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "docs"]);
    WorkspaceSpec {
        name: Some("handbook".into()),
        path: dir.to_path_buf(),
    }
}

#[test]
fn a_docs_only_server_serves_docs_and_never_opens_code() {
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("data");
    let rt = tokio::runtime::Runtime::new().unwrap();
    let handbook = workspace(&t.path().join("ws"));
    let serving = serve(&rt, config(&data, Vec::new(), vec![handbook]), &["docs"]);
    let r = get(serving.addr, "/api/v1/docs/workspaces");
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["workspaces"][0]["name"], "handbook", "{}", r.body);
    assert!(serving.domains.docs.is_some() && serving.domains.rules.is_none());
    assert_no_code(&serving, &data);
    assert!(
        !tables(&data).contains("rule_checks"),
        "rules' tables exist"
    );
    rt.block_on(serving.shutdown());
}

#[test]
fn a_rules_only_server_serves_rules_and_never_opens_code() {
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("data");
    let spec = shop(&t.path().join("repo"));
    let rt = tokio::runtime::Runtime::new().unwrap();
    let serving = serve(&rt, config(&data, vec![spec], Vec::new()), &["rules"]);
    let r = get(
        serving.addr,
        "/api/v1/rules/playbook?repository=acme%2Fshop",
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let r = get(serving.addr, "/api/v1/rules/checks?repository=acme%2Fshop");
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(tables(&data).contains("rule_checks"));
    assert_no_code(&serving, &data);
    rt.block_on(serving.shutdown());
}

#[test]
fn code_routes_answer_that_the_code_domain_is_not_served() {
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("data");
    let spec = shop(&t.path().join("repo"));
    let rt = tokio::runtime::Runtime::new().unwrap();
    let serving = serve(&rt, config(&data, vec![spec], Vec::new()), &["rules"]);
    assert_code_not_served(serving.addr);
    let r = get(serving.addr, "/api/v1/findings/f-1");
    assert_eq!(r.status, 404, "{}", r.body);
    assert!(
        r.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("code domain")
    );
    // A path of no domain still answers the core's "no endpoint".
    let r = get(serving.addr, "/api/v1/nope");
    assert_eq!(r.status, 404, "{}", r.body);
    assert!(
        r.body["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("no endpoint GET /api/v1/nope"),
        "{}",
        r.body
    );
    // Behind the token check like every other route.
    let r = common::http(serving.addr, "GET", "/api/v1/graphs", None, None);
    assert_eq!(r.status, 401, "{}", r.body);
    assert_no_code(&serving, &data);
    rt.block_on(serving.shutdown());
}

#[test]
fn the_docs_domain_alone_answers_rules_routes_as_not_served() {
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("data");
    let rt = tokio::runtime::Runtime::new().unwrap();
    let handbook = workspace(&t.path().join("ws"));
    let serving = serve(&rt, config(&data, Vec::new(), vec![handbook]), &["docs"]);
    assert_code_not_served(serving.addr);
    let r = get(serving.addr, "/api/v1/rules/playbook");
    assert_eq!(r.status, 404, "{}", r.body);
    assert!(
        r.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("--domain rules"),
        "{}",
        r.body
    );
    assert_no_code(&serving, &data);
    rt.block_on(serving.shutdown());
}

#[test]
fn every_domain_served_opens_each_one_with_its_tables() {
    let t = tempfile::tempdir().unwrap();
    let (repo, ws, data) = (
        t.path().join("repo"),
        t.path().join("ws"),
        t.path().join("data"),
    );
    let spec = shop(&repo);
    let rt = tokio::runtime::Runtime::new().unwrap();
    let serving = serve(
        &rt,
        config(&data, vec![spec], vec![workspace(&ws)]),
        &["code", "docs", "rules"],
    );
    assert!(serving.server.code_is_open());
    assert_eq!(serving.code().unwrap().repos.len(), 1);
    let tables = tables(&data);
    for t in CODE_TABLES.iter().chain(&["rule_checks"]) {
        assert!(tables.contains(*t), "{t} is missing: {tables:?}");
    }
    let r = get(serving.addr, "/api/v1/repositories");
    assert_eq!(r.status, 200, "{}", r.body);
    rt.block_on(serving.shutdown());
}
