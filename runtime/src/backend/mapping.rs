//! Renders a Nexus request from a tool's manifest mapping and its (validated) arguments.

use crate::backend::NexusRequest;
use crate::error::ToolError;
use crate::spec::{HttpMethod, NexusSpec};
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use serde_json::{Map, Value};

/// Everything but RFC 3986 unreserved characters is encoded, so an id can never add a path
/// segment (`../`), a query (`?`) or a fragment.
const PATH_SEGMENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'~');

pub fn render(tool: &str, spec: &NexusSpec, input: &Value) -> Result<NexusRequest, ToolError> {
    render_with(tool, spec, input, &Value::Null)
}

/// [`render`] for a tool that asked the client first: its templates also read `answers`.
pub fn render_with(
    tool: &str,
    spec: &NexusSpec,
    input: &Value,
    answers: &Value,
) -> Result<NexusRequest, ToolError> {
    let path = render_path(tool, spec.path, input)?;
    let mut query = Vec::new();
    for (name, template) in spec.query {
        if let Some(value) = render_value(tool, template, input, answers)? {
            query.push(((*name).to_owned(), query_text(&value)));
        }
    }
    let body = match spec.method {
        HttpMethod::Get => None,
        HttpMethod::Post => {
            let mut body = Map::new();
            for (name, template) in spec.body {
                if let Some(value) = render_value(tool, template, input, answers)? {
                    body.insert((*name).to_owned(), value);
                }
            }
            Some(Value::Object(body))
        }
    };
    let method = match spec.method {
        HttpMethod::Get => reqwest::Method::GET,
        HttpMethod::Post => reqwest::Method::POST,
    };
    Ok(NexusRequest {
        replay_safe: method == reqwest::Method::GET,
        method,
        path,
        query,
        body,
    })
}

fn render_path(tool: &str, template: &str, input: &Value) -> Result<String, ToolError> {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        let Some(len) = rest[start..].find('}') else {
            break;
        };
        let name = &rest[start + 1..start + len];
        let value = input.get(name).filter(|v| !v.is_null()).ok_or_else(|| {
            ToolError::invalid_field(
                tool,
                crate::arguments::child("", name),
                "required",
                format!("`{name}` is required"),
            )
        })?;
        let text = query_text(value);
        // `.` and `..` stay unencoded (unreserved) and a URL parser resolves them as dot
        // segments: the request would reach another route.
        if text == "." || text == ".." {
            return Err(ToolError::invalid_field(
                tool,
                crate::arguments::child("", name),
                "path_segment",
                format!(
                    "`{name}` cannot be `{text}`: it names no item; pass an id as listed by the server"
                ),
            ));
        }
        out.extend(utf8_percent_encode(&text, PATH_SEGMENT));
        rest = &rest[start + len + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// `{{ input.x }}` alone passes x's typed value (absent → omitted); anything else is rendered
/// as text (empty → omitted).
fn render_value(
    tool: &str,
    template: &str,
    input: &Value,
    answers: &Value,
) -> Result<Option<Value>, ToolError> {
    if let Some(field) = single_field(template) {
        return Ok(input.get(field).filter(|v| !v.is_null()).cloned());
    }
    let text = crate::templates::env()
        .render_str(
            template,
            minijinja::context! {
                input => minijinja::Value::from(minijinja::value::Serde(input)),
                answers => minijinja::Value::from(minijinja::value::Serde(answers)),
            },
        )
        .map_err(|e| ToolError::Internal(format!("manifest template of `{tool}` failed: {e}")))?;
    Ok((!text.is_empty()).then_some(Value::String(text)))
}

/// The input field a template passes whole (`{{ input.x }}` → `x`).
pub(crate) fn single_field(template: &str) -> Option<&str> {
    let inner = template
        .trim()
        .strip_prefix("{{")?
        .strip_suffix("}}")?
        .trim();
    let field = inner.strip_prefix("input.")?;
    field
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_')
        .then_some(field)
}

fn query_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Array(items) => items.iter().map(query_text).collect::<Vec<_>>().join(","),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const SPEC: NexusSpec = NexusSpec {
        method: HttpMethod::Get,
        path: "/api/v1/findings/{finding_id}",
        query: &[
            ("line", "{{ input.line }}"),
            ("severity", "{{ input.severity }}"),
            ("label", "repo={{ input.repository }}"),
        ],
        body: &[],
    };

    #[test]
    fn path_parameters_cannot_escape_their_segment() {
        let req = render("t", &SPEC, &json!({"finding_id": "../../admin?x=1#f"})).unwrap();
        assert_eq!(req.path, "/api/v1/findings/..%2F..%2Fadmin%3Fx%3D1%23f");
    }

    #[test]
    fn dot_segments_are_refused_as_path_parameters() {
        for dots in [".", ".."] {
            let err = render("t", &SPEC, &json!({"finding_id": dots})).unwrap_err();
            assert!(
                matches!(&err, ToolError::InvalidArguments { message, .. } if message.contains(&format!("cannot be `{dots}`"))),
                "{err}"
            );
        }
        let req = render("t", &SPEC, &json!({"finding_id": "..."})).unwrap();
        assert_eq!(req.path, "/api/v1/findings/...");
    }

    #[test]
    fn typed_values_pass_and_absent_ones_are_omitted() {
        let req = render("t", &SPEC, &json!({"finding_id": "7", "line": 12, "severity": ["high", "low"], "repository": "a/b"})).unwrap();
        assert_eq!(
            req.query,
            vec![
                ("line".into(), "12".into()),
                ("severity".into(), "high,low".into()),
                ("label".into(), "repo=a/b".into())
            ]
        );
        let req = render("t", &SPEC, &json!({"finding_id": "7"})).unwrap();
        assert_eq!(req.query, vec![("label".into(), "repo=".into())]);
    }

    #[test]
    fn a_missing_path_parameter_is_an_argument_error() {
        let err = render("t", &SPEC, &json!({})).unwrap_err();
        assert!(
            err.to_string().contains("`finding_id` is required"),
            "{err}"
        );
    }
}
