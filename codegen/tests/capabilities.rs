//! Capabilities (`listed: false` + `capabilities:`), per-tool `errors:` and `follow_up`'s
//! `next_step`: what the generator emits for them, and every message a mistake gets, pinned
//! with the line and column it points at.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use nexus_mcp_codegen::{LoadedManifest, ManifestError, generate, parse};
use std::path::{Path, PathBuf};

/// A rules-like surface: one listed typed tool, two capabilities behind the meta-tools, error
/// codes on a mapped tool, and a write capability with a follow-up.
const RULES: &str = r##"surface: rules
server:
  name: rules
  title: Rules
  version: 0.1.0
  instructions: Rules and the CI gate.
  result_budget: 8000
scopes:
  - name: rules:read
    description: Read rules and verdicts.
    modes: [local_stdio, remote_http]
    default_stdio: true
  - name: rules:propose
    description: Propose rules.
    modes: [local_stdio]
capabilities:
  scope: rules:read
tools:
  - name: get_rule
    title: Get rule
    description: One rule with its text and examples.
    scope: rules:read
    access: read
    handler: mapped
    input:
      type: object
      required: [ruleId]
      properties:
        ruleId: {type: string}
      additionalProperties: false
    output:
      type: object
      properties:
        rule: {type: object}
    nexus:
      method: GET
      path: /api/v1/rules/{ruleId}
    errors:
      404: {code: RULE_NOT_FOUND, message: "No rule `{{ input.ruleId }}` ({{ backend.message }})."}
      ambiguous: AMBIGUOUS
  - name: get_gate_result
    title: Gate result
    description: The CI gate verdict for a repo, PR or sha. Violations with path and line.
    scope: rules:read
    access: read
    handler: mapped
    listed: false
    input:
      type: object
      properties:
        repo: {type: string}
        sha: {type: string, minLength: 7}
        limit: {type: integer, default: 20}
      additionalProperties: false
    output:
      type: object
      properties:
        found: {type: boolean}
    nexus:
      method: GET
      path: /api/v1/gate
      query:
        repo: "{{ input.repo }}"
        sha: "{{ input.sha }}"
        limit: "{{ input.limit }}"
  - name: propose_rule
    title: Propose a rule
    description: Queue a rule proposal for human review.
    scope: rules:propose
    access: write
    handler: mapped
    listed: false
    input:
      type: object
      required: [text]
      properties:
        text: {type: string}
        dry_run: {type: boolean, default: true}
      additionalProperties: false
    output:
      type: object
      properties:
        queued: {type: boolean}
        next_step: {type: string}
    nexus:
      method: POST
      path: /api/v1/proposals
      body:
        text: "{{ input.text }}"
        dry_run: "{{ input.dry_run }}"
    mutation:
      dry_run: {param: dry_run, default: true}
      follow_up: get_gate_result
"##;

const FILE: &str = "manifest/rules.yaml";

fn edit(from: &str, to: &str) -> String {
    common::edit_in(RULES, from, to)
}

fn errors(source: &str) -> Vec<ManifestError> {
    common::errors_in(FILE, source)
}

fn only_error(source: &str, expected_at: &str) -> String {
    common::only_error_in(FILE, source, expected_at)
}

#[test]
fn the_rules_manifest_generates_meta_tools_hidden_tools_and_error_codes() {
    let manifest = parse(Path::new(FILE), RULES).expect("RULES parses");
    let code = generate(&[LoadedManifest {
        path: PathBuf::from(FILE),
        manifest,
    }])
    .expect("generates");
    for wanted in [
        "name: \"use_capability\"",
        "name: \"list_capabilities\"",
        "Handler::Meta(runtime::spec::MetaTool::Use)",
        "Handler::Meta(runtime::spec::MetaTool::List)",
        "listed: false",
        "BackendFailure::Status(404u16)",
        "BackendFailure::Code(\"ambiguous\")",
        "code: \"RULE_NOT_FOUND\"",
        "use_tool: \"use_capability\"",
        "follow_up: Some(\"get_gate_result\")",
    ] {
        assert!(code.contains(wanted), "generated code lacks {wanted}");
    }
    let listed: Vec<String> =
        nexus_mcp_codegen::emit_capabilities::listed_tools(&parse(Path::new(FILE), RULES).unwrap())
            .into_iter()
            .map(|t| t.name)
            .collect();
    assert_eq!(listed, ["get_rule", "use_capability", "list_capabilities"]);
    // use_capability can run a write capability, so it says so in its annotations.
    let use_entry = &code[code.find("name: \"use_capability\"").unwrap()..];
    let use_entry = &use_entry[..use_entry.find("listed:").unwrap()];
    assert!(use_entry.contains("Access::Write"), "{use_entry}");
    assert!(use_entry.contains("scope: \"rules:read\""), "{use_entry}");
}

/// The generated Rust of RULES, committed: tests/capabilities_generated.rs (root crate)
/// compiles it with `#![deny(warnings)]` and drives it through the engine. Rewrite it with
/// `NEXUS_MCP_OVERWRITE=1 cargo test -p nexus-mcp-codegen --test capabilities` and review.
#[test]
fn the_generated_rules_surface_is_pinned() {
    let manifest = parse(Path::new(FILE), RULES).expect("RULES parses");
    let code = generate(&[LoadedManifest {
        path: PathBuf::from(FILE),
        manifest,
    }])
    .expect("generates");
    let snapshot = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/output/rules_demo.rs");
    if std::env::var_os("NEXUS_MCP_OVERWRITE").is_some() {
        std::fs::create_dir_all(snapshot.parent().unwrap()).unwrap();
        std::fs::write(&snapshot, &code).unwrap();
    }
    let committed = std::fs::read_to_string(&snapshot).unwrap_or_default();
    assert!(
        committed == code,
        "{} differs from what RULES generates; rerun with NEXUS_MCP_OVERWRITE=1 and review the diff",
        snapshot.display()
    );
}

#[test]
fn meta_tool_names_can_be_chosen() {
    let source = edit(
        "capabilities:\n  scope: rules:read\n",
        "capabilities:\n  scope: rules:read\n  use_tool: run_capability\n  list_tool: describe_capabilities\n",
    );
    let manifest = parse(Path::new(FILE), &source).expect("parses");
    let code = generate(&[LoadedManifest {
        path: PathBuf::from(FILE),
        manifest,
    }])
    .unwrap();
    assert!(code.contains("name: \"run_capability\""));
    assert!(code.contains("list_tool: \"describe_capabilities\""));
}

#[test]
fn a_hidden_tool_needs_the_capabilities_block() {
    let source = edit("capabilities:\n  scope: rules:read\n", "");
    let errors = errors(&source);
    assert_eq!(errors.len(), 2, "{errors:#?}");
    assert_eq!(
        errors[0].to_string(),
        "manifest/rules.yaml:45:5: tool `get_gate_result`: a tool with `listed: false` is reachable only through the meta-tools, and this manifest declares none. Add `capabilities: {scope: <scope>}` at the top level (it generates use_capability and list_capabilities), or remove `listed: false`."
    );
}

#[test]
fn a_capabilities_block_without_hidden_tools_is_refused() {
    let source = RULES.replace("    listed: false\n", "");
    assert_eq!(
        only_error(&source, "capabilities:"),
        "manifest/rules.yaml:16:1: `capabilities:` declares meta-tools but no tool is `listed: false`, so they would front nothing. Mark the tools to hide with `listed: false`, or remove the block."
    );
}

#[test]
fn the_meta_tools_scope_must_exist() {
    assert_eq!(
        only_error(
            &edit("  scope: rules:read\ntools", "  scope: rules:gate\ntools"),
            "scope: rules:gate"
        ),
        "manifest/rules.yaml:17:3: unknown scope `rules:gate` for the meta-tools. Declare it under `scopes:` or use one of: rules:read, rules:propose."
    );
}

#[test]
fn meta_tool_names_follow_tool_rules() {
    let bad = edit(
        "  scope: rules:read\ntools",
        "  scope: rules:read\n  use_tool: Use-Capability\ntools",
    );
    assert_eq!(
        only_error(&bad, "use_tool:"),
        "manifest/rules.yaml:18:3: meta-tool name `Use-Capability` must match ^[a-z][a-z0-9_]{0,63}$, e.g. use_capability."
    );
    let taken = edit(
        "  scope: rules:read\ntools",
        "  scope: rules:read\n  list_tool: get_rule\ntools",
    );
    assert_eq!(
        only_error(&taken, "list_tool:"),
        "manifest/rules.yaml:18:3: meta-tool name `get_rule` is already a tool of this manifest. The engine writes the meta-tools; pick another name here or rename the tool."
    );
    let same = edit(
        "  scope: rules:read\ntools",
        "  scope: rules:read\n  list_tool: use_capability\ntools",
    );
    assert_eq!(
        only_error(&same, "list_tool:"),
        "manifest/rules.yaml:18:3: use_tool and list_tool must differ."
    );
}

#[test]
fn a_capability_must_be_reachable_in_each_of_its_modes() {
    let source = edit(
        "    modes: [local_stdio, remote_http]\n    default_stdio: true",
        "    modes: [local_stdio]\n    default_stdio: true\n  - name: gate:http\n    description: Gate over HTTP.\n    modes: [remote_http]",
    )
    .replace(
        "    scope: rules:read\n    access: read\n    handler: mapped\n    listed: false",
        "    scope: gate:http\n    access: read\n    handler: mapped\n    listed: false",
    );
    assert_eq!(
        only_error(&source, "listed: false"),
        "manifest/rules.yaml:50:5: tool `get_gate_result`: this capability runs in remote_http but the meta-tools' scope `rules:read` does not, so nothing could reach it there. Add remote_http to that scope's modes, or narrow the tool's `modes:`."
    );
}

#[test]
fn error_statuses_are_4xx_or_5xx_and_never_the_token_s() {
    assert_eq!(
        only_error(
            &edit("      ambiguous: AMBIGUOUS\n", "      403: FORBIDDEN\n"),
            "403:"
        ),
        "manifest/rules.yaml:40:7: tool `get_rule`: status 403 means Nexus refused this server's token: the operator must fix it, not the agent, and the engine always answers it as nexus_unauthorized. Remove this entry."
    );
    assert_eq!(
        only_error(
            &edit("      ambiguous: AMBIGUOUS\n", "      302: MOVED\n"),
            "302:"
        ),
        "manifest/rules.yaml:40:7: tool `get_rule`: status 302 is not an error: map a 4xx or 5xx status (e.g. 404), or a backend error code."
    );
    assert_eq!(
        only_error(
            &edit("      ambiguous: AMBIGUOUS\n", "      \"409\": CONFLICT\n"),
            "\"409\":"
        ),
        "manifest/rules.yaml:40:7: tool `get_rule`: `\"409\"` is quoted, so it reads as a backend error code. Write HTTP statuses as bare numbers, e.g. `409: CONFLICT`."
    );
    assert_eq!(
        only_error(
            &edit(
                "      ambiguous: AMBIGUOUS\n",
                "      \"not found\": GONE\n"
            ),
            "\"not found\":"
        ),
        "manifest/rules.yaml:40:7: tool `get_rule`: `not found` is not a backend error code: use the `error.code` string the backend answers, e.g. `ambiguous`."
    );
}

#[test]
fn domain_codes_are_upper_snake() {
    assert_eq!(
        only_error(
            &edit("ambiguous: AMBIGUOUS", "ambiguous: ambiguousId"),
            "ambiguous:"
        ),
        "manifest/rules.yaml:40:7: tool `get_rule`: domain code `ambiguousId` must be UPPER_SNAKE_CASE (what agents branch on), e.g. TASK_NOT_FOUND."
    );
}

#[test]
fn error_message_templates_read_input_and_backend_only() {
    let errors = errors(&edit(
        "{{ input.ruleId }}` (",
        "{{ input.rule_id }}` ({{ backend.body }} ",
    ));
    let messages: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert_eq!(
        messages,
        [
            "manifest/rules.yaml:39:35: tool `get_rule`: message template uses `backend.body`; it can read `input.<input field>` and `backend.status`, `backend.code`, `backend.message`.",
            "manifest/rules.yaml:39:35: tool `get_rule`: message template uses `input.rule_id`; it can read `input.<input field>` and `backend.status`, `backend.code`, `backend.message`.",
        ]
    );
    assert_eq!(
        only_error(
            &edit("{{ input.ruleId }}`", "{{ input.ruleId `"),
            "message:"
        ),
        "manifest/rules.yaml:39:35: tool `get_rule`: message template does not parse: syntax error: unexpected character (in <string>:1)."
    );
}

#[test]
fn a_follow_up_needs_next_step_in_the_output() {
    assert_eq!(
        only_error(
            &edit("        next_step: {type: string}\n", ""),
            "follow_up:"
        ),
        "manifest/rules.yaml:92:7: tool `propose_rule`: follow-up `get_gate_result` is named in the answer's `next_step`, which the output does not declare. Add `next_step: {type: string}` to the output properties."
    );
}

#[test]
fn keys_that_did_nothing_are_gone() {
    let redact = only_error(
        &edit(
            "      ambiguous: AMBIGUOUS\n",
            "      ambiguous: AMBIGUOUS\n    response:\n      redact: [rule.text]\n",
        ),
        "redact",
    );
    assert!(redact.contains("unknown field `redact`"), "{redact}");
    let dirty = only_error(
        &edit(
            "      follow_up: get_gate_result\n",
            "      follow_up: get_gate_result\n      dirty_worktree_param: dry_run\n",
        ),
        "dirty_worktree_param",
    );
    assert!(
        dirty.contains("unknown field `dirty_worktree_param`"),
        "{dirty}"
    );
}

#[test]
fn a_default_must_satisfy_its_own_schema() {
    assert_eq!(
        only_error(
            &edit(
                "limit: {type: integer, default: 20}",
                "limit: {type: integer, minimum: 1, default: 0}"
            ),
            "default: 0"
        ),
        "manifest/rules.yaml:53:44: tool `get_gate_result`: the default of `limit` (0) breaks its own schema: 0 is less than the minimum of 1. Fix the default or the schema."
    );
}
