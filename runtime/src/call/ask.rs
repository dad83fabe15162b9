//! What a tool asks the client before it runs (the manifest's `ask:` rounds, and a mutation's
//! `confirm:` question for the human), over whichever protocol the call came by:
//!
//! - a 2025 session: server-to-client requests (`elicitation/create`, `sampling/createMessage`,
//!   `roots/list`) on the session, awaited in the call;
//! - a stateless 2026-07-28 request: an input-required result (SEP-2322) naming the questions,
//!   with a sealed `requestState` holding the answers so far; the client retries with its
//!   `inputResponses` and the state. The state is bound to the caller and to the call's
//!   arguments, so an answer given for one plan never confirms another.
//!
//! A question the client cannot answer (it did not declare the capability) is left out when
//! the manifest marks it optional, and refuses the call otherwise (-32021).
//!
//! A `choose:` tool asks after it ran: when its answer lists several matches, the human picks
//! one (the same two channels, one round after the tool's own `ask:` rounds).

use super::CallError;
use crate::app::ToolContext;
use crate::asking::Channel;
use crate::spec::{AskRequest, AskSpec, CHOICE_KEY, CONFIRM_KEY, ChooseSpec, PromptSpec, ToolSpec};
use rmcp::model::{InputRequests, InputRequiredResult, InputResponses, SealOptions, ServerRequest};
use rmcp::service::{Peer, RoleServer};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};
use std::time::Duration;

/// How long an input-required answer may take before its state expires.
const STATE_TTL: Duration = Duration::from_secs(600);

/// The sealed progress of a stateless call: the round to ask next and the answers so far.
#[derive(Serialize, Deserialize)]
struct State {
    round: usize,
    answers: Map<String, Value>,
}

/// One question as asked this call: the manifest's, or the engine's confirmation.
struct Question {
    key: &'static str,
    request: Value,
    capability: &'static str,
    optional: bool,
    /// Its answer counts only with the sealed state that binds it to the call's arguments
    /// (the confirmation of a plan).
    bound: bool,
}

/// Asks what `tool` needs before it runs. `Ok` carries the answers by key (null for an
/// optional question the client could not answer); the confirmation, when asked and given,
/// sets the mutation's `require_true` flags in `arguments`.
pub async fn gather(
    ctx: &ToolContext,
    tool: &'static ToolSpec,
    arguments: &mut Value,
    real_run: bool,
) -> Result<Value, CallError> {
    let mut rounds = questions(tool.ask, arguments)?;
    let confirm = tool
        .mutation
        .as_ref()
        .and_then(|m| m.confirm)
        .filter(|_| real_run && can(ctx, "elicitation"));
    if let Some(message) = confirm {
        rounds.push(vec![confirmation(tool, message, arguments)?]);
    }
    // The answers are bound to what runs, not to the flags a confirmation replaces.
    let mut bound = arguments.clone();
    if let (Some(rules), Some(obj)) = (&tool.mutation, bound.as_object_mut()) {
        for flag in rules.require_true {
            obj.remove(*flag);
        }
    }
    let answers = ask(ctx, tool.name, rounds, 0, &bound).await?;
    if confirm.is_some() {
        confirmed(tool, answers.get(CONFIRM_KEY), arguments)?;
    }
    Ok(answers)
}

/// Asks a prompt's questions (`ask:` on a prompt); its templates read the answers.
pub async fn gather_prompt(
    ctx: &ToolContext,
    prompt: &'static PromptSpec,
    args: &Value,
) -> Result<Value, CallError> {
    let rounds = questions(prompt.ask, args)?;
    ask(ctx, prompt.name, rounds, 0, args).await
}

/// How long a choice's title may be (a finding's message can run to 2,000 characters).
const MAX_LABEL: usize = 200;

/// After a `choose:` tool ran: when `raw` lists two or more matches and the client can ask its
/// human, the human picks one. `Some((by, value))` is the input to run the tool again with.
/// `None` leaves the answer as it is: fewer than two matches, no elicitation, a declined or
/// cancelled question, or a pick that is not one of the matches offered.
pub async fn choice(
    ctx: &ToolContext,
    tool: &'static ToolSpec,
    arguments: &Value,
    raw: &Value,
) -> Result<Option<(&'static str, Value)>, CallError> {
    let Some(choose) = &tool.choose else {
        return Ok(None);
    };
    let Some(matches) = raw.get(choose.from).and_then(Value::as_array) else {
        return Ok(None);
    };
    if matches.len() < 2 || !can(ctx, "elicitation") {
        return Ok(None);
    }
    let offered = options(choose, matches)?;
    if offered.len() < 2 {
        return Ok(None);
    }
    let message = render_in(
        choose.message,
        minijinja::context! {
            input => minijinja::Value::from(minijinja::value::Serde(arguments)),
            total => offered.len(),
        },
    )?;
    let one_of: Vec<Value> = offered
        .iter()
        .map(|(id, _, title)| json!({"const": id, "title": title}))
        .collect();
    let question = Question {
        key: CHOICE_KEY,
        request: json!({
            "method": "elicitation/create",
            "params": {
                "message": message,
                "requestedSchema": {
                    "type": "object",
                    "properties": {CHOICE_KEY: {
                        "type": "string",
                        "title": "Which one?",
                        "oneOf": one_of,
                    }},
                    "required": [CHOICE_KEY],
                },
            },
        }),
        capability: "elicitation",
        optional: true,
        bound: true,
    };
    // The tool's own rounds were answered before it ran; the choice is the round after them.
    let mut rounds = questions(tool.ask, arguments)?;
    let first = rounds.len();
    rounds.push(vec![question]);
    let answers = ask(ctx, tool.name, rounds, first, arguments).await?;
    let answer = answers.get(CHOICE_KEY).unwrap_or(&Value::Null);
    if answer.get("action").and_then(Value::as_str) != Some("accept") {
        return Ok(None);
    }
    let picked = answer.pointer(&format!("/content/{CHOICE_KEY}"));
    Ok(offered
        .into_iter()
        .find(|(id, _, _)| picked.and_then(Value::as_str) == Some(id.as_str()))
        .map(|(_, value, _)| (choose.by, value)))
}

/// The matches as choices: (what the form returns, the input value, the title), one per
/// distinct `by`. Titles show the match redacted as the answer would be.
fn options(
    choose: &ChooseSpec,
    matches: &[Value],
) -> Result<Vec<(String, Value, String)>, CallError> {
    let mut offered: Vec<(String, Value, String)> = Vec::new();
    for item in matches {
        let Some(value) = item.get(choose.by).filter(|v| !v.is_null()) else {
            continue;
        };
        let id = match value {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        if offered.iter().any(|(seen, _, _)| *seen == id) {
            continue;
        }
        let mut shown = item.clone();
        crate::redact::redact_value(&mut shown);
        let title = render_in(
            choose.label,
            minijinja::context! { item => minijinja::Value::from(minijinja::value::Serde(&shown)) },
        )?;
        let title = crate::quote::cut(title.trim(), MAX_LABEL).into_owned();
        offered.push((id, value.clone(), title));
    }
    Ok(offered)
}

fn can(ctx: &ToolContext, capability: &str) -> bool {
    ctx.asking
        .as_deref()
        .is_some_and(|a| a.capabilities.get(capability).is_some_and(|c| !c.is_null()))
}

fn questions(
    rounds: &'static [&'static [AskSpec]],
    arguments: &Value,
) -> Result<Vec<Vec<Question>>, CallError> {
    rounds
        .iter()
        .map(|round| round.iter().map(|a| question(a, arguments)).collect())
        .collect()
}

/// The rounds of `name` (a tool or a prompt) over this call's channel, from round `first` (the
/// earlier ones were answered already: a session does not ask them again; a stateless call's
/// sealed state holds their answers).
async fn ask(
    ctx: &ToolContext,
    name: &'static str,
    rounds: Vec<Vec<Question>>,
    first: usize,
    arguments: &Value,
) -> Result<Value, CallError> {
    if rounds.is_empty() {
        return Ok(Value::Null);
    }
    let can = |capability: &str| can(ctx, capability);
    let mut missing: Vec<&str> = rounds
        .iter()
        .flatten()
        .filter(|q| !q.optional && !can(q.capability))
        .map(|q| q.capability)
        .collect();
    missing.sort_unstable();
    missing.dedup();
    if !missing.is_empty() {
        return Err(CallError::MissingCapability {
            tool: name,
            capabilities: missing,
        });
    }
    let answers = match ctx.asking.as_deref().map(|a| &a.channel) {
        Some(Channel::Session(peer)) => ask_session(peer, &rounds[first..], &can).await?,
        Some(Channel::Stateless { responses, state }) => {
            let bound = binding(ctx, name, arguments);
            ask_stateless(
                ctx,
                &rounds,
                &can,
                responses.as_ref(),
                state.as_deref(),
                &bound,
            )?
        }
        // No client to ask (the `call` command): only optional questions, all unanswered.
        None => rounds
            .iter()
            .flatten()
            .map(|q| (q.key.to_owned(), Value::Null))
            .collect(),
    };
    Ok(Value::Object(answers))
}

fn question(a: &'static AskSpec, arguments: &Value) -> Result<Question, CallError> {
    let request = match a.request {
        AskRequest::Elicit { message, schema } => json!({
            "method": "elicitation/create",
            "params": {
                "message": render(message, arguments)?,
                "requestedSchema": serde_json::from_str::<Value>(schema).unwrap_or(Value::Null),
            },
        }),
        AskRequest::Sample { prompt, max_tokens } => json!({
            "method": "sampling/createMessage",
            "params": {
                "messages": [{"role": "user", "content": {"type": "text", "text": render(prompt, arguments)?}}],
                "maxTokens": max_tokens,
            },
        }),
        AskRequest::Roots => json!({"method": "roots/list", "params": {}}),
    };
    Ok(Question {
        key: a.key,
        request,
        capability: a.request.capability(),
        optional: a.optional,
        bound: false,
    })
}

fn confirmation(tool: &ToolSpec, message: &str, arguments: &Value) -> Result<Question, CallError> {
    Ok(Question {
        key: CONFIRM_KEY,
        request: json!({
            "method": "elicitation/create",
            "params": {
                "message": render(message, arguments)?,
                "requestedSchema": {
                    "type": "object",
                    "properties": {"approve": {
                        "type": "boolean",
                        "title": format!("Approve `{}`", tool.name),
                        "description": "Yes to run it now; no refuses it and nothing changes.",
                    }},
                    "required": ["approve"],
                },
            },
        }),
        capability: "elicitation",
        optional: false,
        bound: true,
    })
}

/// The human's answer to the confirmation: accepted with approve=true runs the call (its
/// `require_true` flags set); anything else refuses it.
fn confirmed(
    tool: &ToolSpec,
    answer: Option<&Value>,
    arguments: &mut Value,
) -> Result<(), CallError> {
    let answer = answer.unwrap_or(&Value::Null);
    let approved = answer.get("action").and_then(Value::as_str) == Some("accept")
        && answer.pointer("/content/approve") == Some(&Value::Bool(true));
    if !approved {
        let action = answer
            .get("action")
            .and_then(Value::as_str)
            .unwrap_or("no answer");
        return Err(crate::error::ToolError::refused(
            "declined",
            format!(
                "the user did not approve `{}` ({action}); nothing was changed. Ask them again only if they want it.",
                tool.name
            ),
        )
        .into());
    }
    if let (Some(rules), Some(obj)) = (&tool.mutation, arguments.as_object_mut()) {
        for flag in rules.require_true {
            obj.insert((*flag).to_owned(), Value::Bool(true));
        }
    }
    Ok(())
}

fn render(template: &str, arguments: &Value) -> Result<String, CallError> {
    // A tool's questions read `input`, a prompt's `args`.
    render_in(
        template,
        minijinja::context! {
            input => minijinja::Value::from(minijinja::value::Serde(arguments)),
            args => minijinja::Value::from(minijinja::value::Serde(arguments)),
        },
    )
}

fn render_in(template: &str, context: minijinja::Value) -> Result<String, CallError> {
    crate::templates::env()
        .render_str(template, context)
        .map_err(|e| {
            crate::error::ToolError::Internal(format!("a question's template failed: {e}")).into()
        })
}

/// 2025: every question on the session, round by round.
async fn ask_session(
    peer: &Peer<RoleServer>,
    rounds: &[Vec<Question>],
    can: &impl Fn(&str) -> bool,
) -> Result<Map<String, Value>, CallError> {
    let mut answers = Map::new();
    for question in rounds.iter().flatten() {
        if !can(question.capability) {
            answers.insert(question.key.to_owned(), Value::Null);
            continue;
        }
        let request: ServerRequest =
            serde_json::from_value(question.request.clone()).map_err(|e| {
                internal(format!(
                    "question `{}` is not an MCP request: {e}",
                    question.key
                ))
            })?;
        let answer = peer.send_request(request).await.map_err(|e| {
            crate::error::ToolError::refused(
                "no_answer",
                format!("the client did not answer question `{}`: {e}", question.key),
            )
        })?;
        answers.insert(
            question.key.to_owned(),
            serde_json::to_value(answer).unwrap_or(Value::Null),
        );
    }
    Ok(answers)
}

/// 2026-07-28: the answers the retry carries for the round its state names; the next round's
/// questions (or this round's unanswered ones) as an input-required result.
fn ask_stateless(
    ctx: &ToolContext,
    rounds: &[Vec<Question>],
    can: &impl Fn(&str) -> bool,
    responses: Option<&InputResponses>,
    sealed: Option<&str>,
    bound: &[u8],
) -> Result<Map<String, Value>, CallError> {
    let codec = &ctx.app.request_state;
    let mut state = match sealed {
        Some(s) => codec
            .open_json_with::<State>(s, bound)
            // One answer for every failure (the codec's advice): which check failed stays here.
            .map_err(|e| {
                tracing::info!(error = %e, "requestState refused");
                CallError::BadRequestState
            })?,
        None => State {
            round: 0,
            answers: Map::new(),
        },
    };
    // The retry answers the round its state names; a later round's questions are new.
    let mut responses = responses;
    while let Some(round) = rounds.get(state.round) {
        let mut unanswered = InputRequests::new();
        for q in round {
            if state.answers.contains_key(q.key) {
                continue;
            }
            if !can(q.capability) {
                state.answers.insert(q.key.to_owned(), Value::Null);
                continue;
            }
            let given = responses
                .and_then(|r| r.get(q.key))
                .filter(|_| sealed.is_some() || !q.bound);
            match given {
                Some(answer) => {
                    check_answer(q, answer)?;
                    state.answers.insert(q.key.to_owned(), answer.clone());
                }
                None => {
                    let request = serde_json::from_value(q.request.clone()).map_err(|e| {
                        internal(format!(
                            "question `{}` is not an MCP input request: {e}",
                            q.key
                        ))
                    })?;
                    unanswered.insert(q.key.to_owned(), request);
                }
            }
        }
        if !unanswered.is_empty() {
            let sealed = codec
                .seal_json_with(
                    &state,
                    &SealOptions::new().associated_data(bound).ttl(STATE_TTL),
                )
                .map_err(|e| internal(format!("cannot seal the request state: {e}")))?;
            return Err(CallError::InputRequired(Box::new(
                InputRequiredResult::new(Some(unanswered), Some(sealed)),
            )));
        }
        state.round += 1;
        responses = None;
    }
    Ok(state.answers)
}

/// A response has the shape of the request's result: an elicitation's `action`, a sampling
/// message's `content`, a roots list's `roots`.
fn check_answer(q: &Question, answer: &Value) -> Result<(), CallError> {
    let ok = match q.capability {
        "elicitation" => answer
            .get("action")
            .and_then(Value::as_str)
            .is_some_and(|a| matches!(a, "accept" | "decline" | "cancel")),
        "sampling" => answer.get("content").is_some(),
        _ => answer.get("roots").is_some_and(Value::is_array),
    };
    if ok {
        Ok(())
    } else {
        Err(CallError::BadInputResponse(format!(
            "inputResponses.{} is not a result of {}",
            q.key,
            q.request["method"].as_str().unwrap_or_default()
        )))
    }
}

/// What an answer is bound to: the tool or prompt, the caller (scopes, repositories) and the arguments.
fn binding(ctx: &ToolContext, name: &str, arguments: &Value) -> Vec<u8> {
    let mut h = Sha256::new();
    for part in [
        name.to_owned(),
        serde_json::to_string(&*ctx.scopes).unwrap_or_default(),
        serde_json::to_string(&ctx.repositories).unwrap_or_default(),
        nexus_mcp_registry::json::canonical_json(arguments),
    ] {
        h.update(part.as_bytes());
        h.update([0]);
    }
    h.finalize().to_vec()
}

fn internal(message: String) -> CallError {
    crate::error::ToolError::Internal(message).into()
}
