//! Who may read the viewer. By default only this machine: the connection comes from loopback
//! and the page was asked for by a loopback name (a web page elsewhere that re-points its own
//! host name at 127.0.0.1 gets nothing). Otherwise a viewer token, shown once in a /login link,
//! kept in an HttpOnly cookie. A viewer token starts with [`TOKEN_PREFIX`], which no MCP key may,
//! so neither ever opens the other's door; an MCP key sent here is refused outright.

use crate::ViewerState;
use crate::error::PageError;
use axum::extract::{ConnectInfo, Query, Request};
use axum::http::{HeaderMap, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Redirect, Response};
use std::collections::HashMap;
use std::net::SocketAddr;
use subtle::ConstantTimeEq;

/// Every viewer token starts with this; an MCP key never does (the MCP endpoints refuse it).
pub use nexus_mcp_runtime::transport::auth::VIEWER_TOKEN_PREFIX as TOKEN_PREFIX;

/// Shortest token accepted: 16 characters besides the prefix.
const MIN_TOKEN: usize = TOKEN_PREFIX.len() + 16;

const COOKIE: &str = "nexus_viewer";

pub enum Access {
    /// This machine only.
    Loopback,
    /// Anyone with the token.
    Token(String),
}

impl Access {
    /// A token access rule; refuses a token that could be mistaken for an MCP key.
    pub fn token(token: &str) -> Result<Access, String> {
        let token = token.trim();
        if !token.starts_with(TOKEN_PREFIX) || token.len() < MIN_TOKEN {
            return Err(format!(
                "a viewer token starts with `{TOKEN_PREFIX}` and has at least 16 more characters (e.g. `{TOKEN_PREFIX}$(openssl rand -hex 16)`), so that it is never an MCP key"
            ));
        }
        Ok(Access::Token(token.to_owned()))
    }

    fn admits(&self, presented: Option<&str>) -> bool {
        match (self, presented) {
            (Access::Token(token), Some(given)) => {
                bool::from(token.as_bytes().ct_eq(given.as_bytes()))
            }
            _ => false,
        }
    }
}

/// The access rule, before any page.
pub async fn guard(
    axum::extract::State(viewer): ViewerState,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    request: Request,
    next: Next,
) -> Response {
    if !matches!(*request.method(), Method::GET | Method::HEAD) {
        return PageError::MethodNotAllowed.into_response();
    }
    if request.headers().contains_key("x-mcp-api-key") {
        return PageError::Unauthorized(
            "this is the nexus-mcp viewer: MCP keys are not accepted here. Open the viewer's /login link, or use it from this machine.".to_owned(),
        )
        .into_response();
    }
    let allowed = match &viewer.access {
        Access::Loopback => peer.ip().is_loopback() && loopback_host(request.headers()),
        token @ Access::Token(_) => {
            request.uri().path() == "/login" || token.admits(presented(request.headers()))
        }
    };
    if !allowed {
        return match viewer.access {
            Access::Loopback => PageError::Forbidden(
                "this viewer answers this machine only (a loopback address and host name)."
                    .to_owned(),
            ),
            Access::Token(_) => PageError::Unauthorized(
                "open the viewer's /login link (printed when it started) to read it.".to_owned(),
            ),
        }
        .into_response();
    }
    next.run(request).await
}

/// `GET /login?token=…`: the token becomes a cookie and the address bar forgets it.
pub async fn login(
    axum::extract::State(viewer): ViewerState,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    match &viewer.access {
        Access::Loopback => Redirect::to("/").into_response(),
        Access::Token(_) => match query.get("token") {
            Some(given) if viewer.access.admits(Some(given)) => {
                let cookie = format!("{COOKIE}={given}; HttpOnly; SameSite=Strict; Path=/");
                ([(header::SET_COOKIE, cookie)], Redirect::to("/")).into_response()
            }
            _ => PageError::Unauthorized("that is not this viewer's token.".to_owned())
                .into_response(),
        },
    }
}

/// The token a request carries: `Authorization: Bearer …` or the login cookie.
fn presented(headers: &HeaderMap) -> Option<&str> {
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    bearer.or_else(|| {
        headers
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .find_map(|c| c.trim().strip_prefix(COOKIE)?.strip_prefix('='))
    })
}

/// The Host the browser asked for is this machine's own name.
fn loopback_host(headers: &HeaderMap) -> bool {
    let mut hosts = headers.get_all(header::HOST).iter();
    // Exactly one: with two, which one counts would be the server's guess.
    let (Some(host), None) = (hosts.next().and_then(|v| v.to_str().ok()), hosts.next()) else {
        return false;
    };
    let name = match host.strip_prefix('[') {
        Some(rest) => rest.split(']').next().unwrap_or_default(),
        None => host.rsplit_once(':').map_or(host, |(name, _)| name),
    };
    name.eq_ignore_ascii_case("localhost")
        || name
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn host(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::HOST, value.parse().unwrap());
        headers
    }

    #[test]
    fn only_loopback_names_are_this_machine() {
        for ok in [
            "127.0.0.1:8080",
            "localhost:1",
            "LOCALHOST",
            "[::1]:80",
            "127.4.5.6",
        ] {
            assert!(loopback_host(&host(ok)), "{ok}");
        }
        for bad in [
            "evil.example:8080",
            "10.0.0.1",
            "localhost.evil.example",
            "[::2]:80",
        ] {
            assert!(!loopback_host(&host(bad)), "{bad}");
        }
        assert!(!loopback_host(&HeaderMap::new()));
        let mut two = host("127.0.0.1:1");
        two.append(header::HOST, "evil.example".parse().unwrap());
        assert!(!loopback_host(&two));
    }

    #[test]
    fn a_token_must_not_pass_for_an_mcp_key() {
        assert!(Access::token("secret-mcp-key-0123456789abcdef").is_err());
        assert!(Access::token("nxv_short").is_err());
        assert!(Access::token("nxv_0123456789abcdef").is_ok());
    }
}
