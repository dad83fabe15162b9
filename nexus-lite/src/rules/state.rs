//! The rules domain's state: the shared core and the served repositories by name, and the
//! resolution of a request's `repository` / `visible` parameters.

use crate::core::http::Shared;
use crate::core::repos::ServedRepo;
use crate::core::state::Core;
use crate::rules::api::RulesError;
use std::sync::Arc;

pub struct RulesState {
    pub core: Arc<Core>,
    pub repos: Vec<ServedRepo>,
}

impl Shared for RulesState {
    fn core(&self) -> &Core {
        &self.core
    }
}

impl RulesState {
    pub fn new(core: Arc<Core>, repos: Vec<ServedRepo>) -> Arc<RulesState> {
        Arc::new(RulesState { core, repos })
    }

    /// The repository a request names (`repository`), or the only one served (or the only one
    /// the caller may see); `visible` (the caller's repositories, when restricted) must hold it.
    pub fn resolve(
        &self,
        repository: Option<&str>,
        visible: Option<&[String]>,
    ) -> Result<&ServedRepo, RulesError> {
        let sees = |name: &str| visible.is_none_or(|v| v.iter().any(|n| n == name));
        // A key bound to repositories learns nothing of the others, not even their names.
        let names = || {
            self.repos
                .iter()
                .map(|r| r.name.as_str())
                .filter(|n| sees(n))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let repo = match repository {
            Some(name) if !sees(name) => return Err(RulesError::not_visible(name)),
            Some(name) => self.repos.iter().find(|r| r.name == name).ok_or_else(|| {
                RulesError::not_found(
                    "REPOSITORY_NOT_FOUND",
                    format!(
                        "no repository `{name}` is served here; served repositories: {}",
                        match names() {
                            n if n.is_empty() => "none".to_string(),
                            n => n,
                        }
                    ),
                )
            })?,
            None => {
                let candidates: Vec<&ServedRepo> = self
                    .repos
                    .iter()
                    .filter(|r| visible.is_none_or(|v| v.iter().any(|n| n == &r.name)))
                    .collect();
                match candidates.as_slice() {
                    [only] => *only,
                    [] => {
                        return Err(RulesError::not_found(
                            "REPOSITORY_NOT_FOUND",
                            "no repository is served here (or none your key may see); serve one with --repo",
                        ));
                    }
                    _ => {
                        return Err(RulesError::bad(format!(
                            "several repositories are served; name one with `repository`: {}",
                            candidates
                                .iter()
                                .map(|r| r.name.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        )));
                    }
                }
            }
        };
        if let Some(v) = visible
            && !v.iter().any(|n| n == &repo.name)
        {
            return Err(RulesError::not_visible(&repo.name));
        }
        Ok(repo)
    }
}
