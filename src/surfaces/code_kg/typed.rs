//! Decoding the parts of Nexus answers into the generated types.

use nexus_mcp_runtime::error::ToolError;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// Decodes a part of a Nexus answer into a generated type.
pub(super) fn typed<T: DeserializeOwned>(value: &Value, what: &str) -> Result<T, ToolError> {
    serde_json::from_value(value.clone()).map_err(|e| ToolError::Backend {
        code: "bad_response".to_owned(),
        message: format!("Nexus returned a {what} this server cannot read: {e}"),
        retryable: false,
    })
}
