/// Generated from codegen/tests/manifests/demo.yaml by nexus-mcp-codegen. Do not edit: change the manifest.
pub mod demo {
    use ::nexus_mcp_runtime as runtime;
    /// Shared type from the manifest.
    #[derive(
        Debug,
        Clone,
        Default,
        PartialEq,
        serde::Serialize,
        serde::Deserialize,
        schemars::JsonSchema
    )]
    pub struct Note {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub note_id: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub title: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub tags: Option<Vec<String>>,
    }
    /// Shared type from the manifest.
    pub type NoteId = String;
    /// Arguments of `demo_list_notes`.
    #[derive(
        Debug,
        Clone,
        PartialEq,
        serde::Serialize,
        serde::Deserialize,
        schemars::JsonSchema
    )]
    #[serde(deny_unknown_fields)]
    pub struct DemoListNotesInput {
        pub folder: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub tag: Option<String>,
        /// next_cursor from the previous page.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub cursor: Option<String>,
        #[serde(default = "default_demolistnotesinput_limit")]
        pub limit: i64,
    }
    impl Default for DemoListNotesInput {
        fn default() -> Self {
            Self {
                folder: Default::default(),
                tag: None,
                cursor: None,
                limit: default_demolistnotesinput_limit(),
            }
        }
    }
    fn default_demolistnotesinput_limit() -> i64 {
        20i64
    }
    /// Result of `demo_list_notes` (before the runtime adds its envelope and truncation).
    #[derive(
        Debug,
        Clone,
        Default,
        PartialEq,
        serde::Serialize,
        serde::Deserialize,
        schemars::JsonSchema
    )]
    pub struct DemoListNotesOutput {
        pub items: Vec<Note>,
        pub next_cursor: Option<String>,
    }
    /// Arguments of `demo_archive_note`.
    #[derive(
        Debug,
        Clone,
        PartialEq,
        serde::Serialize,
        serde::Deserialize,
        schemars::JsonSchema
    )]
    #[serde(deny_unknown_fields)]
    pub struct DemoArchiveNoteInput {
        pub note_id: NoteId,
        #[serde(default = "default_demoarchivenoteinput_dry_run")]
        pub dry_run: bool,
        #[serde(default = "default_demoarchivenoteinput_confirmed")]
        pub confirmed: bool,
    }
    impl Default for DemoArchiveNoteInput {
        fn default() -> Self {
            Self {
                note_id: Default::default(),
                dry_run: default_demoarchivenoteinput_dry_run(),
                confirmed: default_demoarchivenoteinput_confirmed(),
            }
        }
    }
    fn default_demoarchivenoteinput_dry_run() -> bool {
        true
    }
    fn default_demoarchivenoteinput_confirmed() -> bool {
        false
    }
    /// Result of `demo_archive_note` (before the runtime adds its envelope and truncation).
    #[derive(
        Debug,
        Clone,
        Default,
        PartialEq,
        serde::Serialize,
        serde::Deserialize,
        schemars::JsonSchema
    )]
    pub struct DemoArchiveNoteOutput {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub archived: Option<bool>,
    }
    /// Arguments of `demo_summarise_note`.
    #[derive(
        Debug,
        Clone,
        PartialEq,
        serde::Serialize,
        serde::Deserialize,
        schemars::JsonSchema
    )]
    #[serde(deny_unknown_fields)]
    pub struct DemoSummariseNoteInput {
        pub note_id: NoteId,
        #[serde(default = "default_demosummarisenoteinput_max_words")]
        pub max_words: i64,
    }
    impl Default for DemoSummariseNoteInput {
        fn default() -> Self {
            Self {
                note_id: Default::default(),
                max_words: default_demosummarisenoteinput_max_words(),
            }
        }
    }
    fn default_demosummarisenoteinput_max_words() -> i64 {
        50i64
    }
    /// Result of `demo_summarise_note` (before the runtime adds its envelope and truncation).
    #[derive(
        Debug,
        Clone,
        Default,
        PartialEq,
        serde::Serialize,
        serde::Deserialize,
        schemars::JsonSchema
    )]
    pub struct DemoSummariseNoteOutput {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub note: Option<Note>,
        pub summary: String,
    }
    /// The tools declared `handler: custom`. A tool added to the manifest with a custom
    /// handler does not compile until it is implemented here.
    pub trait CustomHandlers: Send + Sync + 'static {
        /// `demo_summarise_note`: Summarise a note
        fn demo_summarise_note(
            &self,
            ctx: runtime::app::ToolContext,
            input: DemoSummariseNoteInput,
        ) -> impl std::future::Future<
            Output = Result<DemoSummariseNoteOutput, runtime::error::ToolError>,
        > + Send;
    }
    /// Runs the custom tool `tool`, or answers `None` when it is not a custom tool of this surface.
    pub fn dispatch_custom<H: CustomHandlers>(
        handlers: std::sync::Arc<H>,
        ctx: runtime::app::ToolContext,
        tool: &str,
        arguments: serde_json::Value,
    ) -> Option<runtime::app::ToolFuture> {
        match tool {
            "demo_summarise_note" => {
                Some(
                    Box::pin(async move {
                        let input = runtime::app::decode_input(
                            "demo_summarise_note",
                            arguments,
                        )?;
                        runtime::app::encode_output(
                            handlers.demo_summarise_note(ctx, input).await?,
                        )
                    }),
                )
            }
            _ => {
                let _ = (handlers, ctx, arguments);
                None
            }
        }
    }
    /// Everything the manifest declares for this surface; the runtime is driven by it.
    pub static SURFACE: runtime::spec::SurfaceSpec = runtime::spec::SurfaceSpec {
        name: "demo",
        title: "Demo",
        version: "0.1.0",
        instructions: "Demo surface for the generator's snapshot test.",
        result_budget: 8000usize,
        tool_list_budget: None,
        repository_binding: None,
        envelope: &[],
        scopes: &[
            runtime::spec::ScopeSpec {
                name: "demo:read",
                description: "Read notes.",
                modes: &[
                    runtime::spec::Mode::LocalStdio,
                    runtime::spec::Mode::RemoteHttp,
                ],
                default_stdio: true,
            },
            runtime::spec::ScopeSpec {
                name: "demo:write",
                description: "Archive notes.",
                modes: &[runtime::spec::Mode::LocalStdio],
                default_stdio: false,
            },
        ],
        tools: &[
            runtime::spec::ToolSpec {
                name: "demo_list_notes",
                title: "List notes",
                description: "Notes of a folder, newest first, one page at a time.",
                scope: "demo:read",
                access: runtime::spec::Access::Read,
                modes: &[
                    runtime::spec::Mode::LocalStdio,
                    runtime::spec::Mode::RemoteHttp,
                ],
                handler: runtime::spec::Handler::Mapped,
                input_schema: "{\"additionalProperties\":false,\"properties\":{\"cursor\":{\"description\":\"next_cursor from the previous page.\",\"type\":\"string\"},\"folder\":{\"minLength\":1,\"type\":\"string\"},\"limit\":{\"default\":20,\"maximum\":50,\"minimum\":1,\"type\":\"integer\"},\"tag\":{\"enum\":[\"todo\",\"done\",\"idea\"],\"type\":\"string\"}},\"required\":[\"folder\"],\"type\":\"object\"}",
                output_schema: "{\"$defs\":{\"Note\":{\"properties\":{\"note_id\":{\"type\":\"string\"},\"tags\":{\"items\":{\"type\":\"string\"},\"type\":\"array\"},\"title\":{\"type\":\"string\"}},\"type\":\"object\"}},\"properties\":{\"items\":{\"items\":{\"$ref\":\"#/$defs/Note\"},\"type\":\"array\"},\"next_cursor\":{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"null\"}]},\"truncation\":{\"description\":\"Present when the result was cut to fit its budget; nothing is ever cut silently.\",\"properties\":{\"cuts\":{\"items\":{\"properties\":{\"kept\":{\"type\":\"integer\"},\"path\":{\"type\":\"string\"},\"total\":{\"type\":\"integer\"}},\"required\":[\"path\",\"kept\",\"total\"],\"type\":\"object\"},\"type\":\"array\"},\"next_cursor\":{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"null\"}]},\"note\":{\"type\":\"string\"},\"strings_shortened\":{\"type\":\"integer\"},\"truncated\":{\"type\":\"boolean\"}},\"required\":[\"truncated\"],\"type\":\"object\"}},\"required\":[\"items\",\"next_cursor\"],\"type\":\"object\"}",
                nexus: Some(runtime::spec::NexusSpec {
                    method: runtime::spec::HttpMethod::Get,
                    path: "/api/v1/folders/{folder}/notes",
                    query: &[
                        ("cursor", "{{ input.cursor }}"),
                        ("limit", "{{ input.limit | default(20) }}"),
                        ("tag", "{{ input.tag }}"),
                    ],
                    body: &[],
                }),
                response: runtime::spec::ResponseSpec {
                    pick: &[],
                    exclude: &[],
                    max_items: Some(50usize),
                    max_string: Some(400usize),
                    budget: 8000usize,
                },
                pagination: Some(runtime::spec::PaginationSpec {
                    items: "items",
                    cursor: "cursor",
                    next: "next_cursor",
                }),
                mutation: None,
                content: &[],
                listed: true,
                errors: &[],
            },
            runtime::spec::ToolSpec {
                name: "demo_archive_note",
                title: "Archive a note",
                description: "Archive one note; previews unless dry_run is false.",
                scope: "demo:write",
                access: runtime::spec::Access::Write,
                modes: &[runtime::spec::Mode::LocalStdio],
                handler: runtime::spec::Handler::Mapped,
                input_schema: "{\"additionalProperties\":false,\"properties\":{\"confirmed\":{\"default\":false,\"type\":\"boolean\"},\"dry_run\":{\"default\":true,\"type\":\"boolean\"},\"note_id\":{\"maxLength\":64,\"minLength\":1,\"type\":\"string\"}},\"required\":[\"note_id\"],\"type\":\"object\"}",
                output_schema: "{\"properties\":{\"archived\":{\"type\":\"boolean\"},\"truncation\":{\"description\":\"Present when the result was cut to fit its budget; nothing is ever cut silently.\",\"properties\":{\"cuts\":{\"items\":{\"properties\":{\"kept\":{\"type\":\"integer\"},\"path\":{\"type\":\"string\"},\"total\":{\"type\":\"integer\"}},\"required\":[\"path\",\"kept\",\"total\"],\"type\":\"object\"},\"type\":\"array\"},\"next_cursor\":{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"null\"}]},\"note\":{\"type\":\"string\"},\"strings_shortened\":{\"type\":\"integer\"},\"truncated\":{\"type\":\"boolean\"}},\"required\":[\"truncated\"],\"type\":\"object\"}},\"type\":\"object\"}",
                nexus: Some(runtime::spec::NexusSpec {
                    method: runtime::spec::HttpMethod::Post,
                    path: "/api/v1/notes/{note_id}/archive",
                    query: &[],
                    body: &[("dry_run", "{{ input.dry_run }}")],
                }),
                response: runtime::spec::ResponseSpec {
                    pick: &[],
                    exclude: &[],
                    max_items: None,
                    max_string: None,
                    budget: 8000usize,
                },
                pagination: None,
                mutation: Some(runtime::spec::MutationSpec {
                    dry_run_param: Some("dry_run"),
                    dry_run_default: true,
                    paired_dry_run_tool: None,
                    require_true: &["confirmed"],
                    plan_param: None,
                    follow_up: None,
                    changes: "archives the note",
                    approver: "the note's owner",
                }),
                content: &[],
                listed: true,
                errors: &[],
            },
            runtime::spec::ToolSpec {
                name: "demo_summarise_note",
                title: "Summarise a note",
                description: "A short summary of one note, computed by the surface's own code.",
                scope: "demo:read",
                access: runtime::spec::Access::Read,
                modes: &[
                    runtime::spec::Mode::LocalStdio,
                    runtime::spec::Mode::RemoteHttp,
                ],
                handler: runtime::spec::Handler::Custom,
                input_schema: "{\"additionalProperties\":false,\"properties\":{\"max_words\":{\"default\":50,\"maximum\":200,\"minimum\":10,\"type\":\"integer\"},\"note_id\":{\"maxLength\":64,\"minLength\":1,\"type\":\"string\"}},\"required\":[\"note_id\"],\"type\":\"object\"}",
                output_schema: "{\"$defs\":{\"Note\":{\"properties\":{\"note_id\":{\"type\":\"string\"},\"tags\":{\"items\":{\"type\":\"string\"},\"type\":\"array\"},\"title\":{\"type\":\"string\"}},\"type\":\"object\"}},\"properties\":{\"note\":{\"$ref\":\"#/$defs/Note\"},\"summary\":{\"type\":\"string\"},\"truncation\":{\"description\":\"Present when the result was cut to fit its budget; nothing is ever cut silently.\",\"properties\":{\"cuts\":{\"items\":{\"properties\":{\"kept\":{\"type\":\"integer\"},\"path\":{\"type\":\"string\"},\"total\":{\"type\":\"integer\"}},\"required\":[\"path\",\"kept\",\"total\"],\"type\":\"object\"},\"type\":\"array\"},\"next_cursor\":{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"null\"}]},\"note\":{\"type\":\"string\"},\"strings_shortened\":{\"type\":\"integer\"},\"truncated\":{\"type\":\"boolean\"}},\"required\":[\"truncated\"],\"type\":\"object\"}},\"required\":[\"summary\"],\"type\":\"object\"}",
                nexus: None,
                response: runtime::spec::ResponseSpec {
                    pick: &[],
                    exclude: &[],
                    max_items: None,
                    max_string: None,
                    budget: 8000usize,
                },
                pagination: None,
                mutation: None,
                content: &[],
                listed: true,
                errors: &[],
            },
        ],
        prompts: &[
            runtime::spec::PromptSpec {
                name: "review_folder",
                title: Some("Review a folder"),
                description: "Walk through the open notes of a folder.",
                arguments: &[
                    runtime::spec::PromptArgSpec {
                        name: "folder",
                        description: "Folder name.",
                        required: true,
                        complete: Some(runtime::spec::CompletionSpec::Nexus {
                            nexus: runtime::spec::NexusSpec {
                                method: runtime::spec::HttpMethod::Get,
                                path: "/api/v1/folders",
                                query: &[],
                                body: &[],
                            },
                            pick: "items.*.name",
                            scope: "demo:read",
                        }),
                    },
                ],
                template: "List the notes of {{ args.folder }} with demo_list_notes (tag todo), then summarise each\nwith demo_summarise_note.\n",
                messages: &[],
                call: None,
            },
        ],
        resources: &[
            runtime::spec::ResourceSpec {
                uri: "demo://guide/start",
                name: "start",
                title: Some("Getting started"),
                description: "How the demo tools fit together.",
                mime_type: "text/markdown",
                template: "# {{ server.title }}\ndemo_list_notes, then demo_summarise_note.\n",
                nexus: None,
                text: None,
                blob: None,
                scope: None,
                response: runtime::spec::ResponseSpec {
                    pick: &[],
                    exclude: &[],
                    max_items: None,
                    max_string: None,
                    budget: 8000usize,
                },
                complete: &[],
            },
        ],
        capabilities: None,
    };
}
/// Every surface declared under manifest/, in file-name order.
pub static SURFACES: &[&::nexus_mcp_runtime::spec::SurfaceSpec] = &[&demo::SURFACE];
