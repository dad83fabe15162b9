//! Engine tests for capabilities behind meta-tools, per-tool error codes, schema defaults and
//! `mutation.follow_up`: a small rules-like surface written as a registry here, its backend an
//! axum stub on 127.0.0.1:0, every call through `call::call` as stdio and HTTP make it.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use axum::extract::{Path, Query};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use nexus_mcp_runtime::access;
use nexus_mcp_runtime::app::{App, EnvelopeHook, Settings, SurfaceParts, ToolContext};
use nexus_mcp_runtime::backend::{NexusClient, Secret};
use nexus_mcp_runtime::call::{CallError, call};
use nexus_mcp_runtime::error::ToolError;
use nexus_mcp_runtime::spec::*;
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

const BOTH: &[Mode] = &[Mode::LocalStdio, Mode::RemoteHttp];

const fn response(budget: usize) -> ResponseSpec {
    ResponseSpec {
        pick: &[],
        exclude: &[],
        max_items: None,
        max_string: None,
        budget,
    }
}

const fn get_nexus(
    path: &'static str,
    query: &'static [(&'static str, &'static str)],
) -> NexusSpec {
    NexusSpec {
        method: HttpMethod::Get,
        path,
        query,
        body: &[],
    }
}

const TASK_ERRORS: &[ErrorCodeSpec] = &[
    ErrorCodeSpec {
        when: BackendFailure::Status(404),
        code: "TASK_NOT_FOUND",
        message: Some("No task `{{ input.taskId }}`. List tasks to find its id."),
    },
    ErrorCodeSpec {
        when: BackendFailure::Code("ambiguous"),
        code: "AMBIGUOUS",
        message: None,
    },
];

static SURFACE: SurfaceSpec = SurfaceSpec {
    name: "rules-demo",
    title: "Rules demo",
    version: "0.0.1",
    instructions: "",
    result_budget: 8000,
    scopes: &[
        ScopeSpec {
            name: "tasks:read",
            description: "",
            modes: BOTH,
            default_stdio: true,
        },
        ScopeSpec {
            name: "rules:read",
            description: "",
            modes: BOTH,
            default_stdio: true,
        },
        ScopeSpec {
            name: "rules:gate",
            description: "",
            modes: BOTH,
            default_stdio: true,
        },
        ScopeSpec {
            name: "rules:propose",
            description: "",
            modes: BOTH,
            default_stdio: false,
        },
        ScopeSpec {
            name: "rules:admin",
            description: "",
            modes: BOTH,
            default_stdio: false,
        },
    ],
    tools: &[
        ToolSpec {
            name: "get_task",
            title: "Get task",
            description: "One task.",
            scope: "tasks:read",
            access: Access::Read,
            modes: BOTH,
            handler: Handler::Mapped,
            input_schema: r#"{"type":"object","required":["taskId"],"additionalProperties":false,"properties":{"taskId":{"type":"string","minLength":1},"depth":{"type":"integer","default":3}}}"#,
            output_schema: "{}",
            nexus: Some(get_nexus(
                "/api/tasks/{taskId}",
                &[("depth", "{{ input.depth }}")],
            )),
            response: response(8000),
            pagination: None,
            mutation: None,
            content: &[],
            listed: true,
            errors: TASK_ERRORS,
            ask: &[],
            choose: None,
        },
        ToolSpec {
            name: "close_task",
            title: "Close task",
            description: "Close a task.",
            scope: "tasks:read",
            access: Access::Write,
            modes: BOTH,
            handler: Handler::Mapped,
            input_schema: r#"{"type":"object","required":["taskId"],"properties":{"taskId":{"type":"string"},"dry_run":{"type":"boolean","default":true}}}"#,
            output_schema: "{}",
            nexus: Some(NexusSpec {
                method: HttpMethod::Post,
                path: "/api/tasks/{taskId}/close",
                query: &[],
                body: &[("dry_run", "{{ input.dry_run }}")],
            }),
            response: response(8000),
            pagination: None,
            mutation: Some(MutationSpec {
                dry_run_param: Some("dry_run"),
                dry_run_default: true,
                paired_dry_run_tool: None,
                require_true: &[],
                plan_param: None,
                follow_up: Some("get_task"),
                changes: "changes the demo state",
                approver: "a reviewer",
                confirm: None,
            }),
            content: &[],
            listed: true,
            errors: &[],
            ask: &[],
            choose: None,
        },
        ToolSpec {
            name: "get_gate_result",
            title: "Gate result",
            description: "The CI gate verdict for a repo, PR or sha.\nViolations with path and line.",
            scope: "rules:gate",
            access: Access::Read,
            modes: BOTH,
            handler: Handler::Mapped,
            input_schema: r#"{"type":"object","additionalProperties":false,"properties":{"repo":{"type":"string"},"sha":{"type":"string","minLength":7},"limit":{"type":"integer","default":20}}}"#,
            output_schema: "{}",
            nexus: Some(get_nexus(
                "/api/gate",
                &[
                    ("repo", "{{ input.repo }}"),
                    ("sha", "{{ input.sha }}"),
                    ("limit", "{{ input.limit }}"),
                ],
            )),
            response: response(1500),
            pagination: None,
            mutation: None,
            content: &[],
            listed: false,
            errors: &[],
            ask: &[],
            choose: None,
        },
        ToolSpec {
            name: "propose_rule",
            title: "Propose a rule",
            description: "Queue a rule proposal for human review.",
            scope: "rules:propose",
            access: Access::Write,
            modes: BOTH,
            handler: Handler::Mapped,
            input_schema: r#"{"type":"object","required":["text"],"properties":{"text":{"type":"string"},"dry_run":{"type":"boolean","default":true},"approved":{"type":"boolean","default":false}}}"#,
            output_schema: "{}",
            nexus: Some(NexusSpec {
                method: HttpMethod::Post,
                path: "/api/proposals",
                query: &[],
                body: &[
                    ("text", "{{ input.text }}"),
                    ("dry_run", "{{ input.dry_run }}"),
                ],
            }),
            response: response(8000),
            pagination: None,
            mutation: Some(MutationSpec {
                dry_run_param: Some("dry_run"),
                dry_run_default: true,
                paired_dry_run_tool: None,
                require_true: &["approved"],
                plan_param: None,
                follow_up: Some("get_gate_result"),
                changes: "changes the demo state",
                approver: "a reviewer",
                confirm: None,
            }),
            content: &[],
            listed: false,
            errors: &[],
            ask: &[],
            choose: None,
        },
        ToolSpec {
            name: "admin_report",
            title: "Admin report",
            description: "Admins only.",
            scope: "rules:admin",
            access: Access::Read,
            modes: BOTH,
            handler: Handler::Mapped,
            input_schema: r#"{"type":"object"}"#,
            output_schema: "{}",
            nexus: Some(get_nexus("/api/admin", &[])),
            response: response(8000),
            pagination: None,
            mutation: None,
            content: &[],
            listed: false,
            errors: &[],
            ask: &[],
            choose: None,
        },
        ToolSpec {
            name: "use_capability",
            title: "Use a capability",
            description: "Run a capability.",
            scope: "rules:read",
            access: Access::Write,
            modes: BOTH,
            handler: Handler::Meta(MetaTool::Use),
            input_schema: r#"{"type":"object","required":["capability"],"additionalProperties":false,"properties":{"capability":{"type":"string","minLength":1},"arguments":{"type":"object","default":{}}}}"#,
            output_schema: r#"{"type":"object"}"#,
            nexus: None,
            response: response(8000),
            pagination: None,
            mutation: None,
            content: &[],
            listed: true,
            errors: &[],
            ask: &[],
            choose: None,
        },
        ToolSpec {
            name: "list_capabilities",
            title: "List capabilities",
            description: "Name the capabilities.",
            scope: "rules:read",
            access: Access::Read,
            modes: BOTH,
            handler: Handler::Meta(MetaTool::List),
            input_schema: r#"{"type":"object","additionalProperties":false,"properties":{"capability":{"type":"string"},"include_schemas":{"type":"boolean","default":false}}}"#,
            output_schema: r#"{"type":"object"}"#,
            nexus: None,
            response: response(8000),
            pagination: None,
            mutation: None,
            content: &[],
            listed: true,
            errors: &[],
            ask: &[],
            choose: None,
        },
    ],
    prompts: &[],
    resources: &[],
    tool_list_budget: None,
    repository_binding: None,
    envelope: &["answered_by"],
    capabilities: Some(CapabilitiesSpec {
        use_tool: "use_capability",
        list_tool: "list_capabilities",
    }),
};

/// The stub backend: tasks (one ambiguous, one missing), the gate (echoing its query, with a
/// secret and many violations), proposals.
async fn backend() -> String {
    async fn task(
        Path(id): Path<String>,
        Query(q): Query<BTreeMap<String, String>>,
    ) -> (StatusCode, Json<Value>) {
        match id.as_str() {
            "T-1" => (
                StatusCode::OK,
                Json(json!({"task": {"id": id}, "query": q})),
            ),
            "T" => (
                StatusCode::CONFLICT,
                Json(
                    json!({"error": {"code": "ambiguous", "message": "`T` matches 2 tasks", "candidates": ["T-1", "T-2"], "api_key": "k-123456"}}),
                ),
            ),
            _ => (
                StatusCode::NOT_FOUND,
                Json(
                    json!({"error": {"code": "not_found", "message": format!("no task {id}"), "near": ["T-1"]}}),
                ),
            ),
        }
    }
    async fn gate(Query(q): Query<BTreeMap<String, String>>) -> Json<Value> {
        let violations: Vec<Value> = (0..40)
            .map(|i| json!({"path": format!("src/file_{i}.py"), "line": i, "ruleId": "ruff:S324"}))
            .collect();
        Json(
            json!({"found": true, "query": q, "config": {"password": "hunter2-secret"}, "violations": violations}),
        )
    }
    async fn propose(Json(body): Json<Value>) -> Json<Value> {
        Json(json!({"queued": body["dry_run"] == false, "received": body}))
    }
    async fn close(Json(body): Json<Value>) -> Json<Value> {
        Json(json!({"closed": body["dry_run"] == false}))
    }
    let app = Router::new()
        .route("/api/tasks/{id}", get(task))
        .route("/api/tasks/{id}/close", post(close))
        .route("/api/gate", get(gate))
        .route("/api/proposals", post(propose))
        .route(
            "/api/admin",
            get(|| async { Json(json!({"secret_report": true})) }),
        );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    url
}

/// Stamps every answer with the tool that produced it, as a surface's envelope hook would.
struct AnsweredBy;

impl EnvelopeHook for AnsweredBy {
    fn fields<'a>(
        &'a self,
        _ctx: &'a ToolContext,
        tool: &'static ToolSpec,
        _raw: &'a Value,
    ) -> Pin<Box<dyn Future<Output = Map<String, Value>> + Send + 'a>> {
        Box::pin(async move {
            let mut fields = Map::new();
            fields.insert("answered_by".to_owned(), json!(tool.name));
            fields
        })
    }
}

async fn app() -> Arc<App> {
    let nexus = NexusClient::new(
        &backend().await,
        Secret::new("service-token".into()),
        Duration::from_secs(5),
    )
    .unwrap();
    let parts = SurfaceParts {
        envelope: Some(Arc::new(AnsweredBy)),
        ..SurfaceParts::default()
    };
    Arc::new(App::new(&SURFACE, nexus, Settings::default(), parts))
}

fn ctx(app: &Arc<App>, scopes: &[&str]) -> ToolContext {
    ToolContext {
        app: app.clone(),
        mode: Mode::RemoteHttp,
        scopes: Arc::new(scopes.iter().map(|s| (*s).to_owned()).collect()),
        repositories: None,
        progress: None,
        log: None,
        asking: None,
    }
}

/// What tools/list shows this caller.
fn listed(scopes: &[&str]) -> Vec<&'static str> {
    let scopes: BTreeSet<String> = scopes.iter().map(|s| (*s).to_owned()).collect();
    SURFACE
        .tools
        .iter()
        .filter(|t| access::listed(&SURFACE, t, Mode::RemoteHttp, &scopes))
        .map(|t| t.name)
        .collect()
}

fn tool_error(outcome: Result<Value, CallError>) -> ToolError {
    match outcome {
        Err(CallError::Tool(e)) => e,
        other => panic!("expected a tool error, got {other:?}"),
    }
}

const GATE: &[&str] = &["rules:read", "rules:gate"];

#[tokio::test]
async fn hidden_tools_are_not_listed_and_not_callable_by_name() {
    assert_eq!(
        listed(&["tasks:read", "rules:read", "rules:gate", "rules:propose"]),
        [
            "get_task",
            "close_task",
            "use_capability",
            "list_capabilities"
        ]
    );
    // The meta-tools exist only when a capability stands behind them for this caller.
    assert_eq!(
        listed(&["tasks:read", "rules:read"]),
        ["get_task", "close_task"]
    );
    let app = app().await;
    let direct = call(ctx(&app, GATE), "get_gate_result", json!({})).await;
    assert!(
        matches!(&direct, Err(CallError::UnknownTool(name)) if name == "get_gate_result"),
        "{direct:?}"
    );
}

#[tokio::test]
async fn list_capabilities_names_what_the_caller_may_use() {
    let app = app().await;
    let names = |v: &Value| -> Vec<String> {
        v["capabilities"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["name"].as_str().unwrap().to_owned())
            .collect()
    };
    let plain = call(ctx(&app, GATE), "list_capabilities", json!({}))
        .await
        .unwrap();
    assert_eq!(names(&plain), ["get_gate_result"]);
    assert_eq!(
        plain["capabilities"][0],
        json!({"name": "get_gate_result", "title": "Gate result", "summary": "The CI gate verdict for a repo, PR or sha.", "access": "read"}),
        "one line each, no schema unless asked"
    );
    let proposer = [GATE, &["rules:propose"]].concat();
    let all = call(
        ctx(&app, &proposer),
        "list_capabilities",
        json!({"include_schemas": true}),
    )
    .await
    .unwrap();
    assert_eq!(names(&all), ["get_gate_result", "propose_rule"]);
    assert_eq!(
        all["capabilities"][1]["inputSchema"]["required"],
        json!(["text"])
    );
    let one = call(
        ctx(&app, GATE),
        "list_capabilities",
        json!({"capability": "get_gate_result"}),
    )
    .await
    .unwrap();
    assert_eq!(
        one["capabilities"][0]["inputSchema"]["properties"]["sha"]["minLength"],
        7
    );
}

#[tokio::test]
async fn a_capability_out_of_scope_reads_exactly_like_an_unknown_one() {
    let app = app().await;
    for meta in [
        json!({"tool": "use_capability", "args": {"capability": "NAME"}}),
        json!({"tool": "list_capabilities", "args": {"capability": "NAME"}}),
    ] {
        let answer = |name: &str| {
            let app = app.clone();
            let mut args = meta["args"].clone();
            args["capability"] = json!(name);
            let tool = meta["tool"].as_str().unwrap().to_owned();
            async move { tool_error(call(ctx(&app, GATE), &tool, args).await).to_json() }
        };
        let admin = answer("admin_report").await;
        let nothing = answer("no_such_thing").await;
        assert_eq!(admin["error"]["code"], "unknown_capability", "{admin}");
        assert_eq!(
            admin.to_string().replace("admin_report", "NAME"),
            nothing.to_string().replace("no_such_thing", "NAME")
        );
        let message = admin["error"]["message"].as_str().unwrap();
        assert!(
            message.contains("Capabilities you can use: get_gate_result.")
                && !message.contains("propose_rule"),
            "{message}"
        );
    }
}

#[tokio::test]
async fn a_capability_runs_through_the_same_dispatch() {
    let app = app().await;
    let answer = call(
        ctx(&app, GATE),
        "use_capability",
        json!({"capability": "get_gate_result", "arguments": {"repo": "acme/api"}}),
    )
    .await
    .unwrap();
    // Its default reached the backend, its secret was redacted, its budget (1,500) cut it,
    // and the envelope hook saw the capability, not the meta-tool.
    assert_eq!(answer["query"], json!({"repo": "acme/api", "limit": "20"}));
    assert_eq!(answer["config"]["password"], "[REDACTED]");
    assert!(
        answer.to_string().len() <= 1500,
        "{}",
        answer.to_string().len()
    );
    assert_eq!(answer["truncation"]["truncated"], true, "{answer}");
    assert_eq!(answer["answered_by"], "get_gate_result");
    // No arguments at all is an empty object, and the defaults still apply.
    let bare = call(
        ctx(&app, GATE),
        "use_capability",
        json!({"capability": "get_gate_result"}),
    )
    .await
    .unwrap();
    assert_eq!(bare["query"], json!({"limit": "20"}));
}

#[tokio::test]
async fn a_capability_s_argument_error_names_the_capability_and_the_field() {
    let app = app().await;
    let e = tool_error(
        call(
            ctx(&app, GATE),
            "use_capability",
            json!({"capability": "get_gate_result", "arguments": {"sha": "9f2"}}),
        )
        .await,
    );
    let text = e.to_string();
    assert!(
        text.starts_with(
            "invalid arguments for `get_gate_result`: `sha`: \"9f2\" is shorter than 7 characters"
        ),
        "{text}"
    );
    assert!(
        text.ends_with("Its input schema: list_capabilities with capability=\"get_gate_result\"."),
        "{text}"
    );
}

#[tokio::test]
async fn a_write_capability_keeps_its_mutation_rules_and_names_its_follow_up() {
    let app = app().await;
    let proposer = [GATE, &["rules:propose"]].concat();
    let run = |arguments: Value| {
        let app = app.clone();
        let proposer = proposer.clone();
        async move {
            call(
                ctx(&app, &proposer),
                "use_capability",
                json!({"capability": "propose_rule", "arguments": arguments}),
            )
            .await
        }
    };
    let preview = run(json!({"text": "no md5"})).await.unwrap();
    assert_eq!(preview["queued"], false, "dry_run defaults to true");
    assert!(preview.get("next_step").is_none(), "{preview}");
    let refused = tool_error(run(json!({"text": "no md5", "dry_run": false})).await);
    assert_eq!(refused.to_json()["error"]["code"], "confirmation_required");
    let done = run(json!({"text": "no md5", "dry_run": false, "approved": true}))
        .await
        .unwrap();
    assert_eq!(done["queued"], true);
    assert_eq!(
        done["next_step"],
        "propose_rule ran. Next: call use_capability with capability \"get_gate_result\" (Gate result) to check its effect."
    );
    // A caller who cannot reach the follow-up gets no hint naming it.
    let blind = call(
        ctx(&app, &["rules:read", "rules:propose"]),
        "use_capability",
        json!({"capability": "propose_rule", "arguments": {"text": "x", "dry_run": false, "approved": true}}),
    )
    .await
    .unwrap();
    assert!(blind.get("next_step").is_none(), "{blind}");
}

#[tokio::test]
async fn a_listed_mutation_names_its_follow_up_after_a_real_run_only() {
    let app = app().await;
    let tasks = ["tasks:read"];
    let dry = call(ctx(&app, &tasks), "close_task", json!({"taskId": "T-1"}))
        .await
        .unwrap();
    assert_eq!(dry, json!({"closed": false, "answered_by": "close_task"}));
    let real = call(
        ctx(&app, &tasks),
        "close_task",
        json!({"taskId": "T-1", "dry_run": false}),
    )
    .await
    .unwrap();
    assert_eq!(
        real["next_step"],
        "close_task ran. Next: call get_task (Get task) to check its effect."
    );
}

#[tokio::test]
async fn schema_defaults_reach_the_backend_query() {
    let app = app().await;
    let answer = call(
        ctx(&app, &["tasks:read"]),
        "get_task",
        json!({"taskId": "T-1"}),
    )
    .await
    .unwrap();
    assert_eq!(answer["query"], json!({"depth": "3"}));
    let given = call(
        ctx(&app, &["tasks:read"]),
        "get_task",
        json!({"taskId": "T-1", "depth": 1}),
    )
    .await
    .unwrap();
    assert_eq!(given["query"], json!({"depth": "1"}));
}

#[tokio::test]
async fn backend_failures_come_back_under_the_declared_domain_codes() {
    let app = app().await;
    let missing = tool_error(
        call(
            ctx(&app, &["tasks:read"]),
            "get_task",
            json!({"taskId": "nope"}),
        )
        .await,
    )
    .to_json();
    assert_eq!(
        missing,
        json!({"error": {"code": "TASK_NOT_FOUND", "message": "No task `nope`. List tasks to find its id.", "retryable": false,
                         "details": {"near": ["T-1"], "backend_message": "no task nope"}}})
    );
    let ambiguous = tool_error(
        call(
            ctx(&app, &["tasks:read"]),
            "get_task",
            json!({"taskId": "T"}),
        )
        .await,
    )
    .to_json();
    assert_eq!(
        ambiguous,
        json!({"error": {"code": "AMBIGUOUS", "message": "`T` matches 2 tasks", "retryable": false,
                         "details": {"candidates": ["T-1", "T-2"], "api_key": "[REDACTED]"}}}),
        "the backend code wins over the status, its details stay and its secrets go"
    );
}

#[test]
fn the_contract_lists_capabilities_apart_from_the_tool_list() {
    let files = nexus_mcp_runtime::contract::expected(&SURFACE).unwrap();
    let readme = &files["README.md"];
    let (tools, capabilities) = readme.split_once("## Capabilities").expect(readme);
    assert!(tools.contains("[`use_capability`]") && !tools.contains("get_gate_result"));
    assert!(
        capabilities.contains("reached through `use_capability`")
            && capabilities.contains("[`get_gate_result`](get_gate_result.json)")
            && !capabilities.contains("[`get_task`]"),
        "{capabilities}"
    );
    let hidden: Value = serde_json::from_str(&files["get_gate_result.json"]).unwrap();
    assert_eq!(hidden["listed"], false);
    let shown: Value = serde_json::from_str(&files["get_task.json"]).unwrap();
    assert!(
        shown.get("listed").is_none(),
        "listed tools keep their files as they were"
    );
}
