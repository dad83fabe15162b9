//! The binding table and the manifests agree: every custom tool a manifest declares has code
//! behind it, and every binding names a surface this build serves.

use nexus_mcp::surfaces::{self, BINDINGS, Environment};
use nexus_mcp_runtime::app::{App, Settings, ToolContext};
use nexus_mcp_runtime::backend::{NexusClient, Secret};
use nexus_mcp_runtime::spec::{Handler, Mode};
use serde_json::json;
use std::sync::Arc;
use std::time::Duration;

#[test]
fn every_custom_tool_has_a_binding() {
    let nexus = NexusClient::new(
        "http://127.0.0.1:9",
        Secret::new("unused".to_owned()),
        Duration::from_secs(1),
    )
    .unwrap();
    let mut unbound = Vec::new();
    for surface in nexus_mcp::SURFACES {
        let parts = surfaces::parts(surface.name, &Environment::default());
        let app = Arc::new(App::new(
            surface,
            nexus.clone(),
            Settings::default(),
            parts.clone(),
        ));
        for tool in surface
            .tools
            .iter()
            .filter(|t| t.handler == Handler::Custom)
        {
            let ctx = ToolContext {
                app: app.clone(),
                mode: Mode::LocalStdio,
                scopes: Arc::default(),
                repositories: None,
                progress: None,
                log: None,
                asking: None,
            };
            // The dispatcher answers Some for every tool it implements; the call itself is
            // never awaited.
            if (parts.custom)(ctx, tool.name, json!({})).is_none() {
                unbound.push(format!("{}/{}", surface.name, tool.name));
            }
        }
    }
    assert!(
        unbound.is_empty(),
        "custom tools with no implementation: {unbound:?}. Add the surface to BINDINGS in src/surfaces/mod.rs."
    );
}

#[test]
fn every_binding_names_a_served_surface() {
    for binding in BINDINGS {
        assert!(
            nexus_mcp::surface(binding.surface).is_some(),
            "BINDINGS names `{}`, which no manifest declares",
            binding.surface
        );
    }
}
