//! nexus-doc-kg's one piece of code: `validate_traceability(workspacePath?)`. The seed lets a
//! local agent name the workspace by its folder; the Nexus API only ever takes a served
//! workspace's name. So a `workspacePath` is accepted over local stdio only, must resolve (after
//! symlinks) inside the allowed roots and inside a served workspace, and becomes
//! `workspace=<name>`. Over HTTP it is refused: no server path comes from a remote caller.
//! Everything else of the surface is mapped in manifest/nexus-doc-kg.yaml.

use super::environment::Environment;
use nexus_mcp_runtime::app::{ProbeFuture, ProgressProbe, SurfaceParts, ToolContext, ToolFuture};
use nexus_mcp_runtime::backend::{NexusRequest, mapping};
use nexus_mcp_runtime::error::{ToolError, echo};
use nexus_mcp_runtime::spec::Mode;
use nexus_mcp_runtime::spec::ToolSpec;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

const TOOL: &str = "validate_traceability";

const REFUSED: &str = "workspace_path_refused";

/// The workspaces this process serves locally, by name, with their canonical roots.
#[derive(Debug, Default)]
pub struct DocKg {
    workspaces: BTreeMap<String, PathBuf>,
}

/// The binding: one custom tool over the served workspaces; no envelope (answers carry
/// `workspace` themselves).
pub fn bind(env: &Environment) -> SurfaceParts {
    let doc_kg = Arc::new(DocKg {
        workspaces: env
            .doc_workspaces
            .iter()
            .map(|(name, root)| {
                (
                    name.clone(),
                    root.canonicalize().unwrap_or_else(|_| root.clone()),
                )
            })
            .collect(),
    });
    SurfaceParts {
        custom: Arc::new(move |ctx, tool, args| dispatch(doc_kg.clone(), ctx, tool, args)),
        envelope: None,
        progress: Some(Arc::new(Indexing)),
    }
}

/// The Nexus route that says how far a workspace being indexed got, without waiting for it.
const WORKSPACES: &str = "/api/v1/docs/workspaces";

/// Progress of a call waiting on a workspace's (cold) index: files parsed of how many.
struct Indexing;

impl ProgressProbe for Indexing {
    fn probe<'a>(
        &'a self,
        ctx: &'a ToolContext,
        _tool: &'static ToolSpec,
        arguments: &'a Value,
    ) -> ProbeFuture<'a> {
        Box::pin(async move {
            let answer = ctx.nexus(&NexusRequest::get(WORKSPACES)).await.ok()?;
            let named = arguments.get("workspace").and_then(Value::as_str);
            let list = answer.get("workspaces")?.as_array()?;
            let w = match named {
                Some(name) => list.iter().find(|w| w["name"] == name)?,
                None if list.len() == 1 => &list[0],
                None => return None,
            };
            let p = w.get("indexing")?;
            let name = w["name"].as_str().unwrap_or_default();
            let files = p["files"].as_u64().unwrap_or(0);
            Some(match p["of"].as_u64() {
                Some(of) if of > 0 => (
                    files as f64 / of as f64,
                    format!("indexing workspace {name}: {files} of {of} files parsed"),
                ),
                _ => (0.0, format!("indexing workspace {name}: listing files")),
            })
        })
    }
}

fn dispatch(doc_kg: Arc<DocKg>, ctx: ToolContext, tool: &str, args: Value) -> Option<ToolFuture> {
    match tool {
        TOOL => Some(Box::pin(async move {
            doc_kg.validate_traceability(&ctx, &args).await
        })),
        _ => None,
    }
}

impl DocKg {
    async fn validate_traceability(
        &self,
        ctx: &ToolContext,
        args: &Value,
    ) -> Result<Value, ToolError> {
        let named = args.get("workspace").and_then(Value::as_str);
        let workspace = match args.get("workspacePath").and_then(Value::as_str) {
            None => named.map(str::to_owned),
            Some(path) => {
                let from_path = self.workspace_of(ctx, path)?;
                if let Some(named) = named
                    && named != from_path
                {
                    return Err(ToolError::refused(
                        REFUSED,
                        format!(
                            "workspacePath `{}` is workspace `{from_path}` but workspace says `{}`: give one of them",
                            echo(path),
                            echo(named)
                        ),
                    ));
                }
                Some(from_path)
            }
        };
        let spec = ctx
            .app
            .surface
            .tools
            .iter()
            .find(|t| t.name == TOOL)
            .and_then(|t| t.nexus.as_ref())
            .ok_or_else(|| ToolError::Internal(format!("{TOOL} has no nexus mapping")))?;
        // The manifest's mapping, with the workspace the path named.
        let mut input = args.clone();
        if let Some(o) = input.as_object_mut() {
            o.remove("workspacePath");
            match workspace {
                Some(w) => o.insert("workspace".to_owned(), Value::String(w)),
                None => o.remove("workspace"),
            };
        }
        ctx.nexus(&mapping::render(TOOL, spec, &input)?).await
    }

    /// The served workspace `path` lies in, or why it may not be used.
    fn workspace_of(&self, ctx: &ToolContext, path: &str) -> Result<String, ToolError> {
        if ctx.mode != Mode::LocalStdio {
            return Err(ToolError::refused(
                REFUSED,
                "workspacePath is only accepted by a local stdio server; over HTTP, name a served workspace with `workspace` (or omit both when the server serves one)",
            ));
        }
        let shown = echo(path);
        let raw = Path::new(path);
        if !raw.is_absolute() {
            return Err(ToolError::refused(
                REFUSED,
                format!("workspacePath `{shown}` must be an absolute path"),
            ));
        }
        if raw.components().any(|c| c == Component::ParentDir) {
            return Err(ToolError::refused(
                REFUSED,
                format!("workspacePath `{shown}` contains `..`; pass the folder's real path"),
            ));
        }
        let canonical = raw.canonicalize().map_err(|e| ToolError::NotFound {
            message: format!("workspacePath `{shown}` cannot be resolved: {e}"),
        })?;
        let roots = &ctx.app.settings.local_repo_roots;
        if !roots.iter().any(|root| canonical.starts_with(root)) {
            return Err(ToolError::refused(
                REFUSED,
                format!(
                    "workspacePath `{shown}` resolves outside the allowed roots (NEXUS_MCP_LOCAL_REPO_ROOTS, or the served workspaces when it is unset; symlinks are followed before the check)"
                ),
            ));
        }
        // The innermost served workspace holding the path.
        self.workspaces
            .iter()
            .filter(|(_, root)| canonical.starts_with(root))
            .max_by_key(|(_, root)| root.components().count())
            .map(|(name, _)| name.clone())
            .ok_or_else(|| {
                let served: Vec<String> = self
                    .workspaces
                    .iter()
                    .map(|(name, root)| format!("{name} ({})", root.display()))
                    .collect();
                ToolError::refused(
                    REFUSED,
                    format!(
                        "workspacePath `{shown}` is not inside a served workspace; this server serves: {}. Start it with --workspace PATH to serve another folder.",
                        if served.is_empty() {
                            "none".to_owned()
                        } else {
                            served.join(", ")
                        }
                    ),
                )
            })
    }
}
