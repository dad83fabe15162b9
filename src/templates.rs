//! Prompt and resource text, rendered with minijinja from the manifest's templates.

use crate::spec::SurfaceSpec;
use serde_json::{Value, json};

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
    minijinja::Environment::new().render_str(template, minijinja::context! { server => minijinja::Value::from(minijinja::value::Serde(&server)), args => minijinja::Value::from(minijinja::value::Serde(args)) })
}
