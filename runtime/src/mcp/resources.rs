//! resources/list, resources/templates/list and resources/read: the manifest's resources, static
//! or read from the backend, and RFC 6570 resource templates whose variables feed the backend
//! mapping. A resource whose scope the caller lacks is neither listed nor readable.

use super::{McpServer, from_json};
use crate::access;
use crate::app::ToolContext;
use crate::backend::mapping;
use crate::error::{ToolError, echo, log_internal};
use crate::spec::{Mode, ResourceSpec};
use crate::{trim, uri_template};
use rmcp::model::{
    ErrorData, ListResourceTemplatesResult, ListResourcesResult, ReadResourceRequestParams,
    ReadResourceResponse, ReadResourceResult, Resource, ResourceContents, ResourceTemplate,
};
use rmcp::service::{RequestContext, RoleServer};
use serde_json::{Map, Value, json};
use std::collections::BTreeSet;

/// What a read (or subscription) of a URI no visible resource has gets: -32002.
pub(super) fn not_found(uri: &str) -> ErrorData {
    ErrorData::resource_not_found(
        format!(
            "unknown resource `{}`; call resources/list and resources/templates/list",
            echo(uri)
        ),
        // SEP-2164: the URI asked for, so a client can tell which read failed.
        Some(json!({"uri": echo(uri)})),
    )
}

/// The resource of `resources` that `uri` names, with its template's variables: an exact URI
/// first, then the templates in manifest order.
pub(super) fn resolve(
    resources: impl Iterator<Item = &'static ResourceSpec> + Clone,
    uri: &str,
) -> Option<(&'static ResourceSpec, Map<String, Value>)> {
    resources
        .clone()
        .find(|r| !r.is_template() && r.uri == uri)
        .map(|r| (r, Map::new()))
        .or_else(|| {
            resources.filter(|r| r.is_template()).find_map(|r| {
                let vars = uri_template::matches(r.uri, uri)?;
                Some((
                    r,
                    vars.into_iter()
                        .map(|(k, v)| (k, Value::String(v)))
                        .collect(),
                ))
            })
        })
}

impl McpServer {
    /// The resources (and templates) this caller may see.
    fn visible_resources(
        &self,
        scopes: &BTreeSet<String>,
    ) -> impl Iterator<Item = &'static ResourceSpec> + Clone + '_ {
        let surface = self.app.surface;
        let scopes = scopes.clone();
        let mode = self.mode;
        surface.resources.iter().filter(move |r| {
            r.scope
                .is_none_or(|s| access::scope_usable(surface, s, mode, &scopes))
        })
    }

    pub(super) fn resources_list(
        &self,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let resources = self
            .visible_resources(&self.scopes_for(ctx))
            .filter(|r| !r.is_template())
            .map(|r| from_json(json!({"uri": r.uri, "name": r.name, "title": r.title, "description": r.description, "mimeType": r.mime_type})))
            .collect::<Result<Vec<Resource>, _>>()?;
        Ok(ListResourcesResult::with_all_items(resources)
            .with_ttl_ms(super::LIST_TTL_MS)
            .with_cache_scope(rmcp::model::CacheScope::Private))
    }

    pub(super) fn resource_templates_list(
        &self,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let templates = self
            .visible_resources(&self.scopes_for(ctx))
            .filter(|r| r.is_template())
            .map(|r| from_json(json!({"uriTemplate": r.uri, "name": r.name, "title": r.title, "description": r.description, "mimeType": r.mime_type})))
            .collect::<Result<Vec<ResourceTemplate>, _>>()?;
        Ok(ListResourceTemplatesResult::with_all_items(templates)
            .with_ttl_ms(super::LIST_TTL_MS)
            .with_cache_scope(rmcp::model::CacheScope::Private))
    }

    /// The resource `uri` names for a caller holding `scopes`, with its template's variables:
    /// an exact URI first, then the templates in manifest order.
    pub(super) fn find_resource(
        &self,
        scopes: &BTreeSet<String>,
        uri: &str,
    ) -> Option<(&'static ResourceSpec, Map<String, Value>)> {
        resolve(self.visible_resources(scopes), uri)
    }

    pub(super) async fn resources_read(
        &self,
        request: ReadResourceRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        self.read_as(&request.uri, &self.tool_context(&ctx, None))
            .await
    }

    /// A read of `uri` as `caller` (its scopes, repositories and log) would make it.
    pub(super) async fn read_as(
        &self,
        uri: &str,
        caller: &ToolContext,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let Some((resource, vars)) = self.find_resource(&caller.scopes, uri) else {
            return Err(not_found(uri));
        };
        self.check_variables(resource, &vars)?;
        let args = Value::Object(vars);
        let contents = match &resource.nexus {
            None => {
                let text = self.render(resource, &args, None)?;
                json!({"uri": uri, "mimeType": resource.mime_type, "text": text})
            }
            Some(nexus) => {
                let request_to_backend = mapping::render(resource.uri, nexus, &args)
                    .map_err(|e| self.backend_error(resource, e))?;
                let raw = caller
                    .nexus(&request_to_backend)
                    .await
                    .map_err(|e| self.backend_error(resource, e))?;
                self.contents_from_answer(resource, uri, &args, raw)?
            }
        };
        let contents: ResourceContents = from_json(contents)?;
        Ok(ReadResourceResult::new(vec![contents]).into())
    }

    /// The resource's content from a backend answer: base64 at `blob` (as is: binary data is
    /// not text to redact or cut), or the answer trimmed and redacted like a tool answer, then
    /// the text at `text`, the rendered `template`, or the whole answer as JSON.
    fn contents_from_answer(
        &self,
        resource: &ResourceSpec,
        uri: &str,
        args: &Value,
        raw: Value,
    ) -> Result<Value, ErrorData> {
        if let Some(path) = resource.blob {
            let blob = at_path(&raw, path).and_then(Value::as_str).ok_or_else(|| {
                self.shape_error(
                    resource,
                    &format!("the answer has no base64 string at `{path}`"),
                )
            })?;
            return Ok(json!({"uri": uri, "mimeType": resource.mime_type, "blob": blob}));
        }
        let (mut value, mut report) = trim::shape(raw, &resource.response);
        trim::fit_budget(&mut value, resource.response.budget, &mut report);
        let text = match resource.text {
            Some(path) => match at_path(&value, path) {
                Some(Value::String(s)) => s.clone(),
                Some(other) => other.to_string(),
                None => {
                    return Err(
                        self.shape_error(resource, &format!("the answer has nothing at `{path}`"))
                    );
                }
            },
            None if !resource.template.is_empty() => self.render(resource, args, Some(&value))?,
            None => {
                if report.truncated()
                    && let Some(obj) = value.as_object_mut()
                {
                    obj.insert(
                        "truncation".to_owned(),
                        json!({"truncated": true, "cuts": report.cuts, "note": format!("Cut to fit {} characters.", resource.response.budget)}),
                    );
                }
                value.to_string()
            }
        };
        Ok(json!({"uri": uri, "mimeType": resource.mime_type, "text": text}))
    }

    fn render(
        &self,
        resource: &ResourceSpec,
        args: &Value,
        result: Option<&Value>,
    ) -> Result<String, ErrorData> {
        let surface = self.app.surface;
        let server = json!({"name": surface.name, "title": surface.title, "version": surface.version, "instructions": surface.instructions, "result_budget": surface.result_budget});
        let vars = json!({"server": server, "args": args, "result": result});
        crate::templates::env()
            .render_str(
                resource.template,
                minijinja::Value::from(minijinja::value::Serde(&vars)),
            )
            .map_err(|e| {
                ErrorData::internal_error(
                    format!("resource `{}` failed to render: {e}", resource.uri),
                    None,
                )
            })
    }

    /// Checks each URI variable against the schema the manifest gives it: the input property
    /// of a tool whose Nexus read is the same route, filling the same path parameter (the node
    /// resource's `{id}` is `get_node`'s `nodeId`), or of a tool sending the same query
    /// parameter (`{workspace}` is the tools' `workspace`), so a resource takes no value its
    /// tool refuses.
    fn check_variables(
        &self,
        resource: &ResourceSpec,
        vars: &Map<String, Value>,
    ) -> Result<(), ErrorData> {
        let Some(nexus) = &resource.nexus else {
            return Ok(());
        };
        let (route, names) = route_of(nexus.path);
        for tool in self.app.surface.tools {
            let Some(t) = &tool.nexus else { continue };
            let (tool_route, tool_names) = route_of(t.path);
            if t.method == nexus.method && tool_route == route {
                for (name, arg) in names.iter().zip(&tool_names) {
                    self.check_as(resource, vars, name, tool, arg)?;
                }
            }
            for (param, template) in nexus.query {
                let Some(name) = mapping::single_field(template) else {
                    continue;
                };
                let sent = t.query.iter().find(|(p, _)| p == param);
                if let Some(arg) = sent.and_then(|(_, tt)| mapping::single_field(tt)) {
                    self.check_as(resource, vars, name, tool, arg)?;
                }
            }
        }
        Ok(())
    }

    /// Checks URI variable `name` (when given) as argument `arg` of `tool`.
    fn check_as(
        &self,
        resource: &ResourceSpec,
        vars: &Map<String, Value>,
        name: &str,
        tool: &crate::spec::ToolSpec,
        arg: &str,
    ) -> Result<(), ErrorData> {
        let (Some(value), Some(validator), Some(schema)) = (
            vars.get(name),
            self.app.validator(tool),
            self.app.input_schema(tool),
        ) else {
            return Ok(());
        };
        let field = crate::arguments::child("", arg);
        let one = Value::Object(Map::from_iter([(arg.to_owned(), value.clone())]));
        let problems: Vec<String> = crate::arguments::problems(validator, schema, &one)
            .into_iter()
            .filter(|p| p.field == field || p.field.starts_with(&format!("{field}/")))
            .map(|p| p.message)
            .collect();
        if problems.is_empty() {
            return Ok(());
        }
        Err(ErrorData::invalid_params(
            crate::error::capped(&format!(
                "resource `{}`: URI variable `{name}` is checked as `{arg}` of `{}`: {}",
                resource.uri,
                tool.name,
                problems.join("; ")
            ))
            .into_owned(),
            None,
        ))
    }

    fn backend_error(&self, resource: &ResourceSpec, e: ToolError) -> ErrorData {
        match e {
            ToolError::InvalidArguments { .. } => ErrorData::invalid_params(
                crate::error::capped(&format!("resource `{}`: {e}", resource.uri)).into_owned(),
                None,
            ),
            ToolError::NotFound { .. } => ErrorData::resource_not_found(
                crate::error::capped(&format!("resource `{}`: {e}", resource.uri)).into_owned(),
                None,
            ),
            e if e.is_callers() => ErrorData::invalid_params(
                crate::error::capped(&format!(
                    "resource `{}`: {}",
                    resource.uri,
                    e.to_client_json(self.mode)
                ))
                .into_owned(),
                None,
            ),
            e if self.mode == Mode::RemoteHttp && e.is_internal() => ErrorData::internal_error(
                format!(
                    "reading the resource failed on the server; the operator finds the details in its log under reference {}",
                    log_internal(&e)
                ),
                None,
            ),
            e => ErrorData::internal_error(
                format!(
                    "resource `{}` could not be read: {}",
                    resource.uri,
                    e.to_client_json(self.mode)
                ),
                None,
            ),
        }
    }

    fn shape_error(&self, resource: &ResourceSpec, what: &str) -> ErrorData {
        ErrorData::internal_error(
            format!(
                "resource `{}`: {what}; the manifest's `text:`/`blob:` path does not match the backend's answer",
                resource.uri
            ),
            None,
        )
    }
}

/// A Nexus path template with its parameters blanked (`/nodes/{}`), and their names in order.
fn route_of(path: &str) -> (String, Vec<&str>) {
    let mut route = String::with_capacity(path.len());
    let mut names = Vec::new();
    let mut rest = path;
    while let Some(start) = rest.find('{') {
        let Some(len) = rest[start..].find('}') else {
            break;
        };
        route.push_str(&rest[..start]);
        route.push_str("{}");
        names.push(&rest[start + 1..start + len]);
        rest = &rest[start + len + 1..];
    }
    route.push_str(rest);
    (route, names)
}

/// The value at a dotted path (`data.items.0.text`); numbers index arrays.
fn at_path<'a>(value: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.')
        .filter(|s| !s.is_empty())
        .try_fold(value, |v, key| match v {
            Value::Array(items) => key.parse::<usize>().ok().and_then(|i| items.get(i)),
            other => other.get(key),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_compare_without_their_parameter_names() {
        assert_eq!(
            route_of("/api/v1/docs/nodes/{nodeId}"),
            ("/api/v1/docs/nodes/{}".to_owned(), vec!["nodeId"])
        );
        assert_eq!(route_of("/a/{id}").0, route_of("/a/{nodeId}").0);
    }

    #[test]
    fn dotted_paths_walk_objects_and_array_indexes() {
        let v = json!({"data": {"items": [{"text": "a"}, {"text": "b"}]}});
        assert_eq!(at_path(&v, "data.items.1.text"), Some(&json!("b")));
        assert_eq!(at_path(&v, "data.missing"), None);
        assert_eq!(at_path(&v, ""), Some(&v));
    }
}
