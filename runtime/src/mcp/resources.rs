//! resources/list and resources/read: the manifest's resources.

use super::{McpServer, from_json};
use crate::error::echo;
use rmcp::model::{
    ErrorData, ListResourcesResult, ReadResourceRequestParams, ReadResourceResponse,
    ReadResourceResult, Resource, ResourceContents,
};
use serde_json::{Value, json};

impl McpServer {
    pub(super) fn resources_list(&self) -> Result<ListResourcesResult, ErrorData> {
        let resources = self
            .app
            .surface
            .resources
            .iter()
            .map(|r| from_json(json!({"uri": r.uri, "name": r.name, "title": r.title, "description": r.description, "mimeType": r.mime_type})))
            .collect::<Result<Vec<Resource>, _>>()?;
        Ok(ListResourcesResult::with_all_items(resources))
    }

    pub(super) fn resources_read(
        &self,
        request: ReadResourceRequestParams,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let surface = self.app.surface;
        let resource = surface
            .resources
            .iter()
            .find(|r| r.uri == request.uri)
            .ok_or_else(|| {
                ErrorData::resource_not_found(
                    format!(
                        "unknown resource `{}`; call resources/list",
                        echo(&request.uri)
                    ),
                    None,
                )
            })?;
        let text =
            crate::templates::render(resource.template, surface, &Value::Null).map_err(|e| {
                ErrorData::internal_error(
                    format!("resource `{}` failed to render: {e}", resource.uri),
                    None,
                )
            })?;
        let contents: ResourceContents =
            from_json(json!({"uri": resource.uri, "mimeType": resource.mime_type, "text": text}))?;
        Ok(ReadResourceResult::new(vec![contents]).into())
    }
}
