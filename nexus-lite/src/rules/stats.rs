//! Stats (being written).
use crate::core::repos::ServedRepo;
use crate::rules::api::RulesError;
use crate::rules::state::RulesState;
use serde_json::Value;

pub fn answer(_s: &RulesState, _repo: &ServedRepo) -> Result<Value, RulesError> {
    Err(RulesError::not_found(
        "NOT_IMPLEMENTED",
        "stats are not implemented yet",
    ))
}
