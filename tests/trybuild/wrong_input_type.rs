use nexus_mcp::generated::nexus_code_kg::*;
use nexus_mcp_runtime::{app::ToolContext, error::ToolError};

// kg_get_anomaly takes the input of kg_get_audit_risk: the build must reject the signature.
struct Mixed;

impl CustomHandlers for Mixed {
    async fn kg_get_audit_risk(
        &self,
        _ctx: ToolContext,
        _input: KgGetAuditRiskInput,
    ) -> Result<KgGetAuditRiskOutput, ToolError> {
        Err(ToolError::Internal("not implemented".to_owned()))
    }

    async fn kg_get_anomaly(
        &self,
        _ctx: ToolContext,
        _input: KgGetAuditRiskInput,
    ) -> Result<KgGetAnomalyOutput, ToolError> {
        Err(ToolError::Internal("not implemented".to_owned()))
    }

    async fn kg_compare_with_local_git(
        &self,
        _ctx: ToolContext,
        _input: KgCompareWithLocalGitInput,
    ) -> Result<KgCompareWithLocalGitOutput, ToolError> {
        Err(ToolError::Internal("not implemented".to_owned()))
    }

    async fn kg_regenerate(
        &self,
        _ctx: ToolContext,
        _input: KgRegenerateInput,
    ) -> Result<KgRegenerateOutput, ToolError> {
        Err(ToolError::Internal("not implemented".to_owned()))
    }

    async fn kg_regenerate_dry_run(
        &self,
        _ctx: ToolContext,
        _input: KgRegenerateDryRunInput,
    ) -> Result<KgRegenerateDryRunOutput, ToolError> {
        Err(ToolError::Internal("not implemented".to_owned()))
    }

    async fn kg_regenerate_submit(
        &self,
        _ctx: ToolContext,
        _input: KgRegenerateSubmitInput,
    ) -> Result<KgRegenerateSubmitOutput, ToolError> {
        Err(ToolError::Internal("not implemented".to_owned()))
    }
}

fn main() {}
