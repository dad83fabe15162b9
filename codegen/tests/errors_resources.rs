//! Manifest mistakes in resources, resource templates, fetching prompts and content blocks: the
//! exact message, and the key it points at (each test checks what the source says there).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use nexus_mcp_codegen::parse;
use std::path::Path;

use common::{DEMO, FILE};

/// summarise_note's messages, one user text around get_note's answer.
const SUMMARISE_MESSAGES: &str = "    messages:\n      - role: user\n        content: {type: text, text: \"Summarise the note \\\"{{ result.title }}\\\" in two sentences:\\n\\n{{ result.body }}\"}\n";

/// The static resource notes://guide's text.
const GUIDE_TEMPLATE: &str = "    template: \"# {{ server.title }}\\n\\nlist_notes, then get_note; history and archiving are capabilities.\"\n";

fn edit(from: &str, to: &str) -> String {
    common::edit_in(DEMO, from, to)
}

/// The single error of `source`, without its `FILE:LINE:COL: ` prefix (the position is checked
/// to point at `expected_at`).
fn only_error(source: &str, expected_at: &str) -> String {
    let shown = common::only_error_in(FILE, source, expected_at);
    let (position, message) = shown.split_once(": ").expect("positioned");
    assert!(position.starts_with(FILE), "{shown}");
    message.to_owned()
}

/// DEMO passes every check: compare_note_with_local has content blocks, archive_note is a write
/// tool taking a noteId, notes://note/{id} is a resource template read from the backend with a
/// completed variable, notes://guide a static resource and summarise_note a prompt that calls a
/// tool and declares `messages:`.
#[test]
fn demo_is_valid() {
    let m = parse(Path::new(FILE), DEMO).unwrap_or_else(|e| panic!("{e:#?}"));
    assert_eq!((m.resources.len(), m.prompts.len()), (2, 2));
}

#[test]
fn content_block_missing_a_field() {
    let source = edit(", mime_type: image/png}", "}");
    assert_eq!(
        only_error(&source, "{type: image"),
        "tool `compare_note_with_local`: a `image` block needs `mime_type`."
    );
}

#[test]
fn content_block_with_a_foreign_field() {
    let source = edit(
        "{type: image, data: \"{{ result.diff_png }}\"",
        "{type: image, uri: x, data: \"{{ result.diff_png }}\"",
    );
    assert_eq!(
        only_error(&source, "uri: x"),
        "tool `compare_note_with_local`: `uri` has no place in a `image` block; it takes: data, mime_type."
    );
}

#[test]
fn embedded_resource_with_text_and_data() {
    let source = edit(
        "{type: image, data: \"{{ result.diff_png }}\", mime_type: image/png}",
        "{type: resource, uri: \"a://b\", text: t, data: d, mime_type: text/plain}",
    );
    assert_eq!(
        only_error(&source, "data: d"),
        "tool `compare_note_with_local`: an embedded resource has `text` or `data` (base64), not both. Keep one."
    );
}

#[test]
fn embedded_resource_without_text_or_data() {
    let source = edit(
        "{type: image, data: \"{{ result.diff_png }}\", mime_type: image/png}",
        "{type: resource, uri: \"a://b\", mime_type: text/plain}",
    );
    assert_eq!(
        only_error(&source, "{type: resource"),
        "tool `compare_note_with_local`: an embedded resource needs `text` or `data` (base64)."
    );
}

#[test]
fn content_template_that_does_not_parse() {
    let source = edit("\"{{ result.diff_png }}\"", "\"{{ result.diff_png \"");
    let message = only_error(&source, "data: \"{{ result.diff_png \"");
    assert!(
        message.starts_with("tool `compare_note_with_local`: template does not parse: "),
        "{message}"
    );
}

#[test]
fn content_template_reading_an_unknown_variable() {
    let source = edit("({{ input.local_path }})", "({{ input.path }})");
    assert_eq!(
        only_error(&source, "text: \"Same: {{ result.same }}"),
        "tool `compare_note_with_local`: template uses `input.path`, which is not defined here: tool content can read `result` (the trimmed answer) and `input.<input field>`."
    );
}

#[test]
fn prompt_with_neither_template_nor_messages() {
    let source = edit(SUMMARISE_MESSAGES, "");
    assert_eq!(
        only_error(&source, "name: summarise_note"),
        "prompt `summarise_note`: a prompt needs `template:` (one user text message) or `messages:` (messages with content types)."
    );
}

#[test]
fn prompt_with_template_and_messages() {
    let source = edit("    messages:\n", "    template: Hi.\n    messages:\n");
    assert_eq!(
        only_error(&source, "messages:"),
        "prompt `summarise_note`: a prompt has `template:` or `messages:`, not both. Keep one."
    );
}

#[test]
fn prompt_reading_result_without_a_call() {
    let source = edit(
        "    call:\n      tool: get_note\n      arguments: {noteId: \"{{ args.noteId }}\"}\n",
        "",
    );
    let errors = common::errors_in(FILE, &source);
    let shown: Vec<String> = errors
        .iter()
        .map(|e| common::points_at(&source, e, "text: \"Summarise"))
        .collect();
    assert_eq!(
        shown,
        [
            "tests/manifests/demo.yaml:235:31: prompt `summarise_note`: template uses `result.body`, which is not defined here: prompt messages can read `args.<declared argument>`, `server.<key>` and, with `call:`, `result`.",
            "tests/manifests/demo.yaml:235:31: prompt `summarise_note`: template uses `result.title`, which is not defined here: prompt messages can read `args.<declared argument>`, `server.<key>` and, with `call:`, `result`.",
        ]
    );
}

#[test]
fn prompt_calling_an_unknown_tool() {
    let source = edit("      tool: get_note\n", "      tool: get_notes\n");
    assert_eq!(
        only_error(&source, "tool: get_notes"),
        "prompt `summarise_note`: the prompt calls tool `get_notes`, which this manifest does not declare. Declared tools: get_note, get_note_history, list_notes, compare_note_with_local, export_notes, archive_note."
    );
}

#[test]
fn prompt_calling_a_write_tool() {
    let source = edit("      tool: get_note\n", "      tool: archive_note\n");
    assert_eq!(
        only_error(&source, "tool: archive_note"),
        "prompt `summarise_note`: a prompt may only call a read tool: `archive_note` is `access: write`, and prompts/get runs with no confirmation."
    );
}

#[test]
fn prompt_call_argument_that_is_not_an_input() {
    let source = edit(
        "{noteId: \"{{ args.noteId }}\"}",
        "{note: \"{{ args.noteId }}\"}",
    );
    assert_eq!(
        only_error(&source, "note: "),
        "prompt `summarise_note`: `note` is not an input of tool `get_note`; its inputs are: noteId."
    );
}

#[test]
fn prompt_call_argument_reading_an_undeclared_argument() {
    let source = edit(
        "{noteId: \"{{ args.noteId }}\"}",
        "{noteId: \"{{ args.id }}\"}",
    );
    assert_eq!(
        only_error(&source, "noteId: \"{{ args.id }}"),
        "prompt `summarise_note`: template uses `args.id`; call arguments can read `args.<declared argument>` only."
    );
}

#[test]
fn resource_uri_template_beyond_level_2() {
    let source = edit("notes://note/{id}", "notes://note{?id}");
    assert_eq!(
        only_error(&source, "uri: notes://note{?id}"),
        "resource `notes://note{?id}`: not a URI template this server serves: `{?id}` is not supported: only RFC 6570 level 1-2 expressions are (`{var}`, `{+var}`, `{#var}`)."
    );
}

#[test]
fn resource_with_neither_template_nor_nexus() {
    let source = edit(GUIDE_TEMPLATE, "");
    assert_eq!(
        only_error(&source, "uri: notes://guide"),
        "resource `notes://guide`: a resource needs `template:` (its text) or `nexus:` (a backend read)."
    );
}

#[test]
fn resource_picking_text_without_nexus() {
    let source = edit(
        GUIDE_TEMPLATE,
        &format!("{GUIDE_TEMPLATE}    text: guide.text\n"),
    );
    assert_eq!(
        only_error(&source, "text: guide.text"),
        "resource `notes://guide`: `text` and `blob` pick the content from the backend answer: they need `nexus:`."
    );
}

#[test]
fn resource_read_with_post() {
    let source = edit(
        "{method: GET, path: \"/notes/{id}\"}",
        "{method: POST, path: \"/notes/{id}\"}",
    );
    assert_eq!(
        only_error(&source, "method: POST"),
        "resource `notes://note/{id}`: a resource is read with GET: reading must never change anything. Set `method: GET`."
    );
}

#[test]
fn resource_path_parameter_that_is_not_a_uri_variable() {
    let source = edit("path: \"/notes/{id}\"", "path: \"/notes/{node}\"");
    assert_eq!(
        only_error(&source, "path: \"/notes/{node}\""),
        "resource `notes://note/{id}`: path parameter `{node}` is not a variable of the resource's URI template. Add `node` to the `uri` (as `{name}`) or remove it from the path."
    );
}

#[test]
fn resource_with_text_and_blob() {
    let source = edit("    text: body\n", "    text: body\n    blob: cover_png\n");
    assert_eq!(
        only_error(&source, "blob: cover_png"),
        "resource `notes://note/{id}`: a resource takes its content from `text` or `blob`, not both. Keep one."
    );
}

#[test]
fn resource_with_text_and_template() {
    let source = edit(
        "    text: body\n",
        "    text: body\n    template: \"{{ result }}\"\n",
    );
    assert_eq!(
        only_error(&source, "template: \"{{ result }}\""),
        "resource `notes://note/{id}`: `template` renders the answer itself; with `text:` or `blob:` leave it out."
    );
}

#[test]
fn resource_with_an_unknown_scope() {
    let source = edit(
        "    scope: notes:read\n    nexus:",
        "    scope: notes:reed\n    nexus:",
    );
    assert_eq!(
        only_error(&source, "scope: notes:reed"),
        "resource `notes://note/{id}`: unknown scope `notes:reed`. Declare it under `scopes:` or use one of: notes:read, notes:local, notes:export."
    );
}

#[test]
fn resource_completing_an_unknown_variable() {
    let source = edit(
        "      id: {values: [welcome, roadmap]}",
        "      node: {values: [welcome, roadmap]}",
    );
    assert_eq!(
        only_error(&source, "node: {values"),
        "resource `notes://note/{id}`: `node` is not a variable of this URI template; its variables are: id."
    );
}

#[test]
fn resource_completion_with_neither_values_nor_nexus() {
    let source = edit(
        "      id: {values: [welcome, roadmap]}",
        "      id: {values: []}",
    );
    assert_eq!(
        only_error(&source, "id: {values: []}"),
        "resource `notes://note/{id}`: a completion needs `values: [...]` (a fixed list) or `nexus:` with `pick:` and `scope:` (values read from Nexus)."
    );
}

#[test]
fn schema_ref_to_an_undeclared_local_def() {
    let source = edit(
        "local_path: {type: string, minLength: 1, maxLength: 4096}",
        "local_path: {$ref: \"#/$defs/path\"}",
    );
    assert_eq!(
        only_error(&source, "$ref: \"#/$defs/path\""),
        "tool `compare_note_with_local`: `$ref: #/$defs/path` is not supported: reference shared types as `#/types/<Name>`, or this schema's own `$defs` as `#/$defs/<name>`."
    );
}

/// Only a resource read from the backend can change, so only it can be subscribed.
#[test]
fn a_static_resource_cannot_be_subscribed() {
    let source = edit(
        GUIDE_TEMPLATE,
        &format!("{GUIDE_TEMPLATE}    subscribe: {{poll_seconds: 5}}\n"),
    );
    assert_eq!(
        only_error(&source, "subscribe:"),
        "resource `notes://guide`: only a resource read from the backend (`nexus:`) can change; remove `subscribe:` from this static one."
    );
}
