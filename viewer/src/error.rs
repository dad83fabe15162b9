//! What a page answers when it cannot show what was asked: the status, and a sentence saying
//! what went wrong and what to do, as an escaped page.

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use nexus_mcp_runtime::backend::BackendFailure;

#[derive(Debug, thiserror::Error)]
pub enum PageError {
    #[error("not found: {0}")]
    NotFound(String),
    /// What was asked existed but was removed (a code graph the retention rule pruned).
    #[error("gone: {0}")]
    Gone(String),
    #[error("bad request: {0}")]
    BadRequest(String),
    #[error("{0}")]
    Unauthorized(String),
    #[error("{0}")]
    Forbidden(String),
    #[error("the viewer is read-only: only GET and HEAD")]
    MethodNotAllowed,
    /// The Nexus API failed or could not be reached.
    #[error("the Nexus API failed: {0}")]
    Backend(String),
    #[error("this page could not be drawn: {0}")]
    Internal(String),
}

impl PageError {
    /// A failed Nexus request: its 404, 410 and 400 are the page's own.
    pub fn from_backend(failure: BackendFailure) -> PageError {
        let message = failure.error.to_string();
        match failure.status {
            Some(404) => PageError::NotFound(message),
            Some(410) => PageError::Gone(message),
            Some(400 | 409) => PageError::BadRequest(message),
            _ => PageError::Backend(message),
        }
    }

    fn status(&self) -> StatusCode {
        match self {
            PageError::NotFound(_) => StatusCode::NOT_FOUND,
            PageError::Gone(_) => StatusCode::GONE,
            PageError::BadRequest(_) => StatusCode::BAD_REQUEST,
            PageError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            PageError::Forbidden(_) => StatusCode::FORBIDDEN,
            PageError::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            PageError::Backend(_) => StatusCode::BAD_GATEWAY,
            PageError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl IntoResponse for PageError {
    fn into_response(self) -> Response {
        let status = self.status();
        if status.is_server_error() {
            tracing::warn!(error = %self, "viewer page failed");
        }
        let page = crate::pages::render(
            "error.html",
            minijinja::context! { status => status.as_u16(), message => self.to_string() },
        )
        .unwrap_or_else(|_| self.to_string());
        let mut response = (status, page).into_response();
        response.headers_mut().insert(
            header::CONTENT_TYPE,
            header::HeaderValue::from_static("text/html; charset=utf-8"),
        );
        if status == StatusCode::METHOD_NOT_ALLOWED {
            response
                .headers_mut()
                .insert(header::ALLOW, header::HeaderValue::from_static("GET, HEAD"));
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nexus_mcp_runtime::error::ToolError;

    #[test]
    fn a_pruned_graph_is_a_gone_page_that_names_the_newest_not_a_bad_gateway() {
        let failure = BackendFailure {
            error: ToolError::Backend {
                code: "graph_pruned".into(),
                message: "graph_id `g1` was pruned; read main's newest graph `g9` instead".into(),
                retryable: false,
            },
            status: Some(410),
            body: None,
        };
        let page = PageError::from_backend(failure);
        assert_eq!(page.status(), StatusCode::GONE);
        assert!(page.to_string().contains("`g9`"), "{page}");
    }
}
