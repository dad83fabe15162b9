//! Proposals (being written).
use crate::core::repos::ServedRepo;
use crate::rules::api::RulesError;
use crate::rules::state::RulesState;
use serde_json::Value;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    Accept,
    Reject,
}

fn todo() -> RulesError {
    RulesError::not_found("NOT_IMPLEMENTED", "proposals are not implemented yet")
}

pub fn list_answer(_s: &RulesState, _r: &ServedRepo, _st: &[String]) -> Result<Value, RulesError> {
    Err(todo())
}
pub fn propose_answer(_s: &RulesState, _r: &ServedRepo, _b: &Value) -> Result<Value, RulesError> {
    Err(todo())
}
pub fn bootstrap_answer(_s: &RulesState, _r: &ServedRepo) -> Result<Value, RulesError> {
    Err(todo())
}
pub fn decide_answer(
    _s: &RulesState,
    _r: &ServedRepo,
    _id: &str,
    _d: Decision,
    _b: &Value,
) -> Result<Value, RulesError> {
    Err(todo())
}
