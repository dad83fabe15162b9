//! report_check (being written).
use crate::core::repos::ServedRepo;
use crate::rules::api::RulesError;
use crate::rules::state::RulesState;
use serde_json::Value;

pub fn report(_s: &RulesState, _repo: &ServedRepo, _body: &Value) -> Result<Value, RulesError> {
    Err(RulesError::not_found(
        "NOT_IMPLEMENTED",
        "report_check is not implemented yet",
    ))
}
