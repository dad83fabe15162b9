//! Every manifest mistake the build rejects, with the exact message a spec author reads:
//! `FILE:LINE:COL: tool `x`: what is wrong. How to fix.` The position must point at the key to
//! edit, so each test also checks what the source says at that line and column.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use nexus_mcp_codegen::{LoadedManifest, ManifestError, generate, parse};
use std::path::{Path, PathBuf};

use common::{DEMO, FILE};

/// `DEMO` with `from` (which must occur exactly once) replaced by `to`.
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

/// Where get_note declares its scope and access (the words occur in other tools too).
const GET_NOTE_SCOPE: &str = "description: One note by id, with its title and body.\n    scope: notes:read\n    access: read\n";

/// export_notes' scope and access, the last ones followed directly by `handler` and `input`.
const EXPORT_ACCESS: &str =
    "    scope: notes:export\n    access: write\n    handler: mapped\n    input:\n";

/// export_notes' dry-run switch.
const EXPORT_MUTATION: &str = "    mutation:\n      dry_run: {param: dry_run, default: true}\n      changes: writes the team's archive\n";

/// archive_note's mutation rules: a dry-run switch plus a confirmation.
const ARCHIVE_MUTATION: &str = "    mutation:\n      dry_run: {param: dry_run, default: true}\n      require_true: [confirmed]\n      changes: archives the note\n      approver: the note's owner\n      follow_up: get_note_history\n";

#[test]
fn demo_manifest_is_valid() {
    let manifest = parse(Path::new(FILE), DEMO).expect("DEMO parses");
    assert_eq!(manifest.tools.len(), 6);
}

#[test]
fn real_manifest_is_valid() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../manifest/nexus-code-kg.yaml");
    let source = std::fs::read_to_string(&path).expect("read the real manifest");
    if let Err(errors) = parse(Path::new("manifest/nexus-code-kg.yaml"), &source) {
        let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
        panic!(
            "manifest/nexus-code-kg.yaml has errors:\n{}",
            lines.join("\n")
        );
    }
}

#[test]
fn unknown_key() {
    let source = edit("    title: Get a note\n", "    titel: Get a note\n");
    assert_eq!(
        only_error(&source, "titel:"),
        "tests/manifests/demo.yaml:40:5: tool `get_note`: unknown field `titel`, expected one of \
         `name`, `title`, `description`, `scope`, `access`, `modes`, `handler`, `input`, \
         `output`, `nexus`, `response`, `pagination`, `mutation`, `content`, `listed`, `errors`, `ask`, `choose`. See manifest/README.md for \
         the keys a manifest accepts."
    );
}

#[test]
fn unknown_key_nested() {
    let source = edit(
        "      method: POST\n      path: /notes/export\n",
        "      method: POST\n      headers: {}\n      path: /notes/export\n",
    );
    assert_eq!(
        only_error(&source, "headers:"),
        "tests/manifests/demo.yaml:177:7: tool `export_notes`: nexus: unknown field `headers`, expected one \
         of `method`, `path`, `query`, `body`. See manifest/README.md for the keys a manifest \
         accepts."
    );
}

#[test]
fn unknown_key_top_level() {
    let source = edit("types:\n", "prompt: []\ntypes:\n");
    assert_eq!(
        only_error(&source, "prompt:"),
        "tests/manifests/demo.yaml:31:1: unknown field `prompt`, expected one of `surface`, `server`, \
         `scopes`, `types`, `tools`, `prompts`, `resources`, `envelope`, `capabilities`. See manifest/README.md \
         for the keys a manifest accepts."
    );
}

#[test]
fn duplicate_tool_name() {
    let source = edit("  - name: export_notes\n", "  - name: get_note\n");
    let errors = errors(&source);
    // The copy is also a write tool named like a read tool; only the name matters here.
    let e = errors
        .iter()
        .find(|e| e.message.starts_with("duplicate"))
        .expect("a duplicate-name error");
    assert_eq!(
        at(&source, e, "name: get_note"),
        "tests/manifests/demo.yaml:157:5: tool `get_note`: duplicate tool name. Tool names must be \
         unique within a surface: rename or remove one of them."
    );
    assert_eq!(errors.len(), 1, "{errors:#?}");
}

#[test]
fn tool_name_not_snake_case() {
    let source = edit("  - name: list_notes\n", "  - name: KG-Get-Thing\n");
    assert_eq!(
        only_error(&source, "name: KG-Get-Thing"),
        "tests/manifests/demo.yaml:84:5: tool `KG-Get-Thing`: tool names must match \
         ^[a-z][a-z0-9_]{0,63}$ (lower snake case, at most 64 characters), e.g. kg_file_context."
    );
}

#[test]
fn tool_name_too_long() {
    let long = format!("kg_{}", "x".repeat(62));
    assert_eq!(long.len(), 65);
    let source = edit("  - name: list_notes\n", &format!("  - name: {long}\n"));
    assert_eq!(
        only_error(&source, "name: kg_xxx"),
        format!(
            "tests/manifests/demo.yaml:84:5: tool `{long}`: tool names must match \
             ^[a-z][a-z0-9_]{{0,63}}$ (lower snake case, at most 64 characters), e.g. \
             kg_file_context."
        )
    );
    // 64 characters is the limit, not over it.
    let ok = format!("kg_{}", "x".repeat(61));
    parse(
        Path::new(FILE),
        &edit("  - name: list_notes\n", &format!("  - name: {ok}\n")),
    )
    .expect("a 64-character name is valid");
}

#[test]
fn template_uses_missing_input_field() {
    let source = edit(
        "limit: \"{{ input.limit | default(20) }}\"",
        "limit: \"{{ input.limt | default(20) }}\"",
    );
    assert_eq!(
        only_error(&source, "limit: \"{{ input.limt"),
        "tests/manifests/demo.yaml:122:9: tool `list_notes`: template uses `input.limt`, which is not \
         an input field. Add `limt` to the input properties or fix the name."
    );
}

#[test]
fn path_parameter_not_required() {
    let source = edit(
        "        noteId: {$ref: \"#/types/NoteId\"}\n      required: [noteId]\n",
        "        noteId: {$ref: \"#/types/NoteId\"}\n",
    );
    assert_eq!(
        only_error(&source, "path: \"/notes/{noteId}\""),
        "tests/manifests/demo.yaml:57:26: tool `get_note`: path parameter `{noteId}` has no value \
         when the input omits it. Add `noteId` to the input's `required` list."
    );
}

#[test]
fn path_parameter_not_an_input() {
    let source = edit("\"/notes/{noteId}\"", "\"/notes/{note}\"");
    assert_eq!(
        only_error(&source, "path: \"/notes/{note}\""),
        "tests/manifests/demo.yaml:58:26: tool `get_note`: path parameter `{note}` is not an input \
         field. Add `note` to the input properties or remove it from the path."
    );
}

#[test]
fn unknown_scope() {
    let source = edit(
        GET_NOTE_SCOPE,
        &GET_NOTE_SCOPE.replace("notes:read", "notes:reed"),
    );
    assert_eq!(
        only_error(&source, "scope: notes:reed"),
        "tests/manifests/demo.yaml:42:5: tool `get_note`: unknown scope `notes:reed`. Declare it \
         under `scopes:` or use one of: notes:read, notes:local, notes:export."
    );
}

#[test]
fn unknown_type() {
    let source = edit(
        "        noteId: {$ref: \"#/types/NoteId\"}\n        local_path",
        "        noteId: {$ref: \"#/types/Note\"}\n        local_path",
    );
    assert_eq!(
        only_error(&source, "$ref: \"#/types/Note\""),
        "tests/manifests/demo.yaml:141:18: tool `compare_note_with_local`: unknown type `Note` in \
         `$ref: #/types/Note`. Declare it under `types:` or use one of: NoteId."
    );
}

#[test]
fn unknown_access() {
    let source = edit(
        GET_NOTE_SCOPE,
        &GET_NOTE_SCOPE.replace("access: read", "access: readonly"),
    );
    assert_eq!(
        only_error(&source, "readonly"),
        "tests/manifests/demo.yaml:43:13: tool `get_note`: access: unknown variant `readonly`, expected one \
         of `read`, `append`, `write`, `destructive`. See manifest/README.md for the keys a manifest \
         accepts."
    );
}

#[test]
fn invalid_json_schema() {
    let source = edit(
        "limit: {type: integer, minimum: 1, maximum: 50, default: 20}",
        "limit: {type: integr, minimum: 1, maximum: 50, default: 20}",
    );
    assert_eq!(
        only_error(&source, "type: integr"),
        "tests/manifests/demo.yaml:97:17: tool `list_notes`: not a valid JSON Schema 2020-12: \
         \"integr\" is not valid under any of the schemas listed in the 'anyOf' keyword (at \
         /properties/limit/type)."
    );
}

#[test]
fn missing_key() {
    let source = edit("    title: Get a note\n", "");
    assert_eq!(
        only_error(&source, "name: get_note"),
        "tests/manifests/demo.yaml:39:5: tool `get_note`: missing field `title`. See \
         manifest/README.md for the keys a manifest accepts."
    );
}

#[test]
fn invalid_shared_type_is_reported_once_at_the_type() {
    // Four tools embed the type; the mistake is still reported once, where it is.
    let source = edit(
        "  NoteId:\n    type: string\n",
        "  NoteId:\n    type: strng\n",
    );
    assert_eq!(
        only_error(&source, "type: strng"),
        "tests/manifests/demo.yaml:33:5: type `NoteId`: not a valid JSON Schema 2020-12: \
         \"strng\" is not valid under any of the schemas listed in the 'anyOf' keyword (at \
         /type)."
    );
}

#[test]
fn schema_declaring_another_draft_is_still_checked_as_2020_12() {
    // Draft 4's boolean exclusiveMaximum is not 2020-12, and clients read schemas as 2020-12.
    let source = edit(
        "    input:\n      type: object\n      properties:\n        folder: {type: string, pattern: \"^[a-z0-9-]+$\", maxLength: 40}\n        kind:",
        "    input:\n      $schema: \"http://json-schema.org/draft-04/schema#\"\n      type: object\n      properties:\n        folder: {type: string, pattern: \"^[a-z0-9-]+$\", maxLength: 40}\n        kind:",
    )
    .replace(
        "limit: {type: integer, minimum: 1, maximum: 50, default: 20}",
        "limit: {type: integer, minimum: 1, maximum: 50, default: 20, exclusiveMaximum: true}",
    );
    assert_eq!(
        only_error(&source, "exclusiveMaximum: true"),
        "tests/manifests/demo.yaml:98:70: tool `list_notes`: not a valid JSON Schema 2020-12: true \
         is not of type \"number\" (at /properties/limit/exclusiveMaximum)."
    );
}

#[test]
fn write_tool_without_mutation() {
    let source = edit(EXPORT_MUTATION, "");
    assert_eq!(
        only_error(&source, "access: write"),
        "tests/manifests/demo.yaml:161:5: tool `export_notes`: a write tool must declare `mutation:` with \
         a dry-run switch defaulting to true (`dry_run: {param: dry_run, default: true}`) or a \
         paired dry-run tool plus a confirmation parameter (`paired_dry_run_tool` and \
         `require_true`)."
    );
}

#[test]
fn destructive_tool_without_mutation() {
    let source = edit(
        EXPORT_ACCESS,
        &EXPORT_ACCESS.replace("access: write", "access: destructive"),
    )
    .replacen(EXPORT_MUTATION, "", 1);
    assert_eq!(
        only_error(&source, "access: destructive"),
        "tests/manifests/demo.yaml:161:5: tool `export_notes`: a destructive tool must declare \
         `mutation:` with a dry-run switch defaulting to true (`dry_run: {param: dry_run, \
         default: true}`) or a paired dry-run tool plus a confirmation parameter \
         (`paired_dry_run_tool` and `require_true`)."
    );
}

#[test]
fn dry_run_switch_defaulting_to_false() {
    let source = edit(
        "dry_run: {param: dry_run, default: true}\n      changes: writes",
        "dry_run: {param: dry_run, default: false}\n      changes: writes",
    );
    assert_eq!(
        only_error(&source, "dry_run: {param"),
        "tests/manifests/demo.yaml:180:7: tool `export_notes`: the dry-run switch must default to true: a \
         tool never mutates unless asked to. Set `default: true`."
    );
}

#[test]
fn dry_run_input_without_default_true() {
    let source = edit(
        "dry_run: {type: boolean, default: true}\n      required: [folder]",
        "dry_run: {type: boolean}\n      required: [folder]",
    );
    assert_eq!(
        only_error(&source, "dry_run: {param"),
        "tests/manifests/demo.yaml:180:7: tool `export_notes`: input `dry_run` must declare `default: \
         true` so clients see the safe default."
    );
}

/// A read planning tool `archive_note_plan` plus `archive_note` paired with it instead of a
/// switch.
fn paired(mutation: &str) -> String {
    let plan_tool = r#"  - name: archive_note_plan
    title: Plan archiving
    description: What archiving would do.
    scope: notes:export
    access: read
    handler: mapped
    input: {type: object, properties: {}}
    output: {type: object, properties: {}}
    nexus: {method: GET, path: /notes/archive/plan}
resources:
"#;
    edit(ARCHIVE_MUTATION, mutation).replacen("resources:\n", plan_tool, 1)
}

#[test]
fn paired_dry_run_tool_with_confirmation_is_valid() {
    let source = paired(
        "    mutation:\n      paired_dry_run_tool: archive_note_plan\n      require_true: [confirmed]\n      changes: archives the note\n      approver: the note's owner\n",
    );
    parse(Path::new(FILE), &source).expect("paired tool plus confirmation is valid");
}

#[test]
fn paired_dry_run_tool_without_confirmation() {
    let source = paired("    mutation:\n      paired_dry_run_tool: archive_note_plan\n");
    assert_eq!(
        only_error(&source, "mutation:"),
        "tests/manifests/demo.yaml:206:5: tool `archive_note`: a tool with a paired dry-run tool also \
         needs a confirmation parameter: list it in `require_true`."
    );
}

#[test]
fn mutation_with_neither_switch_nor_paired_tool() {
    let source = paired(
        "    mutation:\n      require_true: [confirmed]\n      changes: archives the note\n      approver: the note's owner\n",
    );
    assert_eq!(
        only_error(&source, "mutation:"),
        "tests/manifests/demo.yaml:206:5: tool `archive_note`: declare a dry-run switch defaulting to true \
         (`dry_run: {param: dry_run, default: true}`) or a paired dry-run tool \
         (`paired_dry_run_tool`) with a confirmation parameter in `require_true`."
    );
}

#[test]
fn every_problem_is_reported_at_once() {
    let source = edit(
        GET_NOTE_SCOPE,
        &GET_NOTE_SCOPE.replace("notes:read", "notes:reed"),
    )
    .replacen(EXPORT_MUTATION, "", 1);
    let errors = errors(&source);
    assert_eq!(errors.len(), 2, "{errors:#?}");
    let shown = [
        at(&source, &errors[0], "scope: notes:reed"),
        at(&source, &errors[1], "access: write"),
    ];
    assert!(
        shown[0].starts_with("tests/manifests/demo.yaml:42:5: tool `get_note`: unknown scope"),
        "{shown:#?}"
    );
    assert!(
        shown[1].starts_with("tests/manifests/demo.yaml:161:5: tool `export_notes`: a write tool"),
        "{shown:#?}"
    );
}

fn loaded() -> Vec<LoadedManifest> {
    vec![LoadedManifest {
        path: PathBuf::from(FILE),
        manifest: parse(Path::new(FILE), DEMO).expect("DEMO parses"),
    }]
}

#[test]
fn generated_code_is_stable_and_parses() {
    let first = generate(&loaded()).expect("generate");
    let second = generate(&loaded()).expect("generate again");
    assert_eq!(first, second, "generation must be deterministic");
    let file = syn::parse_file(&first).expect("generated code parses as Rust");
    assert!(!file.items.is_empty());
    // Warnings are denied where the generated code is compiled in a test
    // (tests/trybuild/pass/generated_snapshots.rs), not in the code itself.
    assert!(!first.contains("deny(warnings)"), "{first}");
    for needle in [
        "pub mod demo",
        "pub struct GetNoteInput",
        "pub struct ExportNotesOutput",
        "pub trait CustomHandlers",
        "pub static SURFACE",
        "pub static SURFACES",
    ] {
        assert!(first.contains(needle), "generated code lacks `{needle}`");
    }
}

#[test]
fn real_manifest_generates_stable_code() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../manifest/nexus-code-kg.yaml");
    let source = std::fs::read_to_string(&path).expect("read the real manifest");
    let shown = PathBuf::from("manifest/nexus-code-kg.yaml");
    let manifests = || {
        vec![LoadedManifest {
            path: shown.clone(),
            manifest: parse(&shown, &source).expect("real manifest parses"),
        }]
    };
    let first = generate(&manifests()).expect("generate");
    assert_eq!(first, generate(&manifests()).expect("generate again"));
    syn::parse_file(&first).expect("generated code parses as Rust");
    assert!(first.contains("fn kg_regenerate_submit("));
}

/// DEMO's `review_folder` prompt completes `folder` from Nexus (reading `owner`) and `kind` from
/// a fixed list.
#[test]
fn completions_from_nexus_and_from_a_list_are_valid() {
    let manifest = parse(Path::new(FILE), DEMO).expect("DEMO parses");
    let prompt = manifest
        .prompts
        .iter()
        .find(|p| p.name == "review_folder")
        .expect("review_folder");
    let completed: Vec<&str> = prompt
        .arguments
        .iter()
        .filter(|a| a.complete.is_some())
        .map(|a| a.name.as_str())
        .collect();
    assert_eq!(completed, ["folder", "kind"]);
}

#[test]
fn completion_with_neither_values_nor_nexus() {
    let source = edit(
        "          values: [idea, plan, minutes, decision]\n",
        "          values: []\n",
    );
    assert_eq!(
        only_error(&source, "complete:"),
        "tests/manifests/demo.yaml:258:9: prompt `review_folder`, argument `kind`: a completion needs `values: \
         [...]` (a fixed list) or `nexus:` with `pick:` and `scope:` (values read from Nexus)."
    );
}

#[test]
fn completion_from_nexus_without_pick() {
    let source = edit("          pick: items.*.name\n", "");
    assert_eq!(
        only_error(&source, "complete:"),
        "tests/manifests/demo.yaml:246:9: prompt `review_folder`, argument `folder`: a `nexus:` completion \
         needs `pick:`, the dotted path of the values in the answer, e.g. `items.*.name`."
    );
}

#[test]
fn completion_from_nexus_with_an_unknown_scope() {
    let source = edit(
        "          scope: notes:read\n",
        "          scope: notes:reed\n",
    );
    assert_eq!(
        only_error(&source, "scope: notes:reed"),
        "tests/manifests/demo.yaml:253:11: prompt `review_folder`, argument `folder`: unknown scope \
         `notes:reed`. Declare it under `scopes:` or use one of: notes:read, notes:local, \
         notes:export."
    );
}

#[test]
fn completion_that_posts() {
    let source = edit(
        "            method: GET\n            path: /folders\n",
        "            method: POST\n            path: /folders\n",
    );
    assert_eq!(
        only_error(&source, "method: POST"),
        "tests/manifests/demo.yaml:248:13: prompt `review_folder`, argument `folder`: completion values are \
         read with GET: a completion must never change anything. Set `method: GET`."
    );
}

#[test]
fn completion_template_reads_an_unknown_argument() {
    let source = edit("{{ input.owner }}", "{{ input.team }}");
    assert_eq!(
        only_error(&source, "owner: \"{{ input.team }}\""),
        "tests/manifests/demo.yaml:251:15: prompt `review_folder`, argument `folder`: template uses \
         `input.team`, which is not an argument of this prompt. Add `team` to the prompt's \
         arguments or fix the name."
    );
}

#[test]
fn completion_path_parameter() {
    let source = edit("path: /folders\n", "path: /owners/{owner}/folders\n");
    assert_eq!(
        only_error(&source, "path: /owners/{owner}/folders"),
        "tests/manifests/demo.yaml:249:13: prompt `review_folder`, argument `folder`: path parameter \
         `{owner}` may have no value: a client asks for completions before filling in every \
         argument. Pass `owner` in `query:` instead."
    );
}

#[test]
fn completion_with_both_values_and_nexus() {
    let source = edit(
        "          pick: items.*.name\n",
        "          pick: items.*.name\n          values: [team]\n",
    );
    assert_eq!(
        only_error(&source, "values: [team]"),
        "tests/manifests/demo.yaml:253:11: prompt `review_folder`, argument `folder`: a completion has either \
         `values` or `nexus`, not both. Keep one."
    );
}

#[test]
fn completion_list_with_a_scope() {
    let source = edit(
        "          values: [idea, plan, minutes, decision]\n",
        "          values: [idea, plan, minutes, decision]\n          scope: notes:read\n",
    );
    assert_eq!(
        only_error(&source, "complete:"),
        "tests/manifests/demo.yaml:258:9: prompt `review_folder`, argument `kind`: `pick` and `scope` belong to a \
         `nexus:` completion; a `values:` list needs neither. Remove them."
    );
}

#[test]
fn completion_from_nexus_without_scope() {
    let source = edit("          scope: notes:read\n", "");
    assert_eq!(
        only_error(&source, "complete:"),
        "tests/manifests/demo.yaml:246:9: prompt `review_folder`, argument `folder`: a `nexus:` \
         completion needs `scope:`, the scope a caller must hold to see these values (e.g. \
         kg:read)."
    );
}

/// Found by the manifest fuzz target (tests/fuzz.rs): a manifest cut off inside a key (an editor
/// crash, a partial write) made the YAML scanner report the line after the last one, which an
/// editor cannot jump to, and its message kept a second "at line L column C".
#[test]
fn a_manifest_cut_off_inside_a_key_is_reported_on_its_last_line() {
    let source = format!("{}\n  truncat", DEMO.trim_end());
    let errors = errors(&source);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    let e = &errors[0];
    let lines: Vec<&str> = source.split('\n').collect();
    assert_eq!(e.line, lines.len(), "{e}");
    assert!(
        e.column >= 1 && e.column <= lines[e.line - 1].chars().count() + 1,
        "{e}"
    );
    assert!(
        !e.message.contains(" at line "),
        "the position is printed once, up front: {e}"
    );
}

/// `cargo test -p nexus-mcp-codegen --test errors tool_list_costs -- --nocapture` prints what
/// each default-listed tool of the real manifest costs; the budget itself is checked by
/// `real_manifest_is_valid`.
#[test]
fn tool_list_costs() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../manifest/nexus-code-kg.yaml");
    let source = std::fs::read_to_string(&path).expect("read the real manifest");
    let mut manifest: nexus_mcp_codegen::Manifest =
        yaml_serde::from_str(&source).expect("the real manifest deserializes");
    assert!(nexus_mcp_codegen::include::expand(&path, &source, &mut manifest).is_empty());
    let (costs, total) = nexus_mcp_codegen::budget::costs(&manifest);
    for (name, bytes) in &costs {
        println!("{name:<28} {bytes:>6}");
        if std::env::var_os("SHOW_TOOL_JSON").is_some()
            && let Some(tool) = manifest.tools.iter().find(|t| t.name == *name)
        {
            let input = nexus_mcp_codegen::portable::input(&tool.input, &manifest.types);
            println!("  {}\n  {input}", tool.description);
        }
    }
    println!("{:<28} {total:>6}", "total");
    assert_eq!(costs.len(), 10, "default-listed tools");
}

/// Portable schemas: no published input or output schema of any surface under manifest/ carries
/// a `type` array (`[T, "null"]`); nullable values are `anyOf: [T, {type: null}]`.
#[test]
fn every_published_schema_is_free_of_type_arrays() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let manifests = nexus_mcp_codegen::load_dir(&root.join("manifest"), &root).expect("load");
    assert!(!manifests.is_empty());
    for loaded in &manifests {
        let m = &loaded.manifest;
        for tool in &m.tools {
            let output = nexus_mcp_codegen::envelope::with_envelope(tool, &m.envelope);
            for (kind, published) in [
                (
                    "input",
                    nexus_mcp_codegen::portable::input(&tool.input, &m.types),
                ),
                (
                    "output",
                    nexus_mcp_codegen::portable::output(&output, &m.types),
                ),
            ] {
                let found = nexus_mcp_codegen::portable::type_arrays(&published);
                assert!(
                    found.is_empty(),
                    "{} {kind}: type arrays at {found:?}",
                    tool.name
                );
            }
        }
    }
}

#[test]
fn an_append_tool_needs_no_dry_run_and_may_not_declare_one() {
    // A tool that only adds a record (a report, a queued proposal) builds without `mutation:`.
    let append = edit(
        EXPORT_ACCESS,
        &EXPORT_ACCESS.replace("access: write", "access: append"),
    )
    .replacen(EXPORT_MUTATION, "", 1)
    .replacen(
        "        dry_run: {type: boolean, default: true}\n      required: [folder]\n",
        "      required: [folder]\n",
        1,
    )
    .replacen(", dry_run: \"{{ input.dry_run }}\"}", "}", 1);
    if let Err(errors) = parse(Path::new(FILE), &append) {
        panic!("an append tool without mutation was refused: {errors:#?}");
    }
    // ... and one that declares a dry-run switch is told to say `write`.
    let source = edit(
        EXPORT_ACCESS,
        &EXPORT_ACCESS.replace("access: write", "access: append"),
    );
    assert_eq!(
        only_error(&source, "mutation:"),
        "tests/manifests/demo.yaml:179:5: tool `export_notes`: an append tool cannot declare `mutation:`. \
         Set `access: write` (or destructive) if it changes anything beyond adding a record."
    );
}

#[test]
fn a_tool_may_not_send_the_repository_binding_itself() {
    let source = edit(
        "  result_budget: 8000\n",
        "  result_budget: 8000\n  repository_binding: folder\n",
    );
    assert_eq!(
        only_error(&source, "folder: \"{{ input.folder }}\""),
        "tests/manifests/demo.yaml:119:9: tool `list_notes`: `folder` is the surface's \
         repository_binding: the engine sets it from the caller's key, so a tool must not send \
         it. Remove it from `query:`."
    );
    let source = edit(
        "  result_budget: 8000\n",
        "  result_budget: 8000\n  repository_binding: \"visible repos\"\n",
    );
    assert_eq!(
        only_error(&source, "repository_binding:"),
        "tests/manifests/demo.yaml:17:3: repository_binding `visible repos` is not a query parameter \
         name. Use letters, digits, `_` or `-` (e.g. `visible`)."
    );
}

/// `ask:` questions (tests/manifests/conformance.yaml declares working ones): each is exactly
/// one request, its form flat, and a mapping reads only answers a question is keyed.
fn with_ask(question: &str) -> String {
    edit(
        "      ambiguous: NOTE_AMBIGUOUS\n",
        &format!("      ambiguous: NOTE_AMBIGUOUS\n    ask:\n      - {question}\n"),
    )
}

#[test]
fn a_question_is_exactly_one_request() {
    let source = with_ask("who: {roots: {}, sample: {prompt: Hi, max_tokens: 5}}");
    let message = only_error(&source, "who:");
    assert!(
        message.ends_with(
            "tool `get_note`: a question is exactly one of `elicit: {message, schema}`, `sample: {prompt, max_tokens}` or `roots: {}`."
        ),
        "{message}"
    );
}

#[test]
fn an_elicitation_form_is_flat() {
    let source = with_ask(
        "who: {elicit: {message: Who?, schema: {type: object, properties: {person: {type: object}}}}}",
    );
    let message = only_error(&source, "schema:");
    assert!(
        message.contains("form field `person` has type `object`"),
        "{message}"
    );
}

#[test]
fn a_mapping_reads_only_declared_answers() {
    let source = edit(
        "    nexus: {method: GET, path: \"/notes/{noteId}\"}\n",
        "    nexus: {method: GET, path: \"/notes/{noteId}\", query: {who: \"{{ answers.who.content.name }}\"}}\n",
    );
    let message = only_error(&source, "who: \"{{ answers.who");
    assert!(
        message.contains(
            "template uses `answers.who`, which no question of this tool's `ask:` is keyed"
        ),
        "{message}"
    );
}

#[test]
fn a_question_reads_only_the_tools_input() {
    let source = with_ask(
        "who: {elicit: {message: \"For {{ input.nobody }}?\", schema: {type: object, properties: {}}}}",
    );
    let message = only_error(&source, "elicit:");
    assert!(
        message.contains("template uses `input.nobody`; a question can only read `input.<name>`"),
        "{message}"
    );
}

/// `choose:` on list_notes (its items have `id`, `title`, `summary`).
fn with_choose(by: &str, label: &str) -> String {
    edit(
        "    pagination:\n      items: items\n      cursor: cursor\n      also: [folders]\n",
        &format!(
            "    pagination:\n      items: items\n      cursor: cursor\n      also: [folders]\n    choose: {{from: items, by: {by}, message: \"Which of {{{{ total }}}} in {{{{ input.folder }}}}?\", label: \"{label}\"}}\n"
        ),
    )
}

#[test]
fn a_choice_is_passed_back_as_an_input() {
    let source = with_choose("id", "{{ item.title }}");
    let message = only_error(&source, "by: id");
    assert!(
        message.ends_with("tool `list_notes`: `by: id` is not an input of the tool: the pick is passed back as that input. Declare it under `input.properties`."),
        "{message}"
    );
}

#[test]
fn a_choice_is_among_the_items_of_an_output_array() {
    let source = with_choose("folder", "{{ item.title }}");
    let message = only_error(&source, "from: items");
    assert!(
        message.contains("`from: items` with `by: folder` needs an output array `items` whose items have `folder`: `items.*.folder` is not in the output schema"),
        "{message}"
    );
}

#[test]
fn a_choice_title_reads_only_the_items_fields() {
    let source = with_choose("folder", "{{ item.nope }}");
    let all = errors(&source);
    assert!(
        all.iter().any(|e| e
            .to_string()
            .contains("template uses `item.nope`; a question can only read `item.<name>`")),
        "{all:?}"
    );
}

#[test]
fn only_a_read_tool_lets_the_human_choose() {
    let source = edit(
        "        archived: {type: boolean}\n",
        "        archived: {type: boolean}\n        notes: {type: array, items: {type: object, properties: {noteId: {type: string}}}}\n",
    )
    .replace(
        "        next_step: {type: string}\n    nexus:",
        "        next_step: {type: string}\n    choose: {from: notes, by: noteId, message: Which?, label: \"{{ item.noteId }}\"}\n    nexus:",
    );
    let message = only_error(&source, "choose:");
    assert!(
        message.contains("`choose` re-runs the tool with the human's pick, so it is only for `access: read` tools without `mutation`"),
        "{message}"
    );
}

#[test]
fn a_paged_list_is_an_array_of_the_output() {
    let source = edit("      also: [folders]\n", "      also: [folderz]\n");
    let message = only_error(&source, "folderz]");
    assert!(
        message.ends_with("tool `list_notes`: paged list `folderz` must be an array of the output: `folderz` is not in the output schema (nearest existing: folders, items, total). Fix the name, or declare it in `output` as an array."),
        "{message}"
    );
    let source = edit("      also: [folders]\n", "      also: [total]\n");
    let message = only_error(&source, "total]");
    assert!(
        message.ends_with("paged list `total` must be an array of the output: `total` is declared, but not as an array. Fix the name, or declare it in `output` as an array."),
        "{message}"
    );
    let source = edit("      also: [folders]\n", "      also: [folders, items]\n");
    let message = only_error(&source, "items]");
    assert!(message.contains("list `items` is paged twice"), "{message}");
}
