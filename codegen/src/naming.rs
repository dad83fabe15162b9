//! Rust names for manifest names: snake_case fields for JSON properties (`taskId` → `task_id`,
//! `HTTPPort` → `http_port`) and PascalCase type names (`kg_get_audit_risk` → `KgGetAuditRisk`).

use proc_macro2::{Ident, Span};

/// The words of a name: split at non-alphanumerics, at a lower→upper step (`taskId`) and at the
/// end of an acronym (`HTTPPort` → `HTTP`, `Port`).
fn words(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut words = Vec::new();
    let mut current = String::new();
    for (i, &ch) in chars.iter().enumerate() {
        if !ch.is_ascii_alphanumeric() {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            continue;
        }
        if ch.is_ascii_uppercase() && !current.is_empty() {
            let prev = chars[i - 1];
            let next_is_lower = chars.get(i + 1).is_some_and(char::is_ascii_lowercase);
            if prev.is_ascii_lowercase()
                || prev.is_ascii_digit()
                || (prev.is_ascii_uppercase() && next_is_lower)
            {
                words.push(std::mem::take(&mut current));
            }
        }
        current.push(ch);
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

/// The snake_case text of a property's Rust field, before keyword escaping.
pub fn snake(name: &str) -> String {
    let joined = words(name)
        .iter()
        .map(|w| w.to_ascii_lowercase())
        .collect::<Vec<_>>()
        .join("_");
    if joined.is_empty() {
        "field".to_owned()
    } else if joined.starts_with(|c: char| c.is_ascii_digit()) {
        format!("_{joined}")
    } else {
        joined
    }
}

/// The Rust field (or method) identifier of a property: snake_case, raw when it is a keyword.
pub fn field_ident(name: &str) -> Ident {
    let snake = snake(name);
    match snake.as_str() {
        // Keywords that cannot be raw identifiers.
        "self" | "super" | "crate" | "_" => Ident::new(&format!("{snake}_"), Span::call_site()),
        _ => syn::parse_str::<Ident>(&snake)
            .unwrap_or_else(|_| Ident::new_raw(&snake, Span::call_site())),
    }
}

/// The field text without a raw prefix: what `#[serde(rename)]` is compared against.
pub fn field_text(name: &str) -> String {
    field_ident(name)
        .to_string()
        .trim_start_matches("r#")
        .to_owned()
}

/// PascalCase: every word capitalised, the rest lower case (`kg_get_audit_risk` → `KgGetAuditRisk`).
pub fn pascal(name: &str) -> String {
    words(name)
        .iter()
        .map(|w| {
            let lower = w.to_ascii_lowercase();
            let mut chars = lower.chars();
            chars
                .next()
                .map(|f| f.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// Pairs of property names (in order) that become the same Rust field: `(first, second, field)`.
pub fn collisions<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<(&'a str, &'a str, String)> {
    let mut seen: Vec<(String, &str)> = Vec::new();
    let mut found = Vec::new();
    for name in names {
        let field = field_text(name);
        match seen.iter().find(|(f, _)| *f == field) {
            Some((_, first)) => found.push((*first, name, field)),
            None => seen.push((field, name)),
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snake_case_fields() {
        for (from, to) in [
            ("taskId", "task_id"),
            ("HTTPPort", "http_port"),
            ("graph_id", "graph_id"),
            ("X-Api-Key", "x_api_key"),
            ("ETag", "e_tag"),
            ("v2Name", "v2_name"),
            ("2fa", "_2fa"),
            ("type", "r#type"),
            ("self", "self_"),
        ] {
            assert_eq!(field_ident(from).to_string(), to, "{from}");
        }
    }

    #[test]
    fn pascal_case_types() {
        assert_eq!(pascal("kg_get_audit_risk"), "KgGetAuditRisk");
        assert_eq!(pascal("taskId"), "TaskId");
        assert_eq!(pascal("HTTP_port"), "HttpPort");
    }

    #[test]
    fn collisions_name_both_properties() {
        assert_eq!(
            collisions(["taskId", "status", "task_id", "TaskID"]),
            vec![
                ("taskId", "task_id", "task_id".to_owned()),
                ("taskId", "TaskID", "task_id".to_owned())
            ]
        );
    }
}
