//! `nexus-mcp --manifest FILE`: serves a manifest that is not compiled in, for spec authors
//! trying one out and for the conformance test. The file is checked by the same code as the
//! build (errors at file:line:column) and its registry built from the same functions
//! (nexus_mcp_codegen::registry: narrowed modes, published schemas, budgets), then leaked into
//! the runtime's `&'static` registry types: it lives as long as the process.
//! Custom tools need compiled code, so a manifest declaring any is refused, naming them.

use nexus_mcp_codegen::model::{self, Manifest};
use nexus_mcp_codegen::registry;
use nexus_mcp_runtime::spec;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum ManifestFileError {
    #[error("cannot read the manifest {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    /// Every problem, one `FILE:LINE:COL: ...` line each.
    #[error("{0}")]
    Invalid(String),
    #[error(
        "{path} declares custom tools ({names}): custom tools need compiled code. Put the manifest under manifest/ and bind its handlers in src/surfaces/mod.rs, or make them `handler: mapped`."
    )]
    CustomTools { path: PathBuf, names: String },
}

/// Reads, checks and registers the manifest at `path`.
pub fn load(path: &Path) -> Result<&'static spec::SurfaceSpec, ManifestFileError> {
    let source = std::fs::read_to_string(path).map_err(|source| ManifestFileError::Read {
        path: path.to_owned(),
        source,
    })?;
    let manifest = nexus_mcp_codegen::parse(path, &source).map_err(|errors| {
        ManifestFileError::Invalid(
            errors
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n"),
        )
    })?;
    let custom: Vec<&str> = manifest
        .tools
        .iter()
        .filter(|t| t.handler == model::HandlerKind::Custom)
        .map(|t| t.name.as_str())
        .collect();
    if !custom.is_empty() {
        return Err(ManifestFileError::CustomTools {
            path: path.to_owned(),
            names: custom.join(", "),
        });
    }
    // The meta-tools in front of `listed: false` tools, exactly as the compiled registry has them.
    let manifest = nexus_mcp_codegen::emit_capabilities::with_meta_tools(&manifest);
    Ok(leak(surface(&manifest)))
}

fn leak<T>(value: T) -> &'static T {
    Box::leak(Box::new(value))
}

fn text(value: &str) -> &'static str {
    Box::leak(value.to_owned().into_boxed_str())
}

fn opt_text(value: &Option<String>) -> Option<&'static str> {
    value.as_deref().map(text)
}

fn list<T>(items: Vec<T>) -> &'static [T] {
    Box::leak(items.into_boxed_slice())
}

fn texts(items: &[String]) -> &'static [&'static str] {
    list(items.iter().map(|s| text(s)).collect())
}

fn pairs(map: &BTreeMap<String, String>) -> &'static [(&'static str, &'static str)] {
    list(map.iter().map(|(k, v)| (text(k), text(v))).collect())
}

fn surface(m: &Manifest) -> spec::SurfaceSpec {
    spec::SurfaceSpec {
        name: text(&m.surface),
        title: text(&m.server.title),
        version: text(&m.server.version),
        instructions: text(&m.server.instructions),
        result_budget: m.server.result_budget,
        tool_list_budget: m.server.tool_list_budget,
        repository_binding: opt_text(&m.server.repository_binding),
        envelope: list(
            nexus_mcp_codegen::envelope::fields(&m.envelope)
                .into_iter()
                .map(|(name, _, _)| text(name))
                .collect(),
        ),
        scopes: list(
            m.scopes
                .iter()
                .map(|s| spec::ScopeSpec {
                    name: text(&s.name),
                    description: text(&s.description),
                    modes: modes(&s.modes),
                    default_stdio: s.default_stdio,
                })
                .collect(),
        ),
        tools: list(m.tools.iter().map(|t| tool(m, t)).collect()),
        prompts: list(m.prompts.iter().map(prompt).collect()),
        resources: list(m.resources.iter().map(|r| resource(m, r)).collect()),
        capabilities: m.capabilities.as_ref().map(|c| spec::CapabilitiesSpec {
            use_tool: text(&c.use_tool),
            list_tool: text(&c.list_tool),
        }),
    }
}

fn modes(list_of: &[model::Mode]) -> &'static [spec::Mode] {
    list(
        list_of
            .iter()
            .map(|m| match m {
                model::Mode::LocalStdio => spec::Mode::LocalStdio,
                model::Mode::RemoteHttp => spec::Mode::RemoteHttp,
            })
            .collect(),
    )
}

fn nexus(m: &model::NexusMapping) -> spec::NexusSpec {
    spec::NexusSpec {
        method: match m.method {
            model::Method::Get => spec::HttpMethod::Get,
            model::Method::Post => spec::HttpMethod::Post,
        },
        path: text(&m.path),
        query: pairs(&m.query),
        body: pairs(&m.body),
    }
}

fn response(r: &model::Response, budget: usize) -> spec::ResponseSpec {
    spec::ResponseSpec {
        pick: texts(&r.pick),
        exclude: texts(&r.exclude),
        max_items: r.max_items,
        max_string: r.max_string,
        budget,
    }
}

fn content(c: &model::Content) -> spec::ContentSpec {
    spec::ContentSpec {
        kind: match c.kind {
            model::ContentKind::Text => spec::ContentKind::Text,
            model::ContentKind::Image => spec::ContentKind::Image,
            model::ContentKind::Audio => spec::ContentKind::Audio,
            model::ContentKind::Resource => spec::ContentKind::Resource,
        },
        text: opt_text(&c.text),
        data: opt_text(&c.data),
        mime_type: opt_text(&c.mime_type),
        uri: opt_text(&c.uri),
    }
}

fn tool(m: &Manifest, t: &model::Tool) -> spec::ToolSpec {
    let derived = registry::tool_derived(m, t);
    spec::ToolSpec {
        name: text(&t.name),
        title: text(&t.title),
        description: text(&t.description),
        scope: text(&t.scope),
        access: match t.access {
            model::Access::Read => spec::Access::Read,
            model::Access::Append => spec::Access::Append,
            model::Access::Write => spec::Access::Write,
            model::Access::Destructive => spec::Access::Destructive,
        },
        modes: modes(&derived.modes),
        handler: match t.handler {
            model::HandlerKind::Mapped => spec::Handler::Mapped,
            model::HandlerKind::Custom => spec::Handler::Custom,
            model::HandlerKind::Meta(model::MetaKind::Use) => {
                spec::Handler::Meta(spec::MetaTool::Use)
            }
            model::HandlerKind::Meta(model::MetaKind::List) => {
                spec::Handler::Meta(spec::MetaTool::List)
            }
        },
        input_schema: text(&derived.input_schema),
        output_schema: text(&derived.output_schema),
        nexus: t.nexus.as_ref().map(nexus),
        response: response(&t.response, derived.budget),
        pagination: t.pagination.as_ref().map(|p| spec::PaginationSpec {
            items: text(&p.items),
            cursor: text(&p.cursor),
            next: text(&p.next),
        }),
        mutation: t.mutation.as_ref().map(|mu| spec::MutationSpec {
            dry_run_param: mu.dry_run.as_ref().map(|d| text(&d.param)),
            dry_run_default: mu.dry_run.as_ref().is_none_or(|d| d.default),
            paired_dry_run_tool: opt_text(&mu.paired_dry_run_tool),
            require_true: texts(&mu.require_true),
            plan_param: opt_text(&mu.plan_param),
            follow_up: opt_text(&mu.follow_up),
            changes: text(mu.changes.as_deref().unwrap_or_default()),
            approver: text(mu.approver.as_deref().unwrap_or_default()),
        }),
        content: list(t.content.iter().map(content).collect()),
        listed: t.listed,
        errors: list(
            t.errors
                .iter()
                .map(|(key, target)| spec::ErrorCodeSpec {
                    when: match key {
                        model::ErrorKey::Status(status) => spec::BackendFailure::Status(*status),
                        model::ErrorKey::Code(code) => spec::BackendFailure::Code(text(code)),
                    },
                    code: text(target.code()),
                    message: target.message().map(text),
                })
                .collect(),
        ),
    }
}

/// Validation has refused every shape but these two.
fn completion(c: &model::Completion) -> spec::CompletionSpec {
    match (&c.nexus, &c.pick, &c.scope) {
        (Some(n), Some(pick), Some(scope)) => spec::CompletionSpec::Nexus {
            nexus: nexus(n),
            pick: text(pick),
            scope: text(scope),
        },
        _ => spec::CompletionSpec::Values(texts(&c.values)),
    }
}

fn prompt(p: &model::Prompt) -> spec::PromptSpec {
    spec::PromptSpec {
        name: text(&p.name),
        title: opt_text(&p.title),
        description: text(&p.description),
        arguments: list(
            p.arguments
                .iter()
                .map(|a| spec::PromptArgSpec {
                    name: text(&a.name),
                    description: text(&a.description),
                    required: a.required,
                    complete: a.complete.as_ref().map(completion),
                })
                .collect(),
        ),
        template: text(&p.template),
        messages: list(
            p.messages
                .iter()
                .map(|msg| spec::PromptMessageSpec {
                    role: match msg.role {
                        model::Role::User => spec::Role::User,
                        model::Role::Assistant => spec::Role::Assistant,
                    },
                    content: content(&msg.content),
                })
                .collect(),
        ),
        call: p.call.as_ref().map(|c| spec::PromptCallSpec {
            tool: text(&c.tool),
            arguments: pairs(&c.arguments),
        }),
    }
}

fn resource(m: &Manifest, r: &model::Resource) -> spec::ResourceSpec {
    spec::ResourceSpec {
        uri: text(&r.uri),
        name: text(&r.name),
        title: opt_text(&r.title),
        description: text(&r.description),
        mime_type: text(&r.mime_type),
        template: text(&r.template),
        nexus: r.nexus.as_ref().map(nexus),
        text: opt_text(&r.text),
        blob: opt_text(&r.blob),
        scope: opt_text(&r.scope),
        response: response(&r.response, registry::resource_budget(m, r)),
        complete: list(
            r.complete
                .iter()
                .map(|(var, c)| (text(var), completion(c)))
                .collect(),
        ),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;

    /// The registry built at run time from a manifest file is the compiled one: same published
    /// schemas byte for byte, same modes, budgets, prompts and resources.
    #[test]
    fn a_loaded_manifest_publishes_what_the_compiled_surface_publishes() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("manifest/nexus-code-kg.yaml");
        let source = std::fs::read_to_string(&path).unwrap();
        let manifest = nexus_mcp_codegen::parse(&path, &source).unwrap();
        let loaded = surface(&manifest);
        let compiled = crate::surface("nexus-code-kg").unwrap();
        assert_eq!(loaded.tools.len(), compiled.tools.len());
        for (l, c) in loaded.tools.iter().zip(compiled.tools) {
            assert_eq!(l.name, c.name);
            assert_eq!(l.input_schema, c.input_schema, "{}", c.name);
            assert_eq!(l.output_schema, c.output_schema, "{}", c.name);
            assert_eq!(l.modes, c.modes, "{}", c.name);
            assert_eq!(l.response.budget, c.response.budget, "{}", c.name);
        }
        assert_eq!(
            format!("{:?}", loaded.prompts),
            format!("{:?}", compiled.prompts)
        );
        assert_eq!(
            format!("{:?}", loaded.resources),
            format!("{:?}", compiled.resources)
        );
        assert_eq!(
            format!("{:?}", loaded.scopes),
            format!("{:?}", compiled.scopes)
        );
    }
}
