/// Generated from manifest/rules.yaml by nexus-mcp-codegen. Do not edit: change the manifest.
pub mod rules {
    use ::nexus_mcp_runtime as runtime;
    /// Arguments of `get_rule`.
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
    pub struct GetRuleInput {
        #[serde(rename = "ruleId")]
        pub rule_id: String,
    }
    /// Result of `get_rule` (before the runtime adds its envelope and truncation).
    #[derive(
        Debug,
        Clone,
        Default,
        PartialEq,
        serde::Serialize,
        serde::Deserialize,
        schemars::JsonSchema
    )]
    pub struct GetRuleOutput {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub rule: Option<serde_json::Value>,
    }
    /// Arguments of `get_gate_result`.
    #[derive(
        Debug,
        Clone,
        PartialEq,
        serde::Serialize,
        serde::Deserialize,
        schemars::JsonSchema
    )]
    #[serde(deny_unknown_fields)]
    pub struct GetGateResultInput {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub repo: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub sha: Option<String>,
        #[serde(default = "default_getgateresultinput_limit")]
        pub limit: i64,
    }
    impl Default for GetGateResultInput {
        fn default() -> Self {
            Self {
                repo: None,
                sha: None,
                limit: default_getgateresultinput_limit(),
            }
        }
    }
    fn default_getgateresultinput_limit() -> i64 {
        20i64
    }
    /// Result of `get_gate_result` (before the runtime adds its envelope and truncation).
    #[derive(
        Debug,
        Clone,
        Default,
        PartialEq,
        serde::Serialize,
        serde::Deserialize,
        schemars::JsonSchema
    )]
    pub struct GetGateResultOutput {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub found: Option<bool>,
    }
    /// Arguments of `propose_rule`.
    #[derive(
        Debug,
        Clone,
        PartialEq,
        serde::Serialize,
        serde::Deserialize,
        schemars::JsonSchema
    )]
    #[serde(deny_unknown_fields)]
    pub struct ProposeRuleInput {
        pub text: String,
        #[serde(default = "default_proposeruleinput_dry_run")]
        pub dry_run: bool,
    }
    impl Default for ProposeRuleInput {
        fn default() -> Self {
            Self {
                text: Default::default(),
                dry_run: default_proposeruleinput_dry_run(),
            }
        }
    }
    fn default_proposeruleinput_dry_run() -> bool {
        true
    }
    /// Result of `propose_rule` (before the runtime adds its envelope and truncation).
    #[derive(
        Debug,
        Clone,
        Default,
        PartialEq,
        serde::Serialize,
        serde::Deserialize,
        schemars::JsonSchema
    )]
    pub struct ProposeRuleOutput {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub queued: Option<bool>,
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
        name: "rules",
        title: "Rules",
        version: "0.1.0",
        instructions: "Rules and the CI gate.",
        result_budget: 8000usize,
        tool_list_budget: None,
        repository_binding: None,
        envelope: &[],
        scopes: &[
            runtime::spec::ScopeSpec {
                name: "rules:read",
                description: "Read rules and verdicts.",
                modes: &[
                    runtime::spec::Mode::LocalStdio,
                    runtime::spec::Mode::RemoteHttp,
                ],
                default_stdio: true,
            },
            runtime::spec::ScopeSpec {
                name: "rules:propose",
                description: "Propose rules.",
                modes: &[runtime::spec::Mode::LocalStdio],
                default_stdio: false,
            },
        ],
        tools: &[
            runtime::spec::ToolSpec {
                name: "get_rule",
                title: "Get rule",
                description: "One rule with its text and examples.",
                scope: "rules:read",
                access: runtime::spec::Access::Read,
                modes: &[
                    runtime::spec::Mode::LocalStdio,
                    runtime::spec::Mode::RemoteHttp,
                ],
                handler: runtime::spec::Handler::Mapped,
                input_schema: "{\"additionalProperties\":false,\"properties\":{\"ruleId\":{\"type\":\"string\"}},\"required\":[\"ruleId\"],\"type\":\"object\"}",
                output_schema: "{\"properties\":{\"rule\":{\"type\":\"object\"},\"truncation\":{\"description\":\"Present when the result was cut to fit its budget; nothing is ever cut silently.\",\"properties\":{\"cuts\":{\"items\":{\"properties\":{\"kept\":{\"type\":\"integer\"},\"path\":{\"type\":\"string\"},\"total\":{\"type\":\"integer\"}},\"required\":[\"path\",\"kept\",\"total\"],\"type\":\"object\"},\"type\":\"array\"},\"next_cursor\":{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"null\"}]},\"note\":{\"type\":\"string\"},\"strings_shortened\":{\"type\":\"integer\"},\"truncated\":{\"type\":\"boolean\"}},\"required\":[\"truncated\"],\"type\":\"object\"}},\"type\":\"object\"}",
                nexus: Some(runtime::spec::NexusSpec {
                    method: runtime::spec::HttpMethod::Get,
                    path: "/api/v1/rules/{ruleId}",
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
                        code: "RULE_NOT_FOUND",
                        message: Some(
                            "No rule `{{ input.ruleId }}` ({{ backend.message }}).",
                        ),
                    },
                    runtime::spec::ErrorCodeSpec {
                        when: runtime::spec::BackendFailure::Code("ambiguous"),
                        code: "AMBIGUOUS",
                        message: None,
                    },
                ],
            },
            runtime::spec::ToolSpec {
                name: "get_gate_result",
                title: "Gate result",
                description: "The CI gate verdict for a repo, PR or sha. Violations with path and line.",
                scope: "rules:read",
                access: runtime::spec::Access::Read,
                modes: &[
                    runtime::spec::Mode::LocalStdio,
                    runtime::spec::Mode::RemoteHttp,
                ],
                handler: runtime::spec::Handler::Mapped,
                input_schema: "{\"additionalProperties\":false,\"properties\":{\"limit\":{\"default\":20,\"type\":\"integer\"},\"repo\":{\"type\":\"string\"},\"sha\":{\"minLength\":7,\"type\":\"string\"}},\"type\":\"object\"}",
                output_schema: "{\"properties\":{\"found\":{\"type\":\"boolean\"},\"truncation\":{\"description\":\"Present when the result was cut to fit its budget; nothing is ever cut silently.\",\"properties\":{\"cuts\":{\"items\":{\"properties\":{\"kept\":{\"type\":\"integer\"},\"path\":{\"type\":\"string\"},\"total\":{\"type\":\"integer\"}},\"required\":[\"path\",\"kept\",\"total\"],\"type\":\"object\"},\"type\":\"array\"},\"next_cursor\":{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"null\"}]},\"note\":{\"type\":\"string\"},\"strings_shortened\":{\"type\":\"integer\"},\"truncated\":{\"type\":\"boolean\"}},\"required\":[\"truncated\"],\"type\":\"object\"}},\"type\":\"object\"}",
                nexus: Some(runtime::spec::NexusSpec {
                    method: runtime::spec::HttpMethod::Get,
                    path: "/api/v1/gate",
                    query: &[
                        ("limit", "{{ input.limit }}"),
                        ("repo", "{{ input.repo }}"),
                        ("sha", "{{ input.sha }}"),
                    ],
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
            },
            runtime::spec::ToolSpec {
                name: "propose_rule",
                title: "Propose a rule",
                description: "Queue a rule proposal for human review.",
                scope: "rules:propose",
                access: runtime::spec::Access::Write,
                modes: &[runtime::spec::Mode::LocalStdio],
                handler: runtime::spec::Handler::Mapped,
                input_schema: "{\"additionalProperties\":false,\"properties\":{\"dry_run\":{\"default\":true,\"type\":\"boolean\"},\"text\":{\"type\":\"string\"}},\"required\":[\"text\"],\"type\":\"object\"}",
                output_schema: "{\"properties\":{\"next_step\":{\"type\":\"string\"},\"queued\":{\"type\":\"boolean\"},\"truncation\":{\"description\":\"Present when the result was cut to fit its budget; nothing is ever cut silently.\",\"properties\":{\"cuts\":{\"items\":{\"properties\":{\"kept\":{\"type\":\"integer\"},\"path\":{\"type\":\"string\"},\"total\":{\"type\":\"integer\"}},\"required\":[\"path\",\"kept\",\"total\"],\"type\":\"object\"},\"type\":\"array\"},\"next_cursor\":{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"null\"}]},\"note\":{\"type\":\"string\"},\"strings_shortened\":{\"type\":\"integer\"},\"truncated\":{\"type\":\"boolean\"}},\"required\":[\"truncated\"],\"type\":\"object\"}},\"type\":\"object\"}",
                nexus: Some(runtime::spec::NexusSpec {
                    method: runtime::spec::HttpMethod::Post,
                    path: "/api/v1/proposals",
                    query: &[],
                    body: &[
                        ("dry_run", "{{ input.dry_run }}"),
                        ("text", "{{ input.text }}"),
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
                    follow_up: Some("get_gate_result"),
                    changes: "",
                    approver: "",
                }),
                content: &[],
                listed: false,
                errors: &[],
            },
            runtime::spec::ToolSpec {
                name: "use_capability",
                title: "Use a capability",
                description: "Run a capability, a tool of this server not in tools/list: its name and its arguments. Scopes, validation and safety rules apply as to any tool. list_capabilities names them and gives their input schemas.",
                scope: "rules:read",
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
            },
            runtime::spec::ToolSpec {
                name: "list_capabilities",
                title: "List capabilities",
                description: "Name the capabilities use_capability can run for you, one line each. capability=NAME adds its input schema; include_schemas=true adds every one.",
                scope: "rules:read",
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
            },
        ],
        prompts: &[],
        resources: &[],
        capabilities: Some(runtime::spec::CapabilitiesSpec {
            use_tool: "use_capability",
            list_tool: "list_capabilities",
        }),
    };
}
/// Every surface declared under manifest/, in file-name order.
pub static SURFACES: &[&::nexus_mcp_runtime::spec::SurfaceSpec] = &[&rules::SURFACE];
