//! MCP content blocks from the manifest's content templates: a tool's `content:` (rendered over
//! `result` and `input`) and a prompt's `messages:` (over `args`, `server` and `result`).

use crate::spec::{ContentKind, ContentSpec};
use serde_json::{Value, json};

/// One block as MCP JSON. `vars` is the template context (a JSON object).
pub fn render_block(spec: &ContentSpec, vars: &Value) -> Result<Value, minijinja::Error> {
    let render = |template: Option<&str>| -> Result<String, minijinja::Error> {
        match template {
            Some(t) => crate::templates::env()
                .render_str(t, minijinja::Value::from(minijinja::value::Serde(vars))),
            None => Ok(String::new()),
        }
    };
    Ok(match spec.kind {
        ContentKind::Text => json!({"type": "text", "text": render(spec.text)?}),
        ContentKind::Image | ContentKind::Audio => json!({
            "type": if spec.kind == ContentKind::Image { "image" } else { "audio" },
            "data": render(spec.data)?,
            "mimeType": render(spec.mime_type)?,
        }),
        ContentKind::Resource => {
            let mut resource =
                json!({"uri": render(spec.uri)?, "mimeType": render(spec.mime_type)?});
            match (spec.text, spec.data) {
                (_, Some(data)) => resource["blob"] = json!(render(Some(data))?),
                (text, None) => resource["text"] = json!(render(text)?),
            }
            json!({"type": "resource", "resource": resource})
        }
    })
}

/// Every block of `specs`, in order.
pub fn render_blocks(specs: &[ContentSpec], vars: &Value) -> Result<Vec<Value>, minijinja::Error> {
    specs.iter().map(|s| render_block(s, vars)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_rendered_from_the_answer() {
        let vars = json!({"result": {"png": "iVBOR", "note": "hi"}, "input": {}});
        let image = ContentSpec {
            kind: ContentKind::Image,
            text: None,
            data: Some("{{ result.png }}"),
            mime_type: Some("image/png"),
            uri: None,
        };
        assert_eq!(
            render_block(&image, &vars).unwrap(),
            json!({"type": "image", "data": "iVBOR", "mimeType": "image/png"})
        );
        let resource = ContentSpec {
            kind: ContentKind::Resource,
            text: Some("{{ result | tojson }}"),
            data: None,
            mime_type: Some("application/json"),
            uri: Some("test://x/{{ result.note }}"),
        };
        let block = render_block(&resource, &vars).unwrap();
        assert_eq!(block["resource"]["uri"], "test://x/hi");
        assert_eq!(block["resource"]["mimeType"], "application/json");
        let text: Value =
            serde_json::from_str(block["resource"]["text"].as_str().unwrap()).unwrap();
        assert_eq!(text, vars["result"]);
    }
}
