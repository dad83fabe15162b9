//! The two meta-tools written from the manifest's `capabilities:` block, as manifest tools: the
//! registry value (surface.rs) holds them like any tool, so contract/, the budget and every
//! check see them.

use crate::model::{Access, HandlerKind, Manifest, MetaKind, Tool};
use serde_json::{Value, json};

/// `manifest` plus the meta-tools its `capabilities:` block asks for (after its tools).
pub fn with_meta_tools(manifest: &Manifest) -> Manifest {
    let mut out = manifest.clone();
    let Some(caps) = &manifest.capabilities else {
        return out;
    };
    let hidden: Vec<&Tool> = manifest.tools.iter().filter(|t| !t.listed).collect();
    let access = hidden
        .iter()
        .map(|t| t.access)
        .max_by_key(|a| match a {
            Access::Read => 0,
            Access::Append => 1,
            Access::Write => 2,
            Access::Destructive => 3,
        })
        .unwrap_or(Access::Read);
    let list = &caps.list_tool;
    let use_tool = meta_tool(
        MetaKind::Use,
        json!({
            "name": caps.use_tool,
            "title": "Use a capability",
            "description": format!("Run a capability, a tool of this server not in tools/list: its name and its arguments. Scopes, validation and safety rules apply as to any tool. {list} names them and gives their input schemas."),
            "scope": caps.scope,
            "access": access.as_str(),
            "input": {
                "type": "object",
                "required": ["capability"],
                "additionalProperties": false,
                "properties": {
                    "capability": {"type": "string", "minLength": 1, "maxLength": 64, "description": format!("A name from {list}.")},
                    "arguments": {"type": "object", "default": {}, "description": format!("The capability's arguments, as its input schema says ({list} with capability=NAME).")}
                }
            },
            "output": {"type": "object", "description": "The capability's own result."}
        }),
    );
    let list_tool = meta_tool(
        MetaKind::List,
        json!({
            "name": list,
            "title": "List capabilities",
            "description": format!("Name the capabilities {} can run for you, one line each. capability=NAME adds its input schema; include_schemas=true adds every one.", caps.use_tool),
            "scope": caps.scope,
            "access": "read",
            "input": {
                "type": "object",
                "additionalProperties": false,
                "properties": {
                    "capability": {"type": "string", "minLength": 1, "maxLength": 64, "description": "Only this capability, with its input schema."},
                    "include_schemas": {"type": "boolean", "default": false, "description": "Add every capability's input schema."}
                }
            },
            "output": {
                "type": "object",
                "required": ["capabilities"],
                "properties": {
                    "capabilities": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["name", "title", "summary", "access"],
                            "properties": {
                                "name": {"type": "string"},
                                "title": {"type": "string"},
                                "summary": {"type": "string"},
                                "access": {"type": "string", "enum": ["read", "append", "write", "destructive"]},
                                "inputSchema": {"type": "object"}
                            }
                        }
                    }
                }
            }
        }),
    );
    out.tools
        .extend([use_tool, list_tool].into_iter().flatten());
    out
}

/// The tools tools/list can show on this surface, meta-tools included and capabilities not:
/// what a tool-list budget counts.
pub fn listed_tools(manifest: &Manifest) -> Vec<Tool> {
    with_meta_tools(manifest)
        .tools
        .into_iter()
        .filter(|t| t.listed)
        .collect()
}

/// A meta-tool as a manifest tool. Built through serde so every key a tool gains later keeps
/// its manifest default here too.
fn meta_tool(kind: MetaKind, mut definition: Value) -> Option<Tool> {
    definition["handler"] = json!("custom");
    let mut tool: Tool = serde_json::from_value(definition).ok()?;
    tool.handler = HandlerKind::Meta(kind);
    Some(tool)
}
