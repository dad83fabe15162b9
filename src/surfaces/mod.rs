//! The binding table: which code each surface adds to its manifest. A surface missing here runs
//! with no custom handlers and no envelope hook; a test fails when its manifest declares a
//! custom tool (tests/bindings.rs).

pub mod code_kg;
pub mod doc_kg;
mod environment;

pub use environment::Environment;

use nexus_mcp_runtime::app::SurfaceParts;

/// One row of the table: a surface name and the function building its parts.
pub struct Binding {
    pub surface: &'static str,
    pub bind: fn(&Environment) -> SurfaceParts,
}

/// THE table.
pub static BINDINGS: &[Binding] = &[
    Binding {
        surface: "nexus-code-kg",
        bind: code_kg::bind,
    },
    Binding {
        surface: "nexus-doc-kg",
        bind: doc_kg::bind,
    },
];

/// The binding of `surface`, if it has one.
pub fn binding(surface: &str) -> Option<&'static Binding> {
    BINDINGS.iter().find(|b| b.surface == surface)
}

/// The parts `surface` runs with.
pub fn parts(surface: &str, env: &Environment) -> SurfaceParts {
    binding(surface).map_or_else(SurfaceParts::default, |b| (b.bind)(env))
}
