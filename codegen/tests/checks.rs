//! The generator's newer checks (naming, include, defaults, unused inputs, response paths,
//! envelope, mutation wording, tool-list budget), each with the exact message a spec author
//! reads and a position that points at the key to edit. DEMO (tests/manifests/demo.yaml) is the
//! same valid manifest the `errors` tests start from.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use nexus_mcp_codegen::{ManifestError, parse};
use std::path::Path;

use common::{DEMO, FILE};

fn edit(source: &str, from: &str, to: &str) -> String {
    common::edit_in(source, from, to)
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

/// get_note_history's `limit`, the line after its `noteId`.
const HISTORY_LIMIT: &str = "        limit: {type: integer, minimum: 1, maximum: 50, default: 5}\n";

/// list_notes' `limit` and the query line that sends it.
const LIST_LIMIT: &str = "        limit: {type: integer, minimum: 1, maximum: 50, default: 20}\n";
const LIST_LIMIT_SENT: &str = "        limit: \"{{ input.limit | default(20) }}\"\n";

/// DEMO with a `Selector` object type whose `noteId` get_note_history includes instead of
/// declaring it.
fn with_selector(include: &str) -> String {
    let source = edit(
        DEMO,
        "types:\n",
        "types:\n  Selector:\n    type: object\n    properties:\n      noteId: {$ref: \"#/types/NoteId\"}\n",
    );
    edit(
        &source,
        &format!("        noteId: {{$ref: \"#/types/NoteId\"}}\n{HISTORY_LIMIT}"),
        HISTORY_LIMIT,
    )
    .replacen(
        &format!("{HISTORY_LIMIT}      required: [noteId]\n"),
        &format!("{HISTORY_LIMIT}      required: [noteId]\n{include}"),
        1,
    )
}

fn tool<'m>(
    manifest: &'m nexus_mcp_codegen::Manifest,
    name: &str,
) -> &'m nexus_mcp_codegen::model::Tool {
    manifest
        .tools
        .iter()
        .find(|t| t.name == name)
        .expect("the tool")
}

/// Generated Rust for `source`, which must be valid.
fn generated(source: &str) -> String {
    let manifest = parse(Path::new(FILE), source).expect("valid manifest");
    nexus_mcp_codegen::generate(&[nexus_mcp_codegen::LoadedManifest {
        path: FILE.into(),
        manifest,
    }])
    .expect("generates")
}

#[test]
fn camel_case_properties_become_snake_case_fields() {
    let source = edit(
        DEMO,
        HISTORY_LIMIT,
        &format!("{HISTORY_LIMIT}        HTTPPort: {{type: integer}}\n"),
    );
    let source = edit(
        &source,
        "query: {limit: \"{{ input.limit }}\"}",
        "query: {limit: \"{{ input.limit }}\", port: \"{{ input.HTTPPort }}\"}",
    );
    let rust = generated(&source);
    assert!(rust.contains("#[serde(rename = \"HTTPPort\")]"), "{rust}");
    assert!(rust.contains("pub http_port: Option<i64>"), "{rust}");
    assert!(rust.contains("pub struct GetNoteHistoryInput"), "{rust}");
    assert!(rust.contains("#[serde(rename = \"noteId\")]"), "{rust}");
}

#[test]
fn declared_defaults_become_serde_defaults() {
    let source = edit(
        DEMO,
        LIST_LIMIT,
        &format!("{LIST_LIMIT}        ratio: {{type: number, default: 1}}\n"),
    );
    let source = edit(
        &source,
        LIST_LIMIT_SENT,
        &format!("{LIST_LIMIT_SENT}        ratio: \"{{{{ input.ratio }}}}\"\n"),
    );
    let flat: String = generated(&source)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        flat.contains("#[serde(default = \"default_listnotesinput_limit\")] pub limit: i64,"),
        "{flat}"
    );
    assert!(
        flat.contains("fn default_listnotesinput_limit() -> i64 { 20i64 }"),
        "{flat}"
    );
    assert!(
        flat.contains("fn default_listnotesinput_ratio() -> f64 { 1f64 }"),
        "{flat}"
    );
}

#[test]
fn two_properties_with_one_rust_name() {
    let source = edit(
        DEMO,
        "        noteId: {$ref: \"#/types/NoteId\"}\n      required: [noteId]\n",
        "        noteId: {$ref: \"#/types/NoteId\"}\n        note_id: {type: string}\n      required: [noteId]\n",
    );
    assert_eq!(
        only_error(&source, "note_id:"),
        "tests/manifests/demo.yaml:49:9: tool `get_note`: properties `noteId` and `note_id` both \
         become the Rust field `note_id`. Rename one of them (JSON names that differ only in \
         case or separators are confusing for clients too)."
    );
}

#[test]
fn included_properties_are_spliced_into_the_input() {
    let source = with_selector("      include: [Selector]\n");
    let manifest = parse(Path::new(FILE), &source).expect("valid");
    let history = tool(&manifest, "get_note_history");
    let props: Vec<&str> = nexus_mcp_codegen::schema::properties(&history.input)
        .into_iter()
        .map(|(p, _)| p)
        .collect();
    assert_eq!(props, ["noteId", "limit"]);
    assert!(history.input.get("include").is_none());
    let rust = generated(&source);
    assert!(rust.contains("pub note_id: NoteId"), "{rust}");
}

#[test]
fn included_output_shape_is_one_shared_type() {
    let source = with_selector("      include: [Selector]\n");
    let source = edit(
        &source,
        "    output:\n      type: object\n      properties:\n        edits:",
        "    output:\n      type: object\n      include: [Selector]\n      properties:\n        edits:",
    );
    let rust = generated(&source);
    let flat: String = rust.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("#[serde(flatten)] pub selector: Selector, }"),
        "{rust}"
    );
}

#[test]
fn include_of_a_type_without_properties() {
    let source = with_selector("      include: [NoteId]\n");
    let errors = errors(&source);
    assert_eq!(
        at(&source, &errors[0], "NoteId]"),
        "tests/manifests/demo.yaml:78:17: tool `get_note_history`: `include: NoteId` needs a \
         shared object type with `properties`. Use one of: Selector."
    );
}

#[test]
fn include_that_is_not_a_list() {
    let source = with_selector("      include: Selector\n");
    assert_eq!(
        at(&source, &errors(&source)[0], "include: Selector"),
        "tests/manifests/demo.yaml:78:7: tool `get_note_history`: `include` is a list of shared type names, \
         e.g. `include: [GraphSelector]`."
    );
}

#[test]
fn included_property_declared_again() {
    let source = with_selector("      include: [Selector]\n").replacen(
        HISTORY_LIMIT,
        &format!("        noteId: {{type: string}}\n{HISTORY_LIMIT}"),
        1,
    );
    assert_eq!(
        only_error(&source, "noteId:"),
        "tests/manifests/demo.yaml:76:9: tool `get_note_history`: property `noteId` is also \
         declared by an included type (Selector). Remove one of them."
    );
}

#[test]
fn default_that_breaks_its_schema() {
    let source = edit(
        DEMO,
        LIST_LIMIT,
        &LIST_LIMIT.replace("default: 20", "default: 90"),
    );
    assert_eq!(
        only_error(&source, "default: 90"),
        "tests/manifests/demo.yaml:97:57: tool `list_notes`: the default of `limit` (90) breaks its \
         own schema: 90 is greater than the maximum of 50. Fix the default or the schema."
    );
}

#[test]
fn input_that_no_mapping_sends() {
    let source = edit(DEMO, "        tags: \"{{ input.tags }}\"\n", "");
    assert_eq!(
        only_error(&source, "tags:"),
        "tests/manifests/demo.yaml:95:9: tool `list_notes`: input `tags` is never used: no nexus \
         path, query or body template, pagination cursor or mutation rule reads it, so a \
         client's value would be ignored. Send it (e.g. `query: {tags: \"{{ input.tags }}\"}`) \
         or remove the input."
    );
}

#[test]
fn pick_path_outside_the_output_schema() {
    let source = edit(
        DEMO,
        "    errors:\n",
        "    response: {pick: [graph.id, graphs.id]}\n    errors:\n",
    );
    assert_eq!(
        only_error(&source, "graphs.id"),
        "tests/manifests/demo.yaml:59:33: tool `get_note`: pick path `graphs.id`: `graphs` is not in \
         the output schema (nearest existing: graph, body, id). Fix the path, or declare the field in \
         `output`."
    );
}

#[test]
fn exclude_path_checks_its_parent_only() {
    let ok = edit(
        DEMO,
        "    errors:\n",
        "    response: {exclude: [graph.secret, body]}\n    errors:\n",
    );
    parse(Path::new(FILE), &ok).expect("the excluded leaf itself need not be declared");
    let source = edit(
        DEMO,
        "    errors:\n",
        "    response: {exclude: [graphz.secret]}\n    errors:\n",
    );
    assert_eq!(
        only_error(&source, "graphz.secret"),
        "tests/manifests/demo.yaml:59:26: tool `get_note`: exclude path `graphz.secret`: `graphz` is \
         not in the output schema (nearest existing: graph, body, id). Fix the path, or declare the field \
         in `output`."
    );
}

const ENVELOPE: &str = "envelope:\n  freshness: {description: How old the data is., schema: {type: object, properties: {age: {type: [integer, \"null\"]}}}}\ntools:\n";

#[test]
fn envelope_fields_are_added_to_every_output() {
    let source = edit(DEMO, "tools:\n", ENVELOPE);
    let manifest = parse(Path::new(FILE), &source).expect("valid");
    let fields: Vec<&str> = nexus_mcp_codegen::envelope::fields(&manifest.envelope)
        .into_iter()
        .map(|(n, _, _)| n)
        .collect();
    assert_eq!(fields, ["freshness"]);
    let rust = generated(&source);
    assert!(rust.contains("envelope: &[\"freshness\"]"), "{rust}");
    let out = nexus_mcp_codegen::envelope::with_envelope(&manifest.tools[1], &manifest.envelope);
    assert_eq!(
        out["properties"]["freshness"]["description"],
        "How old the data is."
    );
    assert!(out["properties"]["truncation"].is_object());
}

#[test]
fn envelope_field_named_truncation() {
    let source = edit(
        DEMO,
        "tools:\n",
        &ENVELOPE.replace("freshness", "truncation"),
    );
    assert_eq!(
        only_error(&source, "truncation:"),
        "tests/manifests/demo.yaml:39:3: envelope field `truncation`: `truncation` is added to every \
         result by the runtime. Pick another name."
    );
}

#[test]
fn envelope_field_without_description() {
    let source = edit(
        DEMO,
        "tools:\n",
        "envelope:\n  freshness: {schema: {type: object}}\ntools:\n",
    );
    assert_eq!(
        only_error(&source, "freshness:"),
        "tests/manifests/demo.yaml:39:3: envelope field `freshness`: an envelope field is `{description: \
         <text>, schema: <JSON Schema object>}` and nothing else."
    );
}

#[test]
fn envelope_field_declared_by_a_tool() {
    let source = edit(DEMO, "tools:\n", &ENVELOPE.replace("freshness", "exported"));
    assert_eq!(
        only_error(&source, "exported:"),
        "tests/manifests/demo.yaml:175:9: tool `export_notes`: output property `exported` is the surface's \
         envelope field: the runtime adds it to every result. Remove it from the output."
    );
}

/// archive_note asks for a confirmation and words the refusal with `changes` and `approver`;
/// without either a client's refusal message would have a hole.
#[test]
fn confirmation_without_wording() {
    let source = edit(DEMO, "      approver: the note's owner\n", "");
    assert_eq!(
        only_error(&source, "mutation:"),
        "tests/manifests/demo.yaml:206:5: tool `archive_note`: a tool with `require_true` needs \
         `mutation.approver` for the refusal message a client reads (e.g. `approver: a human or \
         the SR method`)."
    );
    let source = edit(DEMO, "      changes: archives the note\n", "");
    assert_eq!(
        only_error(&source, "mutation:"),
        "tests/manifests/demo.yaml:206:5: tool `archive_note`: a tool with `require_true` needs \
         `mutation.changes` for the refusal message a client reads (e.g. `changes: changes the \
         graph`)."
    );
    let rust = generated(DEMO);
    assert!(rust.contains("changes: \"archives the note\""), "{rust}");
    assert!(rust.contains("approver: \"the note's owner\""), "{rust}");
}

#[test]
fn tool_list_over_budget() {
    let source = edit(
        DEMO,
        "  tool_list_budget: 3000\n",
        "  tool_list_budget: 100\n",
    );
    let manifest_cost = {
        let ok = parse(Path::new(FILE), DEMO).expect("valid");
        nexus_mcp_codegen::budget::costs(&ok).1
    };
    assert_eq!(
        manifest_cost, 2355,
        "get_note, list_notes, compare_note_with_local and the two meta-tools are listed by \
         default"
    );
    assert_eq!(
        only_error(&source, "tool_list_budget:"),
        "tests/manifests/demo.yaml:17:3: the tool list costs 2355 bytes, over tool_list_budget 100 \
         (heaviest: use_capability 636, list_notes 547, list_capabilities \
         520). Shorten descriptions, state constraints as \
         enum/format/pattern instead of prose, or raise the budget; `nexus-mcp tools --cost` \
         shows every tool."
    );
}
