//! The generator's newer checks (naming, include, defaults, unused inputs, response paths,
//! envelope, mutation wording, tool-list budget), each with the exact message a spec author
//! reads and a position that points at the key to edit. DEMO is the same valid manifest the
//! `errors` tests start from.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use nexus_mcp_codegen::{ManifestError, parse};
use std::path::Path;

const DEMO: &str = include_str!("demo.yaml");
const FILE: &str = "manifest/demo.yaml";

fn edit(source: &str, from: &str, to: &str) -> String {
    common::edit_in(source, from, to)
}

fn errors(source: &str) -> Vec<ManifestError> {
    common::errors_in(FILE, source)
}

fn only_error(source: &str, expected_at: &str) -> String {
    common::only_error_in(FILE, source, expected_at)
}

/// DEMO with a `Selector` object type whose `repository` kg_get_thing includes instead of
/// declaring it.
fn with_selector(include: &str) -> String {
    let source = edit(
        DEMO,
        "types:\n",
        "types:\n  Selector:\n    type: object\n    properties:\n      repository: {$ref: \"#/types/Repository\"}\n",
    );
    edit(
        &source,
        "        repository: {$ref: \"#/types/Repository\"}\n        depth",
        "        depth",
    )
    .replacen(
        "      required: [thing_id]\n",
        &format!("      required: [thing_id]\n{include}"),
        1,
    )
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
        "        depth: {type: integer, maximum: 5}\n",
        "        depth: {type: integer, maximum: 5}\n        HTTPPort: {type: integer}\n",
    );
    let source = edit(
        &source,
        "        depth: \"{{ input.depth | default(2) }}\"\n",
        "        depth: \"{{ input.depth | default(2) }}\"\n        port: \"{{ input.HTTPPort }}\"\n",
    );
    let rust = generated(&source);
    assert!(rust.contains("#[serde(rename = \"HTTPPort\")]"), "{rust}");
    assert!(rust.contains("pub http_port: Option<i64>"), "{rust}");
    assert!(rust.contains("pub struct KgGetThingInput"), "{rust}");
}

#[test]
fn declared_defaults_become_serde_defaults() {
    let source = edit(
        DEMO,
        "        depth: {type: integer, maximum: 5}\n",
        "        depth: {type: integer, maximum: 5, default: 2}\n        ratio: {type: number, default: 1}\n",
    );
    let source = edit(
        &source,
        "        depth: \"{{ input.depth | default(2) }}\"\n",
        "        depth: \"{{ input.depth }}\"\n        ratio: \"{{ input.ratio }}\"\n",
    );
    let flat: String = generated(&source)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        flat.contains("#[serde(default = \"default_kggetthinginput_depth\")] pub depth: i64,"),
        "{flat}"
    );
    assert!(
        flat.contains("fn default_kggetthinginput_depth() -> i64 { 2i64 }"),
        "{flat}"
    );
    assert!(
        flat.contains("fn default_kggetthinginput_ratio() -> f64 { 1f64 }"),
        "{flat}"
    );
}

#[test]
fn two_properties_with_one_rust_name() {
    let source = edit(
        DEMO,
        "        thing_id: {type: string}\n",
        "        thing_id: {type: string}\n        thingId: {type: string}\n",
    );
    assert_eq!(
        only_error(&source, "thingId:"),
        "manifest/demo.yaml:32:9: tool `kg_get_thing`: properties `thing_id` and `thingId` both \
         become the Rust field `thing_id`. Rename one of them (JSON names that differ only in \
         case or separators are confusing for clients too)."
    );
}

#[test]
fn included_properties_are_spliced_into_the_input() {
    let source = with_selector("      include: [Selector]\n");
    let manifest = parse(Path::new(FILE), &source).expect("valid");
    let props: Vec<&str> = nexus_mcp_codegen::schema::properties(&manifest.tools[0].input)
        .into_iter()
        .map(|(p, _)| p)
        .collect();
    assert_eq!(props, ["repository", "thing_id", "depth"]);
    assert!(manifest.tools[0].input.get("include").is_none());
    let rust = generated(&source);
    assert!(
        rust.contains("pub repository: Option<Repository>"),
        "{rust}"
    );
}

#[test]
fn included_output_shape_is_one_shared_type() {
    let source = with_selector("      include: [Selector]\n");
    let source = edit(
        &source,
        "    output:\n      type: object\n      properties:\n        thing: {type: object}\n",
        "    output:\n      type: object\n      include: [Selector]\n      properties:\n        thing: {type: object}\n",
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
    let source = with_selector("      include: [Repository]\n");
    let shown: Vec<String> = errors(&source).iter().map(ToString::to_string).collect();
    assert_eq!(
        shown[0],
        "manifest/demo.yaml:34:17: tool `kg_get_thing`: `include: Repository` needs a shared \
         object type with `properties`. Use one of: Selector."
    );
}

#[test]
fn include_that_is_not_a_list() {
    let source = with_selector("      include: Selector\n");
    assert_eq!(
        errors(&source)[0].to_string(),
        "manifest/demo.yaml:34:7: tool `kg_get_thing`: `include` is a list of shared type names, \
         e.g. `include: [GraphSelector]`."
    );
}

#[test]
fn included_property_declared_again() {
    let source = with_selector("      include: [Selector]\n").replacen(
        "        depth: {type: integer",
        "        repository: {type: string}\n        depth: {type: integer",
        1,
    );
    assert_eq!(
        only_error(&source, "repository:"),
        "manifest/demo.yaml:37:9: tool `kg_get_thing`: property `repository` is also declared by \
         an included type (Selector). Remove one of them."
    );
}

#[test]
fn default_that_breaks_its_schema() {
    let source = edit(
        DEMO,
        "depth: {type: integer, maximum: 5}",
        "depth: {type: integer, maximum: 5, default: 9}",
    );
    assert_eq!(
        only_error(&source, "default: 9"),
        "manifest/demo.yaml:33:44: tool `kg_get_thing`: the default of `depth` (9) breaks its own \
         schema: 9 is greater than the maximum of 5. Fix the default or the schema."
    );
}

#[test]
fn input_that_no_mapping_sends() {
    let source = edit(
        DEMO,
        "        depth: \"{{ input.depth | default(2) }}\"\n",
        "",
    );
    assert_eq!(
        only_error(&source, "depth:"),
        "manifest/demo.yaml:33:9: tool `kg_get_thing`: input `depth` is never used: no nexus \
         path, query or body template, pagination cursor or mutation rule reads it, so a \
         client's value would be ignored. Send it (e.g. `query: {depth: \"{{ input.depth }}\"}`) \
         or remove the input."
    );
}

#[test]
fn pick_path_outside_the_output_schema() {
    let source = edit(
        DEMO,
        "  - name: kg_rebuild\n",
        "    response: {pick: [thing.id, things.id]}\n  - name: kg_rebuild\n",
    );
    assert_eq!(
        only_error(&source, "things.id"),
        "manifest/demo.yaml:45:33: tool `kg_get_thing`: pick path `things.id`: `things` is not in \
         the output schema (nearest existing: thing). Fix the path, or declare the field in \
         `output`."
    );
}

#[test]
fn exclude_path_checks_its_parent_only() {
    let ok = edit(
        DEMO,
        "  - name: kg_rebuild\n",
        "    response: {exclude: [thing.secret, status]}\n  - name: kg_rebuild\n",
    );
    parse(Path::new(FILE), &ok).expect("the excluded leaf itself need not be declared");
    let source = edit(
        DEMO,
        "  - name: kg_rebuild\n",
        "    response: {exclude: [thingz.secret]}\n  - name: kg_rebuild\n",
    );
    assert_eq!(
        only_error(&source, "thingz.secret"),
        "manifest/demo.yaml:45:26: tool `kg_get_thing`: exclude path `thingz.secret`: `thingz` is \
         not in the output schema (nearest existing: thing). Fix the path, or declare the field \
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
    let out =
        nexus_mcp_codegen::envelope::with_envelope(&manifest.tools[1].output, &manifest.envelope);
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
        "manifest/demo.yaml:21:3: envelope field `truncation`: `truncation` is added to every \
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
        "manifest/demo.yaml:21:3: envelope field `freshness`: an envelope field is `{description: \
         <text>, schema: <JSON Schema object>}` and nothing else."
    );
}

#[test]
fn envelope_field_declared_by_a_tool() {
    let source = edit(DEMO, "tools:\n", &ENVELOPE.replace("freshness", "status"));
    assert_eq!(
        only_error(&source, "status:"),
        "manifest/demo.yaml:62:9: tool `kg_rebuild`: output property `status` is the surface's \
         envelope field: the runtime adds it to every result. Remove it from the output."
    );
}

#[test]
fn confirmation_without_wording() {
    let source = edit(
        DEMO,
        "      dry_run: {param: dry_run, default: true}\n",
        "      dry_run: {param: dry_run, default: true}\n      require_true: [confirmed]\n      changes: rebuilds the graph\n",
    );
    assert_eq!(
        only_error(&source, "mutation:"),
        "manifest/demo.yaml:66:5: tool `kg_rebuild`: a tool with `require_true` needs \
         `mutation.approver` for the refusal message a client reads (e.g. `approver: a human or \
         the SR method`)."
    );
    let source = edit(
        DEMO,
        "      dry_run: {param: dry_run, default: true}\n",
        "      dry_run: {param: dry_run, default: true}\n      require_true: [confirmed]\n      approver: a human\n",
    );
    assert_eq!(
        only_error(&source, "mutation:"),
        "manifest/demo.yaml:66:5: tool `kg_rebuild`: a tool with `require_true` needs \
         `mutation.changes` for the refusal message a client reads (e.g. `changes: changes the \
         graph`)."
    );
    let source = edit(
        DEMO,
        "      dry_run: {param: dry_run, default: true}\n",
        "      dry_run: {param: dry_run, default: true}\n      require_true: [confirmed]\n      changes: rebuilds the graph\n      approver: a human\n",
    );
    let rust = generated(&source);
    assert!(rust.contains("changes: \"rebuilds the graph\""), "{rust}");
    assert!(rust.contains("approver: \"a human\""), "{rust}");
}

#[test]
fn tool_list_over_budget() {
    let source = edit(
        DEMO,
        "  result_budget: 8000\n",
        "  result_budget: 8000\n  tool_list_budget: 100\n",
    );
    let manifest_cost = {
        let ok = parse(Path::new(FILE), DEMO).expect("valid");
        nexus_mcp_codegen::budget::costs(&ok).1
    };
    assert_eq!(
        manifest_cost, 289,
        "kg_get_thing alone is listed by default"
    );
    assert_eq!(
        only_error(&source, "tool_list_budget:"),
        "manifest/demo.yaml:8:3: the tool list costs 289 bytes, over tool_list_budget 100 \
         (heaviest: kg_get_thing 289). Shorten descriptions, state constraints as \
         enum/format/pattern instead of prose, or raise the budget; `nexus-mcp tools --cost` \
         shows every tool."
    );
}
