//! Skills (being written).
use crate::core::repos::ServedRepo;
use crate::rules::api::RulesError;
use crate::rules::state::RulesState;
use serde_json::Value;

pub fn list(_s: &RulesState, _repo: &ServedRepo) -> Result<Value, RulesError> {
    Err(RulesError::not_found(
        "NOT_IMPLEMENTED",
        "skills are not implemented yet",
    ))
}

pub fn fetch(
    _s: &RulesState,
    _repo: &ServedRepo,
    _name: &str,
    _path: Option<&str>,
) -> Result<Value, RulesError> {
    Err(RulesError::not_found(
        "NOT_IMPLEMENTED",
        "skills are not implemented yet",
    ))
}
