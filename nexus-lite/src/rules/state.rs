//! The rules domain's state: the shared core and the served repositories by name, and the
//! resolution of a request's `repository` / `visible` parameters.

use crate::core::http::{ApiError, Shared};
use crate::core::repos::ServedRepo;
use crate::core::state::Core;
use axum::http::StatusCode;
use std::sync::Arc;

pub struct RulesState {
    pub core: Arc<Core>,
    /// The server's registrations (held: the names stay this view's while it lives).
    pub repos: Vec<Arc<ServedRepo>>,
}

impl Shared for RulesState {
    fn core(&self) -> &Core {
        &self.core
    }
}

/// A repository outside the caller's `visible` list. 404, not 403: to the MCP surface a 403
/// means its own service token was refused, which is not what happened.
pub fn not_visible(repository: &str) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "REPOSITORY_NOT_VISIBLE",
        format!(
            "repository `{repository}` is outside the repositories your key may see; a key bound to `{repository}` (or an unrestricted key) would see it"
        ),
    )
}

impl RulesState {
    pub fn new(core: Arc<Core>, repos: Vec<Arc<ServedRepo>>) -> Arc<RulesState> {
        Arc::new(RulesState { core, repos })
    }

    /// The repository a request names (`repository`), or the only one served (or the only one
    /// the caller may see); `visible` (the caller's repositories, when restricted) must hold it.
    pub fn resolve(
        &self,
        repository: Option<&str>,
        visible: Option<&[String]>,
    ) -> Result<&ServedRepo, ApiError> {
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
            Some(name) if !sees(name) => return Err(not_visible(name)),
            Some(name) => self
                .repos
                .iter()
                .map(|r| &**r)
                .find(|r| r.name == name)
                .ok_or_else(|| {
                    ApiError::not_found_as(
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
                    .map(|r| &**r)
                    .filter(|r| visible.is_none_or(|v| v.iter().any(|n| n == &r.name)))
                    .collect();
                match candidates.as_slice() {
                    [only] => *only,
                    [] => {
                        return Err(ApiError::not_found_as(
                            "REPOSITORY_NOT_FOUND",
                            "no repository is served here (or none your key may see); serve one with --repo",
                        ));
                    }
                    _ => {
                        return Err(ApiError::bad(format!(
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
            return Err(not_visible(&repo.name));
        }
        Ok(repo)
    }
}
