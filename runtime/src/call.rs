//! One tool call, from raw arguments to the trimmed result: visibility, schema validation,
//! schema defaults, the manifest's mutation rules, mapped or custom execution (backend failures
//! under the tool's declared error codes), the follow-up hint, the surface's envelope and the
//! budget. stdio, HTTP and the `call` CLI all go through here, and so does a capability run
//! through the `use_capability` meta-tool.

use crate::access;
use crate::app::ToolContext;
use crate::arguments;
use crate::backend::BackendFailure;
use crate::backend::mapping;
use crate::error::{ToolError, capped};
use crate::log::LogLevel;
use crate::spec::{Handler, MetaTool, ToolSpec};
use crate::trim;
use serde_json::{Map, Value, json};

pub(crate) mod ask;
mod defaults;
pub(crate) mod error_codes;
mod follow_up;
mod meta;
mod page;

/// A call that failed before or while running.
#[derive(Debug, thiserror::Error)]
pub enum CallError {
    /// Not listed for this caller (unknown, out of scope, wrong mode, or a capability, which
    /// only its meta-tool reaches): JSON-RPC -32602.
    #[error("unknown tool `{0}`")]
    UnknownTool(String),
    #[error(transparent)]
    Tool(#[from] ToolError),
    /// The tool asks the client first (2026-07-28): not a failure, the answer to send back.
    #[error("the tool needs input from the client")]
    InputRequired(Box<rmcp::model::InputRequiredResult>),
    /// The tool needs a client capability the client did not declare: -32021.
    #[error("`{tool}` needs a client that supports {}", capabilities.join(" and "))]
    MissingCapability {
        tool: &'static str,
        capabilities: Vec<&'static str>,
    },
    /// A `requestState` this server did not seal for this call (tampered, expired, or sealed
    /// for other arguments): -32602.
    #[error(
        "requestState is not one this server issued for this call (changed, expired, or given for other arguments); call the tool again without it"
    )]
    BadRequestState,
    /// An `inputResponses` entry that is not the result of the request it answers: -32602.
    #[error("{0}")]
    BadInputResponse(String),
}

/// Runs `name` with `arguments` for the caller described by `ctx`.
pub async fn call(ctx: ToolContext, name: &str, arguments: Value) -> Result<Value, CallError> {
    let surface = ctx.app.surface;
    let tool = surface
        .tool(name)
        .filter(|t| access::listed(surface, t, ctx.mode, &ctx.scopes))
        .ok_or_else(|| CallError::UnknownTool(name.to_owned()))?;
    run(ctx, tool, arguments).await
}

/// One run of a tool the caller may use: the meta-tools re-enter here with a capability.
async fn run(
    ctx: ToolContext,
    tool: &'static ToolSpec,
    arguments: Value,
) -> Result<Value, CallError> {
    let mut arguments = if arguments.is_null() {
        Value::Object(Map::new())
    } else {
        arguments
    };
    validate(&ctx, tool, &arguments)?;
    if let Some(schema) = ctx.app.input_schema(tool) {
        defaults::apply(schema, &mut arguments);
    }
    let real_run = tool
        .mutation
        .as_ref()
        .is_some_and(|m| follow_up::real_run(m, &arguments));
    // Questions live in their own allocation, for the tools that can ask: the common call's
    // future (copied whole when its task is spawned) does not carry their state.
    let answers = if tool.may_ask() {
        Box::pin(ask::gather(&ctx, tool, &mut arguments, real_run)).await?
    } else {
        Value::Null
    };
    enforce_mutation_rules(tool, &arguments)?;
    let started = std::time::Instant::now();
    client_log(&ctx, || format!("`{}` called", tool.name)).await;
    let mut raw = match tool.handler {
        // The capability's answer is already finished under its own budget and envelope.
        Handler::Meta(MetaTool::Use) => return meta::use_capability(ctx, arguments).await,
        Handler::Meta(MetaTool::List) => meta::list(&ctx, &arguments)?,
        Handler::Mapped | Handler::Custom => {
            // Progress around a mapped tool's backend request, for clients that sent a
            // progressToken; custom tools report their own.
            let mapped = tool.handler == Handler::Mapped;
            if mapped {
                ctx.progress(0.0, Some(2.0), "asking the backend").await;
            }
            let raw = execute(&ctx, tool, &arguments, &answers).await;
            if mapped {
                ctx.progress(1.0, Some(2.0), "the backend answered").await;
            }
            let raw = raw?;
            // Several matches: the human may pick one, and the tool runs again for it.
            let choice = match tool.choose {
                Some(_) => Box::pin(ask::choice(&ctx, tool, &arguments, &raw)).await?,
                None => None,
            };
            match choice {
                Some((by, picked)) => {
                    if let Some(obj) = arguments.as_object_mut() {
                        obj.insert(by.to_owned(), picked);
                    }
                    execute(&ctx, tool, &arguments, &answers).await?
                }
                None => raw,
            }
        }
    };
    follow_up::add(&ctx, tool, &arguments, &mut raw);
    let result = finish(&ctx, tool, raw).await;
    if tool.handler == Handler::Mapped {
        ctx.progress(2.0, Some(2.0), "done").await;
    }
    client_log(&ctx, || {
        let took = started.elapsed().as_secs_f64() * 1e3;
        format!("`{}` answered in {took:.1} ms", tool.name)
    })
    .await;
    Ok(result)
}

/// A mapped or custom tool's run: its backend failures under the tool's declared error codes.
async fn execute(
    ctx: &ToolContext,
    tool: &'static ToolSpec,
    arguments: &Value,
    answers: &Value,
) -> Result<Value, CallError> {
    match tool.handler {
        Handler::Mapped => {
            let request = std::pin::pin!(run_mapped(ctx, tool, arguments, answers));
            Ok(probed(ctx, tool, arguments, request)
                .await
                .map_err(|f| error_codes::apply(tool, arguments, f))?)
        }
        Handler::Custom => {
            let app = ctx.app.clone();
            let mut future = (app.parts.custom)(ctx.clone(), tool.name, arguments.clone())
                .ok_or_else(|| {
                    ToolError::Internal(format!(
                        "custom tool `{}` has no implementation",
                        tool.name
                    ))
                })?;
            Ok(probed(ctx, tool, arguments, future.as_mut())
                .await
                .map_err(|e| error_codes::apply(tool, arguments, e.into()))?)
        }
        Handler::Meta(_) => {
            Err(ToolError::Internal(format!("meta-tool `{}` has no backend run", tool.name)).into())
        }
    }
}

/// An info message to the client's log (sent only when it asked with logging/setLevel).
/// The message is only built when the client asked for info messages (most never do).
async fn client_log(ctx: &ToolContext, message: impl FnOnce() -> String) {
    if let Some(log) = ctx.log.as_ref().filter(|l| l.enabled(LogLevel::Info)) {
        log.log(LogLevel::Info, message()).await;
    }
}

fn validate(ctx: &ToolContext, tool: &ToolSpec, arguments: &Value) -> Result<(), ToolError> {
    let Some(validator) = ctx.app.validator(tool) else {
        return Err(ToolError::Internal(format!(
            "the input schema of `{}` does not compile",
            tool.name
        )));
    };
    // Valid arguments, the usual case, skip collecting errors.
    if validator.is_valid(arguments) {
        return Ok(());
    }
    // The allowed property names live in the schema.
    let schema = ctx.app.input_schema(tool).unwrap_or(&Value::Null);
    let problems = arguments::problems(validator, schema, arguments);
    if problems.is_empty() {
        return Ok(());
    }
    let message = problems
        .iter()
        .map(|p| p.message.as_str())
        .collect::<Vec<_>>()
        .join("; ");
    Err(ToolError::InvalidArguments {
        tool: tool.name.to_owned(),
        message: capped(&message).into_owned(),
        problems,
    })
}

/// The manifest's mutation rules hold for every write tool, whoever implements it.
fn enforce_mutation_rules(tool: &ToolSpec, arguments: &Value) -> Result<(), ToolError> {
    let Some(rules) = &tool.mutation else {
        return Ok(());
    };
    let flag = |name: &str| arguments.get(name).and_then(Value::as_bool);
    if !follow_up::real_run(rules, arguments) {
        return Ok(());
    }
    let missing: Vec<&str> = rules
        .require_true
        .iter()
        .copied()
        .filter(|p| flag(p) != Some(true))
        .collect();
    if !missing.is_empty() {
        let dry = rules
            .dry_run_param
            .map(|p| format!("run it with {p}=true first, review the plan, then "))
            .or(rules
                .paired_dry_run_tool
                .map(|t| format!("call {t} first, review the plan, then ")))
            .unwrap_or_default();
        return Err(ToolError::refused(
            "confirmation_required",
            format!(
                "`{}` {} and needs explicit confirmation: {dry}set {} to true once {} has approved it.",
                tool.name,
                rules.changes,
                missing.join(" and "),
                rules.approver
            ),
        ));
    }
    if let Some(plan) = rules.plan_param
        && arguments
            .get(plan)
            .and_then(Value::as_str)
            .is_none_or(str::is_empty)
    {
        return Err(ToolError::refused(
            "plan_required",
            format!(
                "`{}` needs `{plan}` from a dry run, so that what runs is what was reviewed. Run the dry run and pass its {plan}.",
                tool.name
            ),
        ));
    }
    Ok(())
}

/// How often a waiting call asks the surface's [`crate::app::ProgressProbe`].
pub const PROBE_EVERY: std::time::Duration = std::time::Duration::from_millis(200);

/// Awaits `request`, reporting what the surface's progress probe says meanwhile (only to a
/// caller that asked for progress), as increasing progress between 0 and 1 of 2.
///
/// `request` is pinned where the caller holds it: taken by value it would be stored twice more
/// in this future (the argument, then the awaited or pinned copy), and every call's task is
/// copied whole when it is spawned.
async fn probed<F: std::future::Future + ?Sized>(
    ctx: &ToolContext,
    tool: &'static ToolSpec,
    arguments: &Value,
    mut request: std::pin::Pin<&mut F>,
) -> F::Output {
    let (Some(probe), Some(_)) = (&ctx.app.parts.progress, &ctx.progress) else {
        return request.await;
    };
    let mut ticks =
        tokio::time::interval_at(tokio::time::Instant::now() + PROBE_EVERY, PROBE_EVERY);
    let mut last = 0.0;
    loop {
        tokio::select! {
            out = request.as_mut() => return out,
            _ = ticks.tick() => {
                // The answer may come while the probe is asked: it is not kept waiting.
                let said = tokio::select! {
                    out = request.as_mut() => return out,
                    said = probe.probe(ctx, tool, arguments) => said,
                };
                if let Some((done, message)) = said {
                    // MCP progress only ever increases.
                    let at = done.clamp(0.0, 1.0) * 0.99;
                    if at > last {
                        last = at;
                        ctx.progress(at, Some(2.0), message).await;
                    }
                }
            }
        }
    }
}

async fn run_mapped(
    ctx: &ToolContext,
    tool: &ToolSpec,
    arguments: &Value,
    answers: &Value,
) -> Result<Value, BackendFailure> {
    let spec = tool.nexus.as_ref().ok_or_else(|| {
        ToolError::Internal(format!("mapped tool `{}` has no nexus mapping", tool.name))
    })?;
    let mut input = arguments.clone();
    let mut start = None;
    if let Some(p) = &tool.pagination
        && let Some(cursor) = arguments.get(p.cursor).and_then(Value::as_str)
    {
        let decoded = page::Start::decode(tool, p, cursor)?;
        if let Some(obj) = input.as_object_mut() {
            match &decoded.backend {
                Some(b) => obj.insert(p.cursor.to_owned(), Value::String(b.clone())),
                None => obj.remove(p.cursor),
            };
        }
        start = Some(decoded);
    }
    let request = mapping::render_with(tool.name, spec, &input, answers)?;
    let mut response = ctx
        .app
        .nexus
        .send_detailed(&ctx.bound(&request), ctx.log.as_deref())
        .await?;
    if let Some(p) = &tool.pagination {
        page::prepare(&mut response, p, start);
    }
    Ok(response)
}

/// Shapes, budgets and annotates a raw result.
async fn finish(ctx: &ToolContext, tool: &'static ToolSpec, mut raw: Value) -> Value {
    let page = raw.as_object_mut().and_then(|o| o.remove(page::PAGE_KEY));
    let envelope = envelope(ctx, tool, &raw).await;
    let binary = take_binary(ctx, tool, &mut raw);
    let (value, mut report) = trim::shape(raw, &tool.response);
    let keys: Vec<&str> = ENGINE_KEYS
        .into_iter()
        .chain(tool.pagination.as_ref().map(|p| p.next))
        .chain(envelope.keys().map(String::as_str))
        .collect();
    let mut result = fit_with_envelope(
        value,
        &mut report,
        tool.response.budget,
        &keys,
        |value, report| {
            annotate(value, tool, page.as_ref(), report, &envelope);
        },
    );
    // Outside the budget: the budget is what the model reads as text.
    if let Some(obj) = result.as_object_mut() {
        obj.extend(binary);
    }
    result
}

/// The answer's binary fields, taken out before trimming: top-level output properties declared
/// `contentEncoding: base64` in a tool with `content:` blocks. Base64 is not text to redact or
/// cut (either breaks the image); it goes into a content block as sent, outside the budget.
fn take_binary(ctx: &ToolContext, tool: &ToolSpec, raw: &mut Value) -> Map<String, Value> {
    let mut taken = Map::new();
    if tool.content.is_empty() {
        return taken;
    }
    for name in ctx.app.binary_fields(tool) {
        if let Some(value) = raw.as_object_mut().and_then(|o| o.remove(name)) {
            taken.insert(name.clone(), value);
        }
    }
    taken
}

/// The surface's envelope fields for this answer: what its hook computes, limited to the names
/// its manifest declares (the output schemas publish exactly those).
async fn envelope(ctx: &ToolContext, tool: &'static ToolSpec, raw: &Value) -> Map<String, Value> {
    let Some(hook) = &ctx.app.parts.envelope else {
        return Map::new();
    };
    let mut fields = hook.fields(ctx, tool, raw).await;
    let declared = ctx.app.surface.envelope;
    fields.retain(|name, _| {
        let keep = declared.contains(&name.as_str());
        if !keep {
            tracing::error!(surface = ctx.app.surface.name, field = %name, "envelope field not declared in the manifest; dropped");
        }
        keep
    });
    fields
}

/// The keys [`annotate`] always owns on a result, besides the surface's envelope fields and a
/// paginated tool's next-cursor key.
const ENGINE_KEYS: [&str; 3] = ["truncation", "next_cursor", crate::spec::CONTINUED_KEY];

/// Cuts `value` to fit `budget` together with the envelope `annotate` adds (the `keys` it sets). A result that fits
/// is measured once and left whole. Otherwise the body is cut by the real overshoot and annotated
/// again: the envelope grows with what was cut (one entry per cut array), so this repeats until
/// the whole fits or nothing more can be cut. Public for the fuzz targets only.
#[doc(hidden)]
pub fn fit_with_envelope(
    mut value: Value,
    report: &mut trim::Report,
    budget: usize,
    keys: &[&str],
    annotate: impl Fn(&mut Value, &trim::Report),
) -> Value {
    loop {
        let before: Vec<Option<Value>> = keys.iter().map(|k| value.get(*k).cloned()).collect();
        annotate(&mut value, report);
        let over = trim::size(&value).saturating_sub(budget);
        if over == 0 {
            return value;
        }
        if let Some(obj) = value.as_object_mut() {
            for (key, old) in keys.iter().zip(before) {
                match old {
                    Some(v) => obj.insert((*key).to_owned(), v),
                    None => obj.remove(*key),
                };
            }
        }
        let body = trim::size(&value);
        trim::fit_budget(&mut value, body.saturating_sub(over), report);
        if trim::size(&value) >= body {
            // Nothing left to cut (one item, short strings): the best this result can do.
            annotate(&mut value, report);
            return value;
        }
    }
}

/// Adds the surface's envelope fields, our continuation cursor, and what the budget cut.
fn annotate(
    value: &mut Value,
    tool: &ToolSpec,
    page: Option<&Value>,
    report: &trim::Report,
    envelope: &Map<String, Value>,
) {
    let next_cursor = tool
        .pagination
        .as_ref()
        .zip(page)
        .and_then(|(p, page)| page::next_cursor(value, p, page, report));
    let continued = tool
        .pagination
        .as_ref()
        .zip(page)
        .and_then(|(p, page)| page::continued(p, page));
    let Some(obj) = value.as_object_mut() else {
        return;
    };
    if let Some(p) = &tool.pagination
        && obj.contains_key(p.next)
    {
        obj.insert(p.next.to_owned(), json!(next_cursor));
    }
    if let Some((key, counts)) = continued {
        obj.insert(key.to_owned(), counts);
    }
    for (key, field) in envelope {
        obj.insert(key.clone(), field.clone());
    }
    if report.truncated() {
        let note = format!(
            "Cut to fit {} characters.{}",
            tool.response.budget,
            match (&next_cursor, &tool.pagination) {
                (Some(_), Some(p)) => format!(
                    " Pass {} as `{}` to continue, or narrow the filters.",
                    p.next, p.cursor
                ),
                _ => " Narrow the request to see the rest.".to_owned(),
            }
        );
        obj.insert(
            "truncation".to_owned(),
            json!({"truncated": true, "cuts": report.cuts, "strings_shortened": report.strings_shortened(), "next_cursor": next_cursor, "note": note}),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_result_that_fits_with_its_envelope_is_not_cut() {
        // 65 items of ~52 characters: ~3,500 with the envelope, within 4,000 but more than
        // the budget minus the fixed 700-character envelope reserve this used to keep.
        let items: Vec<Value> = (0..65)
            .map(|i| json!({"path": format!("src/module_{i:02}.py"), "rule": "S324", "line": i}))
            .collect();
        let annotate = |value: &mut Value, _: &trim::Report| {
            value["freshness"] = json!({"graph_id": "g1", "verdict": null, "note": "The graph describes commit_sha only."});
        };
        let mut report = trim::Report::default();
        let out = fit_with_envelope(
            json!({"items": items}),
            &mut report,
            4000,
            &["freshness"],
            annotate,
        );
        let size = trim::size(&out);
        assert!((3300..=4000).contains(&size), "{size}");
        assert_eq!(out["items"].as_array().map(Vec::len), Some(65));
        assert!(!report.truncated(), "{report:?}");
        assert!(out.get("freshness").is_some());
    }

    #[test]
    fn a_large_envelope_still_fits_the_budget() {
        // 60 nested arrays each cut by max_items: the truncation block lists every cut, far
        // more than the envelope's reserve.
        let files: Vec<Value> = (0..60)
            .map(|i| json!({"path": format!("src/f{i}.py"), "symbols": ["a", "b"]}))
            .collect();
        let mut report = trim::Report::default();
        for i in 0..60 {
            report.cuts.push(trim::Cut {
                path: format!("files[{i}].symbols"),
                kept: 2,
                total: 90,
            });
        }
        let annotate = |value: &mut Value, report: &trim::Report| {
            value["truncation"] = json!({"truncated": true, "cuts": report.cuts});
        };
        let out = fit_with_envelope(
            json!({"files": files, "total": 60}),
            &mut report,
            4000,
            &["truncation"],
            annotate,
        );
        assert!(
            trim::size(&out) <= 4000,
            "{} > 4000: {out}",
            trim::size(&out)
        );
        let kept = out["files"].as_array().map_or(0, Vec::len);
        assert!((1..60).contains(&kept), "kept {kept} files");
        assert_eq!(out["truncation"]["truncated"], true);
        let cuts = out["truncation"]["cuts"].as_array().unwrap();
        assert_eq!(
            cuts.len(),
            kept + 1,
            "one cut per kept file plus the files themselves: {cuts:?}"
        );
        assert!(
            cuts.iter()
                .any(|c| c["path"] == "files" && c["kept"] == kept && c["total"] == 60),
            "{cuts:?}"
        );
        assert_eq!(out["total"], 60, "the body keeps its counts");
    }
}
