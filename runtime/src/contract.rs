//! contract/<surface>/: the published form of each tool, committed, and checked byte for byte
//! against the manifest so CI fails on any drift, missing file or leftover of a removed tool.

use crate::spec::{SurfaceSpec, ToolSpec};
use serde_json::{Value, json};
use similar::TextDiff;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum ContractError {
    #[error("cannot read or write {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot render the contract README: {0}")]
    Render(#[from] minijinja::Error),
}

const README_TEMPLATE: &str = include_str!("contract_readme.md.j2");

/// The committed JSON of one tool: sorted keys, two-space indent, trailing newline.
pub fn tool_document(tool: &ToolSpec) -> String {
    let parse = |s: &str| serde_json::from_str::<Value>(s).unwrap_or(Value::Null);
    let doc = json!({
        "name": tool.name,
        "title": tool.title,
        "description": tool.description,
        "scope": tool.scope,
        "access": tool.access.as_str(),
        "modes": tool.modes.iter().map(|m| m.as_str()).collect::<Vec<_>>(),
        "annotations": tool.annotations(),
        "inputSchema": parse(tool.input_schema),
        "outputSchema": parse(tool.output_schema),
    });
    let mut doc = doc;
    if !tool.listed {
        // A capability: published through the meta-tools, not tools/list.
        doc["listed"] = Value::Bool(false);
    }
    let sorted = crate::json::sort_keys(&doc);
    serde_json::to_string_pretty(&sorted)
        .map(|s| s + "\n")
        .unwrap_or_default()
}

/// Every file contract/<surface>/ should hold, by file name.
pub fn expected(surface: &SurfaceSpec) -> Result<BTreeMap<String, String>, ContractError> {
    let mut files: BTreeMap<String, String> = surface
        .tools
        .iter()
        .map(|t| (format!("{}.json", t.name), tool_document(t)))
        .collect();
    let row = |t: &ToolSpec| {
        json!({"name": t.name, "title": t.title, "scope": t.scope, "access": t.access.as_str(),
                        "modes": t.modes.iter().map(|m| m.as_str()).collect::<Vec<_>>().join(", "),
                        "description": t.description.split_whitespace().collect::<Vec<_>>().join(" ")})
    };
    // The tool list is what tools/list can show; capabilities get their own table.
    let tools: Vec<Value> = surface.tools.iter().filter(|t| t.listed).map(row).collect();
    let capabilities: Vec<Value> = surface
        .tools
        .iter()
        .filter(|t| !t.listed)
        .map(row)
        .collect();
    let scopes: Vec<Value> = surface
        .scopes
        .iter()
        .map(|s| {
            json!({"name": s.name, "description": s.description, "default_stdio": s.default_stdio,
                        "modes": s.modes.iter().map(|m| m.as_str()).collect::<Vec<_>>().join(", ")})
        })
        .collect();
    let readme = crate::templates::env().render_str(
        README_TEMPLATE,
        minijinja::context! { surface => minijinja::Value::from(minijinja::value::Serde(json!({"name": surface.name, "title": surface.title, "version": surface.version}))), tools => minijinja::Value::from(minijinja::value::Serde(&tools)), scopes => minijinja::Value::from(minijinja::value::Serde(&scopes)), capabilities => minijinja::Value::from(minijinja::value::Serde(&capabilities)), meta => surface.capabilities.as_ref().map(|c| c.use_tool) },
    )?;
    files.insert("README.md".to_owned(), readme);
    files.extend(crate::contract_extra::prompt_and_resource_documents(
        surface,
    ));
    Ok(files)
}

/// Rewrites contract/<surface>/ and removes files of tools that no longer exist.
pub fn write(root: &Path, surface: &SurfaceSpec) -> Result<usize, ContractError> {
    let dir = root.join(surface.name);
    std::fs::create_dir_all(&dir).map_err(|source| ContractError::Io {
        path: dir.clone(),
        source,
    })?;
    let files = expected(surface)?;
    for name in actual_files(&dir)?
        .keys()
        .filter(|n| !files.contains_key(*n))
    {
        let path = dir.join(name);
        std::fs::remove_file(&path).map_err(|source| ContractError::Io { path, source })?;
    }
    for (name, content) in &files {
        let path = dir.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|source| ContractError::Io {
                path: parent.to_owned(),
                source,
            })?;
        }
        std::fs::write(&path, content).map_err(|source| ContractError::Io { path, source })?;
    }
    Ok(files.len())
}

fn actual_files(dir: &Path) -> Result<BTreeMap<String, String>, ContractError> {
    let mut out = BTreeMap::new();
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(out),
        Err(source) => {
            return Err(ContractError::Io {
                path: dir.to_owned(),
                source,
            });
        }
    };
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        // prompts/ and resources/ hold one file each; their keys are `prompts/<name>.json`.
        if path.is_dir()
            && let Some(sub) = path.file_name().and_then(|n| n.to_str())
        {
            for (name, text) in actual_files(&path)? {
                out.insert(format!("{sub}/{name}"), text);
            }
            continue;
        }
        if path.is_file()
            && let Some(name) = path.file_name().and_then(|n| n.to_str())
        {
            let text = std::fs::read_to_string(&path).map_err(|source| ContractError::Io {
                path: path.clone(),
                source,
            })?;
            out.insert(name.to_owned(), text);
        }
    }
    Ok(out)
}

/// Human-readable drift report; empty when contract/<surface>/ is current.
pub fn check(root: &Path, surface: &SurfaceSpec) -> Result<Vec<String>, ContractError> {
    let dir = root.join(surface.name);
    let expected = expected(surface)?;
    let actual = actual_files(&dir)?;
    let mut problems = Vec::new();
    for (name, want) in &expected {
        let shown = dir.join(name).display().to_string();
        match actual.get(name) {
            None => problems.push(format!("missing: {shown} (the manifest declares it)")),
            Some(have) if have != want => {
                let diff = TextDiff::from_lines(have.as_str(), want.as_str());
                let body = diff
                    .unified_diff()
                    .context_radius(2)
                    .header(&format!("{shown} (committed)"), "manifest (expected)")
                    .to_string();
                problems.push(format!("drift: {shown}\n{body}"));
            }
            Some(_) => {}
        }
    }
    for name in actual.keys().filter(|n| !expected.contains_key(*n)) {
        problems.push(format!(
            "leftover: {} (no tool of that name in the manifest; delete it)",
            dir.join(name).display()
        ));
    }
    Ok(problems)
}
