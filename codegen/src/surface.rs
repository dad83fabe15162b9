//! The registry value of a manifest: [`surface`] is the one function that builds it. The build
//! bakes its result into Rust (bake.rs) and nexus-mcp's `--manifest` serves it as is, so a
//! manifest served from a file is exactly the compiled one. Beyond the manifest's own values it
//! holds what is derived: each tool's narrowed modes, published schemas and budget, and the
//! meta-tools of `capabilities:`.

use crate::model::{self, Manifest, Mode, Tool};
use nexus_mcp_registry::json::canonical_json;
use nexus_mcp_registry::spec;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Mutex, PoisonError};

/// The registry value of `manifest` (checked by [`crate::parse`]). The runtime's registry types
/// borrow for `'static`, so its strings and lists are leaked: it is built once per manifest, at
/// build time or when `--manifest` starts the server, and lives as long as the process. Strings
/// (schemas and descriptions, most of the bytes) are leaked once per distinct text, so a process
/// building many similar manifests (the fuzz targets, the budget check) does not grow by whole
/// copies.
pub fn surface(manifest: &Manifest) -> &'static spec::SurfaceSpec {
    leak(surface_of(&crate::emit_capabilities::with_meta_tools(
        manifest,
    )))
}

fn leak<T>(value: T) -> &'static T {
    Box::leak(Box::new(value))
}

fn text(value: &str) -> &'static str {
    static TEXTS: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());
    // A panic elsewhere cannot leave the set half-written: inserting is its only change.
    let mut texts = TEXTS.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(known) = texts.get(value) {
        return known;
    }
    let leaked: &'static str = Box::leak(value.to_owned().into_boxed_str());
    texts.insert(leaked);
    leaked
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

fn surface_of(m: &Manifest) -> spec::SurfaceSpec {
    spec::SurfaceSpec {
        name: text(&m.surface),
        title: text(&m.server.title),
        version: text(&m.server.version),
        instructions: text(&m.server.instructions),
        result_budget: m.server.result_budget,
        tool_list_budget: m.server.tool_list_budget,
        repository_binding: opt_text(&m.server.repository_binding),
        envelope: list(
            crate::envelope::fields(&m.envelope)
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
    let derived = tool_derived(m, t);
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
            also: texts(&p.also),
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
            confirm: opt_text(&mu.confirm),
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
        ask: rounds(&t.ask),
        choose: t.choose.as_ref().map(|c| spec::ChooseSpec {
            from: text(&c.from),
            by: text(&c.by),
            message: text(&c.message),
            label: text(&c.label),
        }),
    }
}

fn rounds(rounds: &[BTreeMap<String, model::Ask>]) -> &'static [&'static [spec::AskSpec]] {
    list(
        rounds
            .iter()
            .map(|round| list(round.iter().map(|(key, a)| ask(key, a)).collect()))
            .collect(),
    )
}

/// Validation has refused a question with no request or several.
fn ask(key: &str, a: &model::Ask) -> spec::AskSpec {
    let request = match (&a.elicit, &a.sample) {
        (Some(e), _) => spec::AskRequest::Elicit {
            message: text(&e.message),
            schema: text(&canonical_json(&e.schema)),
        },
        (None, Some(s)) => spec::AskRequest::Sample {
            prompt: text(&s.prompt),
            max_tokens: s.max_tokens,
        },
        (None, None) => spec::AskRequest::Roots,
    };
    spec::AskSpec {
        key: text(key),
        request,
        optional: a.optional,
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
        ask: rounds(&p.ask),
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
        response: response(&r.response, resource_budget(m, r)),
        complete: list(
            r.complete
                .iter()
                .map(|(var, c)| (text(var), completion(c)))
                .collect(),
        ),
        poll_seconds: r.subscribe.as_ref().map(|s| s.poll_seconds),
    }
}

/// The derived registry values of one tool.
#[derive(Debug, Clone, PartialEq, Eq)]
struct ToolDerived {
    /// The tool's own modes, or its scope's.
    modes: Vec<Mode>,
    /// Published input schema, canonical JSON (what contract/ holds).
    input_schema: String,
    /// Published output schema with the envelope fields, canonical JSON.
    output_schema: String,
    /// The tool's result budget, or the server's.
    budget: usize,
}

fn tool_derived(manifest: &Manifest, tool: &Tool) -> ToolDerived {
    let types = &manifest.types;
    let scope_modes = manifest
        .scopes
        .iter()
        .find(|s| s.name == tool.scope)
        .map(|s| s.modes.clone())
        .unwrap_or_default();
    ToolDerived {
        modes: tool.modes.clone().unwrap_or(scope_modes),
        input_schema: canonical_json(&crate::portable::input(&tool.input, types)),
        output_schema: canonical_json(&crate::portable::output(
            &crate::envelope::with_envelope(tool, &manifest.envelope),
            types,
        )),
        budget: tool
            .response
            .budget
            .unwrap_or(manifest.server.result_budget),
    }
}

/// The budget of a resource's backend answer: its own, or the server's.
fn resource_budget(manifest: &Manifest, resource: &crate::model::Resource) -> usize {
    resource
        .response
        .budget
        .unwrap_or(manifest.server.result_budget)
}
