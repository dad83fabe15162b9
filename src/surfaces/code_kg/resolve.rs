//! Findings and anomalies are resolved by their proof tuple, never by a guessed id. No match
//! says which part matched nothing; several matches are returned as candidates, never picked.

use super::packet::{self, Packet};
use super::typed::typed;
use crate::generated::nexus_code_kg::*;
use nexus_mcp_runtime::app::ToolContext;
use nexus_mcp_runtime::backend::NexusRequest;
use nexus_mcp_runtime::error::{ToolError, echo};
use serde_json::Value;

/// How many candidates an ambiguous answer lists.
const MAX_CANDIDATES: usize = 10;
const DISAMBIGUATE: [&str; 3] = ["line", "message", "dedupe_key"];

fn items(answer: &Value) -> Vec<Value> {
    answer
        .get("items")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
}

fn total(answer: &Value) -> usize {
    answer
        .get("total")
        .and_then(Value::as_u64)
        .and_then(|n| usize::try_from(n).ok())
        .unwrap_or(0)
}

fn candidate(item: &Value) -> Result<Candidate, ToolError> {
    typed(item, "finding candidate")
}

async fn risks(
    ctx: &ToolContext,
    input: &KgGetAuditRiskInput,
    with_path: bool,
    with_line: bool,
    with_type: bool,
) -> Result<Value, ToolError> {
    let request = NexusRequest::get("/api/v1/audit-risks")
        .param("graph_id", Some(&input.graph_id))
        .param("source_tool", Some(&input.source_tool))
        .param("finding_type", with_type.then_some(&input.finding_type))
        .param("path", with_path.then_some(&input.path))
        .param("line", input.line.filter(|_| with_line))
        .param("dedupe_key", input.dedupe_key.as_deref())
        .param("include_low", Some(true))
        .param("limit", Some(50));
    ctx.nexus(&request).await
}

/// Why nothing matched: drop parts of the tuple one at a time and say which one was wrong.
async fn not_found_reason(
    ctx: &ToolContext,
    input: &KgGetAuditRiskInput,
) -> Result<String, ToolError> {
    if input.line.is_some() {
        let any_line = risks(ctx, input, true, false, true).await?;
        let lines: Vec<String> = items(&any_line)
            .iter()
            .filter_map(|i| i.get("line").and_then(Value::as_i64))
            .map(|l| l.to_string())
            .collect();
        if !lines.is_empty() {
            return Ok(format!(
                "no {} finding `{}` at {}:{}; the graph has it at line(s) {} of that file. The code may have moved: check freshness, then ask again with the right line.",
                input.source_tool,
                echo(&input.finding_type),
                echo(&input.path),
                input.line.unwrap_or_default(),
                lines.join(", ")
            ));
        }
    }
    let other_files = risks(ctx, input, false, false, true).await?;
    if total(&other_files) > 0 {
        return Ok(format!(
            "no {} finding `{}` in {}; {} exist in other files (e.g. {}). Check the path.",
            input.source_tool,
            echo(&input.finding_type),
            echo(&input.path),
            total(&other_files),
            items(&other_files)
                .first()
                .and_then(|i| i.get("path"))
                .and_then(Value::as_str)
                .unwrap_or("?")
        ));
    }
    let other_types = risks(ctx, input, true, false, false).await?;
    if total(&other_types) > 0 {
        let mut types: Vec<String> = items(&other_types)
            .iter()
            .filter_map(|i| {
                i.get("finding_type")
                    .and_then(Value::as_str)
                    .map(str::to_owned)
            })
            .collect();
        types.sort_unstable();
        types.dedup();
        return Ok(format!(
            "no finding_type `{}` from {} in {}; that file has: {}.",
            echo(&input.finding_type),
            input.source_tool,
            echo(&input.path),
            types.join(", ")
        ));
    }
    Ok(format!(
        "the graph has no {} finding of type `{}` anywhere: it may be fixed already, or the proof comes from another graph.",
        input.source_tool,
        echo(&input.finding_type)
    ))
}

/// What resolving a proof gave, before it takes the shape of a tool's output.
enum Resolution {
    NotFound {
        reason: String,
        next_step: &'static str,
    },
    Ready {
        item: Value,
        packet: Box<Packet>,
        next_step: &'static str,
    },
    Ambiguous {
        candidates: Vec<Candidate>,
        total: usize,
        disambiguate: &'static [&'static str],
    },
}

impl Resolution {
    /// Resolves `matches` (already filtered by the proof): none, one (with its packet) or many.
    async fn of(
        ctx: &ToolContext,
        graph_id: &str,
        mut matches: Vec<Value>,
        total: usize,
        disambiguate: &'static [&'static str],
        not_found: (String, &'static str),
        ready_hint: &'static str,
    ) -> Result<Self, ToolError> {
        Ok(match matches.len() {
            0 => Resolution::NotFound {
                reason: not_found.0,
                next_step: not_found.1,
            },
            1 => {
                let item = matches.remove(0);
                let packet = packet::build(ctx, graph_id, &item).await?;
                Resolution::Ready {
                    item,
                    packet: Box::new(packet),
                    next_step: ready_hint,
                }
            }
            n => Resolution::Ambiguous {
                candidates: matches
                    .iter()
                    .take(MAX_CANDIDATES)
                    .map(candidate)
                    .collect::<Result<_, _>>()?,
                total: total.max(n),
                disambiguate,
            },
        })
    }
}

/// The shared action packet of a resolution, and the resolved item when there is one (the
/// caller puts it under its own field: `finding` or `anomaly`).
fn action_packet(graph: &Value, resolution: Resolution) -> (ActionPacket, Option<Value>) {
    let mut out = ActionPacket {
        graph: typed(graph, "graph").ok(),
        ..Default::default()
    };
    let mut resolved = None;
    match resolution {
        Resolution::NotFound { reason, next_step } => {
            out.status = "not_found".to_owned();
            out.reason = Some(reason);
            out.next_step = Some(next_step.to_owned());
        }
        Resolution::Ready {
            item,
            packet: p,
            next_step,
        } => {
            out.status = "ready".to_owned();
            resolved = Some(item);
            out.file_context = p.file_context;
            out.nearby_relations = Some(p.nearby_relations);
            out.impact = p.impact;
            out.recommended_reads = Some(p.recommended_reads);
            out.recommended_commands = Some(p.recommended_commands);
            out.safety_notes = Some(p.safety_notes);
            out.next_step = Some(next_step.to_owned());
        }
        Resolution::Ambiguous {
            candidates,
            total,
            disambiguate,
        } => {
            // The spec's exact ambiguous shape: no graph, no hint, nothing to act on by mistake.
            out = ActionPacket {
                status: "ambiguous".to_owned(),
                candidates_truncated: Some(total > candidates.len()),
                candidates: Some(candidates),
                required_disambiguation: Some(
                    disambiguate.iter().map(|s| (*s).to_owned()).collect(),
                ),
                total_candidates: Some(i64::try_from(total).unwrap_or(i64::MAX)),
                ..Default::default()
            };
        }
    }
    (out, resolved)
}

pub async fn audit_risk(
    ctx: &ToolContext,
    input: KgGetAuditRiskInput,
) -> Result<KgGetAuditRiskOutput, ToolError> {
    // An unknown graph is a clear not_found (404 from Nexus), not an empty match.
    let answer = risks(ctx, &input, true, true, true).await?;
    let graph = answer.get("graph").cloned().unwrap_or(Value::Null);
    let mut matches = items(&answer);
    let mut total = total(&answer);
    if let Some(message) = &input.message {
        matches.retain(|i| i.get("message").and_then(Value::as_str) == Some(message.as_str()));
        total = matches.len();
    }
    let not_found = if matches.is_empty() {
        not_found_reason(ctx, &input).await?
    } else {
        String::new()
    };
    let resolution = Resolution::of(
        ctx,
        &input.graph_id,
        matches,
        total,
        &DISAMBIGUATE,
        (not_found, "List the current findings with kg_list_audit_risks and resolve one of those."),
        "Read the recommended files, fix, run the recommended commands, then kg_regenerate (dry run first) and kg_compare_runs.",
    )
    .await?;
    let (action_packet, finding) = action_packet(&graph, resolution);
    Ok(KgGetAuditRiskOutput {
        finding: finding.map(|f| typed(&f, "finding")).transpose()?,
        action_packet,
    })
}

pub async fn anomaly(
    ctx: &ToolContext,
    input: KgGetAnomalyInput,
) -> Result<KgGetAnomalyOutput, ToolError> {
    let answer = match &input.anomaly_id {
        Some(id) => {
            let path = format!(
                "/api/v1/anomalies/{}",
                percent_encoding::utf8_percent_encode(id, percent_encoding::NON_ALPHANUMERIC)
            );
            let one = ctx
                .nexus(&NexusRequest::get(path).param("graph_id", Some(&input.graph_id)))
                .await?;
            serde_json::json!({"graph": one.get("graph"), "items": [one.get("anomaly")], "total": 1})
        }
        None => {
            let request = NexusRequest::get("/api/v1/anomalies")
                .param("graph_id", Some(&input.graph_id))
                .param("kind", input.kind.as_deref())
                .param("path", input.path.as_deref())
                .param("limit", Some(200));
            ctx.nexus(&request).await?
        }
    };
    let graph = answer.get("graph").cloned().unwrap_or(Value::Null);
    let mut matches = items(&answer);
    if let Some(line) = input.line {
        matches.retain(|a| a.get("line").and_then(Value::as_i64) == Some(line));
    }
    let reason = format!(
        "no anomaly matches (kind {}, path {}, line {}) in graph {}.",
        echo(input.kind.as_deref().unwrap_or("any")),
        echo(input.path.as_deref().unwrap_or("any")),
        input.line.map_or("any".to_owned(), |l| l.to_string()),
        echo(&input.graph_id)
    );
    let total = matches.len();
    let resolution = Resolution::of(
        ctx,
        &input.graph_id,
        matches,
        total,
        &["anomaly_id", "line"],
        (reason, "List anomalies with kg_list_anomalies and pass an anomaly_id from it."),
        "Read the recommended files; anomalies often block analysis of the whole file, so fix them first.",
    )
    .await?;
    let (action_packet, anomaly) = action_packet(&graph, resolution);
    Ok(KgGetAnomalyOutput {
        anomaly: anomaly.map(|a| typed(&a, "anomaly")).transpose()?,
        action_packet,
    })
}
