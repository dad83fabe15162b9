//! Property-based fuzz targets, shared by `tests/fuzz.rs` (a few thousand cases per target in CI,
//! with shrinking) and `benches/fuzz.rs` (>= 100,000 cases per target on demand, counting every
//! failure). Each target is a proptest strategy plus a check that returns `Err(why)` when a
//! property does not hold; a panic is caught and counted as a failure too.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use nexus_mcp_runtime::app::ToolContext;
use nexus_mcp_runtime::app::{App, Settings};
use nexus_mcp_runtime::backend::{NexusClient, Secret};
use nexus_mcp_runtime::spec::Mode;
use nexus_mcp_runtime::transport::http::Auth;
use nexus_mcp_runtime::transport::stdio::framing::{self, Frame};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::{Map, Value, json};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

// ---------------------------------------------------------------- running

/// Cases per target: `NEXUS_MCP_FUZZ_CASES`, else `default`.
pub fn cases(default: u32) -> u32 {
    std::env::var("NEXUS_MCP_FUZZ_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(default)
}

/// For tests: proptest's runner (shrinks the first failure and panics with it).
pub fn check<S: Strategy>(
    name: &str,
    cases: u32,
    strategy: S,
    property: impl Fn(S::Value) -> Result<(), String>,
) where
    S::Value: std::fmt::Debug,
{
    let config = Config {
        cases,
        failure_persistence: None,
        max_shrink_iters: 2048,
        ..Config::default()
    };
    let started = Instant::now();
    let result = TestRunner::new(config).run(&strategy, |input| {
        property(input).map_err(TestCaseError::fail)
    });
    eprintln!("fuzz {name}: {cases} cases in {:.1?}", started.elapsed());
    if let Err(e) = result {
        panic!("fuzz target {name} failed: {e}");
    }
}

/// What a counting run found.
pub struct Tally {
    pub cases: u32,
    pub failures: u32,
    pub first_failure: Option<String>,
    pub elapsed: Duration,
}

/// For the bench: runs every case (no shrinking) and counts failures, panics included.
pub fn count<S: Strategy>(
    cases: u32,
    strategy: S,
    property: impl Fn(S::Value) -> Result<(), String>,
) -> Tally
where
    S::Value: std::fmt::Debug + Clone,
{
    let mut runner = TestRunner::new(Config {
        failure_persistence: None,
        ..Config::default()
    });
    let started = Instant::now();
    let mut tally = Tally {
        cases,
        failures: 0,
        first_failure: None,
        elapsed: Duration::ZERO,
    };
    // NEXUS_MCP_FUZZ_SECONDS bounds a target's run; the cases actually run are reported.
    let limit = std::env::var("NEXUS_MCP_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .map(Duration::from_secs);
    for case in 0..cases {
        if limit.is_some_and(|l| started.elapsed() > l) {
            tally.cases = case;
            break;
        }
        let Ok(tree) = strategy.new_tree(&mut runner) else {
            continue;
        };
        let input = tree.current();
        let shown = input.clone();
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| property(input)));
        let why = match outcome {
            Ok(Ok(())) => continue,
            Ok(Err(why)) => why,
            Err(panic) => format!(
                "panic: {}",
                panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                    .unwrap_or_default()
            ),
        };
        tally.failures += 1;
        if tally.first_failure.is_none() {
            let mut input = format!("{shown:?}");
            input.truncate(4000);
            tally.first_failure = Some(format!("{why}\n  input: {input}"));
        }
    }
    tally.elapsed = started.elapsed();
    tally
}

// ---------------------------------------------------------------- shared generators

/// Text that exercises escaping, multi-byte characters and length.
pub fn text() -> impl Strategy<Value = String> + Clone {
    prop_oneof![
        "[a-z_ ]{0,12}",
        any::<String>(),
        "[\\PC\n\t\"\\\\]{0,40}",
        "[a-zA-Z0-9 é中😀]{60,400}",
    ]
}

/// Any JSON value, nested up to three levels.
pub fn json_value() -> impl Strategy<Value = Value> + Clone {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_filter_map("finite", |f| serde_json::Number::from_f64(f)
            .map(Value::Number)),
        text().prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            prop::collection::vec((text(), inner), 0..6)
                .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// JSON-RPC messages close to valid ones, with one part replaced by something random.
pub fn near_message(methods: &'static [&'static str]) -> impl Strategy<Value = Value> + Clone {
    let id = prop_oneof![
        Just(None),
        Just(Some(json!(1))),
        Just(Some(json!("a"))),
        Just(Some(Value::Null)),
        json_value().prop_map(Some),
    ];
    let params = prop_oneof![
        Just(None),
        Just(Some(json!({}))),
        Just(Some(
            json!({"name": "kg_latest_graph", "arguments": {"repository": "acme/shop"}})
        )),
        Just(Some(
            json!({"name": "kg_latest_graph", "arguments": {"repository": "acme/shop"}, "_meta": {"progressToken": 1}})
        )),
        Just(Some(json!({"name": "kg_latest_graph", "_meta": null}))),
        Just(Some(json!({"name": "kg_latest_graph", "arguments": [1]}))),
        Just(Some(json!({"name": "kg_latest_graph", "arguments": "x"}))),
        Just(Some(
            json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "f", "version": "0"}})
        )),
        json_value().prop_map(Some),
    ];
    let jsonrpc = prop_oneof![
        4 => Just(Some(json!("2.0"))),
        1 => Just(None),
        1 => json_value().prop_map(Some),
    ];
    let method = prop_oneof![
        4 => prop::sample::select(methods).prop_map(|m| Some(json!(m))),
        1 => Just(None),
        1 => json_value().prop_map(Some),
    ];
    (jsonrpc, id, method, params).prop_map(|(jsonrpc, id, method, params)| {
        let mut m = Map::new();
        for (k, v) in [
            ("jsonrpc", jsonrpc),
            ("id", id),
            ("method", method),
            ("params", params),
        ] {
            if let Some(v) = v {
                m.insert(k.to_owned(), v);
            }
        }
        Value::Object(m)
    })
}

/// Every method a client may send, and a few it may not.
pub const METHODS: &[&str] = &[
    "initialize",
    "ping",
    "tools/list",
    "tools/call",
    "prompts/list",
    "prompts/get",
    "resources/list",
    "resources/read",
    "completion/complete",
    "logging/setLevel",
    "notifications/initialized",
    "notifications/cancelled",
    "notifications/unknown",
    "sampling/createMessage",
    "nonsense",
];

// ---------------------------------------------------------------- manifest

const MANIFEST: &str = include_str!("../../manifest/nexus-code-kg.yaml");

/// One edit of a manifest's text.
#[derive(Debug, Clone)]
pub enum Edit {
    DeleteLine(prop::sample::Index),
    DuplicateLine(prop::sample::Index),
    /// Replaces what follows the line's first `: ` (a value) with `with`.
    ReplaceValue(prop::sample::Index, String),
    InsertLine(prop::sample::Index, String),
    Indent(prop::sample::Index, bool),
    InjectAt(prop::sample::Index, String),
    TruncateAt(prop::sample::Index),
}

fn yaml_value() -> impl Strategy<Value = String> + Clone {
    prop_oneof![
        prop::sample::select(
            &[
                "[]",
                "{}",
                "42",
                "-1",
                "true",
                "null",
                "~",
                "''",
                "'x'",
                "[1, 2]",
                "{a: 1}",
                "1e999",
                "\"\\u0000\"",
                "*anchor",
                "&a x",
                "!!binary aGk=",
                "|",
                ">-",
                "- x",
                "mapped",
                "custom",
                "read",
                "write",
                "kg:read",
                "kg_latest_graph",
                "/api/v1/x",
                "{{ x }}",
                "{% if %}",
                "GET",
                "POST",
            ][..]
        )
        .prop_map(str::to_owned),
        text(),
    ]
}

fn edit() -> impl Strategy<Value = Edit> + Clone {
    let at = any::<prop::sample::Index>();
    prop_oneof![
        at.clone().prop_map(Edit::DeleteLine),
        at.clone().prop_map(Edit::DuplicateLine),
        (at.clone(), yaml_value()).prop_map(|(i, v)| Edit::ReplaceValue(i, v)),
        (
            at.clone(),
            prop_oneof![yaml_value(), "[a-z_]{1,10}: .{0,10}"]
        )
            .prop_map(|(i, v)| Edit::InsertLine(i, v)),
        (at.clone(), any::<bool>()).prop_map(|(i, b)| Edit::Indent(i, b)),
        (at.clone(), text()).prop_map(|(i, s)| Edit::InjectAt(i, s)),
        at.prop_map(Edit::TruncateAt),
    ]
}

fn apply(source: &str, edit: &Edit) -> String {
    let mut lines: Vec<String> = source.split('\n').map(str::to_owned).collect();
    match edit {
        Edit::DeleteLine(i) => {
            lines.remove(i.index(lines.len()));
        }
        Edit::DuplicateLine(i) => {
            let at = i.index(lines.len());
            lines.insert(at, lines[at].clone());
        }
        Edit::ReplaceValue(i, v) => {
            let at = i.index(lines.len());
            if let Some(colon) = lines[at].find(": ") {
                lines[at] = format!("{}: {v}", &lines[at][..colon]);
            } else {
                lines[at] = format!("{}{v}", lines[at]);
            }
        }
        Edit::InsertLine(i, v) => {
            let at = i.index(lines.len() + 1);
            lines.insert(at, v.clone());
        }
        Edit::Indent(i, deeper) => {
            let at = i.index(lines.len());
            lines[at] = if *deeper {
                format!("  {}", lines[at])
            } else {
                lines[at].trim_start().to_owned()
            };
        }
        Edit::InjectAt(i, s) => {
            let mut text = lines.join("\n");
            let mut at = i.index(text.len() + 1);
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            text.insert_str(at, s);
            return text;
        }
        Edit::TruncateAt(i) => {
            let mut text = lines.join("\n");
            let mut at = i.index(text.len() + 1);
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            text.truncate(at);
            return text;
        }
    }
    lines.join("\n")
}

/// The real manifest with one to four random edits.
pub fn mutated_manifest() -> impl Strategy<Value = Vec<Edit>> {
    prop::collection::vec(edit(), 1..5)
}

/// Parsing and validation never panic; every error points inside the file (line within it,
/// column within that line, or just past its end); a manifest that passes generates code
/// without panicking.
pub fn manifest_property(edits: Vec<Edit>) -> Result<(), String> {
    let source = edits.iter().fold(MANIFEST.to_owned(), |s, e| apply(&s, e));
    let path = Path::new("manifest/fuzzed.yaml");
    match nexus_mcp_codegen::parse(path, &source) {
        Ok(manifest) => {
            let loaded = nexus_mcp_codegen::LoadedManifest {
                path: path.to_owned(),
                manifest,
            };
            // A manifest that validates may still fail to emit (an error, not a panic).
            let _ = nexus_mcp_codegen::generate(&[loaded]);
            Ok(())
        }
        Err(errors) => {
            if errors.is_empty() {
                return Err("parse failed with no error".into());
            }
            let lines: Vec<&str> = source.split('\n').collect();
            for e in &errors {
                let Some(line) = e.line.checked_sub(1).and_then(|l| lines.get(l)) else {
                    return Err(format!("error at line {} of {}: {e}", e.line, lines.len()));
                };
                let width = line.chars().count() + 1;
                if e.column == 0 || e.column > width {
                    return Err(format!(
                        "error at column {} of a {}-character line {}: {e}",
                        e.column,
                        width - 1,
                        e.line
                    ));
                }
                if e.message.trim().is_empty() {
                    return Err(format!(
                        "error without a message at {}:{}",
                        e.line, e.column
                    ));
                }
            }
            Ok(())
        }
    }
}

// ---------------------------------------------------------------- stdio framing

/// One stdio input line.
pub fn stdio_line() -> impl Strategy<Value = Vec<u8>> + Clone {
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..200),
        json_value().prop_map(|v| v.to_string().into_bytes()),
        near_message(METHODS).prop_map(|v| v.to_string().into_bytes()),
        // tools/call in and near its plain form (the HTTP transport only checks that one).
        near_message(&["tools/call"]).prop_map(|v| v.to_string().into_bytes()),
        // Valid JSON cut short.
        (near_message(METHODS), any::<prop::sample::Index>()).prop_map(|(v, i)| {
            let mut s = v.to_string().into_bytes();
            s.truncate(i.index(s.len() + 1));
            s
        }),
    ]
    .prop_map(|mut line| {
        line.retain(|b| *b != b'\n');
        line
    })
}

/// Whether a reply is a well-formed JSON-RPC error: `jsonrpc`, an `id` that is null, a string
/// or an integer, and an error with one of the framing codes and a message.
fn well_formed_error(reply: &Value) -> Result<i64, String> {
    let code = reply["error"]["code"].as_i64().ok_or("no error code")?;
    let id_ok = match reply.get("id") {
        Some(Value::Null | Value::String(_)) => true,
        Some(Value::Number(n)) => n.is_i64(),
        _ => false,
    };
    if reply["jsonrpc"] != "2.0"
        || !id_ok
        || ![
            framing::PARSE_ERROR,
            framing::INVALID_REQUEST,
            framing::INVALID_PARAMS,
        ]
        .contains(&code)
        || reply["error"]["message"].as_str().is_none_or(str::is_empty)
    {
        return Err(format!("malformed error reply: {reply}"));
    }
    Ok(code)
}

/// `frame`'s tools/call shortcut classifies the line exactly as the full parse does: the same
/// variant, and for a message the same value (its JSON, `_meta` included, and its Debug form).
/// A line the HTTP transport's check calls a plain tools/call is one to the full parse.
fn same_as_in_full(line: &[u8]) -> Result<(), String> {
    let shown = |f: &Frame| match f {
        Frame::Message(m) => format!("{:?} {}", m, serde_json::to_string(m).unwrap_or_default()),
        other => format!("{other:?}"),
    };
    let (quick, full) = (framing::frame(line), framing::frame_in_full(line));
    if framing::is_plain_tool_call(line)
        && !matches!(&full, Frame::Message(m) if matches!(&**m,
            rmcp::model::JsonRpcMessage::Request(r)
                if matches!(r.request, rmcp::model::ClientRequest::CallToolRequest(_))))
    {
        return Err(format!(
            "a plain tools/call is not one to the full parse: {}",
            shown(&full)
        ));
    }
    if shown(&quick) == shown(&full) {
        Ok(())
    } else {
        Err(format!(
            "the shortcut and the full parse differ:\n{}\n{}",
            shown(&quick),
            shown(&full)
        ))
    }
}

/// Every line is dispatched, skipped (blank, or a notification that is not MCP), or answered with
/// a well-formed error: -32700 exactly when the line is not JSON, carrying the line's id when it
/// has a readable one.
pub fn frame_property(line: Vec<u8>) -> Result<(), String> {
    same_as_in_full(&line)?;
    let parsed: Option<Value> = {
        let l = line.strip_suffix(b"\r").unwrap_or(&line);
        let l = l.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(l);
        serde_json::from_slice(l).ok()
    };
    match framing::frame(&line) {
        Frame::Message(m) => match parsed {
            Some(Value::Object(_)) => {
                serde_json::to_string(&m)
                    .map_err(|e| format!("dispatched message does not serialize: {e}"))?;
                Ok(())
            }
            other => Err(format!(
                "dispatched a line that is not a JSON object: {other:?}"
            )),
        },
        Frame::Skip => match &parsed {
            None if line.iter().all(u8::is_ascii_whitespace) || line == b"\r" => Ok(()),
            Some(Value::Object(o)) if !o.contains_key("id") => Ok(()),
            _ => Err("skipped a line that needed an answer".into()),
        },
        Frame::Reply(reply) => {
            let code = well_formed_error(&reply)?;
            match (&parsed, code) {
                (None, framing::PARSE_ERROR) => Ok(()),
                (None, _) => Err(format!("not JSON, but answered {code}")),
                (Some(_), framing::PARSE_ERROR) => {
                    Err("valid JSON answered as a parse error".into())
                }
                (Some(Value::Object(o)), _) => {
                    let readable = match o.get("id") {
                        Some(Value::String(_)) => o.get("id").cloned(),
                        Some(Value::Number(n)) if n.is_i64() => o.get("id").cloned(),
                        _ => None,
                    };
                    // rmcp reads an integral number such as `-0.0` as the integer it equals;
                    // echoing that same number is not inventing an id.
                    let same_number = match (o.get("id"), &reply["id"]) {
                        (Some(Value::Number(asked)), Value::Number(got)) => {
                            asked.as_f64() == got.as_f64()
                        }
                        _ => false,
                    };
                    match readable {
                        Some(id) if reply["id"] != id => {
                            Err(format!("answer {reply} lost the id {id}"))
                        }
                        None if !reply["id"].is_null() && !same_number => {
                            Err(format!("answer {reply} invented an id"))
                        }
                        _ => Ok(()),
                    }
                }
                (Some(_), _) => {
                    if reply["id"].is_null() {
                        Ok(())
                    } else {
                        Err(format!("a non-object answered with an id: {reply}"))
                    }
                }
            }
        }
    }
}

/// A run of lines through the whole transport, in process.
pub fn stdio_session() -> impl Strategy<Value = Vec<Vec<u8>>> {
    prop::collection::vec(stdio_line(), 1..8)
}

/// Through `LineTransport` (in memory): what comes out is whole JSON lines, one error answer per
/// line that [`framing::frame`] answers, and every dispatched message reaches the session.
pub fn transport_property(rt: &tokio::runtime::Runtime, lines: Vec<Vec<u8>>) -> Result<(), String> {
    use rmcp::transport::Transport;
    use tokio::io::AsyncReadExt;
    let mut input = Vec::new();
    let (mut messages, mut replies) = (0usize, 0usize);
    for line in &lines {
        input.extend_from_slice(line);
        input.push(b'\n');
        match framing::frame(line) {
            Frame::Message(_) => messages += 1,
            Frame::Reply(_) => replies += 1,
            Frame::Skip => {}
        }
    }
    rt.block_on(async move {
        let (writer, mut out) = tokio::io::duplex(1 << 20);
        let mut transport =
            nexus_mcp_runtime::transport::stdio::LineTransport::new(&input[..], writer);
        let mut received = 0;
        while Transport::<rmcp::RoleServer>::receive(&mut transport)
            .await
            .is_some()
        {
            received += 1;
        }
        Transport::<rmcp::RoleServer>::close(&mut transport)
            .await
            .map_err(|e| e.to_string())?;
        drop(transport);
        let mut written = Vec::new();
        out.read_to_end(&mut written)
            .await
            .map_err(|e| e.to_string())?;
        if received != messages {
            return Err(format!(
                "{received} messages reached the session, {messages} expected"
            ));
        }
        let text = String::from_utf8(written).map_err(|e| format!("output is not UTF-8: {e}"))?;
        let answers: Vec<&str> = text.lines().collect();
        if answers.len() != replies || (!text.is_empty() && !text.ends_with('\n')) {
            return Err(format!(
                "{} answers for {replies} malformed lines: {text:?}",
                answers.len()
            ));
        }
        for answer in answers {
            let v: Value = serde_json::from_str(answer)
                .map_err(|e| format!("answer is not JSON ({e}): {answer}"))?;
            well_formed_error(&v)?;
        }
        Ok(())
    })
}

// ---------------------------------------------------------------- HTTP

/// A server whose Nexus is a closed loopback port: every path short of a backend call runs.
pub fn app(roots: Vec<PathBuf>) -> Arc<App> {
    let surface = nexus_mcp::surface("nexus-code-kg").expect("the nexus-code-kg surface");
    let nexus = NexusClient::new(
        "http://127.0.0.1:9",
        Secret::new("fuzz-token".into()),
        Duration::from_millis(200),
    )
    .expect("a Nexus client");
    let settings = Settings {
        local_repo_roots: roots,
        ..Settings::default()
    };
    Arc::new(App::new(surface, nexus, settings, Default::default()))
}

/// One HTTP request: method, path, headers, body.
#[derive(Debug, Clone)]
pub struct HttpCase {
    pub method: &'static str,
    pub path: &'static str,
    pub headers: Vec<(&'static str, String)>,
    pub body: Vec<u8>,
}

/// Methods sent over HTTP: no `initialize`, whose session would outlive the case (five minutes
/// each, so 100,000 of them would only measure memory).
const HTTP_METHODS: &[&str] = &[
    "ping",
    "tools/list",
    "tools/call",
    "prompts/list",
    "resources/list",
    "completion/complete",
    "notifications/initialized",
    "nonsense",
];

pub fn http_case() -> impl Strategy<Value = HttpCase> {
    let header_value = |common: &'static [&'static str]| {
        prop_oneof![
            3 => prop::sample::select(common).prop_map(str::to_owned),
            1 => "[ -~]{0,40}",
        ]
    };
    let headers = (
        header_value(&[
            "application/json",
            "text/plain",
            "application/json; charset=utf-8",
            "",
        ]),
        header_value(&[
            "application/json, text/event-stream",
            "application/json",
            "text/event-stream",
            "*/*",
        ]),
        header_value(&["2025-11-25", "2026-07-28", "2025-03-26", "1999-01-01"]),
        proptest::option::of(header_value(&["00000000-0000-0000-0000-000000000000", "x"])),
        header_value(&["127.0.0.1", "localhost", "evil.example", "127.0.0.1:8765"]),
        proptest::option::of(header_value(&[
            "http://127.0.0.1",
            "https://evil.example",
            "null",
        ])),
        proptest::option::of(header_value(&["tools/call", "ping", "x"])),
    )
        .prop_map(|(ct, accept, version, session, host, origin, mcp_method)| {
            let mut h = vec![
                ("content-type", ct),
                ("accept", accept),
                ("mcp-protocol-version", version),
                ("host", host),
            ];
            h.extend(session.map(|s| ("mcp-session-id", s)));
            h.extend(origin.map(|o| ("origin", o)));
            h.extend(mcp_method.map(|m| ("mcp-method", m)));
            h
        });
    let meta = prop_oneof![
        Just(None),
        Just(Some(
            json!({"protocolVersion": "2026-07-28", "clientCapabilities": {}})
        )),
        json_value().prop_map(Some),
    ];
    let body = prop_oneof![
        prop::collection::vec(any::<u8>(), 0..300),
        json_value().prop_map(|v| v.to_string().into_bytes()),
        (near_message(HTTP_METHODS), meta).prop_map(|(mut v, meta)| {
            if let (Some(meta), Some(obj)) = (meta, v.as_object_mut()) {
                let params = obj.entry("params").or_insert_with(|| json!({}));
                if let Some(p) = params.as_object_mut() {
                    p.insert("_meta".into(), meta);
                }
            }
            v.to_string().into_bytes()
        }),
    ];
    (
        prop::sample::select(&["POST", "POST", "POST", "GET", "DELETE", "PUT"][..]),
        prop::sample::select(&["/mcp", "/mcp", "/message?sessionId=x", "/sse", "/healthz"][..]),
        headers,
        body,
    )
        .prop_map(|(method, path, headers, body)| HttpCase {
            method,
            path,
            headers,
            body,
        })
}

/// No request makes the router panic or answer 5xx.
pub fn http_property(
    rt: &tokio::runtime::Runtime,
    app: &Arc<App>,
    case: HttpCase,
) -> Result<(), String> {
    use tower::ServiceExt;
    let scopes: BTreeSet<String> = ["kg:read", "kg:local", "kg:regenerate"]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
    let router = nexus_mcp_runtime::transport::http::router(
        app.clone(),
        Auth::Open(Arc::new(scopes)),
        &nexus_mcp_runtime::transport::http::HttpSettings::default(),
    )
    .map_err(|e| e.to_string())?;
    let mut request = axum::http::Request::builder()
        .method(case.method)
        .uri(case.path);
    for (name, value) in &case.headers {
        request = request.header(*name, value.as_str());
    }
    let Ok(request) = request.body(axum::body::Body::from(case.body.clone())) else {
        // A header value the http crate refuses never reaches a server.
        return Ok(());
    };
    rt.block_on(async move {
        // A GET that opens an event stream answers its status at once; its body is not read.
        let response = tokio::time::timeout(Duration::from_secs(10), router.oneshot(request))
            .await
            .map_err(|_| "no answer within 10 s".to_owned())?
            .map_err(|e| format!("router error: {e}"))?;
        if response.status().is_server_error() {
            let status = response.status();
            let body = tokio::time::timeout(
                Duration::from_secs(2),
                axum::body::to_bytes(response.into_body(), 64 * 1024),
            )
            .await;
            let body = match body {
                Ok(Ok(b)) => String::from_utf8_lossy(&b).into_owned(),
                _ => String::new(),
            };
            return Err(format!("{status}: {body}"));
        }
        Ok(())
    })
}

// ---------------------------------------------------------------- trim and redact

/// A value and a budget from none to a little over its size.
pub fn value_and_budget() -> impl Strategy<Value = (Value, f64)> {
    (json_value(), 0.0..1.2f64)
}

/// The smallest a value gets: no array over one item, no string over 64 characters plus the
/// marker that says how much was cut.
fn irreducible(value: &Value) -> Option<String> {
    match value {
        Value::Array(items) if items.len() > 1 => {
            Some(format!("an array of {} items", items.len()))
        }
        Value::Array(items) => items.iter().find_map(irreducible),
        Value::Object(map) => map.values().find_map(irreducible),
        Value::String(s)
            if s.chars().count() > 64 + "…[18446744073709551615 more characters cut]".len() =>
        {
            Some(format!("a string of {} characters", s.chars().count()))
        }
        _ => None,
    }
}

/// `fit_budget` never panics and either fits the budget or has nothing left it may cut.
pub fn fit_budget_property((value, fraction): (Value, f64)) -> Result<(), String> {
    let size = nexus_mcp_runtime::trim::size(&value);
    let budget = (size as f64 * fraction) as usize;
    let mut cut = value;
    let mut report = nexus_mcp_runtime::trim::Report::default();
    nexus_mcp_runtime::trim::fit_budget(&mut cut, budget, &mut report);
    let after = nexus_mcp_runtime::trim::size(&cut);
    if after <= budget {
        return Ok(());
    }
    match irreducible(&cut) {
        Some(left) => Err(format!(
            "{after} characters over a budget of {budget} (from {size}), yet {left} is left"
        )),
        None => Ok(()),
    }
}

/// Shaping with every tool's real response spec, then the budget with an envelope, as a call
/// does: no panic, and the result with its envelope fits or cannot be cut further.
pub fn shape_property(
    (value, fraction): (Value, f64),
    tool: prop::sample::Index,
) -> Result<(), String> {
    let surface = nexus_mcp::surface("nexus-code-kg").ok_or("no surface")?;
    let tool = &surface.tools[tool.index(surface.tools.len())];
    let (shaped, mut report) = nexus_mcp_runtime::trim::shape(value, &tool.response);
    let budget = ((nexus_mcp_runtime::trim::size(&shaped) as f64 * fraction) as usize).max(1);
    let out = nexus_mcp_runtime::call::fit_with_envelope(
        shaped,
        &mut report,
        budget,
        &["truncation"],
        |value, report| {
            if let Some(obj) = value.as_object_mut()
                && report.truncated()
            {
                obj.insert(
                "truncation".into(),
                json!({"truncated": true, "cuts": report.cuts, "strings_shortened": report.strings_shortened()}),
            );
            }
        },
    );
    let after = nexus_mcp_runtime::trim::size(&out);
    if after <= budget {
        return Ok(());
    }
    let mut body = out.clone();
    if let Some(obj) = body.as_object_mut() {
        obj.remove("truncation");
    }
    match irreducible(&body) {
        Some(left) => Err(format!(
            "{} ({}): {after} characters over {budget}, yet {left} is left",
            tool.name, surface.name
        )),
        None => Ok(()),
    }
}

/// One planted secret: a family the redactor covers, a regex generating the secret, and the text
/// around it (`{}` is the secret). The lead extends this list as redaction learns new families.
pub struct Planted {
    pub kind: &'static str,
    pub secret: &'static str,
    pub context: &'static str,
}

pub const PLANTED: &[Planted] = &[
    Planted {
        kind: "aws_access_key_id",
        secret: "AKIA[0-9A-Z]{16}",
        context: "{}",
    },
    Planted {
        kind: "aws_sts_key_id",
        secret: "ASIA[0-9A-Z]{16}",
        context: "aws_key_id={}",
    },
    Planted {
        kind: "github_classic_token",
        secret: "gh[pousr]_[A-Za-z0-9]{36,40}",
        context: "{}",
    },
    Planted {
        kind: "github_fine_grained_pat",
        secret: "github_pat_[A-Za-z0-9_]{40,60}",
        context: "{}",
    },
    Planted {
        kind: "gitlab_pat",
        secret: "glpat-[A-Za-z0-9_\\-]{20}",
        context: "{}",
    },
    Planted {
        kind: "slack_token",
        secret: "xox[abposr]-[0-9]{10,12}-[A-Za-z0-9]{10,24}",
        context: "{}",
    },
    Planted {
        kind: "openai_key",
        secret: "sk-(proj-)?[A-Za-z0-9_\\-]{20,48}",
        context: "{}",
    },
    Planted {
        kind: "anthropic_key",
        secret: "sk-ant-api03-[A-Za-z0-9_\\-]{20,48}",
        context: "{}",
    },
    Planted {
        kind: "google_api_key",
        secret: "AIza[0-9A-Za-z_\\-]{35}",
        context: "{}",
    },
    Planted {
        kind: "jwt",
        secret: "eyJ[A-Za-z0-9_\\-]{8,30}\\.eyJ[A-Za-z0-9_\\-]{8,30}\\.[A-Za-z0-9_\\-]{8,40}",
        context: "Bearer {}",
    },
    Planted {
        kind: "pem_private_key",
        secret: "-----BEGIN (RSA |EC |OPENSSH )?PRIVATE KEY-----\n[A-Za-z0-9+/]{40,64}\n[A-Za-z0-9+/]{40,64}\n-----END (RSA |EC |OPENSSH )?PRIVATE KEY-----",
        context: "{}",
    },
    Planted {
        kind: "password_assignment",
        secret: "[A-Za-z0-9!#%&*]{6,24}",
        context: "password = \"{}\"",
    },
    Planted {
        kind: "api_key_assignment",
        secret: "[A-Za-z0-9_]{8,32}",
        context: "API_KEY: '{}'",
    },
    Planted {
        kind: "secret_json_member",
        secret: "[A-Za-z0-9]{8,32}",
        context: "\"client_secret\": \"{}\"",
    },
];

/// Where the secret goes.
#[derive(Debug, Clone)]
pub enum Place {
    /// The whole of a string value.
    Whole,
    /// Inside a string, after and before random text that ends at a delimiter.
    Embedded(String, String),
    /// The value of a member with a random key.
    Member(String),
}

/// A random value with a planted secret somewhere in it.
#[derive(Debug, Clone)]
pub struct PlantedCase {
    pub value: Value,
    pub kind: &'static str,
    pub secret: String,
    pub place: Place,
    pub at: prop::sample::Index,
}

pub fn planted_case() -> impl Strategy<Value = PlantedCase> {
    let kinds: Vec<BoxedStrategy<(&'static str, String, &'static str)>> = PLANTED
        .iter()
        .map(|p| {
            proptest::string::string_regex(p.secret)
                .expect("a planted secret regex")
                .prop_map(move |s| (p.kind, s, p.context))
                .boxed()
        })
        .collect();
    let place = prop_oneof![
        Just(Place::Whole),
        // Text around the secret ends at a delimiter, as in code and logs (`key=…`, `"…"`).
        ("([a-z ]{0,19}[ =:\"'])?", "([ ,;\"'][a-z ]{0,19})?")
            .prop_map(|(a, b)| Place::Embedded(a, b)),
        text().prop_map(Place::Member),
    ];
    (
        prop::strategy::Union::new(kinds),
        json_value(),
        place,
        any::<prop::sample::Index>(),
    )
        .prop_map(|((kind, secret, context), value, place, at)| {
            PlantedCase {
                value,
                kind,
                secret,
                place,
                at,
            }
            .with_context(context)
        })
}

impl PlantedCase {
    /// The text planted: the secret in its context.
    fn with_context(mut self, context: &str) -> Self {
        let planted = context.replace("{}", &self.secret);
        let text = match &self.place {
            Place::Whole | Place::Member(_) => planted,
            Place::Embedded(a, b) => format!("{a}{planted}{b}"),
        };
        let leaf = match &self.place {
            Place::Member(key) => json!({ key.clone(): text }),
            _ => Value::String(text),
        };
        plant(&mut self.value, leaf, self.at);
        self
    }
}

/// Puts `leaf` at a position `at` picks among the value's nodes (replacing a scalar, adding to an
/// array or object, or wrapping the root).
fn plant(value: &mut Value, leaf: Value, at: prop::sample::Index) {
    fn count(v: &Value) -> usize {
        1 + match v {
            Value::Array(a) => a.iter().map(count).sum(),
            Value::Object(o) => o.values().map(count).sum(),
            _ => 0,
        }
    }
    fn walk(v: &mut Value, n: &mut usize, leaf: &mut Option<Value>) {
        if leaf.is_none() {
            return;
        }
        if *n == 0 {
            let l = leaf.take().unwrap_or(Value::Null);
            match v {
                Value::Array(a) => a.push(l),
                Value::Object(o) => {
                    o.insert(format!("planted{}", o.len()), l);
                }
                scalar => *scalar = l,
            }
            return;
        }
        *n -= 1;
        match v {
            Value::Array(a) => a.iter_mut().for_each(|c| walk(c, n, leaf)),
            Value::Object(o) => o.values_mut().for_each(|c| walk(c, n, leaf)),
            _ => {}
        }
    }
    let mut n = at.index(count(value));
    let mut leaf = Some(leaf);
    walk(value, &mut n, &mut leaf);
}

/// After `redact_value`, no string in the value (keys included) contains the secret.
pub fn redact_property(case: PlantedCase) -> Result<(), String> {
    let mut value = case.value;
    nexus_mcp_runtime::redact::redact_value(&mut value);
    fn find<'a>(v: &'a Value, secret: &str) -> Option<&'a str> {
        match v {
            Value::String(s) if s.contains(secret) => Some(s),
            Value::Array(a) => a.iter().find_map(|c| find(c, secret)),
            Value::Object(o) => o.iter().find_map(|(k, c)| {
                if k.contains(secret) {
                    Some(k.as_str())
                } else {
                    find(c, secret)
                }
            }),
            _ => None,
        }
    }
    match find(&value, &case.secret) {
        Some(leak) => Err(format!("{} survived redaction in {leak:?}", case.kind)),
        None => Ok(()),
    }
}

// ---------------------------------------------------------------- local paths

/// A root with a checkout inside, and symlinks pointing in, out, absolute and in a loop.
pub struct PathWorld {
    _dir: tempfile::TempDir,
    pub base: PathBuf,
    pub root: PathBuf,
    pub ctx: ToolContext,
}

pub fn path_world() -> PathWorld {
    let dir = tempfile::tempdir().expect("tempdir");
    let base = dir.path().canonicalize().expect("canonical tempdir");
    let root = base.join("root");
    let outside = base.join("outside");
    for d in [
        root.join("repo/src"),
        outside.join("repo"),
        root.join("é 中"),
    ] {
        std::fs::create_dir_all(d).expect("mkdir");
    }
    let links: [(&str, PathBuf); 6] = [
        ("repo/in", root.join("repo/src")),
        ("repo/out", outside.join("repo")),
        ("repo/abs", PathBuf::from("/etc")),
        ("repo/up", PathBuf::from("../..")),
        ("repo/loop", root.join("repo/loop")),
        ("repo/rel_out", PathBuf::from("../../outside")),
    ];
    for (name, target) in links {
        std::os::unix::fs::symlink(target, root.join(name)).expect("symlink");
    }
    let ctx = ToolContext {
        app: app(vec![root.clone()]),
        mode: Mode::LocalStdio,
        scopes: Arc::new(BTreeSet::new()),
        repositories: None,
        progress: None,
        log: None,
        asking: None,
    };
    PathWorld {
        _dir: dir,
        base,
        root,
        ctx,
    }
}

/// A path built from pieces that matter: the root, `..`, `.`, the links, unicode, NUL bytes.
pub fn local_path() -> impl Strategy<Value = (u8, Vec<String>)> {
    let piece = prop_oneof![
        prop::sample::select(
            &[
                "..",
                ".",
                "",
                "repo",
                "src",
                "in",
                "out",
                "abs",
                "up",
                "loop",
                "rel_out",
                "é 中",
                "outside",
                "root",
                "a\0b",
                "\0",
                "~",
                "repo/../..",
                "%2e%2e",
                "…",
                "etc",
            ][..]
        )
        .prop_map(str::to_owned),
        "[^/]{1,8}",
    ];
    (0u8..4, prop::collection::vec(piece, 0..8))
}

/// `resolve` never answers a path outside the root, nor one that is not canonical.
pub fn resolve_property(
    world: &PathWorld,
    (start, pieces): (u8, Vec<String>),
) -> Result<(), String> {
    let prefix = match start {
        0 => world.root.display().to_string(),
        1 => world.base.display().to_string(),
        2 => String::new(),
        _ => "/".into(),
    };
    let path = format!("{prefix}/{}", pieces.join("/"));
    match nexus_mcp_runtime::local_paths::resolve(&world.ctx, &path) {
        Err(_) => Ok(()),
        Ok(resolved) => {
            if !resolved.starts_with(&world.root) {
                return Err(format!(
                    "{path:?} resolved outside the root to {}",
                    resolved.display()
                ));
            }
            match resolved.canonicalize() {
                Ok(c) if c == resolved => Ok(()),
                other => Err(format!(
                    "{path:?} resolved to a non-canonical {} ({other:?})",
                    resolved.display()
                )),
            }
        }
    }
}

// ---------------------------------------------------------------- terminal_text

/// Strings rich in what a terminal obeys (C0, DEL, C1, bidi controls, separators) and in what
/// could make an escape ambiguous (backslashes, text that looks like an escape), mixed with
/// any character.
pub fn terminal_input() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        any::<char>().prop_map(String::from),
        (0u32..0x20).prop_map(|c| char::from_u32(c).unwrap().to_string()),
        (0x7fu32..0xa0).prop_map(|c| char::from_u32(c).unwrap().to_string()),
        prop::sample::select(vec![
            "\x1b[2J",
            "\x1b]0;owned\x07",
            "\r\ngate acme/api: PASSED",
            "\x1b[8m",
            "\\",
            "\\n",
            "\\u{1b}",
            "\\\\",
            "\u{202e}",
            "\u{2066}",
            "\u{2069}",
            "\u{200f}",
            "\u{2028}",
            "\u{85}",
            "\t",
        ])
        .prop_map(str::to_string),
        "[a-z ]{0,8}",
    ];
    prop::collection::vec(piece, 0..24).prop_map(|v| v.concat())
}

/// Never printed as themselves (decided independently of the escaper): C0 (tab included),
/// DEL, C1, the bidi embeddings, overrides and isolates, the direction marks and the line and
/// paragraph separators.
fn terminal_forbidden(c: char) -> bool {
    matches!(
        u32::from(c),
        0..=0x1f | 0x7f..=0x9f | 0x202a..=0x202e | 0x2066..=0x2069 | 0x200e | 0x200f | 0x061c
            | 0x2028 | 0x2029
    )
}

/// The escaper's inverse, written from its documented rules: `\\`, `\n`, `\r`, `\t`,
/// `\u{hex}`; any other backslash is itself.
fn terminal_unescape(s: &str) -> Option<String> {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find('\\') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        let (decoded, used) = match after.chars().next() {
            Some('\\') => ('\\', 1),
            Some('n') => ('\n', 1),
            Some('r') => ('\r', 1),
            Some('t') => ('\t', 1),
            Some('u') if after.starts_with("u{") => {
                let end = after.find('}')?;
                let code = u32::from_str_radix(&after[2..end], 16).ok()?;
                (char::from_u32(code)?, end + 1)
            }
            _ => ('\\', 0),
        };
        out.push(decoded);
        rest = &after[used..];
    }
    out.push_str(rest);
    Some(out)
}

/// The escaped text holds no forbidden character (so no control sequence, no line of its
/// own, no reordered text) and decodes back to the input (so it is unambiguous: a forged
/// `PASSED` line shows as part of the text it came in).
pub fn terminal_property(input: String) -> Result<(), String> {
    let out = nexus_mcp::cli::terminal::text(&input);
    if let Some(c) = out.chars().find(|c| terminal_forbidden(*c)) {
        return Err(format!("{c:?} printed raw in {out:?}"));
    }
    match terminal_unescape(&out) {
        Some(back) if back == input => Ok(()),
        other => Err(format!("{out:?} decodes to {other:?}, not {input:?}")),
    }
}

// ---------------------------------------------------------------- docs: frontmatter and resource ids
// (issue 24, round 2: hostile documentation workspaces)

/// Hostile frontmatter: deep `[`/`{` and block nesting, anchors and alias bombs, huge scalars,
/// random bytes (invalid UTF-8 read lossily, as the index reads files), cut at any byte.
/// `deep` says the text nests past the refused depth.
#[derive(Debug, Clone)]
pub struct FrontmatterCase {
    pub bytes: Vec<u8>,
    pub deep: bool,
}

pub fn frontmatter_case() -> impl Strategy<Value = FrontmatterCase> {
    let max = nexus_lite::docs::frontmatter::MAX_YAML_DEPTH;
    let opener = prop::sample::select(&["[", "{", "[a, ", "{a: "][..]);
    let flow = (opener, 1..4 * max, any::<bool>()).prop_map(move |(o, n, close)| {
        let mut t = format!("x: {}", o.repeat(n));
        if close {
            t.push_str(&(if o.starts_with('[') { "]" } else { "}" }).repeat(n));
        }
        (t, n > max)
    });
    // `- ` and `? ` open a block item each, all on one line.
    let items = (prop::sample::select(&["- ", "? ", "- ? "][..]), 1..4 * max)
        .prop_map(move |(o, n)| (format!("{}x", o.repeat(n)), n * o.len() / 2 + 1 > max));
    let block = (1..3 * max, 1..4usize).prop_map(move |(n, step)| {
        let t: String = (0..n)
            .map(|i| format!("{}k{i}:\n", " ".repeat(i * step)))
            .collect();
        (t, n > max + 1)
    });
    let laughs = (1..12usize, 2..12usize).prop_map(|(levels, width)| {
        let mut t = String::from("l0: &l0 [\"lol\"]\n");
        for l in 1..=levels {
            let refs = vec![format!("*l{}", l - 1); width].join(", ");
            t.push_str(&format!("l{l}: &l{l} [{refs}]\n"));
        }
        (t, false)
    });
    let huge = (1..50_000usize, "[a-z: \\[\\]{}&*#'\"-]{1,8}")
        .prop_map(|(n, s)| (s.repeat(n / s.len().max(1) + 1), false));
    let plain = "[ -~\\n\\r]{0,400}".prop_map(|t| (t, false));
    // A quote after a line break opens a scalar, so the `]` inside it close nothing.
    let quoted_closers = (1..max, 1..8usize).prop_map(move |(n, k)| {
        let chunk = format!("{}\n\"{}\",", "[".repeat(n), "]".repeat(n));
        (format!("x: {}", chunk.repeat(k)), n * k > max)
    });
    let text = prop_oneof![flow, items, block, laughs, huge, plain, quoted_closers];
    // libyaml ends a line at `\n`, `\r\n` and a lone `\r` alike.
    let eol = prop::sample::select(&["\n", "\r\n", "\r"][..]);
    (
        text,
        eol,
        prop::collection::vec(any::<u8>(), 0..64),
        any::<prop::sample::Index>(),
        any::<bool>(),
    )
        .prop_map(|((text, deep), eol, noise, cut, do_cut)| {
            let text = text.replace('\n', eol);
            let mut bytes = b"---\nid: TASK-1\n".to_vec();
            bytes.extend_from_slice(text.as_bytes());
            bytes.extend_from_slice(b"\n");
            bytes.extend_from_slice(&noise);
            bytes.extend_from_slice(b"\n---\nbody\n");
            // Cut anywhere: the nesting may then be cut short too.
            let deep = if do_cut {
                let at = cut.index(bytes.len() + 1);
                let whole = at >= 15 + text.len();
                bytes.truncate(at);
                deep && whole
            } else {
                deep
            };
            FrontmatterCase { bytes, deep }
        })
}

/// The frontmatter reader returns within two seconds (bounded work, whatever the nesting or the
/// aliases), never panics, and refuses deep nesting with a parse error that says why.
pub fn frontmatter_property(case: FrontmatterCase) -> Result<(), String> {
    use nexus_lite::docs::frontmatter;
    let text = String::from_utf8_lossy(&case.bytes);
    let started = Instant::now();
    let split = frontmatter::split(&text);
    let parsed = split
        .yaml
        .map(|y| frontmatter::parse_yaml(y, split.yaml_line, &["assignee".to_owned()]));
    let took = started.elapsed();
    if took > Duration::from_secs(2) {
        return Err(format!("{took:?} for {} bytes", case.bytes.len()));
    }
    match parsed {
        Some(Err(e)) if e.message.is_empty() => Err(format!("an empty parse error: {e:?}")),
        Some(Ok(_)) if case.deep => Err("deep nesting was parsed".to_owned()),
        Some(Err(e)) if case.deep && !e.message.contains("nested more than") => Err(format!(
            "deep nesting refused without saying why: {}",
            e.message
        )),
        _ => Ok(()),
    }
}

/// A served nexus-doc-kg (in process, an rmcp client over a duplex pipe) over a real
/// nexus-lite and a workspace holding a document linked outside.
pub struct DocsWorld {
    pub rt: tokio::runtime::Runtime,
    client: rmcp::service::RunningService<rmcp::RoleClient, ()>,
    _lite: nexus_lite::Running,
    _dir: tempfile::TempDir,
}

/// What the workspace's linked body points at: never in an answer.
pub const OUTSIDE_MARKER: &str = "OUTSIDE-FUZZ-5521";

pub fn docs_world() -> DocsWorld {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::write(root.join("outside.md"), format!("# {OUTSIDE_MARKER}\n")).unwrap();
    let ws = root.join("ws");
    for (p, t) in [
        (
            "backlog/tasks/task-1 - A.md",
            "---\nid: TASK-1\ntitle: A\n---\nbody\n",
        ),
        (
            "backlog/tasks/task-2 - B.md",
            "---\nid: TASK-2\ndependencies: [TASK-1]\n---\n",
        ),
        (
            "backlog/docs/doc-1.md",
            "---\nid: DOC-1\n---\nsee [[TASK-1]]\n",
        ),
    ] {
        let p = ws.join(p);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, t).unwrap();
    }
    #[cfg(unix)]
    std::os::unix::fs::symlink(
        root.join("outside.md"),
        ws.join("backlog/tasks/task-3 - L.md"),
    )
    .unwrap();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let lite = rt
        .block_on(nexus_lite::spawn(
            nexus_lite::LiteConfig {
                keep_graphs: nexus_lite::DEFAULT_KEEP_GRAPHS,
                data_dir: root.join("data"),
                repos: Vec::new(),
                token: "fuzz-token".into(),
                index_on_first_use: false,
                workspaces: vec![nexus_lite::WorkspaceSpec {
                    name: Some("ws".into()),
                    path: ws,
                }],
                docs_limits: Default::default(),
            },
            "127.0.0.1:0".parse().unwrap(),
        ))
        .unwrap();
    let surface = nexus_mcp::surface("nexus-doc-kg").expect("the nexus-doc-kg surface");
    let nexus = NexusClient::new(
        &lite.url(),
        Secret::new("fuzz-token".into()),
        Duration::from_secs(10),
    )
    .unwrap();
    let app = Arc::new(App::new(
        surface,
        nexus,
        Settings::default(),
        Default::default(),
    ));
    let scopes: BTreeSet<String> = ["docs:read".to_owned()].into();
    let server =
        nexus_mcp_runtime::mcp::McpServer::new(app, Mode::LocalStdio, scopes).into_service();
    let client = rt.block_on(async {
        use rmcp::ServiceExt;
        let (server_side, client_side) = tokio::io::duplex(1 << 20);
        tokio::spawn(async move {
            if let Ok(running) = server.serve(server_side).await {
                let _ = running.waiting().await;
            }
        });
        ().serve(client_side).await.unwrap()
    });
    DocsWorld {
        rt,
        client,
        _lite: lite,
        _dir: dir,
    }
}

/// Node ids: real ones, huge ones, `.`/`..` (raw and percent-encoded), slashes, unicode, NUL.
pub fn resource_id() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(
            &[
                "TASK-1",
                "task-01",
                "DOC-1",
                "TASK-3",
                "TASK-9",
                ".",
                "..",
                "%2E",
                "%2e%2E",
                "..%2F..",
                "%2F",
                "a/b",
                "%00",
                "\u{0}",
                "TASK-1%20",
                "ü",
                "%FF"
            ][..]
        )
        .prop_map(str::to_owned),
        (1..300_000usize, "[a-zA-Z0-9.%/_-]{1,3}")
            .prop_map(|(n, s)| s.repeat(n / s.len().max(1) + 1)),
        "\\PC{0,60}",
        "[.%/2EeF0-9A-Za-z]{0,12}",
    ]
}

/// A resources/read of `docugraph://workspace/node/{id}` answers a node or a readable error,
/// within 10 s, never content from outside the workspace, never an echo of a long id.
pub fn resource_id_property(world: &DocsWorld, id: String) -> Result<(), String> {
    read_node_resource(world, &id).map(|_| ())
}

/// The answer (`{"result": …}` or `{"error": …}`) of a resources/read of node `id`, checked
/// as [`resource_id_property`] says.
pub fn read_node_resource(world: &DocsWorld, id: &str) -> Result<Value, String> {
    let uri = format!("docugraph://workspace/node/{id}");
    let read = world
        .client
        .read_resource(rmcp::model::ReadResourceRequestParams::new(uri));
    let answer = world
        .rt
        .block_on(async { tokio::time::timeout(Duration::from_secs(10), read).await })
        .map_err(|_| "no answer within 10 s".to_owned())?;
    let answer = match answer {
        Ok(result) => json!({ "result": result }),
        Err(rmcp::ServiceError::McpError(e)) => json!({ "error": e }),
        Err(e) => return Err(format!("not an MCP answer: {e}")),
    };
    let text = answer.to_string();
    if text.contains(OUTSIDE_MARKER) {
        return Err(format!("content from outside the workspace: {text}"));
    }
    if let Some(e) = answer.get("error") {
        let message = e["message"].as_str().unwrap_or_default();
        if message.is_empty() {
            return Err(format!("an error without a message: {answer}"));
        }
        if message.chars().count() > 1_100 {
            return Err(format!(
                "a message of {} characters",
                message.chars().count()
            ));
        }
        if e["code"] == json!(-32603) {
            return Err(format!("an internal error: {message}"));
        }
        let head: String = id.chars().take(200).collect();
        if id.chars().count() > 200 && message.contains(&head) {
            return Err("a long id comes back whole".to_owned());
        }
    }
    Ok(answer)
}

// ---------------------------------------------------------------- gate / rules (issue 24, round 2)

/// A proposal whose title, body and rationale are rich in terminal controls.
pub fn hostile_proposal() -> impl Strategy<Value = (String, String, String)> {
    (terminal_input(), terminal_input(), terminal_input())
}

/// A proposal is refused (an argument error naming a position) or, when queued, the file its
/// acceptance writes holds no terminal control but newlines and tabs.
pub fn proposal_controls_property(
    (title, body, rationale): (String, String, String),
) -> Result<(), String> {
    let request = json!({"kind": "rule", "title": format!("t{title}"), "body": format!("b{body}"),
        "rationale": format!("r{rationale}"), "severity": "error"});
    let p = match nexus_lite::rules::proposals::parse_request(&request) {
        Ok(p) => p,
        Err(e) => {
            let text = format!("{e:?}");
            return if text.contains("control character U+") || text.contains("must not be empty") {
                Ok(())
            } else {
                Err(format!("refused for another reason: {text}"))
            };
        }
    };
    let stored = json!({"kind": "rule", "title": p.title, "body": p.body, "rationale": p.rationale,
        "fields": p.fields, "proposalId": "p-1"});
    let file = nexus_lite::rules::proposals::file_text(&stored);
    match file
        .chars()
        .find(|c| *c != '\n' && *c != '\t' && terminal_forbidden(*c))
    {
        Some(c) => Err(format!("{c:?} reaches the rule file: {file:?}")),
        None => Ok(()),
    }
}

// ---------------------------------------------------------------- local daemon views (issue 25)

/// One opened nexus-lite server (no repository, no workspace) whose views the property builds.
pub struct ViewWorld {
    _dir: tempfile::TempDir,
    server: Arc<nexus_lite::Server>,
    rt: tokio::runtime::Runtime,
}

pub fn view_world() -> ViewWorld {
    let dir = tempfile::tempdir().unwrap();
    let server =
        nexus_lite::Server::open(dir.path(), "", false, nexus_lite::DEFAULT_KEEP_GRAPHS).unwrap();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    ViewWorld {
        _dir: dir,
        server,
        rt,
    }
}

/// The routes a client registers: served templates (any domain, the core's public ones too,
/// methods in any case) mixed with arbitrary pairs a custom manifest might map.
pub fn registration_routes() -> impl Strategy<Value = Vec<(String, String)>> {
    let known: Vec<(String, String)> = nexus_lite::routes()
        .map(|(m, p)| (m.to_string(), p.to_string()))
        .collect();
    let known = (proptest::sample::select(known), any::<bool>())
        .prop_map(|((m, p), lower)| (if lower { m.to_lowercase() } else { m }, p));
    let noise = (
        prop_oneof![Just("GET".to_string()), Just("POST".to_string()), ".{0,6}"],
        prop_oneof!["/api/v1/[a-z/{}_-]{0,30}", ".{0,40}"],
    );
    proptest::collection::vec(prop_oneof![3 => known, 1 => noise], 0..8)
}

/// A client's view answers every served route it registered, and no route of a domain it
/// registered no route of ("no endpoint"), whatever else the list holds.
pub fn view_routes_property(
    world: &ViewWorld,
    routes: Vec<(String, String)>,
) -> Result<(), String> {
    let domains = nexus_lite::domains_of(&routes);
    let view = world
        .server
        .view(Vec::new(), Vec::new(), &domains)
        .map_err(|e| format!("no view: {e}"))?;
    let listed = |m: &str, p: &str| {
        routes
            .iter()
            .any(|(rm, rp)| rm.eq_ignore_ascii_case(m) && rp == p)
    };
    for d in nexus_lite::DOMAINS.iter().filter(|d| d.name != "core") {
        let domain_listed = d.routes.iter().any(|(m, p)| listed(m, p));
        for (m, p) in d.routes {
            let uri: String = p.replace('{', "x").replace('}', "1");
            let req = axum::http::Request::builder()
                .method(*m)
                .uri(&uri)
                .header("content-type", "application/json")
                .body(axum::body::Body::from("{}"))
                .unwrap();
            let answered = world.rt.block_on(async {
                let resp = tower::ServiceExt::oneshot(view.clone(), req).await.unwrap();
                let status = resp.status();
                let body = axum::body::to_bytes(resp.into_body(), usize::MAX)
                    .await
                    .unwrap();
                !(status == 404 && String::from_utf8_lossy(&body).contains("no endpoint "))
            });
            if listed(m, p) && !answered {
                return Err(format!(
                    "{m} {p} was registered but the view has no endpoint"
                ));
            }
            if !domain_listed && answered {
                return Err(format!(
                    "{m} {p} answers though no route of {} was registered",
                    d.name
                ));
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------- doc-kg mermaid (issue 26)

/// A dependency-graph answer with hostile ids, titles and kinds: quotes, brackets, pipes,
/// arrows, line breaks (`\n`, `\r`, U+2028), Mermaid directives, any unicode.
pub fn mermaid_graph() -> impl Strategy<Value = Value> {
    let text = prop_oneof![
        "[ -~]{0,40}",
        "[\"\\[\\]|{}()<>;:%#&\\-→ \n\r\u{2028}a-z]{0,60}",
        any::<String>(),
        Just("x\"]\n  n0 -->|evil| n1\n%%{init: {}}%%".to_owned()),
    ];
    (
        prop::collection::vec((text.clone(), prop::option::of(text.clone())), 1..12),
        prop::collection::vec((any::<prop::sample::Index>(), any::<prop::sample::Index>(), text), 0..20),
    )
        .prop_map(|(nodes, edges)| {
            let ids: Vec<String> = nodes.iter().map(|(id, _)| id.clone()).collect();
            json!({
                "nodeId": ids[0],
                "nodes": nodes.iter().map(|(id, title)| json!({"id": id, "title": title})).collect::<Vec<_>>(),
                "edges": edges.iter().map(|(a, b, kind)| json!({"from": a.get(&ids), "to": b.get(&ids), "kind": kind})).collect::<Vec<_>>(),
            })
        })
}

/// The flowchart is a header, one `nN["…"]` line per node, one `nA -->|…| nB` line per edge,
/// and the root's style: no label holds a quote, a line break or a control character, and no
/// edge label a pipe, whatever the workspace's ids and titles say.
pub fn mermaid_property(graph: Value) -> Result<(), String> {
    let chart = nexus_lite::docs::mermaid::flowchart(&graph);
    let nodes = graph["nodes"].as_array().map_or(0, Vec::len);
    let edges = graph["edges"].as_array().map_or(0, Vec::len);
    let lines: Vec<&str> = chart.split('\n').collect();
    let name = |s: &str| {
        s.strip_prefix('n')
            .is_some_and(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()))
    };
    let clean = |s: &str, also: char| {
        !s.chars()
            .any(|c| c == '"' || c == also || c.is_control() || c == '\u{2028}' || c == '\u{2029}')
    };
    if lines.first() != Some(&"flowchart LR") || lines.last() != Some(&"") {
        return Err(format!("not a flowchart: {chart:?}"));
    }
    let body = &lines[1..lines.len() - 1];
    let (mut seen_nodes, mut seen_edges, mut styles) = (0, 0, 0);
    for line in body {
        let l = line
            .strip_prefix("  ")
            .ok_or_else(|| format!("an unindented line {line:?} in {chart:?}"))?;
        if let Some((n, rest)) = l.split_once("[\"") {
            let label = rest
                .strip_suffix("\"]")
                .ok_or_else(|| format!("a label not closed: {line:?}"))?;
            if !name(n) || !clean(label, '"') {
                return Err(format!("a node line {line:?}"));
            }
            seen_nodes += 1;
        } else if let Some((from, rest)) = l.split_once(" -->|") {
            let (kind, to) = rest
                .split_once("| ")
                .ok_or_else(|| format!("an edge line {line:?}"))?;
            if !name(from) || !name(to) || !clean(kind, '|') {
                return Err(format!("an edge line {line:?}"));
            }
            seen_edges += 1;
        } else if l
            .strip_prefix("style ")
            .and_then(|r| r.strip_suffix(" stroke-width:3px"))
            .is_some_and(name)
        {
            styles += 1;
        } else {
            return Err(format!("an unexpected line {line:?} in {chart:?}"));
        }
    }
    // Duplicate ids share a node name, so edges may be drawn to either: count, do not map.
    if seen_nodes != nodes || seen_edges > edges || styles != 1 {
        return Err(format!(
            "{seen_nodes}/{nodes} nodes, {seen_edges}/{edges} edges, {styles} styles: {chart:?}"
        ));
    }
    Ok(())
}

// ---------------------------------------------------------------- workflow_command
// (issue 26: `gate --format github`)

/// A file name, rule id and message for an annotation: terminal-hostile text plus what ends a
/// workflow command's property or properties (`:`, `::`, `,`, `=`) and what GitHub decodes
/// (`%25`, `%0A`, ...).
pub fn workflow_input() -> impl Strategy<Value = (String, String, String)> {
    let piece = prop_oneof![
        terminal_input(),
        prop::sample::select(vec![
            "::",
            ":",
            ",",
            "=",
            "%",
            "%0A",
            "%25",
            "%3A",
            "%2C",
            "\n::error::forged",
            "\r\n",
            "::stop-commands::x",
            "file=",
        ])
        .prop_map(str::to_string),
    ];
    let text = prop::collection::vec(piece, 0..8).prop_map(|v| v.concat());
    (text.clone(), text.clone(), text)
}

/// GitHub's decoding of a workflow command value (the runner's order: `%0D`, `%0A`, then in
/// properties `%3A`, `%2C`, and `%25` last).
fn workflow_unescape(s: &str, property: bool) -> String {
    let mut out = s.replace("%0D", "\r").replace("%0A", "\n");
    if property {
        out = out.replace("%3A", ":").replace("%2C", ",");
    }
    out.replace("%25", "%")
}

/// An annotation built as `gate --format github` builds it is one line, parses (as GitHub
/// does: command, properties up to the first `::`, split at `,` and `=`) into exactly its
/// `file` and `title`, and each value decodes to the terminal-escaped input.
pub fn workflow_property((path, rule, message): (String, String, String)) -> Result<(), String> {
    use nexus_mcp::cli::terminal::{text, workflow_data, workflow_property as prop_value};
    let line = format!(
        "::error file={},title={}::{}",
        prop_value(&path),
        prop_value(&rule),
        workflow_data(&message)
    );
    if line.contains(['\n', '\r']) || line.chars().any(terminal_forbidden) {
        return Err(format!("not one clean line: {line:?}"));
    }
    let rest = line.strip_prefix("::error ").ok_or("no command")?;
    let (properties, data) = rest
        .split_once("::")
        .ok_or_else(|| format!("no message in {line:?}"))?;
    let values: Vec<(&str, &str)> = properties
        .split(',')
        .map(|p| p.split_once('=').unwrap_or((p, "")))
        .collect();
    let want = [
        ("file", text(&path).into_owned()),
        ("title", text(&rule).into_owned()),
    ];
    let got: Vec<(&str, String)> = values
        .iter()
        .map(|(k, v)| (*k, workflow_unescape(v, true)))
        .collect();
    if got.len() != 2
        || got
            .iter()
            .zip(&want)
            .any(|((k, v), (wk, wv))| k != wk || v != wv)
    {
        return Err(format!("{line:?} parses to {got:?}"));
    }
    if workflow_unescape(data, false) != text(&message) {
        return Err(format!(
            "{line:?}: the message decodes to {:?}",
            workflow_unescape(data, false)
        ));
    }
    Ok(())
}

// ---------------------------------------------------------------- claim_witnessing
// (issue 26: report_check's analyser ids, witnessed by the gate)

/// A gate record's findings and checked patterns, and the analyser id an agent claims passes:
/// ids from a small alphabet so that they collide, patterns exact or `tool:*`, a finding
/// either under its analyser id or bound to a playbook rule (its id then in `source`).
pub fn claim_witnessing_input() -> impl Strategy<Value = (Vec<(String, bool)>, Vec<String>, String)>
{
    let id = prop::sample::select(vec![
        "ruff:T201",
        "ruff:T203",
        "ruff:E501",
        "bandit:B602",
        "bandit:B101",
    ])
    .prop_map(str::to_string);
    let pattern = prop_oneof![
        id.clone(),
        prop::sample::select(vec!["ruff:*", "bandit:*", "no-print"]).prop_map(str::to_string),
    ];
    (
        prop::collection::vec((id.clone(), any::<bool>()), 0..4),
        prop::collection::vec(pattern, 0..4),
        id,
    )
}

/// A pass on an analyser id, judged against a complete gate run, is disputed exactly when a
/// violation names it (as its rule id or its source), witnessed exactly when none does and a
/// checked pattern covers it (the id itself, or every rule of its tool), and claimed otherwise.
pub fn claim_witnessing_property(
    (findings, checked, claimed): (Vec<(String, bool)>, Vec<String>, String),
) -> Result<(), String> {
    use nexus_lite::rules::checks::witness::{Standing, judge, outcome_for, outcomes_of};
    let violations: Vec<Value> = findings
        .iter()
        .map(|(id, bound)| {
            let (rule, source) = if *bound {
                ("no-print", Some(id.as_str()))
            } else {
                (id.as_str(), None)
            };
            json!({"path": "a.py", "line": 1, "severity": "warning", "ruleId": rule,
                   "ruleTitle": "t", "comment": "c", "suggestion": null, "source": source})
        })
        .collect();
    let rec: nexus_lite::rules::gate::model::GateRecord = serde_json::from_value(json!({
        "repository": "local/r", "baseSha": "a".repeat(40), "headSha": "b".repeat(40),
        "tools": [], "violations": violations, "checkedRules": checked,
        "analyzedAt": "2026-01-01T00:00:00Z",
    }))
    .map_err(|e| e.to_string())?;
    let got = judge(true, outcome_for(&outcomes_of(&rec), &claimed), true);
    let tool = claimed.split(':').next().unwrap_or_default();
    let want = if findings.iter().any(|(id, _)| *id == claimed) {
        Some(Standing::Disputed)
    } else if checked
        .iter()
        .any(|p| *p == claimed || *p == format!("{tool}:*"))
    {
        Some(Standing::Witnessed)
    } else {
        None
    };
    if got != want {
        return Err(format!("{claimed} pass: got {got:?}, want {want:?}"));
    }
    Ok(())
}

// ---------- playbook symlink chains (issue 26) ----------

/// The tracked paths of a symlink case: rule files in two scopes, then plain files.
pub const LINK_PATHS: [&str; 8] = [
    "AGENTS.md",
    "CLAUDE.md",
    "GEMINI.md",
    ".github/copilot-instructions.md",
    "docs/AGENTS.md",
    "docs/CLAUDE.md",
    "notes/guide.md",
    "x.txt",
];

/// What one tracked path is.
#[derive(Debug, Clone)]
pub enum LinkNode {
    Absent,
    /// A file with one of two contents (the same content twice is a copy).
    File(u8),
    /// A symlink to another path of [`LINK_PATHS`].
    To(usize),
    /// A symlink out of the repository, absolute, or to a path nobody tracks.
    Away(&'static str),
}

pub fn link_case() -> impl Strategy<Value = Vec<LinkNode>> {
    let node = prop_oneof![
        1 => Just(LinkNode::Absent),
        2 => (0u8..2).prop_map(LinkNode::File),
        4 => (0..LINK_PATHS.len()).prop_map(LinkNode::To),
        1 => prop::sample::select(&["../../outside.md", "/etc/passwd", "missing.md"][..])
            .prop_map(LinkNode::Away),
    ];
    prop::collection::vec(node, LINK_PATHS.len())
}

/// The link text from `from` to the tracked path `to` (relative, as people write them).
fn link_text(from: &str, to: &str) -> String {
    let depth = from.matches('/').count();
    format!("{}{to}", "../".repeat(depth))
}

/// Loading a playbook whose rule files link to each other in any way (chains, loops, copies,
/// links out) never fails, accounts for every rule file once (loaded or skipped), and a skipped
/// link says where its chain leads: "duplicate" exactly when it ends at a loaded rule file's
/// content, with the chain as the test follows it, "unreadable" when it ends nowhere.
pub fn link_property(nodes: Vec<LinkNode>) -> Result<(), String> {
    use nexus_lite::rules::playbook::{self, discover, files};
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let root = dir.path();
    let mut entries = Vec::new();
    for (i, (path, node)) in LINK_PATHS.iter().zip(&nodes).enumerate() {
        let full = root.join(path);
        if let Some(parent) = full.parent() {
            std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
        }
        let (blob, symlink) = match node {
            LinkNode::Absent => continue,
            LinkNode::File(c) => {
                std::fs::write(&full, format!("# Rules {c}\n\n## Style\nBe kind {c}.\n"))
                    .map_err(|e| e.to_string())?;
                (format!("{c:040x}"), false)
            }
            LinkNode::To(t) => {
                std::os::unix::fs::symlink(link_text(path, LINK_PATHS[*t]), &full)
                    .map_err(|e| e.to_string())?;
                (format!("{:040x}", 100 + i), true)
            }
            LinkNode::Away(a) => {
                std::os::unix::fs::symlink(a, &full).map_err(|e| e.to_string())?;
                (format!("{:040x}", 100 + i), true)
            }
        };
        entries.push(files::Entry {
            path: (*path).to_owned(),
            blob,
            symlink,
        });
    }
    let snap = files::Snapshot {
        root: root.to_path_buf(),
        commit: None,
        head: None,
        dirty: Vec::new(),
        entries,
    };
    let pb = playbook::load(&snap).map_err(|e| format!("load failed: {e}"))?;
    let loaded: Vec<&str> = pb.files.iter().map(|f| f.path.as_str()).collect();
    for (i, path) in LINK_PATHS.iter().enumerate() {
        let present = !matches!(nodes[i], LinkNode::Absent);
        let candidate = discover::classify(path).is_some();
        let times = loaded.iter().filter(|l| *l == path).count()
            + pb.skipped.iter().filter(|s| s.path == *path).count();
        if times != usize::from(present && candidate) {
            return Err(format!(
                "{path} accounted {times} times: {pb:?}",
                pb = pb.skipped
            ));
        }
        if !present || !candidate {
            continue;
        }
        // The chain as the test follows it.
        let mut chain = Vec::new();
        let mut at = i;
        let end = loop {
            match &nodes[at] {
                LinkNode::To(t) if chain.len() < 9 && !chain.contains(t) && *t != i => {
                    chain.push(*t);
                    at = *t;
                }
                LinkNode::File(_) if at != i => break Some(at),
                _ => break None,
            }
        };
        if !matches!(nodes[i], LinkNode::To(_) | LinkNode::Away(_)) {
            continue;
        }
        let skipped = pb.skipped.iter().find(|s| s.path == *path);
        let Some(skipped) = skipped else {
            // Loaded under its own path: only a link to a plain file (not a rule file) is.
            if end.is_some_and(|e| discover::classify(LINK_PATHS[e]).is_none()) {
                continue;
            }
            return Err(format!("{path} (a link, end {end:?}) was loaded"));
        };
        let shown = chain
            .iter()
            .map(|t| format!("`{}`", LINK_PATHS[*t]))
            .collect::<Vec<_>>()
            .join(" → ");
        let expected = format!("a symlink to {shown}, which is loaded once under its own path");
        let ends_at_rule = end.map(|e| discover::classify(LINK_PATHS[e]).is_some());
        let fine = match ends_at_rule {
            Some(true) => skipped.kind == "duplicate" && skipped.reason == expected,
            Some(false) => skipped.kind == "duplicate",
            None => skipped.kind == "unreadable",
        };
        if !fine {
            return Err(format!(
                "{path} → {shown} (ends at a rule file: {ends_at_rule:?}): {skipped:?}"
            ));
        }
    }
    Ok(())
}

// ---------- doc-kg context page cuts (issue 26) ----------

/// Text with what JSON escapes (quotes, backslashes, control characters) among multi-byte
/// characters, and a character budget.
pub fn json_cut_input() -> impl Strategy<Value = (String, usize)> {
    let piece = prop::sample::select(vec![
        "a", "\"", "\\", "\n", "\r", "\t", "\u{1}", "\u{1f}", "\u{7f}", "é", "€", "😀", "/", " ",
    ]);
    (
        prop::collection::vec(piece, 0..80).prop_map(|p| p.concat()),
        0usize..300,
    )
}

/// A context page measures Markdown as the JSON it becomes: `json_len` is serde_json's escaped
/// length, and `json_prefix` is the longest prefix (on a char boundary) that fits the budget.
pub fn json_cut_property((text, budget): (String, usize)) -> Result<(), String> {
    use nexus_lite::docs::graph::{json_len, json_prefix};
    let escaped = |s: &str| serde_json::to_string(s).map_or(0, |j| j.len() - 2);
    if json_len(&text) != escaped(&text) {
        return Err(format!(
            "json_len {:?}: {} != {}",
            text,
            json_len(&text),
            escaped(&text)
        ));
    }
    let cut = json_prefix(&text, budget);
    if !text.starts_with(cut) || escaped(cut) > budget {
        return Err(format!(
            "json_prefix({text:?}, {budget}) = {cut:?} ({} chars)",
            escaped(cut)
        ));
    }
    if let Some(next) = text[cut.len()..].chars().next()
        && escaped(&text[..cut.len() + next.len_utf8()]) <= budget
    {
        return Err(format!(
            "json_prefix({text:?}, {budget}) = {cut:?} stops early"
        ));
    }
    Ok(())
}

// ---------- doc-kg audit pages (issue 26) ----------

/// Categories of findings (each a JSON object of some size) and a page size in characters.
pub fn audit_pages_input() -> impl Strategy<Value = (Vec<Vec<usize>>, usize)> {
    (
        prop::collection::vec(prop::collection::vec(0usize..600, 0..8), 1..6),
        200usize..3000,
    )
}

/// Following the pages from offset 0 reaches every finding exactly once, in category order;
/// a page holds more than one finding only within its size; every page's per-category counts
/// are exact (before + shown + after = matched).
pub fn audit_pages_property((sizes, max_chars): (Vec<Vec<usize>>, usize)) -> Result<(), String> {
    use nexus_lite::docs::audit::paginate;
    let findings: Vec<(String, Vec<Value>)> = sizes
        .iter()
        .enumerate()
        .map(|(c, list)| {
            let items = list
                .iter()
                .enumerate()
                .map(|(i, len)| json!({"c": c, "i": i, "pad": "x".repeat(*len)}))
                .collect();
            (format!("category{c}"), items)
        })
        .collect();
    let all: Vec<Value> = findings.iter().flat_map(|(_, l)| l.clone()).collect();
    let mut reached = Vec::new();
    let mut offset = 0;
    for _ in 0..=all.len() {
        let page = paginate(findings.clone(), offset, max_chars);
        if page.matched != all.len() {
            return Err(format!("matched {} of {}", page.matched, all.len()));
        }
        let shown: Vec<Value> = page.lists.iter().flat_map(|(_, l)| l.clone()).collect();
        let size: usize = shown.iter().map(|f| f.to_string().len()).sum();
        if shown.len() > 1 && size > max_chars {
            return Err(format!(
                "{} findings, {size} > {max_chars} characters",
                shown.len()
            ));
        }
        for (c, n) in &page.categories {
            let total = findings
                .iter()
                .find(|(name, _)| name == c)
                .map_or(0, |(_, l)| l.len());
            let sum = ["before", "shown", "after"]
                .iter()
                .map(|k| n[*k].as_u64().unwrap_or(u64::MAX))
                .sum::<u64>();
            if n["matched"] != total || sum != total as u64 {
                return Err(format!("{c}: {n} of {total}"));
            }
        }
        offset += page.shown;
        reached.extend(shown);
        if offset >= all.len() {
            break;
        }
        if page.shown == 0 {
            return Err(format!("an empty page at {offset} of {}", all.len()));
        }
    }
    if reached != all {
        return Err(format!(
            "reached {} of {} findings, or out of order",
            reached.len(),
            all.len()
        ));
    }
    Ok(())
}

// ---------- gate baselines (issue 26, gatefeat) ----------

/// Findings (rule, path, line text) and waivers over them: each waiver names a finding by index
/// with its line re-spaced or edited, and maybe an expiry before or after "today"; plus any
/// text as a baseline file.
pub type BaselineCase = (
    Vec<(usize, usize, String)>,
    Vec<(usize, bool, Option<bool>)>,
    String,
);

pub fn baseline_input() -> impl Strategy<Value = BaselineCase> {
    (
        prop::collection::vec((0..3usize, 0..3usize, "[ a-z()=\t]{0,12}"), 0..6),
        prop::collection::vec(
            (0..6usize, any::<bool>(), prop::option::of(any::<bool>())),
            0..6,
        ),
        prop_oneof![
            ".{0,200}",
            "waivers:\n(  - rule: [a-z:0-9]{0,8}\n    path: [a-z./]{0,8}\n    fingerprint: [0-9a-f]{0,16}\n    reason: .{0,10}\n( {0,6}expires: .{0,12}\n)?){0,3}",
        ],
    )
}

/// Applying a baseline partitions the violations, in order; a violation is waived exactly when
/// a live waiver names its rule, path and fingerprint, which survives re-spacing the line and
/// not editing it; an expired one is reported; any file text parses or is refused, never panics.
pub fn baseline_property((found, waivers, text): BaselineCase) -> Result<(), String> {
    use nexus_lite::rules::gate::baseline::{Baseline, Waiver, apply, fingerprint, parse};
    use nexus_lite::rules::gate::model::Violation;
    use nexus_lite::rules::gate::severity::Severity;
    let _ = parse(&text, "fuzz");
    const RULES: [&str; 3] = ["ruff:S602", "bandit:B602", "no-print"];
    const PATHS: [&str; 3] = ["app.py", "lib/a.py", "tests/t.py"];
    let violations: Vec<Violation> = found
        .iter()
        .enumerate()
        .map(|(i, (r, p, _))| Violation {
            path: PATHS[*p].into(),
            line: Some(i as u32 + 1),
            severity: Severity::Error,
            rule_id: RULES[*r].into(),
            rule_title: "t".into(),
            comment: "c".into(),
            suggestion: None,
            source: None,
        })
        .collect();
    let prints: Vec<String> = found
        .iter()
        .map(|(r, p, t)| fingerprint(RULES[*r], PATHS[*p], t))
        .collect();
    let book = Baseline {
        waivers: waivers
            .iter()
            .filter(|(i, _, _)| *i < found.len())
            .map(|(i, edit, expiry)| {
                let (r, p, t) = &found[*i];
                let line = if *edit {
                    format!("{t}#")
                } else {
                    format!("  {}  ", t.replace(' ', "\t "))
                };
                Waiver {
                    rule: RULES[*r].into(),
                    path: PATHS[*p].into(),
                    fingerprint: fingerprint(RULES[*r], PATHS[*p], &line),
                    reason: "r".into(),
                    expires: expiry
                        .map(|later| if later { "2099-01-01" } else { "2000-01-01" }.into()),
                }
            })
            .collect(),
    };
    let present: Vec<(String, String, String)> = violations
        .iter()
        .zip(&prints)
        .map(|(v, p)| (v.rule_id.clone(), v.path.clone(), p.clone()))
        .collect();
    let out = apply(
        &book,
        violations.clone(),
        &prints,
        &PATHS,
        &present,
        "2026-12-03",
    );
    if out.kept.len() + out.waived.len() != violations.len() {
        return Err(format!("lost or added violations: {out:?}"));
    }
    for (v, print) in violations.iter().zip(&prints) {
        let live = book.waivers.iter().any(|w| {
            w.rule == v.rule_id
                && w.path == v.path
                && &w.fingerprint == print
                && w.expires.as_deref().is_none_or(|e| e > "2026-12-03")
        });
        let waived = out.waived.iter().any(|w| w.violation == *v);
        if live != waived {
            return Err(format!(
                "{v:?} waived {waived}, a live waiver {live}: {book:?}"
            ));
        }
    }
    // A kept violation that an (expired) waiver names is reported.
    let expired_hits = out.kept.iter().any(|v| {
        let p = &prints[violations.iter().position(|x| x == v).unwrap_or(0)];
        book.waivers
            .iter()
            .any(|w| w.rule == v.rule_id && w.path == v.path && &w.fingerprint == p)
    });
    if expired_hits && !out.notes.iter().any(|n| n.state == "expired") {
        return Err(format!(
            "an expired waiver matched silently: {:?}",
            out.notes
        ));
    }
    Ok(())
}
