//! The prompts and resources of a surface in contract/<surface>/: one sorted-key JSON each, under
//! prompts/<name>.json and resources/<uri path>.json, so a wording change of a prompt or guide
//! shows in review like a tool change does. Written with the registry's one canonical key order.

use crate::spec::{CompletionSpec, PromptSpec, ResourceSpec, SurfaceSpec};
use serde_json::{Value, json};

/// `prompts/<name>.json` and `resources/<file>.json`, by relative file name.
pub fn prompt_and_resource_documents(surface: &SurfaceSpec) -> Vec<(String, String)> {
    let prompts = surface
        .prompts
        .iter()
        .map(|p| (format!("prompts/{}.json", p.name), pretty(&prompt(p))));
    let resources = surface.resources.iter().map(|r| {
        (
            format!("resources/{}.json", resource_file(r.uri)),
            pretty(&resource(r)),
        )
    });
    prompts.chain(resources).collect()
}

fn prompt(p: &PromptSpec) -> Value {
    let arguments: Vec<Value> = p
        .arguments
        .iter()
        .map(|a| {
            let complete = match &a.complete {
                None => Value::Null,
                Some(CompletionSpec::Values(values)) => json!({"values": values}),
                Some(CompletionSpec::Nexus { nexus, pick, scope }) => json!({
                    "nexus": {"path": nexus.path, "query": nexus.query.iter().map(|(k, v)| (k.to_string(), json!(v))).collect::<serde_json::Map<_, _>>()},
                    "pick": pick,
                    "scope": scope,
                }),
            };
            json!({"name": a.name, "description": a.description, "required": a.required, "complete": complete})
        })
        .collect();
    json!({
        "name": p.name,
        "title": p.title,
        "description": p.description,
        "arguments": arguments,
        "template": p.template,
    })
}

fn resource(r: &ResourceSpec) -> Value {
    json!({
        "uri": r.uri,
        "name": r.name,
        "title": r.title,
        "description": r.description,
        "mimeType": r.mime_type,
        "template": r.template,
    })
}

/// `nexus-code-kg://guide/cycle` → `guide_cycle`: the uri without its scheme, file-name safe.
fn resource_file(uri: &str) -> String {
    let path = uri.split_once("://").map_or(uri, |(_, rest)| rest);
    path.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(&crate::json::sort_keys(value))
        .map(|s| s + "\n")
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resource_files_are_named_after_the_uri_path() {
        assert_eq!(resource_file("demo://guide/cycle"), "guide_cycle");
        assert_eq!(resource_file("demo://a b/c.md"), "a_b_c_md");
    }
}
