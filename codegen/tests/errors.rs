//! Every manifest mistake the build rejects, with the exact message a spec author reads:
//! `FILE:LINE:COL: tool `x`: what is wrong. How to fix.` The position must point at the key to
//! edit, so each test also checks what the source says at that line and column.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use nexus_mcp_codegen::{LoadedManifest, ManifestError, generate, parse};
use std::path::{Path, PathBuf};

/// A small manifest that passes every check: one read tool with a path parameter, a query and a
/// shared type, and one write tool guarded by a dry-run switch.
const DEMO: &str = include_str!("demo.yaml");

const FILE: &str = "manifest/demo.yaml";

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

#[test]
fn demo_manifest_is_valid() {
    let manifest = parse(Path::new(FILE), DEMO).expect("DEMO parses");
    assert_eq!(manifest.tools.len(), 2);
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
    let source = edit("    title: Get thing\n", "    titel: Get thing\n");
    assert_eq!(
        only_error(&source, "titel:"),
        "manifest/demo.yaml:22:5: tool `kg_get_thing`: unknown field `titel`, expected one of \
         `name`, `title`, `description`, `scope`, `access`, `modes`, `handler`, `input`, \
         `output`, `nexus`, `response`, `pagination`, `mutation`, `content`, `listed`, `errors`. See manifest/README.md for \
         the keys a manifest accepts."
    );
}

#[test]
fn unknown_key_nested() {
    let source = edit(
        "      method: POST\n",
        "      method: POST\n      headers: {}\n",
    );
    assert_eq!(
        only_error(&source, "headers:"),
        "manifest/demo.yaml:63:7: tool `kg_rebuild`: nexus: unknown field `headers`, expected one \
         of `method`, `path`, `query`, `body`. See manifest/README.md for the keys a manifest \
         accepts."
    );
}

#[test]
fn unknown_key_top_level() {
    let source = edit("types:\n", "prompt: []\ntypes:\n");
    assert_eq!(
        only_error(&source, "prompt:"),
        "manifest/demo.yaml:16:1: unknown field `prompt`, expected one of `surface`, `server`, \
         `scopes`, `types`, `tools`, `prompts`, `resources`, `envelope`, `capabilities`. See manifest/README.md \
         for the keys a manifest accepts."
    );
}

#[test]
fn duplicate_tool_name() {
    let source = edit("  - name: kg_rebuild\n", "  - name: kg_get_thing\n");
    let errors = errors(&source);
    // The copy is also a write tool named like a read tool; only the name matters here.
    let e = errors
        .iter()
        .find(|e| e.message.starts_with("duplicate"))
        .expect("a duplicate-name error");
    assert_eq!(
        e.to_string(),
        "manifest/demo.yaml:45:5: tool `kg_get_thing`: duplicate tool name. Tool names must be \
         unique within a surface: rename or remove one of them."
    );
    assert_eq!(errors.len(), 1, "{errors:#?}");
}

#[test]
fn tool_name_not_snake_case() {
    let source = edit("  - name: kg_get_thing\n", "  - name: KG-Get-Thing\n");
    assert_eq!(
        only_error(&source, "name: KG-Get-Thing"),
        "manifest/demo.yaml:21:5: tool `KG-Get-Thing`: tool names must match \
         ^[a-z][a-z0-9_]{0,63}$ (lower snake case, at most 64 characters), e.g. kg_file_context."
    );
}

#[test]
fn tool_name_too_long() {
    let long = format!("kg_{}", "x".repeat(62));
    assert_eq!(long.len(), 65);
    let source = edit("  - name: kg_get_thing\n", &format!("  - name: {long}\n"));
    assert_eq!(
        only_error(&source, "name: kg_xxx"),
        format!(
            "manifest/demo.yaml:21:5: tool `{long}`: tool names must match \
             ^[a-z][a-z0-9_]{{0,63}}$ (lower snake case, at most 64 characters), e.g. \
             kg_file_context."
        )
    );
    // 64 characters is the limit, not over it.
    let ok = format!("kg_{}", "x".repeat(61));
    parse(
        Path::new(FILE),
        &edit("  - name: kg_get_thing\n", &format!("  - name: {ok}\n")),
    )
    .expect("a 64-character name is valid");
}

#[test]
fn template_uses_missing_input_field() {
    let source = edit(
        "depth: \"{{ input.depth | default(2) }}\"",
        "depth: \"{{ input.dept | default(2) }}\"",
    );
    assert_eq!(
        only_error(&source, "depth: \"{{ input.dept"),
        "manifest/demo.yaml:44:9: tool `kg_get_thing`: template uses `input.dept`, which is not \
         an input field. Add `dept` to the input properties or fix the name."
    );
}

#[test]
fn path_parameter_not_required() {
    let source = edit("      required: [thing_id]\n", "");
    assert_eq!(
        only_error(&source, "path: /api/v1/things/{thing_id}"),
        "manifest/demo.yaml:40:7: tool `kg_get_thing`: path parameter `{thing_id}` has no value \
         when the input omits it. Add `thing_id` to the input's `required` list."
    );
}

#[test]
fn path_parameter_not_an_input() {
    let source = edit("/api/v1/things/{thing_id}", "/api/v1/things/{thing}");
    assert_eq!(
        only_error(&source, "path: /api/v1/things/{thing}"),
        "manifest/demo.yaml:41:7: tool `kg_get_thing`: path parameter `{thing}` is not an input \
         field. Add `thing` to the input properties or remove it from the path."
    );
}

#[test]
fn unknown_scope() {
    let source = edit("    scope: kg:read\n", "    scope: kg:reed\n");
    assert_eq!(
        only_error(&source, "scope: kg:reed"),
        "manifest/demo.yaml:24:5: tool `kg_get_thing`: unknown scope `kg:reed`. Declare it under \
         `scopes:` or use one of: kg:read, kg:regenerate."
    );
}

#[test]
fn unknown_type() {
    let source = edit("\"#/types/Repository\"", "\"#/types/Repo\"");
    assert_eq!(
        only_error(&source, "$ref: \"#/types/Repo\""),
        "manifest/demo.yaml:32:22: tool `kg_get_thing`: unknown type `Repo` in \
         `$ref: #/types/Repo`. Declare it under `types:` or use one of: Repository."
    );
}

#[test]
fn unknown_access() {
    let source = edit("    access: read\n", "    access: readonly\n");
    assert_eq!(
        only_error(&source, "readonly"),
        "manifest/demo.yaml:25:13: tool `kg_get_thing`: access: unknown variant `readonly`, expected one \
         of `read`, `append`, `write`, `destructive`. See manifest/README.md for the keys a manifest \
         accepts."
    );
}

#[test]
fn invalid_json_schema() {
    let source = edit("depth: {type: integer,", "depth: {type: integr,");
    assert_eq!(
        only_error(&source, "type: integr"),
        "manifest/demo.yaml:33:17: tool `kg_get_thing`: not a valid JSON Schema 2020-12: \
         \"integr\" is not valid under any of the schemas listed in the 'anyOf' keyword (at \
         /properties/depth/type)."
    );
}

#[test]
fn missing_key() {
    let source = edit("    title: Get thing\n", "");
    assert_eq!(
        only_error(&source, "name: kg_get_thing"),
        "manifest/demo.yaml:21:5: tool `kg_get_thing`: missing field `title`. See \
         manifest/README.md for the keys a manifest accepts."
    );
}

#[test]
fn invalid_shared_type_is_reported_once_at_the_type() {
    // Both tools embed every type they use; the mistake is still reported once, where it is.
    let source = edit(
        "    type: string\n    minLength: 1\n",
        "    type: strng\n    minLength: 1\n",
    );
    assert_eq!(
        only_error(&source, "type: strng"),
        "manifest/demo.yaml:18:5: type `Repository`: not a valid JSON Schema 2020-12: \
         \"strng\" is not valid under any of the schemas listed in the 'anyOf' keyword (at \
         /type)."
    );
}

#[test]
fn schema_declaring_another_draft_is_still_checked_as_2020_12() {
    // Draft 4's boolean exclusiveMaximum is not 2020-12, and clients read schemas as 2020-12.
    let source = edit(
        "    input:\n      type: object\n      required: [thing_id]\n",
        "    input:\n      $schema: \"http://json-schema.org/draft-04/schema#\"\n      type: object\n      required: [thing_id]\n",
    )
    .replace(
        "depth: {type: integer, maximum: 5}",
        "depth: {type: integer, maximum: 5, exclusiveMaximum: true}",
    );
    assert_eq!(
        only_error(&source, "exclusiveMaximum: true"),
        "manifest/demo.yaml:34:44: tool `kg_get_thing`: not a valid JSON Schema 2020-12: true \
         is not of type \"number\" (at /properties/depth/exclusiveMaximum)."
    );
}

#[test]
fn write_tool_without_mutation() {
    let source = edit(
        "    mutation:\n      dry_run: {param: dry_run, default: true}\n",
        "",
    );
    assert_eq!(
        only_error(&source, "access: write"),
        "manifest/demo.yaml:49:5: tool `kg_rebuild`: a write tool must declare `mutation:` with \
         a dry-run switch defaulting to true (`dry_run: {param: dry_run, default: true}`) or a \
         paired dry-run tool plus a confirmation parameter (`paired_dry_run_tool` and \
         `require_true`)."
    );
}

#[test]
fn destructive_tool_without_mutation() {
    let source = edit("    access: write\n", "    access: destructive\n").replace(
        "    mutation:\n      dry_run: {param: dry_run, default: true}\n",
        "",
    );
    assert_eq!(
        only_error(&source, "access: destructive"),
        "manifest/demo.yaml:49:5: tool `kg_rebuild`: a destructive tool must declare \
         `mutation:` with a dry-run switch defaulting to true (`dry_run: {param: dry_run, \
         default: true}`) or a paired dry-run tool plus a confirmation parameter \
         (`paired_dry_run_tool` and `require_true`)."
    );
}

#[test]
fn dry_run_switch_defaulting_to_false() {
    let source = edit(
        "dry_run: {param: dry_run, default: true}",
        "dry_run: {param: dry_run, default: false}",
    );
    assert_eq!(
        only_error(&source, "dry_run: {param"),
        "manifest/demo.yaml:67:7: tool `kg_rebuild`: the dry-run switch must default to true: a \
         tool never mutates unless asked to. Set `default: true`."
    );
}

#[test]
fn dry_run_input_without_default_true() {
    let source = edit(
        "dry_run: {type: boolean, default: true}",
        "dry_run: {type: boolean}",
    );
    assert_eq!(
        only_error(&source, "dry_run: {param"),
        "manifest/demo.yaml:67:7: tool `kg_rebuild`: input `dry_run` must declare `default: \
         true` so clients see the safe default."
    );
}

/// A read planning tool `kg_rebuild_plan` plus `kg_rebuild` paired with it instead of a switch.
fn paired(mutation: &str) -> String {
    let plan_tool = r#"  - name: kg_rebuild_plan
    title: Plan rebuild
    description: What a rebuild would do.
    scope: kg:regenerate
    access: read
    handler: mapped
    input: {type: object, properties: {}}
    output: {type: object, properties: {}}
    nexus: {method: GET, path: /api/v1/rebuild/plan}
"#;
    let source = edit(
        "    mutation:\n      dry_run: {param: dry_run, default: true}\n",
        mutation,
    );
    format!("{source}{plan_tool}")
}

#[test]
fn paired_dry_run_tool_with_confirmation_is_valid() {
    let source = paired(
        "    mutation:\n      paired_dry_run_tool: kg_rebuild_plan\n      require_true: [confirmed]\n      changes: rebuilds the graph\n      approver: a human\n",
    );
    parse(Path::new(FILE), &source).expect("paired tool plus confirmation is valid");
}

#[test]
fn paired_dry_run_tool_without_confirmation() {
    let source = paired("    mutation:\n      paired_dry_run_tool: kg_rebuild_plan\n");
    assert_eq!(
        only_error(&source, "mutation:"),
        "manifest/demo.yaml:66:5: tool `kg_rebuild`: a tool with a paired dry-run tool also \
         needs a confirmation parameter: list it in `require_true`."
    );
}

#[test]
fn mutation_with_neither_switch_nor_paired_tool() {
    let source = paired(
        "    mutation:\n      require_true: [confirmed]\n      changes: rebuilds the graph\n      approver: a human\n",
    );
    assert_eq!(
        only_error(&source, "mutation:"),
        "manifest/demo.yaml:66:5: tool `kg_rebuild`: declare a dry-run switch defaulting to true \
         (`dry_run: {param: dry_run, default: true}`) or a paired dry-run tool \
         (`paired_dry_run_tool`) with a confirmation parameter in `require_true`."
    );
}

#[test]
fn every_problem_is_reported_at_once() {
    let source = edit("    scope: kg:read\n", "    scope: kg:reed\n").replace(
        "    mutation:\n      dry_run: {param: dry_run, default: true}\n",
        "",
    );
    let shown: Vec<String> = errors(&source).iter().map(ToString::to_string).collect();
    assert_eq!(shown.len(), 2, "{shown:#?}");
    assert!(shown[0].starts_with("manifest/demo.yaml:24:5: tool `kg_get_thing`: unknown scope"));
    assert!(shown[1].starts_with("manifest/demo.yaml:49:5: tool `kg_rebuild`: a write tool"));
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
        "pub struct KgGetThingInput",
        "pub struct KgRebuildOutput",
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

/// A prompt whose arguments complete from Nexus and from a fixed list, appended to `DEMO`.
const PROMPT: &str = r##"prompts:
  - name: triage
    description: Triage a repository.
    arguments:
      - name: repository
        description: owner/name.
        required: true
        complete:
          nexus:
            method: GET
            path: /api/v1/repositories
            query:
              owner: "{{ input.owner }}"
          pick: items.*.name
          scope: kg:read
      - name: owner
        description: Owner.
      - name: tool
        description: Analyser.
        complete:
          values: [ruff, bandit]
    template: "Triage {{ args.repository }}."
"##;

/// `DEMO` plus `PROMPT` with `from` (once in `PROMPT`) replaced by `to`.
fn edit_prompt(from: &str, to: &str) -> String {
    assert_eq!(
        PROMPT.matches(from).count(),
        1,
        "`{from}` must occur once in PROMPT"
    );
    format!("{DEMO}{}", PROMPT.replacen(from, to, 1))
}

#[test]
fn completions_from_nexus_and_from_a_list_are_valid() {
    let source = format!("{DEMO}{PROMPT}");
    assert!(parse(Path::new(FILE), &source).is_ok());
}

#[test]
fn completion_with_neither_values_nor_nexus() {
    let source = edit_prompt(
        "          values: [ruff, bandit]\n",
        "          values: []\n",
    );
    assert_eq!(
        only_error(&source, "complete:"),
        "manifest/demo.yaml:87:9: prompt `triage`, argument `tool`: a completion needs `values: \
         [...]` (a fixed list) or `nexus:` with `pick:` and `scope:` (values read from Nexus)."
    );
}

#[test]
fn completion_from_nexus_without_pick() {
    let source = edit_prompt("          pick: items.*.name\n", "");
    assert_eq!(
        only_error(&source, "complete:"),
        "manifest/demo.yaml:75:9: prompt `triage`, argument `repository`: a `nexus:` completion \
         needs `pick:`, the dotted path of the values in the answer, e.g. `items.*.name`."
    );
}

#[test]
fn completion_from_nexus_with_an_unknown_scope() {
    let source = edit_prompt("scope: kg:read", "scope: kg:reed");
    assert_eq!(
        only_error(&source, "scope: kg:reed"),
        "manifest/demo.yaml:82:11: prompt `triage`, argument `repository`: unknown scope \
         `kg:reed`. Declare it under `scopes:` or use one of: kg:read, kg:regenerate."
    );
}

#[test]
fn completion_that_posts() {
    let source = edit_prompt("method: GET", "method: POST");
    assert_eq!(
        only_error(&source, "method: POST"),
        "manifest/demo.yaml:77:13: prompt `triage`, argument `repository`: completion values are \
         read with GET: a completion must never change anything. Set `method: GET`."
    );
}

#[test]
fn completion_template_reads_an_unknown_argument() {
    let source = edit_prompt("{{ input.owner }}", "{{ input.team }}");
    assert_eq!(
        only_error(&source, "owner: \"{{ input.team }}\""),
        "manifest/demo.yaml:80:15: prompt `triage`, argument `repository`: template uses \
         `input.team`, which is not an argument of this prompt. Add `team` to the prompt's \
         arguments or fix the name."
    );
}

#[test]
fn completion_path_parameter() {
    let source = edit_prompt("path: /api/v1/repositories", "path: /api/v1/owners/{owner}");
    assert_eq!(
        only_error(&source, "path: /api/v1/owners/{owner}"),
        "manifest/demo.yaml:78:13: prompt `triage`, argument `repository`: path parameter \
         `{owner}` may have no value: a client asks for completions before filling in every \
         argument. Pass `owner` in `query:` instead."
    );
}

#[test]
fn completion_with_both_values_and_nexus() {
    let source = edit_prompt(
        "          pick: items.*.name\n",
        "          pick: items.*.name\n          values: [acme/shop]\n",
    );
    assert_eq!(
        only_error(&source, "values: [acme/shop]"),
        "manifest/demo.yaml:82:11: prompt `triage`, argument `repository`: a completion has either \
         `values` or `nexus`, not both. Keep one."
    );
}

#[test]
fn completion_list_with_a_scope() {
    let source = edit_prompt(
        "          values: [ruff, bandit]\n",
        "          values: [ruff, bandit]\n          scope: kg:read\n",
    );
    assert_eq!(
        only_error(&source, "complete:"),
        "manifest/demo.yaml:87:9: prompt `triage`, argument `tool`: `pick` and `scope` belong to a \
         `nexus:` completion; a `values:` list needs neither. Remove them."
    );
}

#[test]
fn completion_from_nexus_without_scope() {
    let source = edit_prompt("          scope: kg:read\n", "");
    assert_eq!(
        only_error(&source, "complete:"),
        "manifest/demo.yaml:75:9: prompt `triage`, argument `repository`: a `nexus:` completion \
         needs `scope:`, the scope a caller must hold to see these values (e.g. kg:read)."
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
            let output = nexus_mcp_codegen::envelope::with_envelope(&tool.output, &m.envelope);
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
    let append = edit("    access: write\n", "    access: append\n")
        .replace(
            "    mutation:\n      dry_run: {param: dry_run, default: true}\n",
            "",
        )
        .replace(
            "        dry_run: {type: boolean, default: true}\n        confirmed: {type: boolean}\n",
            "        confirmed: {type: boolean}\n",
        )
        .replace(
            "{dry_run: \"{{ input.dry_run }}\", confirmed: \"{{ input.confirmed }}\"}",
            "{confirmed: \"{{ input.confirmed }}\"}",
        );
    if let Err(errors) =
        nexus_mcp_codegen::parse(std::path::Path::new("manifest/demo.yaml"), &append)
    {
        panic!("an append tool without mutation was refused: {errors:#?}");
    }
    // ... and one that declares a dry-run switch is told to say `write`.
    let source = edit("    access: write\n", "    access: append\n");
    assert_eq!(
        only_error(&source, "mutation:"),
        "manifest/demo.yaml:66:5: tool `kg_rebuild`: an append tool cannot declare `mutation:`. \
         Set `access: write` (or destructive) if it changes anything beyond adding a record."
    );
}

#[test]
fn a_tool_may_not_send_the_repository_binding_itself() {
    let source = edit(
        "  result_budget: 8000\n",
        "  result_budget: 8000\n  repository_binding: repository\n",
    );
    assert_eq!(
        only_error(&source, "repository: \"{{ input.repository }}\""),
        "manifest/demo.yaml:44:9: tool `kg_get_thing`: `repository` is the surface's \
         repository_binding: the engine sets it from the caller's key, so a tool must not send \
         it. Remove it from `query:`."
    );
    let source = edit(
        "  result_budget: 8000\n",
        "  result_budget: 8000\n  repository_binding: \"visible repos\"\n",
    );
    assert_eq!(
        only_error(&source, "repository_binding:"),
        "manifest/demo.yaml:8:3: repository_binding `visible repos` is not a query parameter \
         name. Use letters, digits, `_` or `-` (e.g. `visible`)."
    );
}
