//! Baking: a registry value written back as the Rust expression that rebuilds it, so the build
//! compiles exactly the value [`crate::surface`] returns (the `--manifest` loader serves that
//! same value at run time). Paths are written `runtime::spec::...`; the generated module imports
//! the runtime as `runtime`.

use nexus_mcp_registry::spec::{
    Access, AskRequest, AskSpec, BackendFailure, CapabilitiesSpec, ChooseSpec, CompletionSpec,
    ContentKind, ContentSpec, ErrorCodeSpec, Handler, HttpMethod, MetaTool, Mode, MutationSpec,
    NexusSpec, PaginationSpec, PromptArgSpec, PromptCallSpec, PromptMessageSpec, PromptSpec,
    ResourceSpec, ResponseSpec, Role, ScopeSpec, SurfaceSpec, ToolSpec,
};
use proc_macro2::TokenStream;
use quote::quote;

/// A value as the Rust expression that rebuilds it.
pub trait Bake {
    fn bake(&self) -> TokenStream;
}

/// Literals: quote's own tokens (`"text"`, `8000usize`, `true`).
macro_rules! literal {
    ($($ty:ty),*) => {$(
        impl Bake for $ty {
            fn bake(&self) -> TokenStream {
                quote!(#self)
            }
        }
    )*};
}
literal!(&str, bool, usize, u16, u32);

impl<T: Bake> Bake for Option<T> {
    fn bake(&self) -> TokenStream {
        match self {
            Some(value) => {
                let value = value.bake();
                quote!(Some(#value))
            }
            None => quote!(None),
        }
    }
}

impl<T: Bake> Bake for &[T] {
    fn bake(&self) -> TokenStream {
        let items = self.iter().map(Bake::bake);
        quote!(&[#(#items),*])
    }
}

impl<A: Bake, B: Bake> Bake for (A, B) {
    fn bake(&self) -> TokenStream {
        let (a, b) = (self.0.bake(), self.1.bake());
        quote!((#a, #b))
    }
}

/// Fieldless enums: one path per variant.
macro_rules! unit_enum {
    ($ty:ident { $($variant:ident),* }) => {
        impl Bake for $ty {
            fn bake(&self) -> TokenStream {
                match self {
                    $($ty::$variant => quote!(runtime::spec::$ty::$variant),)*
                }
            }
        }
    };
}
unit_enum!(Mode {
    LocalStdio,
    RemoteHttp
});
unit_enum!(Access {
    Read,
    Append,
    Write,
    Destructive
});
unit_enum!(MetaTool { Use, List });
unit_enum!(HttpMethod { Get, Post });
unit_enum!(Role { User, Assistant });
unit_enum!(ContentKind {
    Text,
    Image,
    Audio,
    Resource
});

/// Structs: every field baked, by name (the compiler then checks that none is missing).
macro_rules! record {
    ($ty:ident { $($field:ident),* }) => {
        impl Bake for $ty {
            fn bake(&self) -> TokenStream {
                $(let $field = self.$field.bake();)*
                quote!(runtime::spec::$ty { $($field: #$field),* })
            }
        }
    };
}
record!(SurfaceSpec {
    name,
    title,
    version,
    instructions,
    result_budget,
    tool_list_budget,
    repository_binding,
    envelope,
    scopes,
    tools,
    prompts,
    resources,
    capabilities
});
record!(CapabilitiesSpec {
    use_tool,
    list_tool
});
record!(ScopeSpec {
    name,
    description,
    modes,
    default_stdio
});
record!(ToolSpec {
    name,
    title,
    description,
    scope,
    access,
    modes,
    handler,
    input_schema,
    output_schema,
    nexus,
    response,
    pagination,
    mutation,
    content,
    listed,
    errors,
    ask,
    choose
});
record!(ErrorCodeSpec {
    when,
    code,
    message
});
record!(NexusSpec {
    method,
    path,
    query,
    body
});
record!(ResponseSpec {
    pick,
    exclude,
    max_items,
    max_string,
    budget
});
record!(PaginationSpec {
    items,
    cursor,
    next,
    also
});
record!(MutationSpec {
    dry_run_param,
    dry_run_default,
    paired_dry_run_tool,
    require_true,
    plan_param,
    follow_up,
    changes,
    approver,
    confirm
});
record!(ChooseSpec {
    from,
    by,
    message,
    label
});
record!(AskSpec {
    key,
    request,
    optional
});

impl Bake for AskRequest {
    fn bake(&self) -> TokenStream {
        match self {
            AskRequest::Elicit { message, schema } => {
                quote!(runtime::spec::AskRequest::Elicit { message: #message, schema: #schema })
            }
            AskRequest::Sample { prompt, max_tokens } => {
                quote!(runtime::spec::AskRequest::Sample { prompt: #prompt, max_tokens: #max_tokens })
            }
            AskRequest::Roots => quote!(runtime::spec::AskRequest::Roots),
        }
    }
}
record!(PromptSpec {
    name,
    title,
    description,
    arguments,
    template,
    messages,
    call,
    ask
});
record!(PromptCallSpec { tool, arguments });
record!(PromptMessageSpec { role, content });
record!(ContentSpec {
    kind,
    text,
    data,
    mime_type,
    uri
});
record!(PromptArgSpec {
    name,
    description,
    required,
    complete
});
record!(ResourceSpec {
    uri,
    name,
    title,
    description,
    mime_type,
    template,
    nexus,
    text,
    blob,
    scope,
    response,
    complete,
    poll_seconds
});

impl Bake for Handler {
    fn bake(&self) -> TokenStream {
        match self {
            Handler::Mapped => quote!(runtime::spec::Handler::Mapped),
            Handler::Custom => quote!(runtime::spec::Handler::Custom),
            Handler::Meta(kind) => {
                let kind = kind.bake();
                quote!(runtime::spec::Handler::Meta(#kind))
            }
        }
    }
}

impl Bake for BackendFailure {
    fn bake(&self) -> TokenStream {
        match self {
            BackendFailure::Status(status) => {
                let status = status.bake();
                quote!(runtime::spec::BackendFailure::Status(#status))
            }
            BackendFailure::Code(code) => {
                let code = code.bake();
                quote!(runtime::spec::BackendFailure::Code(#code))
            }
        }
    }
}

impl Bake for CompletionSpec {
    fn bake(&self) -> TokenStream {
        match self {
            CompletionSpec::Values(values) => {
                let values = values.bake();
                quote!(runtime::spec::CompletionSpec::Values(#values))
            }
            CompletionSpec::Nexus { nexus, pick, scope } => {
                let (nexus, pick, scope) = (nexus.bake(), pick.bake(), scope.bake());
                quote!(runtime::spec::CompletionSpec::Nexus { nexus: #nexus, pick: #pick, scope: #scope })
            }
        }
    }
}
