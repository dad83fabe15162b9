//! The page templates, compiled into the binary (minijinja, HTML auto-escaping on every
//! `.html` template: a value is text unless a handler made it markup on purpose).

use crate::error::PageError;
use axum::response::Html;
use minijinja::Environment;
use std::sync::OnceLock;

const TEMPLATES: [(&str, &str); 13] = [
    ("base.html", include_str!("templates/base.html")),
    ("error.html", include_str!("templates/error.html")),
    ("workspaces.html", include_str!("templates/workspaces.html")),
    ("workspace.html", include_str!("templates/workspace.html")),
    ("node.html", include_str!("templates/node.html")),
    ("search.html", include_str!("templates/search.html")),
    (
        "repositories.html",
        include_str!("templates/repositories.html"),
    ),
    ("repository.html", include_str!("templates/repository.html")),
    ("impact.html", include_str!("templates/impact.html")),
    ("file.html", include_str!("templates/file.html")),
    (
        "rules_repositories.html",
        include_str!("templates/rules_repositories.html"),
    ),
    ("rules.html", include_str!("templates/rules.html")),
    ("rules_run.html", include_str!("templates/rules_run.html")),
];

fn env() -> &'static Environment<'static> {
    static ENV: OnceLock<Environment<'static>> = OnceLock::new();
    ENV.get_or_init(|| {
        let mut env = Environment::new();
        for (name, source) in TEMPLATES {
            if let Err(e) = env.add_template(name, source) {
                // A template that does not parse is a bug caught by the tests; the page says so.
                tracing::error!(template = name, error = %e, "viewer template does not parse");
            }
        }
        env
    })
}

/// `name` rendered with `context`.
pub fn render(name: &str, context: minijinja::Value) -> Result<String, PageError> {
    env()
        .get_template(name)
        .and_then(|t| t.render(context))
        .map_err(|e| PageError::Internal(format!("template {name}: {e}")))
}

/// A whole page.
pub fn page(name: &str, context: minijinja::Value) -> Result<Html<String>, PageError> {
    render(name, context).map(Html)
}

/// Any serialisable value as a template value (JSON answers, drawings).
pub fn value<T: serde::Serialize>(v: T) -> minijinja::Value {
    minijinja::Value::from(minijinja::value::Serde(v))
}
