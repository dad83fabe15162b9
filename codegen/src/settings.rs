//! How generated code is shaped beyond the manifest (the counterpart of progenitor's
//! `GenerationSettings`).

/// Generation settings.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The path generated code reaches the runtime crate through, e.g. `::nexus_mcp_runtime` or,
    /// for a crate that re-exports it, `crate::runtime`.
    pub runtime_path: String,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            runtime_path: "::nexus_mcp_runtime".to_owned(),
        }
    }
}
