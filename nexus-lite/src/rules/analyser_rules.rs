//! get_rule (being written).
use crate::core::repos::ServedRepo;
use crate::rules::api::RulesError;
use serde_json::Value;

pub fn get_rule(_repo: &ServedRepo, _rule_id: &str) -> Result<Value, RulesError> {
    Err(RulesError::not_found(
        "NOT_IMPLEMENTED",
        "get_rule is not implemented yet",
    ))
}
