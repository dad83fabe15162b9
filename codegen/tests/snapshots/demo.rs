/// Generated from tests/manifests/demo.yaml by nexus-mcp-codegen. Do not edit: change the manifest.
pub mod demo {
    use ::nexus_mcp_runtime as runtime;
    /// Shared type from the manifest.
    pub type NoteId = String;
    /// Arguments of `get_note`.
    #[derive(
        Debug,
        Clone,
        Default,
        PartialEq,
        serde::Serialize,
        serde::Deserialize,
        schemars::JsonSchema
    )]
    #[serde(deny_unknown_fields)]
    pub struct GetNoteInput {
        #[serde(rename = "noteId")]
        pub note_id: NoteId,
    }
    /// Result of `get_note` (before the runtime adds its envelope and truncation).
    #[derive(
        Debug,
        Clone,
        Default,
        PartialEq,
        serde::Serialize,
        serde::Deserialize,
        schemars::JsonSchema
    )]
    pub struct GetNoteOutput {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub id: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub title: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub body: Option<String>,
        /// Where the note sits in the team's note graph.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub graph: Option<serde_json::Value>,
    }
    /// Arguments of `get_note_history`.
    #[derive(
        Debug,
        Clone,
        PartialEq,
        serde::Serialize,
        serde::Deserialize,
        schemars::JsonSchema
    )]
    #[serde(deny_unknown_fields)]
    pub struct GetNoteHistoryInput {
        #[serde(rename = "noteId")]
        pub note_id: NoteId,
        #[serde(default = "default_getnotehistoryinput_limit")]
        pub limit: i64,
    }
    impl Default for GetNoteHistoryInput {
        fn default() -> Self {
            Self {
                note_id: Default::default(),
                limit: default_getnotehistoryinput_limit(),
            }
        }
    }
    fn default_getnotehistoryinput_limit() -> i64 {
        5i64
    }
    /// Result of `get_note_history` (before the runtime adds its envelope and truncation).
    #[derive(
        Debug,
        Clone,
        Default,
        PartialEq,
        serde::Serialize,
        serde::Deserialize,
        schemars::JsonSchema
    )]
    pub struct GetNoteHistoryOutput {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub edits: Option<Vec<serde_json::Value>>,
    }
    /// Arguments of `list_notes`.
    #[derive(
        Debug,
        Clone,
        PartialEq,
        serde::Serialize,
        serde::Deserialize,
        schemars::JsonSchema
    )]
    #[serde(deny_unknown_fields)]
    pub struct ListNotesInput {
        pub folder: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub kind: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub tags: Option<String>,
        /// A previous next_cursor
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub cursor: Option<String>,
        #[serde(default = "default_listnotesinput_limit")]
        pub limit: i64,
    }
    impl Default for ListNotesInput {
        fn default() -> Self {
            Self {
                folder: Default::default(),
                kind: None,
                tags: None,
                cursor: None,
                limit: default_listnotesinput_limit(),
            }
        }
    }
    fn default_listnotesinput_limit() -> i64 {
        20i64
    }
    /// Result of `list_notes` (before the runtime adds its envelope and truncation).
    #[derive(
        Debug,
        Clone,
        Default,
        PartialEq,
        serde::Serialize,
        serde::Deserialize,
        schemars::JsonSchema
    )]
    pub struct ListNotesOutput {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub items: Option<Vec<serde_json::Value>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub total: Option<i64>,
        /// The folder's subfolders, sent whole with every page
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub folders: Option<Vec<String>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub next_cursor: Option<String>,
    }
    /// Arguments of `compare_note_with_local`.
    #[derive(
        Debug,
        Clone,
        Default,
        PartialEq,
        serde::Serialize,
        serde::Deserialize,
        schemars::JsonSchema
    )]
    #[serde(deny_unknown_fields)]
    pub struct CompareNoteWithLocalInput {
        #[serde(rename = "noteId")]
        pub note_id: NoteId,
        pub local_path: String,
    }
    /// Result of `compare_note_with_local` (before the runtime adds its envelope and truncation).
    #[derive(
        Debug,
        Clone,
        Default,
        PartialEq,
        serde::Serialize,
        serde::Deserialize,
        schemars::JsonSchema
    )]
    pub struct CompareNoteWithLocalOutput {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub same: Option<bool>,
        /// The differences drawn as a PNG
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub diff_png: Option<String>,
    }
    /// Arguments of `export_notes`.
    #[derive(
        Debug,
        Clone,
        PartialEq,
        serde::Serialize,
        serde::Deserialize,
        schemars::JsonSchema
    )]
    #[serde(deny_unknown_fields)]
    pub struct ExportNotesInput {
        pub folder: String,
        #[serde(default = "default_exportnotesinput_dry_run")]
        pub dry_run: bool,
    }
    impl Default for ExportNotesInput {
        fn default() -> Self {
            Self {
                folder: Default::default(),
                dry_run: default_exportnotesinput_dry_run(),
            }
        }
    }
    fn default_exportnotesinput_dry_run() -> bool {
        true
    }
    /// Result of `export_notes` (before the runtime adds its envelope and truncation).
    #[derive(
        Debug,
        Clone,
        Default,
        PartialEq,
        serde::Serialize,
        serde::Deserialize,
        schemars::JsonSchema
    )]
    pub struct ExportNotesOutput {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub exported: Option<i64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub dry_run: Option<bool>,
    }
    /// Arguments of `archive_note`.
    #[derive(
        Debug,
        Clone,
        PartialEq,
        serde::Serialize,
        serde::Deserialize,
        schemars::JsonSchema
    )]
    #[serde(deny_unknown_fields)]
    pub struct ArchiveNoteInput {
        #[serde(rename = "noteId")]
        pub note_id: NoteId,
        #[serde(default = "default_archivenoteinput_dry_run")]
        pub dry_run: bool,
        #[serde(default = "default_archivenoteinput_confirmed")]
        pub confirmed: bool,
    }
    impl Default for ArchiveNoteInput {
        fn default() -> Self {
            Self {
                note_id: Default::default(),
                dry_run: default_archivenoteinput_dry_run(),
                confirmed: default_archivenoteinput_confirmed(),
            }
        }
    }
    fn default_archivenoteinput_dry_run() -> bool {
        true
    }
    fn default_archivenoteinput_confirmed() -> bool {
        false
    }
    /// Result of `archive_note` (before the runtime adds its envelope and truncation).
    #[derive(
        Debug,
        Clone,
        Default,
        PartialEq,
        serde::Serialize,
        serde::Deserialize,
        schemars::JsonSchema
    )]
    pub struct ArchiveNoteOutput {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub archived: Option<bool>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub next_step: Option<String>,
    }
    /// Arguments of `use_capability`.
    #[derive(
        Debug,
        Clone,
        Default,
        PartialEq,
        serde::Serialize,
        serde::Deserialize,
        schemars::JsonSchema
    )]
    #[serde(deny_unknown_fields)]
    pub struct UseCapabilityInput {
        /// A name from list_capabilities.
        pub capability: String,
        /// The capability's arguments, as its input schema says (list_capabilities with capability=NAME).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub arguments: Option<serde_json::Value>,
    }
    /// Result of `use_capability` (before the runtime adds its envelope and truncation).
    #[derive(
        Debug,
        Clone,
        Default,
        PartialEq,
        serde::Serialize,
        serde::Deserialize,
        schemars::JsonSchema
    )]
    pub struct UseCapabilityOutput {}
    /// Arguments of `list_capabilities`.
    #[derive(
        Debug,
        Clone,
        PartialEq,
        serde::Serialize,
        serde::Deserialize,
        schemars::JsonSchema
    )]
    #[serde(deny_unknown_fields)]
    pub struct ListCapabilitiesInput {
        /// Only this capability, with its input schema.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub capability: Option<String>,
        /// Add every capability's input schema.
        #[serde(default = "default_listcapabilitiesinput_include_schemas")]
        pub include_schemas: bool,
    }
    impl Default for ListCapabilitiesInput {
        fn default() -> Self {
            Self {
                capability: None,
                include_schemas: default_listcapabilitiesinput_include_schemas(),
            }
        }
    }
    fn default_listcapabilitiesinput_include_schemas() -> bool {
        false
    }
    /// Result of `list_capabilities` (before the runtime adds its envelope and truncation).
    #[derive(
        Debug,
        Clone,
        Default,
        PartialEq,
        serde::Serialize,
        serde::Deserialize,
        schemars::JsonSchema
    )]
    pub struct ListCapabilitiesOutput {
        pub capabilities: Vec<serde_json::Value>,
    }
    /// The tools declared `handler: custom`. A tool added to the manifest with a custom
    /// handler does not compile until it is implemented here.
    pub trait CustomHandlers: Send + Sync + 'static {}
    /// Runs the custom tool `tool`, or answers `None` when it is not a custom tool of this surface.
    pub fn dispatch_custom<H: CustomHandlers>(
        handlers: std::sync::Arc<H>,
        ctx: runtime::app::ToolContext,
        tool: &str,
        arguments: serde_json::Value,
    ) -> Option<runtime::app::ToolFuture> {
        let _ = (handlers, ctx, tool, arguments);
        None
    }
    /// Everything the manifest declares for this surface; the runtime is driven by it.
    pub static SURFACE: runtime::spec::SurfaceSpec = runtime::spec::SurfaceSpec {
        name: "demo",
        title: "Demo notes",
        version: "0.1.0",
        instructions: "Notes of a team. get_note reads one; note history is a capability (list_capabilities).",
        result_budget: 8000usize,
        tool_list_budget: Some(3000usize),
        repository_binding: None,
        envelope: &[],
        scopes: &[
            runtime::spec::ScopeSpec {
                name: "notes:read",
                description: "Read notes.",
                modes: &[
                    runtime::spec::Mode::LocalStdio,
                    runtime::spec::Mode::RemoteHttp,
                ],
                default_stdio: true,
            },
            runtime::spec::ScopeSpec {
                name: "notes:local",
                description: "Compare a note with a local copy of it. Local stdio only.",
                modes: &[runtime::spec::Mode::LocalStdio],
                default_stdio: true,
            },
            runtime::spec::ScopeSpec {
                name: "notes:export",
                description: "Export notes to the team's archive. Never granted by default.",
                modes: &[
                    runtime::spec::Mode::LocalStdio,
                    runtime::spec::Mode::RemoteHttp,
                ],
                default_stdio: false,
            },
        ],
        tools: &[
            runtime::spec::ToolSpec {
                name: "get_note",
                title: "Get a note",
                description: "One note by id, with its title and body.",
                scope: "notes:read",
                access: runtime::spec::Access::Read,
                modes: &[
                    runtime::spec::Mode::LocalStdio,
                    runtime::spec::Mode::RemoteHttp,
                ],
                handler: runtime::spec::Handler::Mapped,
                input_schema: "{\"additionalProperties\":false,\"properties\":{\"noteId\":{\"maxLength\":40,\"pattern\":\"^[a-z0-9-]+$\",\"type\":\"string\"}},\"required\":[\"noteId\"],\"type\":\"object\"}",
                output_schema: "{\"properties\":{\"body\":{\"type\":\"string\"},\"graph\":{\"description\":\"Where the note sits in the team's note graph.\",\"type\":\"object\"},\"id\":{\"type\":\"string\"},\"title\":{\"type\":\"string\"},\"truncation\":{\"description\":\"Present when the result was cut to fit its budget; nothing is ever cut silently.\",\"properties\":{\"cuts\":{\"items\":{\"properties\":{\"kept\":{\"type\":\"integer\"},\"path\":{\"type\":\"string\"},\"total\":{\"type\":\"integer\"}},\"required\":[\"path\",\"kept\",\"total\"],\"type\":\"object\"},\"type\":\"array\"},\"next_cursor\":{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"null\"}]},\"note\":{\"type\":\"string\"},\"strings_shortened\":{\"type\":\"integer\"},\"truncated\":{\"type\":\"boolean\"}},\"required\":[\"truncated\"],\"type\":\"object\"}},\"type\":\"object\"}",
                nexus: Some(runtime::spec::NexusSpec {
                    method: runtime::spec::HttpMethod::Get,
                    path: "/notes/{noteId}",
                    query: &[],
                    body: &[],
                }),
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
                errors: &[
                    runtime::spec::ErrorCodeSpec {
                        when: runtime::spec::BackendFailure::Status(404u16),
                        code: "NOTE_NOT_FOUND",
                        message: Some(
                            "No note `{{ input.noteId }}` ({{ backend.message }}).",
                        ),
                    },
                    runtime::spec::ErrorCodeSpec {
                        when: runtime::spec::BackendFailure::Code("ambiguous"),
                        code: "NOTE_AMBIGUOUS",
                        message: None,
                    },
                ],
                ask: &[],
                choose: None,
            },
            runtime::spec::ToolSpec {
                name: "get_note_history",
                title: "Note history",
                description: "Every edit of one note, newest first.",
                scope: "notes:read",
                access: runtime::spec::Access::Read,
                modes: &[
                    runtime::spec::Mode::LocalStdio,
                    runtime::spec::Mode::RemoteHttp,
                ],
                handler: runtime::spec::Handler::Mapped,
                input_schema: "{\"additionalProperties\":false,\"properties\":{\"limit\":{\"default\":5,\"maximum\":50,\"minimum\":1,\"type\":\"integer\"},\"noteId\":{\"maxLength\":40,\"pattern\":\"^[a-z0-9-]+$\",\"type\":\"string\"}},\"required\":[\"noteId\"],\"type\":\"object\"}",
                output_schema: "{\"properties\":{\"edits\":{\"items\":{\"properties\":{\"at\":{\"type\":\"string\"},\"by\":{\"type\":\"string\"}},\"type\":\"object\"},\"type\":\"array\"},\"truncation\":{\"description\":\"Present when the result was cut to fit its budget; nothing is ever cut silently.\",\"properties\":{\"cuts\":{\"items\":{\"properties\":{\"kept\":{\"type\":\"integer\"},\"path\":{\"type\":\"string\"},\"total\":{\"type\":\"integer\"}},\"required\":[\"path\",\"kept\",\"total\"],\"type\":\"object\"},\"type\":\"array\"},\"next_cursor\":{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"null\"}]},\"note\":{\"type\":\"string\"},\"strings_shortened\":{\"type\":\"integer\"},\"truncated\":{\"type\":\"boolean\"}},\"required\":[\"truncated\"],\"type\":\"object\"}},\"type\":\"object\"}",
                nexus: Some(runtime::spec::NexusSpec {
                    method: runtime::spec::HttpMethod::Get,
                    path: "/notes/{noteId}/history",
                    query: &[("limit", "{{ input.limit }}")],
                    body: &[],
                }),
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
                listed: false,
                errors: &[],
                ask: &[],
                choose: None,
            },
            runtime::spec::ToolSpec {
                name: "list_notes",
                title: "List notes",
                description: "Notes of one folder, filtered and paged. Next, get_note with an id.",
                scope: "notes:read",
                access: runtime::spec::Access::Read,
                modes: &[
                    runtime::spec::Mode::LocalStdio,
                    runtime::spec::Mode::RemoteHttp,
                ],
                handler: runtime::spec::Handler::Mapped,
                input_schema: "{\"additionalProperties\":false,\"properties\":{\"cursor\":{\"description\":\"A previous next_cursor\",\"type\":\"string\"},\"folder\":{\"maxLength\":40,\"pattern\":\"^[a-z0-9-]+$\",\"type\":\"string\"},\"kind\":{\"enum\":[\"idea\",\"plan\",\"minutes\",\"decision\"],\"type\":\"string\"},\"limit\":{\"default\":20,\"maximum\":50,\"minimum\":1,\"type\":\"integer\"},\"tags\":{\"pattern\":\"^[a-z]+(,[a-z]+)*$\",\"type\":\"string\"}},\"required\":[\"folder\"],\"type\":\"object\"}",
                output_schema: "{\"properties\":{\"continued_from\":{\"additionalProperties\":{\"minimum\":0,\"type\":\"integer\"},\"description\":\"On a page reached with a cursor: for each list, how many of its items earlier pages showed. This page's items follow them; an empty list was shown in full before.\",\"type\":\"object\"},\"folders\":{\"description\":\"The folder's subfolders, sent whole with every page\",\"items\":{\"type\":\"string\"},\"type\":\"array\"},\"items\":{\"items\":{\"properties\":{\"id\":{\"type\":\"string\"},\"summary\":{\"type\":\"string\"},\"title\":{\"type\":\"string\"}},\"type\":\"object\"},\"type\":\"array\"},\"next_cursor\":{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"null\"}]},\"total\":{\"type\":\"integer\"},\"truncation\":{\"description\":\"Present when the result was cut to fit its budget; nothing is ever cut silently.\",\"properties\":{\"cuts\":{\"items\":{\"properties\":{\"kept\":{\"type\":\"integer\"},\"path\":{\"type\":\"string\"},\"total\":{\"type\":\"integer\"}},\"required\":[\"path\",\"kept\",\"total\"],\"type\":\"object\"},\"type\":\"array\"},\"next_cursor\":{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"null\"}]},\"note\":{\"type\":\"string\"},\"strings_shortened\":{\"type\":\"integer\"},\"truncated\":{\"type\":\"boolean\"}},\"required\":[\"truncated\"],\"type\":\"object\"}},\"type\":\"object\"}",
                nexus: Some(runtime::spec::NexusSpec {
                    method: runtime::spec::HttpMethod::Get,
                    path: "/notes",
                    query: &[
                        ("cursor", "{{ input.cursor }}"),
                        ("folder", "{{ input.folder }}"),
                        ("kind", "{{ input.kind }}"),
                        ("limit", "{{ input.limit | default(20) }}"),
                        ("tags", "{{ input.tags }}"),
                    ],
                    body: &[],
                }),
                response: runtime::spec::ResponseSpec {
                    pick: &[
                        "items.*.id",
                        "items.*.title",
                        "items.*.summary",
                        "total",
                        "folders",
                        "next_cursor",
                    ],
                    exclude: &[],
                    max_items: Some(50usize),
                    max_string: Some(400usize),
                    budget: 8000usize,
                },
                pagination: Some(runtime::spec::PaginationSpec {
                    items: "items",
                    cursor: "cursor",
                    next: "next_cursor",
                    also: &["folders"],
                }),
                mutation: None,
                content: &[],
                listed: true,
                errors: &[],
                ask: &[],
                choose: None,
            },
            runtime::spec::ToolSpec {
                name: "compare_note_with_local",
                title: "Compare a note with a local copy",
                description: "Does a local copy of a note still match the team's note?",
                scope: "notes:local",
                access: runtime::spec::Access::Read,
                modes: &[runtime::spec::Mode::LocalStdio],
                handler: runtime::spec::Handler::Mapped,
                input_schema: "{\"additionalProperties\":false,\"properties\":{\"local_path\":{\"maxLength\":4096,\"minLength\":1,\"type\":\"string\"},\"noteId\":{\"maxLength\":40,\"pattern\":\"^[a-z0-9-]+$\",\"type\":\"string\"}},\"required\":[\"noteId\",\"local_path\"],\"type\":\"object\"}",
                output_schema: "{\"properties\":{\"diff_png\":{\"base64.\":null,\"description\":\"The differences drawn as a PNG\",\"type\":\"string\"},\"same\":{\"type\":\"boolean\"},\"truncation\":{\"description\":\"Present when the result was cut to fit its budget; nothing is ever cut silently.\",\"properties\":{\"cuts\":{\"items\":{\"properties\":{\"kept\":{\"type\":\"integer\"},\"path\":{\"type\":\"string\"},\"total\":{\"type\":\"integer\"}},\"required\":[\"path\",\"kept\",\"total\"],\"type\":\"object\"},\"type\":\"array\"},\"next_cursor\":{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"null\"}]},\"note\":{\"type\":\"string\"},\"strings_shortened\":{\"type\":\"integer\"},\"truncated\":{\"type\":\"boolean\"}},\"required\":[\"truncated\"],\"type\":\"object\"}},\"type\":\"object\"}",
                nexus: Some(runtime::spec::NexusSpec {
                    method: runtime::spec::HttpMethod::Get,
                    path: "/notes/{noteId}/compare",
                    query: &[("local_path", "{{ input.local_path }}")],
                    body: &[],
                }),
                response: runtime::spec::ResponseSpec {
                    pick: &[],
                    exclude: &[],
                    max_items: None,
                    max_string: None,
                    budget: 8000usize,
                },
                pagination: None,
                mutation: None,
                content: &[
                    runtime::spec::ContentSpec {
                        kind: runtime::spec::ContentKind::Text,
                        text: Some("Same: {{ result.same }} ({{ input.local_path }})"),
                        data: None,
                        mime_type: None,
                        uri: None,
                    },
                    runtime::spec::ContentSpec {
                        kind: runtime::spec::ContentKind::Image,
                        text: None,
                        data: Some("{{ result.diff_png }}"),
                        mime_type: Some("image/png"),
                        uri: None,
                    },
                ],
                listed: true,
                errors: &[],
                ask: &[],
                choose: None,
            },
            runtime::spec::ToolSpec {
                name: "export_notes",
                title: "Export notes",
                description: "Export the notes of one folder to the team's archive.",
                scope: "notes:export",
                access: runtime::spec::Access::Write,
                modes: &[
                    runtime::spec::Mode::LocalStdio,
                    runtime::spec::Mode::RemoteHttp,
                ],
                handler: runtime::spec::Handler::Mapped,
                input_schema: "{\"additionalProperties\":false,\"properties\":{\"dry_run\":{\"default\":true,\"type\":\"boolean\"},\"folder\":{\"maxLength\":40,\"pattern\":\"^[a-z0-9-]+$\",\"type\":\"string\"}},\"required\":[\"folder\"],\"type\":\"object\"}",
                output_schema: "{\"properties\":{\"dry_run\":{\"type\":\"boolean\"},\"exported\":{\"type\":\"integer\"},\"truncation\":{\"description\":\"Present when the result was cut to fit its budget; nothing is ever cut silently.\",\"properties\":{\"cuts\":{\"items\":{\"properties\":{\"kept\":{\"type\":\"integer\"},\"path\":{\"type\":\"string\"},\"total\":{\"type\":\"integer\"}},\"required\":[\"path\",\"kept\",\"total\"],\"type\":\"object\"},\"type\":\"array\"},\"next_cursor\":{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"null\"}]},\"note\":{\"type\":\"string\"},\"strings_shortened\":{\"type\":\"integer\"},\"truncated\":{\"type\":\"boolean\"}},\"required\":[\"truncated\"],\"type\":\"object\"}},\"type\":\"object\"}",
                nexus: Some(runtime::spec::NexusSpec {
                    method: runtime::spec::HttpMethod::Post,
                    path: "/notes/export",
                    query: &[],
                    body: &[
                        ("dry_run", "{{ input.dry_run }}"),
                        ("folder", "{{ input.folder }}"),
                    ],
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
                    require_true: &[],
                    plan_param: None,
                    follow_up: None,
                    changes: "writes the team's archive",
                    approver: "",
                    confirm: None,
                }),
                content: &[],
                listed: true,
                errors: &[],
                ask: &[],
                choose: None,
            },
            runtime::spec::ToolSpec {
                name: "archive_note",
                title: "Archive a note",
                description: "Move one note to the team's archive; previews unless dry_run is false.",
                scope: "notes:export",
                access: runtime::spec::Access::Write,
                modes: &[
                    runtime::spec::Mode::LocalStdio,
                    runtime::spec::Mode::RemoteHttp,
                ],
                handler: runtime::spec::Handler::Mapped,
                input_schema: "{\"additionalProperties\":false,\"properties\":{\"confirmed\":{\"default\":false,\"type\":\"boolean\"},\"dry_run\":{\"default\":true,\"type\":\"boolean\"},\"noteId\":{\"maxLength\":40,\"pattern\":\"^[a-z0-9-]+$\",\"type\":\"string\"}},\"required\":[\"noteId\"],\"type\":\"object\"}",
                output_schema: "{\"properties\":{\"archived\":{\"type\":\"boolean\"},\"next_step\":{\"type\":\"string\"},\"truncation\":{\"description\":\"Present when the result was cut to fit its budget; nothing is ever cut silently.\",\"properties\":{\"cuts\":{\"items\":{\"properties\":{\"kept\":{\"type\":\"integer\"},\"path\":{\"type\":\"string\"},\"total\":{\"type\":\"integer\"}},\"required\":[\"path\",\"kept\",\"total\"],\"type\":\"object\"},\"type\":\"array\"},\"next_cursor\":{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"null\"}]},\"note\":{\"type\":\"string\"},\"strings_shortened\":{\"type\":\"integer\"},\"truncated\":{\"type\":\"boolean\"}},\"required\":[\"truncated\"],\"type\":\"object\"}},\"type\":\"object\"}",
                nexus: Some(runtime::spec::NexusSpec {
                    method: runtime::spec::HttpMethod::Post,
                    path: "/notes/{noteId}/archive",
                    query: &[],
                    body: &[
                        ("confirmed", "{{ input.confirmed }}"),
                        ("dry_run", "{{ input.dry_run }}"),
                    ],
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
                    follow_up: Some("get_note_history"),
                    changes: "archives the note",
                    approver: "the note's owner",
                    confirm: None,
                }),
                content: &[],
                listed: false,
                errors: &[],
                ask: &[],
                choose: None,
            },
            runtime::spec::ToolSpec {
                name: "use_capability",
                title: "Use a capability",
                description: "Run a capability, a tool of this server not in tools/list: its name and its arguments. Scopes, validation and safety rules apply as to any tool. list_capabilities names them and gives their input schemas.",
                scope: "notes:read",
                access: runtime::spec::Access::Write,
                modes: &[
                    runtime::spec::Mode::LocalStdio,
                    runtime::spec::Mode::RemoteHttp,
                ],
                handler: runtime::spec::Handler::Meta(runtime::spec::MetaTool::Use),
                input_schema: "{\"additionalProperties\":false,\"properties\":{\"arguments\":{\"default\":{},\"description\":\"The capability's arguments, as its input schema says (list_capabilities with capability=NAME).\",\"type\":\"object\"},\"capability\":{\"description\":\"A name from list_capabilities.\",\"maxLength\":64,\"minLength\":1,\"type\":\"string\"}},\"required\":[\"capability\"],\"type\":\"object\"}",
                output_schema: "{\"description\":\"The capability's own result.\",\"properties\":{\"truncation\":{\"description\":\"Present when the result was cut to fit its budget; nothing is ever cut silently.\",\"properties\":{\"cuts\":{\"items\":{\"properties\":{\"kept\":{\"type\":\"integer\"},\"path\":{\"type\":\"string\"},\"total\":{\"type\":\"integer\"}},\"required\":[\"path\",\"kept\",\"total\"],\"type\":\"object\"},\"type\":\"array\"},\"next_cursor\":{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"null\"}]},\"note\":{\"type\":\"string\"},\"strings_shortened\":{\"type\":\"integer\"},\"truncated\":{\"type\":\"boolean\"}},\"required\":[\"truncated\"],\"type\":\"object\"}},\"type\":\"object\"}",
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
                ask: &[],
                choose: None,
            },
            runtime::spec::ToolSpec {
                name: "list_capabilities",
                title: "List capabilities",
                description: "Name the capabilities use_capability can run for you, one line each. capability=NAME adds its input schema; include_schemas=true adds every one.",
                scope: "notes:read",
                access: runtime::spec::Access::Read,
                modes: &[
                    runtime::spec::Mode::LocalStdio,
                    runtime::spec::Mode::RemoteHttp,
                ],
                handler: runtime::spec::Handler::Meta(runtime::spec::MetaTool::List),
                input_schema: "{\"additionalProperties\":false,\"properties\":{\"capability\":{\"description\":\"Only this capability, with its input schema.\",\"maxLength\":64,\"minLength\":1,\"type\":\"string\"},\"include_schemas\":{\"default\":false,\"description\":\"Add every capability's input schema.\",\"type\":\"boolean\"}},\"type\":\"object\"}",
                output_schema: "{\"properties\":{\"capabilities\":{\"items\":{\"properties\":{\"access\":{\"enum\":[\"read\",\"append\",\"write\",\"destructive\"],\"type\":\"string\"},\"inputSchema\":{\"type\":\"object\"},\"name\":{\"type\":\"string\"},\"summary\":{\"type\":\"string\"},\"title\":{\"type\":\"string\"}},\"required\":[\"name\",\"title\",\"summary\",\"access\"],\"type\":\"object\"},\"type\":\"array\"},\"truncation\":{\"description\":\"Present when the result was cut to fit its budget; nothing is ever cut silently.\",\"properties\":{\"cuts\":{\"items\":{\"properties\":{\"kept\":{\"type\":\"integer\"},\"path\":{\"type\":\"string\"},\"total\":{\"type\":\"integer\"}},\"required\":[\"path\",\"kept\",\"total\"],\"type\":\"object\"},\"type\":\"array\"},\"next_cursor\":{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"null\"}]},\"note\":{\"type\":\"string\"},\"strings_shortened\":{\"type\":\"integer\"},\"truncated\":{\"type\":\"boolean\"}},\"required\":[\"truncated\"],\"type\":\"object\"}},\"required\":[\"capabilities\"],\"type\":\"object\"}",
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
                ask: &[],
                choose: None,
            },
        ],
        prompts: &[
            runtime::spec::PromptSpec {
                name: "summarise_note",
                title: None,
                description: "Summarise one note; reads it with get_note first.",
                arguments: &[
                    runtime::spec::PromptArgSpec {
                        name: "noteId",
                        description: "The note to summarise.",
                        required: true,
                        complete: None,
                    },
                ],
                template: "",
                messages: &[
                    runtime::spec::PromptMessageSpec {
                        role: runtime::spec::Role::User,
                        content: runtime::spec::ContentSpec {
                            kind: runtime::spec::ContentKind::Text,
                            text: Some(
                                "Summarise the note \"{{ result.title }}\" in two sentences:\n\n{{ result.body }}",
                            ),
                            data: None,
                            mime_type: None,
                            uri: None,
                        },
                    },
                ],
                call: Some(runtime::spec::PromptCallSpec {
                    tool: "get_note",
                    arguments: &[("noteId", "{{ args.noteId }}")],
                }),
                ask: &[],
            },
            runtime::spec::PromptSpec {
                name: "review_folder",
                title: Some("Review a folder"),
                description: "Walk through the notes of one folder.",
                arguments: &[
                    runtime::spec::PromptArgSpec {
                        name: "folder",
                        description: "The folder.",
                        required: true,
                        complete: Some(runtime::spec::CompletionSpec::Nexus {
                            nexus: runtime::spec::NexusSpec {
                                method: runtime::spec::HttpMethod::Get,
                                path: "/folders",
                                query: &[("owner", "{{ input.owner }}")],
                                body: &[],
                            },
                            pick: "items.*.name",
                            scope: "notes:read",
                        }),
                    },
                    runtime::spec::PromptArgSpec {
                        name: "owner",
                        description: "Whose folders complete; everyone's when empty.",
                        required: false,
                        complete: None,
                    },
                    runtime::spec::PromptArgSpec {
                        name: "kind",
                        description: "Which kind of note.",
                        required: false,
                        complete: Some(
                            runtime::spec::CompletionSpec::Values(
                                &["idea", "plan", "minutes", "decision"],
                            ),
                        ),
                    },
                ],
                template: "List the {{ args.kind }} notes of {{ args.folder }} with list_notes, then read each with get_note.",
                messages: &[],
                call: None,
                ask: &[],
            },
        ],
        resources: &[
            runtime::spec::ResourceSpec {
                uri: "notes://note/{id}",
                name: "note",
                title: None,
                description: "The body of one note, as Markdown.",
                mime_type: "text/markdown",
                template: "",
                nexus: Some(runtime::spec::NexusSpec {
                    method: runtime::spec::HttpMethod::Get,
                    path: "/notes/{id}",
                    query: &[],
                    body: &[],
                }),
                text: Some("body"),
                blob: None,
                scope: Some("notes:read"),
                response: runtime::spec::ResponseSpec {
                    pick: &[],
                    exclude: &[],
                    max_items: None,
                    max_string: None,
                    budget: 8000usize,
                },
                complete: &[
                    (
                        "id",
                        runtime::spec::CompletionSpec::Values(&["welcome", "roadmap"]),
                    ),
                ],
                poll_seconds: None,
            },
            runtime::spec::ResourceSpec {
                uri: "notes://guide",
                name: "guide",
                title: Some("How the note tools fit together"),
                description: "Which tool to call first.",
                mime_type: "text/markdown",
                template: "# {{ server.title }}\n\nlist_notes, then get_note; history and archiving are capabilities.",
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
                poll_seconds: None,
            },
        ],
        capabilities: Some(runtime::spec::CapabilitiesSpec {
            use_tool: "use_capability",
            list_tool: "list_capabilities",
        }),
    };
}
/// Every surface declared under manifest/, in file-name order.
pub static SURFACES: &[&::nexus_mcp_runtime::spec::SurfaceSpec] = &[&demo::SURFACE];
