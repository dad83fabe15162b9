//! Registry entries for prompts, resources and content blocks (see emit.rs for tools).

use crate::emit::{completion_spec, nexus_spec, opt_str, opt_usize, pairs, strs};
use crate::model::{Completion, Content, ContentKind, Manifest, Prompt, Resource, Role};
use proc_macro2::TokenStream;
use quote::quote;

pub(crate) fn content_spec(c: &Content) -> TokenStream {
    let kind = match c.kind {
        ContentKind::Text => quote!(runtime::spec::ContentKind::Text),
        ContentKind::Image => quote!(runtime::spec::ContentKind::Image),
        ContentKind::Audio => quote!(runtime::spec::ContentKind::Audio),
        ContentKind::Resource => quote!(runtime::spec::ContentKind::Resource),
    };
    let (text, data, mime, uri) = (
        opt_str(&c.text),
        opt_str(&c.data),
        opt_str(&c.mime_type),
        opt_str(&c.uri),
    );
    quote!(runtime::spec::ContentSpec { kind: #kind, text: #text, data: #data, mime_type: #mime, uri: #uri })
}

pub(crate) fn content_specs(list: &[Content]) -> TokenStream {
    let items = list.iter().map(content_spec);
    quote!(&[#(#items),*])
}

pub(crate) fn prompt_spec(p: &Prompt) -> TokenStream {
    let (n, t, d, tpl) = (&p.name, opt_str(&p.title), &p.description, &p.template);
    let args = p.arguments.iter().map(|a| {
        let (an, ad, ar) = (&a.name, &a.description, a.required);
        let complete = completion_spec(&a.complete);
        quote!(runtime::spec::PromptArgSpec { name: #an, description: #ad, required: #ar, complete: #complete })
    });
    let messages = p.messages.iter().map(|m| {
        let role = match m.role {
            Role::User => quote!(runtime::spec::Role::User),
            Role::Assistant => quote!(runtime::spec::Role::Assistant),
        };
        let content = content_spec(&m.content);
        quote!(runtime::spec::PromptMessageSpec { role: #role, content: #content })
    });
    let call = match &p.call {
        Some(c) => {
            let (tool, arguments) = (&c.tool, pairs(&c.arguments));
            quote!(Some(runtime::spec::PromptCallSpec { tool: #tool, arguments: #arguments }))
        }
        None => quote!(None),
    };
    quote!(runtime::spec::PromptSpec {
        name: #n, title: #t, description: #d, arguments: &[#(#args),*], template: #tpl,
        messages: &[#(#messages),*], call: #call,
    })
}

pub(crate) fn resource_spec(manifest: &Manifest, r: &Resource) -> TokenStream {
    let (u, n, t, d, m, tpl) = (
        &r.uri,
        &r.name,
        opt_str(&r.title),
        &r.description,
        &r.mime_type,
        &r.template,
    );
    let nexus = match &r.nexus {
        Some(mapping) => {
            let spec = nexus_spec(mapping);
            quote!(Some(#spec))
        }
        None => quote!(None),
    };
    let (text, blob, scope) = (opt_str(&r.text), opt_str(&r.blob), opt_str(&r.scope));
    let resp = &r.response;
    let (pick, exclude) = (strs(&resp.pick), strs(&resp.exclude));
    let (max_items, max_string) = (opt_usize(resp.max_items), opt_usize(resp.max_string));
    let budget = crate::registry::resource_budget(manifest, r);
    let complete = r.complete.iter().map(|(var, c)| {
        let spec = completion_value(c);
        quote!((#var, #spec))
    });
    quote!(runtime::spec::ResourceSpec {
        uri: #u, name: #n, title: #t, description: #d, mime_type: #m, template: #tpl,
        nexus: #nexus, text: #text, blob: #blob, scope: #scope,
        response: runtime::spec::ResponseSpec { pick: #pick, exclude: #exclude, max_items: #max_items, max_string: #max_string, budget: #budget },
        complete: &[#(#complete),*],
    })
}

/// A resource variable's completion source (validation has refused every other shape).
fn completion_value(c: &Completion) -> TokenStream {
    match (&c.nexus, &c.pick, &c.scope) {
        (Some(m), Some(pick), Some(scope)) => {
            let nexus = nexus_spec(m);
            quote!(runtime::spec::CompletionSpec::Nexus { nexus: #nexus, pick: #pick, scope: #scope })
        }
        _ => {
            let values = strs(&c.values);
            quote!(runtime::spec::CompletionSpec::Values(#values))
        }
    }
}
