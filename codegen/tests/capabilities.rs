//! Capabilities (`listed: false` + `capabilities:`), per-tool `errors:` and `follow_up`'s
//! `next_step`: what the generator emits for them, and every message a mistake gets, pinned
//! with the line and column it points at. DEMO has one listed tool with error codes (get_note),
//! and two capabilities behind the meta-tools: get_note_history, and archive_note, a write with a
//! follow-up.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use nexus_mcp_codegen::{LoadedManifest, ManifestError, generate, parse};
use std::path::{Path, PathBuf};

use common::{DEMO, FILE};

fn edit(from: &str, to: &str) -> String {
    common::edit_in(DEMO, from, to)
}

fn errors(source: &str) -> Vec<ManifestError> {
    common::errors_in(FILE, source)
}

fn only_error(source: &str, expected_at: &str) -> String {
    common::only_error_in(FILE, source, expected_at)
}

/// `e` shown, checked to point at `expected_at` in `source`.
fn at(source: &str, e: &ManifestError, expected_at: &str) -> String {
    common::points_at(source, e, expected_at)
}

#[test]
fn the_demo_generates_meta_tools_hidden_tools_and_error_codes() {
    let manifest = parse(Path::new(FILE), DEMO).expect("DEMO parses");
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
        "code: \"NOTE_NOT_FOUND\"",
        "code: \"NOTE_AMBIGUOUS\"",
        "use_tool: \"use_capability\"",
        "follow_up: Some(\"get_note_history\")",
    ] {
        assert!(code.contains(wanted), "generated code lacks {wanted}");
    }
    let listed: Vec<String> =
        nexus_mcp_codegen::emit_capabilities::listed_tools(&parse(Path::new(FILE), DEMO).unwrap())
            .into_iter()
            .map(|t| t.name)
            .collect();
    assert_eq!(
        listed,
        [
            "get_note",
            "list_notes",
            "compare_note_with_local",
            "export_notes",
            "use_capability",
            "list_capabilities"
        ]
    );
    // use_capability can run a write capability, so it says so in its annotations.
    let use_entry = &code[code.find("name: \"use_capability\"").unwrap()..];
    let use_entry = &use_entry[..use_entry.find("listed:").unwrap()];
    assert!(use_entry.contains("Access::Write"), "{use_entry}");
    assert!(use_entry.contains("scope: \"notes:read\""), "{use_entry}");
}

#[test]
fn meta_tool_names_can_be_chosen() {
    let source = edit(
        "capabilities:\n  scope: notes:read\n",
        "capabilities:\n  scope: notes:read\n  use_tool: run_capability\n  list_tool: describe_capabilities\n",
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
    let source = edit("capabilities:\n  scope: notes:read\n", "");
    let errors = errors(&source);
    assert_eq!(errors.len(), 2, "{errors:#?}");
    assert_eq!(
        at(&source, &errors[0], "listed: false"),
        "tests/manifests/demo.yaml:66:5: tool `get_note_history`: a tool with `listed: false` is reachable only through the meta-tools, and this manifest declares none. Add `capabilities: {scope: <scope>}` at the top level (it generates use_capability and list_capabilities), or remove `listed: false`."
    );
}

#[test]
fn a_capabilities_block_without_hidden_tools_is_refused() {
    let source = DEMO.replace("    listed: false\n", "");
    assert_eq!(
        only_error(&source, "capabilities:"),
        "tests/manifests/demo.yaml:36:1: `capabilities:` declares meta-tools but no tool is `listed: false`, so they would front nothing. Mark the tools to hide with `listed: false`, or remove the block."
    );
}

#[test]
fn the_meta_tools_scope_must_exist() {
    assert_eq!(
        only_error(
            &edit("  scope: notes:read\ntools", "  scope: notes:meta\ntools"),
            "scope: notes:meta"
        ),
        "tests/manifests/demo.yaml:37:3: unknown scope `notes:meta` for the meta-tools. Declare it under `scopes:` or use one of: notes:read, notes:local, notes:export."
    );
}

#[test]
fn meta_tool_names_follow_tool_rules() {
    let bad = edit(
        "  scope: notes:read\ntools",
        "  scope: notes:read\n  use_tool: Use-Capability\ntools",
    );
    assert_eq!(
        only_error(&bad, "use_tool:"),
        "tests/manifests/demo.yaml:38:3: meta-tool name `Use-Capability` must match ^[a-z][a-z0-9_]{0,63}$, e.g. use_capability."
    );
    let taken = edit(
        "  scope: notes:read\ntools",
        "  scope: notes:read\n  list_tool: get_note\ntools",
    );
    assert_eq!(
        only_error(&taken, "list_tool:"),
        "tests/manifests/demo.yaml:38:3: meta-tool name `get_note` is already a tool of this manifest. The engine writes the meta-tools; pick another name here or rename the tool."
    );
    let same = edit(
        "  scope: notes:read\ntools",
        "  scope: notes:read\n  list_tool: use_capability\ntools",
    );
    assert_eq!(
        only_error(&same, "list_tool:"),
        "tests/manifests/demo.yaml:38:3: use_tool and list_tool must differ."
    );
}

#[test]
fn a_capability_must_be_reachable_in_each_of_its_modes() {
    let source = edit(
        "    description: Read notes.\n    modes: [local_stdio, remote_http]\n    default_stdio: true",
        "    description: Read notes.\n    modes: [local_stdio]\n    default_stdio: true\n  - name: notes:http\n    description: Notes over HTTP.\n    modes: [remote_http]",
    )
    .replacen(
        "    scope: notes:read\n    access: read\n    handler: mapped\n    listed: false",
        "    scope: notes:http\n    access: read\n    handler: mapped\n    listed: false",
        1,
    );
    // archive_note's scope (notes:export) runs over HTTP too, so it is unreachable there as well.
    let errors = errors(&source);
    let shown: Vec<String> = errors
        .iter()
        .map(|e| at(&source, e, "listed: false"))
        .collect();
    assert_eq!(
        shown,
        [
            "tests/manifests/demo.yaml:71:5: tool `get_note_history`: this capability runs in remote_http but the meta-tools' scope `notes:read` does not, so nothing could reach it there. Add remote_http to that scope's modes, or narrow the tool's `modes:`.",
            "tests/manifests/demo.yaml:191:5: tool `archive_note`: this capability runs in remote_http but the meta-tools' scope `notes:read` does not, so nothing could reach it there. Add remote_http to that scope's modes, or narrow the tool's `modes:`.",
        ]
    );
}

#[test]
fn error_statuses_are_4xx_or_5xx_and_never_the_token_s() {
    assert_eq!(
        only_error(
            &edit(
                "      ambiguous: NOTE_AMBIGUOUS\n",
                "      403: FORBIDDEN\n"
            ),
            "403:"
        ),
        "tests/manifests/demo.yaml:61:7: tool `get_note`: status 403 means Nexus refused this server's token: the operator must fix it, not the agent, and the engine always answers it as nexus_unauthorized. Remove this entry."
    );
    assert_eq!(
        only_error(
            &edit("      ambiguous: NOTE_AMBIGUOUS\n", "      302: MOVED\n"),
            "302:"
        ),
        "tests/manifests/demo.yaml:61:7: tool `get_note`: status 302 is not an error: map a 4xx or 5xx status (e.g. 404), or a backend error code."
    );
    assert_eq!(
        only_error(
            &edit(
                "      ambiguous: NOTE_AMBIGUOUS\n",
                "      \"409\": CONFLICT\n"
            ),
            "\"409\":"
        ),
        "tests/manifests/demo.yaml:61:7: tool `get_note`: `\"409\"` is quoted, so it reads as a backend error code. Write HTTP statuses as bare numbers, e.g. `409: CONFLICT`."
    );
    assert_eq!(
        only_error(
            &edit(
                "      ambiguous: NOTE_AMBIGUOUS\n",
                "      \"not found\": GONE\n"
            ),
            "\"not found\":"
        ),
        "tests/manifests/demo.yaml:61:7: tool `get_note`: `not found` is not a backend error code: use the `error.code` string the backend answers, e.g. `ambiguous`."
    );
}

#[test]
fn domain_codes_are_upper_snake() {
    assert_eq!(
        only_error(
            &edit("ambiguous: NOTE_AMBIGUOUS", "ambiguous: noteAmbiguous"),
            "ambiguous:"
        ),
        "tests/manifests/demo.yaml:61:7: tool `get_note`: domain code `noteAmbiguous` must be UPPER_SNAKE_CASE (what agents branch on), e.g. TASK_NOT_FOUND."
    );
}

#[test]
fn error_message_templates_read_input_and_backend_only() {
    let source = edit(
        "{{ input.noteId }}` (",
        "{{ input.note_id }}` ({{ backend.body }} ",
    );
    let errors = errors(&source);
    let messages: Vec<String> = errors.iter().map(|e| at(&source, e, "message:")).collect();
    assert_eq!(
        messages,
        [
            "tests/manifests/demo.yaml:60:35: tool `get_note`: message template uses `backend.body`; it can read `input.<input field>` and `backend.status`, `backend.code`, `backend.message`.",
            "tests/manifests/demo.yaml:60:35: tool `get_note`: message template uses `input.note_id`; it can read `input.<input field>` and `backend.status`, `backend.code`, `backend.message`.",
        ]
    );
    assert_eq!(
        only_error(
            &edit("{{ input.noteId }}` (", "{{ input.noteId ` ("),
            "message:"
        ),
        "tests/manifests/demo.yaml:60:35: tool `get_note`: message template does not parse: syntax error: unexpected character (in <string>:1)."
    );
}

#[test]
fn a_follow_up_needs_next_step_in_the_output() {
    assert_eq!(
        only_error(
            &edit("        next_step: {type: string}\n", ""),
            "follow_up:"
        ),
        "tests/manifests/demo.yaml:210:7: tool `archive_note`: follow-up `get_note_history` is named in the answer's `next_step`, which the output does not declare. Add `next_step: {type: string}` to the output properties."
    );
}

#[test]
fn keys_that_did_nothing_are_gone() {
    let redact = only_error(
        &edit(
            "      ambiguous: NOTE_AMBIGUOUS\n",
            "      ambiguous: NOTE_AMBIGUOUS\n    response:\n      redact: [body]\n",
        ),
        "redact",
    );
    assert!(redact.contains("unknown field `redact`"), "{redact}");
    let dirty = only_error(
        &edit(
            "      follow_up: get_note_history\n",
            "      follow_up: get_note_history\n      dirty_worktree_param: dry_run\n",
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
            &edit("maximum: 50, default: 5}", "maximum: 50, default: 0}"),
            "default: 0"
        ),
        "tests/manifests/demo.yaml:73:57: tool `get_note_history`: the default of `limit` (0) breaks its own schema: 0 is less than the minimum of 1. Fix the default or the schema."
    );
}
