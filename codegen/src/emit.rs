//! Rust code for one surface: typed input/output structs, the custom-handler trait and its
//! dispatcher, and the static registry the runtime is driven by.

use crate::bake::Bake;
use crate::model::{HandlerKind, Manifest, Tool};
use crate::naming::{field_ident, pascal};
use crate::schema;
use nexus_mcp_registry::spec::SurfaceSpec;
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};
use serde_json::Value;
use std::collections::BTreeMap;

/// The generated module for one surface, as tokens.
pub fn surface(manifest: &Manifest, source_file: &str, runtime: &syn::Path) -> TokenStream {
    let registry = registry(crate::surface::surface(manifest));
    let manifest = &crate::emit_capabilities::with_meta_tools(manifest);
    let types = &manifest.types;
    let header = format!(
        " Generated from {source_file} by nexus-mcp-codegen. Do not edit: change the manifest."
    );
    let shared = types.iter().map(|(name, ty)| shared_type(name, ty, types));
    let tool_types = manifest.tools.iter().map(|tool| tool_structs(tool, types));
    let custom = custom_trait(manifest);
    let module = format_ident!("{}", manifest.surface.replace('-', "_"));
    quote! {
        #[doc = #header]
        pub mod #module {
            use #runtime as runtime;
            #(#shared)*
            #(#tool_types)*
            #custom
            #registry
        }
    }
}

/// The Rust type for a property schema. Nested objects stay `serde_json::Value`: only the top
/// level and shared types get structs, which keeps generated code small and readable.
fn rust_type(schema: &Value, types: &BTreeMap<String, Value>) -> TokenStream {
    if let Some(name) = schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix(schema::TYPE_REF_PREFIX))
    {
        let ident = format_ident!("{}", name);
        return quote!(#ident);
    }
    let nullable =
        matches!(schema.get("type"), Some(Value::Array(ts)) if ts.iter().any(|t| t == "null"));
    let inner = match schema::primary_type(schema, types) {
        Some("string") => quote!(String),
        Some("integer") => quote!(i64),
        Some("number") => quote!(f64),
        Some("boolean") => quote!(bool),
        Some("array") => {
            let item = schema
                .get("items")
                .map(|i| rust_type(i, types))
                .unwrap_or_else(|| quote!(serde_json::Value));
            quote!(Vec<#item>)
        }
        _ => quote!(serde_json::Value),
    };
    if nullable {
        quote!(Option<#inner>)
    } else {
        inner
    }
}

fn struct_for(
    name: &Ident,
    schema: &Value,
    types: &BTreeMap<String, Value>,
    strict: bool,
    doc: &str,
    flattened: &[String],
) -> TokenStream {
    let required = schema::required(schema);
    // Properties of an included shared type live in that type, flattened into this one.
    let included: Vec<&str> = flattened
        .iter()
        .filter_map(|t| types.get(t))
        .flat_map(|t| schema::properties(t).into_iter().map(|(p, _)| p))
        .collect();
    let mut defaults = Vec::new();
    // Default follows the manifest: a field with a schema default starts at that value (a
    // derived Default would make `dry_run` false, the unsafe value).
    let mut inits = Vec::new();
    let mut fields = schema::properties(schema)
        .into_iter()
        .filter(|(prop, _)| !included.contains(prop))
        .map(|(prop, prop_schema)| {
            let ident = field_ident(prop);
            let rename =
                (crate::naming::field_text(prop) != prop).then(|| quote!(#[serde(rename = #prop)]));
            let doc = prop_schema
                .get("description")
                .and_then(Value::as_str)
                .map(|d| {
                    let d = format!(" {d}");
                    quote!(#[doc = #d])
                });
            let ty = rust_type(prop_schema, types);
            // A number behind a type alias is still an f64: an integer default must be written 2.0.
            let is_number = schema::primary_type(prop_schema, types) == Some("number");
            let default = prop_schema
                .get("default")
                .and_then(|d| default_literal(d, is_number));
            let (attrs, ty) = if required.contains(prop) {
                inits.push(quote!(#ident: Default::default()));
                (quote!(), ty)
            } else if let Some((lit_ty, lit)) =
                default.filter(|_| !ty.to_string().starts_with("Option"))
            {
                let fn_name = format_ident!(
                    "default_{}_{}",
                    name.to_string().to_lowercase(),
                    ident.to_string().trim_start_matches("r#")
                );
                let fn_path = fn_name.to_string();
                defaults.push(quote! { fn #fn_name() -> #lit_ty { #lit } });
                inits.push(quote!(#ident: #fn_name()));
                (quote!(#[serde(default = #fn_path)]), ty)
            } else {
                // Optional: absent and null read the same, so a nullable type is not wrapped twice.
                let optional = if ty.to_string().starts_with("Option") {
                    ty
                } else {
                    quote!(Option<#ty>)
                };
                inits.push(quote!(#ident: None));
                (
                    quote!(#[serde(default, skip_serializing_if = "Option::is_none")]),
                    optional,
                )
            };
            quote! { #doc #rename #attrs pub #ident: #ty, }
        })
        .collect::<Vec<_>>();
    for ty in flattened {
        let ident = field_ident(ty);
        let ty = format_ident!("{}", ty);
        inits.push(quote!(#ident: Default::default()));
        fields.push(quote! { #[serde(flatten)] pub #ident: #ty, });
    }
    let deny = strict.then(|| quote!(#[serde(deny_unknown_fields)]));
    let doc = format!(" {doc}");
    if defaults.is_empty() {
        return quote! {
            #[doc = #doc]
            #[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
            #deny
            pub struct #name { #(#fields)* }
        };
    }
    quote! {
        #[doc = #doc]
        #[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
        #deny
        pub struct #name { #(#fields)* }
        impl Default for #name {
            fn default() -> Self {
                Self { #(#inits),* }
            }
        }
        #(#defaults)*
    }
}

/// The Rust type and literal of a schema default (`is_number`: the field is an f64); `None` when it
/// has no literal (the field is then an `Option` and the runtime fills the default in).
fn default_literal(value: &Value, is_number: bool) -> Option<(TokenStream, TokenStream)> {
    match value {
        Value::Number(n) if is_number => n.as_f64().map(|f| (quote!(f64), quote!(#f))),
        Value::Bool(b) => Some((quote!(bool), quote!(#b))),
        Value::Number(n) => match n.as_i64() {
            Some(i) => Some((quote!(i64), quote!(#i))),
            None => n.as_f64().map(|f| (quote!(f64), quote!(#f))),
        },
        Value::String(s) => Some((quote!(String), quote!(String::from(#s)))),
        _ => None,
    }
}

fn shared_type(name: &str, ty: &Value, types: &BTreeMap<String, Value>) -> TokenStream {
    let ident = format_ident!("{}", name);
    let doc = ty
        .get("description")
        .and_then(Value::as_str)
        .unwrap_or("Shared type from the manifest.");
    if ty.get("type").and_then(Value::as_str) == Some("object") && ty.get("properties").is_some() {
        let strict = ty.get("additionalProperties") == Some(&Value::Bool(false));
        struct_for(&ident, ty, types, strict, doc, &[])
    } else {
        let target = rust_type(ty, types);
        let doc = format!(" {doc}");
        quote! { #[doc = #doc] pub type #ident = #target; }
    }
}

fn tool_structs(tool: &Tool, types: &BTreeMap<String, Value>) -> TokenStream {
    let input = format_ident!("{}Input", pascal(&tool.name));
    let output = format_ident!("{}Output", pascal(&tool.name));
    let strict = tool.input.get("additionalProperties") == Some(&Value::Bool(false));
    let input_struct = struct_for(
        &input,
        &tool.input,
        types,
        strict,
        &format!("Arguments of `{}`.", tool.name),
        &[],
    );
    let output_struct = struct_for(
        &output,
        &tool.output,
        types,
        false,
        &format!(
            "Result of `{}` (before the runtime adds its envelope and truncation).",
            tool.name
        ),
        &tool.includes.output,
    );
    quote! { #input_struct #output_struct }
}

fn custom_trait(manifest: &Manifest) -> TokenStream {
    let custom: Vec<&Tool> = manifest
        .tools
        .iter()
        .filter(|t| t.handler == HandlerKind::Custom)
        .collect();
    let methods = custom.iter().map(|tool| {
        let method = field_ident(&tool.name);
        let input = format_ident!("{}Input", pascal(&tool.name));
        let output = format_ident!("{}Output", pascal(&tool.name));
        let doc = format!(" `{}`: {}", tool.name, tool.title);
        quote! {
            #[doc = #doc]
            fn #method(&self, ctx: runtime::app::ToolContext, input: #input)
                -> impl std::future::Future<Output = Result<#output, runtime::error::ToolError>> + Send;
        }
    });
    let arms = custom.iter().map(|tool| {
        let name = &tool.name;
        let method = field_ident(&tool.name);
        quote! {
            #name => Some(Box::pin(async move {
                let input = runtime::app::decode_input(#name, arguments)?;
                runtime::app::encode_output(handlers.#method(ctx, input).await?)
            })),
        }
    });
    // A surface without custom tools (all mapped, or capabilities only) gets no one-arm match,
    // which clippy refuses.
    let dispatch_body = if custom.is_empty() {
        quote! {
            let _ = (handlers, ctx, tool, arguments);
            None
        }
    } else {
        quote! {
            match tool {
                #(#arms)*
                _ => {
                    let _ = (handlers, ctx, arguments);
                    None
                }
            }
        }
    };
    quote! {
        /// The tools declared `handler: custom`. A tool added to the manifest with a custom
        /// handler does not compile until it is implemented here.
        pub trait CustomHandlers: Send + Sync + 'static {
            #(#methods)*
        }

        /// Runs the custom tool `tool`, or answers `None` when it is not a custom tool of this surface.
        pub fn dispatch_custom<H: CustomHandlers>(
            handlers: std::sync::Arc<H>,
            ctx: runtime::app::ToolContext,
            tool: &str,
            arguments: serde_json::Value,
        ) -> Option<runtime::app::ToolFuture> {
            #dispatch_body
        }
    }
}

/// The registry value, baked.
fn registry(surface: &SurfaceSpec) -> TokenStream {
    let value = surface.bake();
    quote! {
        /// Everything the manifest declares for this surface; the runtime is driven by it.
        pub static SURFACE: runtime::spec::SurfaceSpec = #value;
    }
}
