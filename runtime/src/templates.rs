//! Prompt and resource text, rendered with minijinja from the manifest's templates.

use crate::spec::SurfaceSpec;
use serde_json::{Value, json};
use std::sync::LazyLock;

/// One environment for every render: building one registers all builtin filters, which is
/// work a tool call should not repeat.
static ENV: LazyLock<minijinja::Environment<'static>> = LazyLock::new(minijinja::Environment::new);

/// The shared minijinja environment (mapping templates, prompts, resources, contract README).
pub fn env() -> &'static minijinja::Environment<'static> {
    &ENV
}

pub fn render(
    template: &str,
    surface: &SurfaceSpec,
    args: &Value,
) -> Result<String, minijinja::Error> {
    let server = json!({
        "name": surface.name,
        "title": surface.title,
        "version": surface.version,
        "instructions": surface.instructions,
        "result_budget": surface.result_budget,
    });
    env().render_str(template, minijinja::context! { server => minijinja::Value::from(minijinja::value::Serde(&server)), args => minijinja::Value::from(minijinja::value::Serde(args)) })
}
