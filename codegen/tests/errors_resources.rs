//! Manifest mistakes in resources, resource templates, fetching prompts and content blocks: the
//! exact message, and the key it points at (each test checks what the source says there).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use nexus_mcp_codegen::parse;
use std::path::Path;

/// Passes every check: a read tool with content blocks, a write tool, a resource template read
/// from the backend with a completed variable, a static resource and a prompt that calls a tool.
const BASE: &str = r##"surface: demo
server:
  name: demo
  title: Demo
  version: 0.1.0
  instructions: Demo.
  result_budget: 8000
scopes:
  - name: doc:read
    description: Read.
    modes: [local_stdio, remote_http]
    default_stdio: true
  - name: doc:write
    description: Write.
    modes: [local_stdio]
tools:
  - name: get_task_context
    title: Task context
    description: The context of one task.
    scope: doc:read
    access: read
    handler: mapped
    input:
      type: object
      required: [taskId]
      properties:
        taskId: {type: string}
      additionalProperties: false
    output: {type: object, properties: {summary: {type: string}, png: {type: string}}}
    nexus:
      method: GET
      path: /tasks/{taskId}
    content:
      - {type: text, text: "{{ result.summary }} ({{ input.taskId }})"}
      - {type: image, data: "{{ result.png }}", mime_type: image/png}
  - name: set_task
    title: Set task
    description: Changes a task.
    scope: doc:write
    access: write
    handler: mapped
    input:
      type: object
      required: [taskId]
      properties:
        taskId: {type: string}
        dry_run: {type: boolean, default: true}
      additionalProperties: false
    output: {type: object, properties: {}}
    nexus:
      method: POST
      path: /tasks/{taskId}
      body: {dry_run: "{{ input.dry_run }}"}
    mutation:
      dry_run: {param: dry_run, default: true}
resources:
  - uri: docugraph://workspace/node/{id}
    name: node
    description: One node as markdown.
    mime_type: text/markdown
    scope: doc:read
    nexus:
      method: GET
      path: /nodes/{id}
    text: node.markdown
    complete:
      id: {values: [a, b]}
  - uri: docugraph://guide
    name: guide
    description: The guide.
    mime_type: text/markdown
    template: "# {{ server.title }}"
prompts:
  - name: prompt_implement_task
    description: Implement a task.
    arguments:
      - name: taskId
        description: The task.
        required: true
    call:
      tool: get_task_context
      arguments: {taskId: "{{ args.taskId }}"}
    messages:
      - role: user
        content: {type: text, text: "Implement {{ args.taskId }}: {{ result.summary }}"}
"##;

const FILE: &str = "manifest/demo.yaml";

fn edit(from: &str, to: &str) -> String {
    common::edit_in(BASE, from, to)
}

/// The single error of `source`, without its `FILE:LINE:COL: ` prefix (the position is checked
/// to point at `expected_at`).
fn only_error(source: &str, expected_at: &str) -> String {
    let shown = common::only_error_in(FILE, source, expected_at);
    let (position, message) = shown.split_once(": ").expect("positioned");
    assert!(position.starts_with(FILE), "{shown}");
    message.to_owned()
}

#[test]
fn base_is_valid() {
    let m = parse(Path::new(FILE), BASE).unwrap_or_else(|e| panic!("{e:#?}"));
    assert_eq!((m.resources.len(), m.prompts.len()), (2, 1));
}

#[test]
fn content_block_missing_a_field() {
    let source = edit(", mime_type: image/png}", "}");
    assert_eq!(
        only_error(&source, "{type: image"),
        "tool `get_task_context`: a `image` block needs `mime_type`."
    );
}

#[test]
fn content_block_with_a_foreign_field() {
    let source = edit(
        "{type: image, data: \"{{ result.png }}\"",
        "{type: image, uri: x, data: \"{{ result.png }}\"",
    );
    assert_eq!(
        only_error(&source, "uri: x"),
        "tool `get_task_context`: `uri` has no place in a `image` block; it takes: data, mime_type."
    );
}

#[test]
fn embedded_resource_with_text_and_data() {
    let source = edit(
        "{type: image, data: \"{{ result.png }}\", mime_type: image/png}",
        "{type: resource, uri: \"a://b\", text: t, data: d, mime_type: text/plain}",
    );
    assert_eq!(
        only_error(&source, "data: d"),
        "tool `get_task_context`: an embedded resource has `text` or `data` (base64), not both. Keep one."
    );
}

#[test]
fn embedded_resource_without_text_or_data() {
    let source = edit(
        "{type: image, data: \"{{ result.png }}\", mime_type: image/png}",
        "{type: resource, uri: \"a://b\", mime_type: text/plain}",
    );
    assert_eq!(
        only_error(&source, "{type: resource"),
        "tool `get_task_context`: an embedded resource needs `text` or `data` (base64)."
    );
}

#[test]
fn content_template_that_does_not_parse() {
    let source = edit("\"{{ result.png }}\"", "\"{{ result.png \"");
    let message = only_error(&source, "data: \"{{ result.png \"");
    assert!(
        message.starts_with("tool `get_task_context`: template does not parse: "),
        "{message}"
    );
}

#[test]
fn content_template_reading_an_unknown_variable() {
    let source = edit("({{ input.taskId }})", "({{ input.task }})");
    assert_eq!(
        only_error(&source, "text: \"{{ result.summary }}"),
        "tool `get_task_context`: template uses `input.task`, which is not defined here: tool content can read `result` (the trimmed answer) and `input.<input field>`."
    );
}

#[test]
fn prompt_with_neither_template_nor_messages() {
    let source = edit(
        "    messages:\n      - role: user\n        content: {type: text, text: \"Implement {{ args.taskId }}: {{ result.summary }}\"}\n",
        "",
    );
    assert_eq!(
        only_error(&source, "name: prompt_implement_task"),
        "prompt `prompt_implement_task`: a prompt needs `template:` (one user text message) or `messages:` (messages with content types)."
    );
}

#[test]
fn prompt_with_template_and_messages() {
    let source = edit("    messages:\n", "    template: Hi.\n    messages:\n");
    assert_eq!(
        only_error(&source, "messages:"),
        "prompt `prompt_implement_task`: a prompt has `template:` or `messages:`, not both. Keep one."
    );
}

#[test]
fn prompt_reading_result_without_a_call() {
    let source = edit(
        "    call:\n      tool: get_task_context\n      arguments: {taskId: \"{{ args.taskId }}\"}\n",
        "",
    );
    assert_eq!(
        only_error(&source, "text: \"Implement"),
        "prompt `prompt_implement_task`: template uses `result.summary`, which is not defined here: prompt messages can read `args.<declared argument>`, `server.<key>` and, with `call:`, `result`."
    );
}

#[test]
fn prompt_calling_an_unknown_tool() {
    let source = edit("      tool: get_task_context\n", "      tool: get_task\n");
    assert_eq!(
        only_error(&source, "tool: get_task"),
        "prompt `prompt_implement_task`: the prompt calls tool `get_task`, which this manifest does not declare. Declared tools: get_task_context, set_task."
    );
}

#[test]
fn prompt_calling_a_write_tool() {
    let source = edit("      tool: get_task_context\n", "      tool: set_task\n");
    assert_eq!(
        only_error(&source, "tool: set_task"),
        "prompt `prompt_implement_task`: a prompt may only call a read tool: `set_task` is `access: write`, and prompts/get runs with no confirmation."
    );
}

#[test]
fn prompt_call_argument_that_is_not_an_input() {
    let source = edit(
        "{taskId: \"{{ args.taskId }}\"}",
        "{task: \"{{ args.taskId }}\"}",
    );
    assert_eq!(
        only_error(&source, "task: "),
        "prompt `prompt_implement_task`: `task` is not an input of tool `get_task_context`; its inputs are: taskId."
    );
}

#[test]
fn prompt_call_argument_reading_an_undeclared_argument() {
    let source = edit(
        "{taskId: \"{{ args.taskId }}\"}",
        "{taskId: \"{{ args.id }}\"}",
    );
    assert_eq!(
        only_error(&source, "taskId: \"{{ args.id }}"),
        "prompt `prompt_implement_task`: template uses `args.id`; call arguments can read `args.<declared argument>` only."
    );
}

#[test]
fn resource_uri_template_beyond_level_2() {
    let source = edit(
        "docugraph://workspace/node/{id}",
        "docugraph://workspace/node{?id}",
    );
    assert_eq!(
        only_error(&source, "uri: docugraph://workspace/node{?id}"),
        "resource `docugraph://workspace/node{?id}`: not a URI template this server serves: `{?id}` is not supported: only RFC 6570 level 1-2 expressions are (`{var}`, `{+var}`, `{#var}`)."
    );
}

#[test]
fn resource_with_neither_template_nor_nexus() {
    let source = edit("    template: \"# {{ server.title }}\"\n", "");
    assert_eq!(
        only_error(&source, "uri: docugraph://guide"),
        "resource `docugraph://guide`: a resource needs `template:` (its text) or `nexus:` (a backend read)."
    );
}

#[test]
fn resource_picking_text_without_nexus() {
    let source = edit(
        "    template: \"# {{ server.title }}\"\n",
        "    template: \"# {{ server.title }}\"\n    text: guide.text\n",
    );
    assert_eq!(
        only_error(&source, "text: guide.text"),
        "resource `docugraph://guide`: `text` and `blob` pick the content from the backend answer: they need `nexus:`."
    );
}

#[test]
fn resource_read_with_post() {
    let source = edit(
        "      method: GET\n      path: /nodes/{id}",
        "      method: POST\n      path: /nodes/{id}",
    );
    assert_eq!(
        only_error(&source, "method: POST"),
        "resource `docugraph://workspace/node/{id}`: a resource is read with GET: reading must never change anything. Set `method: GET`."
    );
}

#[test]
fn resource_path_parameter_that_is_not_a_uri_variable() {
    let source = edit("      path: /nodes/{id}", "      path: /nodes/{node}");
    assert_eq!(
        only_error(&source, "path: /nodes/{node}"),
        "resource `docugraph://workspace/node/{id}`: path parameter `{node}` is not a variable of the resource's URI template. Add `node` to the `uri` (as `{name}`) or remove it from the path."
    );
}

#[test]
fn resource_with_text_and_blob() {
    let source = edit(
        "    text: node.markdown\n",
        "    text: node.markdown\n    blob: node.png\n",
    );
    assert_eq!(
        only_error(&source, "blob: node.png"),
        "resource `docugraph://workspace/node/{id}`: a resource takes its content from `text` or `blob`, not both. Keep one."
    );
}

#[test]
fn resource_with_text_and_template() {
    let source = edit(
        "    text: node.markdown\n",
        "    text: node.markdown\n    template: \"{{ result }}\"\n",
    );
    assert_eq!(
        only_error(&source, "template: \"{{ result }}\""),
        "resource `docugraph://workspace/node/{id}`: `template` renders the answer itself; with `text:` or `blob:` leave it out."
    );
}

#[test]
fn resource_with_an_unknown_scope() {
    let source = edit(
        "    scope: doc:read\n    nexus:",
        "    scope: doc:reed\n    nexus:",
    );
    assert_eq!(
        only_error(&source, "scope: doc:reed"),
        "resource `docugraph://workspace/node/{id}`: unknown scope `doc:reed`. Declare it under `scopes:` or use one of: doc:read, doc:write."
    );
}

#[test]
fn resource_completing_an_unknown_variable() {
    let source = edit("      id: {values: [a, b]}", "      node: {values: [a, b]}");
    assert_eq!(
        only_error(&source, "node: {values"),
        "resource `docugraph://workspace/node/{id}`: `node` is not a variable of this URI template; its variables are: id."
    );
}

#[test]
fn resource_completion_with_neither_values_nor_nexus() {
    let source = edit("      id: {values: [a, b]}", "      id: {values: []}");
    assert_eq!(
        only_error(&source, "id: {values: []}"),
        "resource `docugraph://workspace/node/{id}`: a completion needs `values: [...]` (a fixed list) or `nexus:` with `pick:` and `scope:` (values read from Nexus)."
    );
}

#[test]
fn schema_ref_to_an_undeclared_local_def() {
    let source = edit(
        "        taskId: {type: string}\n      additionalProperties: false\n    output: {type: object, properties: {summary",
        "        taskId: {$ref: \"#/$defs/id\"}\n      additionalProperties: false\n    output: {type: object, properties: {summary",
    );
    assert_eq!(
        only_error(&source, "$ref: \"#/$defs/id\""),
        "tool `get_task_context`: `$ref: #/$defs/id` is not supported: reference shared types as `#/types/<Name>`, or this schema's own `$defs` as `#/$defs/<name>`."
    );
}
