//! Argument problems in a form a model can act on (MCP 2025-11-25, SEP-1303): each names the
//! field as a JSON pointer, the schema rule it breaks and, where the rule has them, the allowed
//! values. They travel in an `isError` tool result, not as a JSON-RPC error.

use crate::quote::{capped, echo};
use serde_json::{Value, json};

/// At most this many problems are reported for one call.
pub const MAX_PROBLEMS: usize = 5;
/// At most this many allowed values are listed for one problem.
pub const MAX_ALLOWED: usize = 50;

/// One thing wrong with a call's arguments.
#[derive(Debug, Clone, PartialEq)]
pub struct ArgumentProblem {
    /// JSON pointer into the arguments (`/severity/0`; empty for the arguments as a whole).
    pub field: String,
    /// The JSON Schema keyword broken (`enum`, `type`, `required`…) or the engine's own rule
    /// (`cursor`).
    pub rule: String,
    /// What the rule allows, when it is a list: enum values, the known property names.
    pub allowed: Option<Vec<Value>>,
    /// Field, rule and (capped) value in words.
    pub message: String,
}

impl ArgumentProblem {
    pub fn new(
        field: impl Into<String>,
        rule: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        ArgumentProblem {
            field: field.into(),
            rule: rule.into(),
            allowed: None,
            message: message.into(),
        }
    }

    /// The problem's part of an isError body; every quoted input is capped.
    pub fn to_json(&self) -> Value {
        let mut body = json!({
            "code": "invalid_arguments",
            "message": capped(&self.message),
            "field": echo(&self.field),
            "rule": self.rule,
        });
        if let (Some(allowed), Some(obj)) = (&self.allowed, body.as_object_mut()) {
            let allowed: Vec<Value> = allowed.iter().take(MAX_ALLOWED).cloned().collect();
            obj.insert("allowed".to_owned(), Value::Array(allowed));
        }
        body
    }
}

/// The pointer of property `name` under `pointer` (RFC 6901 escaping).
pub fn child(pointer: &str, name: &str) -> String {
    format!("{pointer}/{}", name.replace('~', "~0").replace('/', "~1"))
}

/// The problems of `arguments` against `schema` (the tool's input schema, parsed) as `validator`
/// finds them, at most [`MAX_PROBLEMS`].
pub fn problems(
    validator: &jsonschema::Validator,
    schema: &Value,
    arguments: &Value,
) -> Vec<ArgumentProblem> {
    validator
        .iter_errors(arguments)
        .take(MAX_PROBLEMS)
        .map(|e| problem(&e, schema))
        .collect()
}

fn problem(e: &jsonschema::ValidationError<'_>, schema: &Value) -> ArgumentProblem {
    use jsonschema::error::ValidationErrorKind as Kind;
    let at = e.instance_path().to_string();
    // The offending value is quoted capped: a 1 MB argument must not come back whole.
    let value = e.instance().to_string();
    let words = e.masked_with(echo(&value)).to_string();
    let rule = e.kind().keyword().to_owned();
    let (field, allowed) = match e.kind() {
        Kind::Enum { options } => (at.clone(), options.as_array().cloned()),
        Kind::Constant { expected_value } => (at.clone(), Some(vec![(**expected_value).clone()])),
        Kind::Required { property } => (child(&at, property.as_str().unwrap_or_default()), None),
        Kind::AdditionalProperties { unexpected } => (
            unexpected
                .first()
                .map_or_else(|| at.clone(), |name| child(&at, name)),
            known_properties(schema, &e.schema_path().to_string()),
        ),
        _ => (at.clone(), None),
    };
    let shown = if at.is_empty() {
        "arguments".to_owned()
    } else {
        format!("`{}`", at.trim_start_matches('/').replace('/', "."))
    };
    ArgumentProblem {
        field,
        rule,
        allowed,
        message: format!("{shown}: {words}"),
    }
}

/// The property names declared next to the `additionalProperties` at `keyword` (a schema
/// pointer), following local `$ref`s on the way.
fn known_properties(schema: &Value, keyword: &str) -> Option<Vec<Value>> {
    let parent = keyword.rsplit_once('/').map_or("", |(p, _)| p);
    let node = walk(schema, parent)?;
    let names = node.get("properties")?.as_object()?;
    Some(names.keys().map(|k| Value::String(k.clone())).collect())
}

fn walk<'a>(root: &'a Value, pointer: &str) -> Option<&'a Value> {
    let mut node = root;
    for segment in pointer.split('/').skip(1) {
        let segment = segment.replace("~1", "/").replace("~0", "~");
        node = match node.get(&segment) {
            Some(next) => next,
            None => {
                // A path that went through a `$ref`: continue in the referenced schema.
                let target = node.get("$ref")?.as_str()?.strip_prefix('#')?;
                root.pointer(target)?.get(&segment)?
            }
        };
        if segment == "$ref" {
            node = root.pointer(node.as_str()?.strip_prefix('#')?)?;
        }
    }
    Some(node)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema() -> Value {
        json!({
            "$defs": {
                "Severity": {"enum": ["critical", "high", "low"], "type": "string"},
                "Filter": {"type": "object", "additionalProperties": false, "properties": {"rule": {"type": "string"}, "line": {"type": "integer"}}}
            },
            "type": "object",
            "additionalProperties": false,
            "required": ["repository"],
            "properties": {
                "repository": {"type": "string", "pattern": "^[a-z]+/[a-z]+$", "maxLength": 20},
                "severity": {"type": "array", "items": {"$ref": "#/$defs/Severity"}},
                "limit": {"type": "integer", "minimum": 1},
                "filter": {"$ref": "#/$defs/Filter"}
            }
        })
    }

    fn check(arguments: Value) -> Vec<ArgumentProblem> {
        let schema = schema();
        let validator = jsonschema::draft202012::new(&schema).unwrap();
        problems(&validator, &schema, &arguments)
    }

    #[test]
    fn an_enum_problem_names_the_item_and_the_allowed_values() {
        let p = check(json!({"repository": "a/b", "severity": ["high", "urgent"]}));
        assert_eq!(p.len(), 1, "{p:?}");
        assert_eq!(p[0].field, "/severity/1");
        assert_eq!(p[0].rule, "enum");
        assert_eq!(
            p[0].allowed,
            Some(vec![json!("critical"), json!("high"), json!("low")])
        );
        assert!(
            p[0].message.starts_with("`severity.1`: "),
            "{}",
            p[0].message
        );
        assert!(p[0].message.contains("urgent"), "{}", p[0].message);
    }

    #[test]
    fn required_and_unknown_properties_point_at_the_property() {
        let p = check(json!({"no_such": 1}));
        let rules: Vec<(&str, &str)> = p
            .iter()
            .map(|p| (p.field.as_str(), p.rule.as_str()))
            .collect();
        assert!(rules.contains(&("/repository", "required")), "{rules:?}");
        assert!(
            rules.contains(&("/no_such", "additionalProperties")),
            "{rules:?}"
        );
        let unknown = p.iter().find(|p| p.rule == "additionalProperties").unwrap();
        assert_eq!(
            unknown.allowed,
            Some(vec![
                json!("repository"),
                json!("severity"),
                json!("limit"),
                json!("filter")
            ])
        );
        let nested = check(json!({"repository": "a/b", "filter": {"rul": "x"}}));
        assert_eq!(nested[0].field, "/filter/rul");
        assert_eq!(
            nested[0].allowed,
            Some(vec![json!("rule"), json!("line")]),
            "{nested:?}"
        );
    }

    #[test]
    fn type_pattern_length_and_minimum_name_their_rule() {
        for (arguments, field, rule) in [
            (json!({"repository": 42}), "/repository", "type"),
            (json!({"repository": "A B"}), "/repository", "pattern"),
            (
                json!({"repository": "a".repeat(30)}),
                "/repository",
                "maxLength",
            ),
            (
                json!({"repository": "a/b", "limit": 0}),
                "/limit",
                "minimum",
            ),
        ] {
            let p = check(arguments.clone());
            assert!(
                p.iter().any(|p| p.field == field && p.rule == rule),
                "{arguments}: {p:?}"
            );
        }
    }

    #[test]
    fn huge_values_and_names_are_quoted_capped() {
        let name = "k".repeat(100_000);
        let p = check(json!({"repository": "a/b", name.clone(): 1}));
        let body = p[0].to_json().to_string();
        assert!(body.len() < 2_500, "{} bytes", body.len());
        assert!(body.contains("100001 characters"), "{body}");
    }
}
