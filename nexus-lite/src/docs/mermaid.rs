//! get_dependency_graph as a Mermaid flowchart (`format=mermaid`), so an agent can show the
//! graph: one node per document (`id: title`), one arrow per edge labelled with its kind, the
//! asked-for node outlined. Ids and titles are workspace text: node names are generated
//! (`n0`, `n1`, …) and labels are quoted with `"` written as `#quot;`, so no title can end a
//! label or add a statement.

use serde_json::Value;
use std::collections::HashMap;
use std::fmt::Write;

/// Most characters of a label; longer titles end with `…`.
const MAX_LABEL: usize = 80;

/// The flowchart of a dependency-graph answer (`nodeId`, `nodes`, `edges`).
pub fn flowchart(graph: &Value) -> String {
    let empty = Vec::new();
    let nodes = graph["nodes"].as_array().unwrap_or(&empty);
    let edges = graph["edges"].as_array().unwrap_or(&empty);
    let mut out = String::from("flowchart LR\n");
    let mut names: HashMap<&str, String> = HashMap::new();
    for (i, n) in nodes.iter().enumerate() {
        let id = n["id"].as_str().unwrap_or_default();
        let label = match n["title"].as_str().filter(|t| !t.is_empty()) {
            Some(title) => format!("{id}: {title}"),
            None => id.to_owned(),
        };
        let name = format!("n{i}");
        let _ = writeln!(out, "  {name}[\"{}\"]", quoted(&label));
        names.insert(id, name);
    }
    for e in edges {
        let name = |k: &str| e[k].as_str().and_then(|id| names.get(id));
        if let (Some(from), Some(to)) = (name("from"), name("to")) {
            let kind = quoted(e["kind"].as_str().unwrap_or("link"));
            let _ = writeln!(out, "  {from} -->|{kind}| {to}");
        }
    }
    if let Some(root) = graph["nodeId"].as_str().and_then(|id| names.get(id)) {
        let _ = writeln!(out, "  style {root} stroke-width:3px");
    }
    out
}

/// `text` on one line, at most [`MAX_LABEL`] characters, safe inside a quoted label.
fn quoted(text: &str) -> String {
    let one_line: String = text
        .chars()
        // Line and paragraph separators (U+2028/9) break lines too; any such space is a space.
        .map(|c| {
            if c.is_control() || c.is_whitespace() {
                ' '
            } else {
                c
            }
        })
        .collect();
    let mut out = String::new();
    for (i, c) in one_line.chars().enumerate() {
        if i == MAX_LABEL {
            out.push('…');
            break;
        }
        match c {
            '"' => out.push_str("#quot;"),
            '|' => out.push_str("#124;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn titles_cannot_end_a_label_or_add_a_statement() {
        let g = json!({"nodeId": "A-1", "nodes": [
            {"id": "A-1", "title": "Fix \"x\"]\n  n1 --> evil"},
            {"id": "A-2", "title": null},
        ], "edges": [{"from": "A-1", "to": "A-2", "kind": "depends_on"}]});
        let text = flowchart(&g);
        assert_eq!(
            text,
            "flowchart LR\n  n0[\"A-1: Fix #quot;x#quot;]   n1 --> evil\"]\n  n1[\"A-2\"]\n  n0 -->|depends_on| n1\n  style n0 stroke-width:3px\n"
        );
    }
}
