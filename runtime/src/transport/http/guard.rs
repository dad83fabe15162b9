//! The first check in front of every MCP route, before authentication: DNS-rebinding and
//! cross-origin protection. A browser page can make a victim's browser send requests to a
//! loopback server (rebinding its own name to 127.0.0.1, or posting `text/plain` forms
//! cross-origin); Host, Origin and Content-Type are what tell such requests apart.

use axum::Json;
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// Host names always accepted: the loopback names.
const LOOPBACK_HOSTS: [&str; 3] = ["localhost", "127.0.0.1", "::1"];

/// What the guard accepts besides loopback names and same-origin requests.
#[derive(Debug, Clone, Default)]
pub struct Allowlist {
    /// `--allowed-host`: `host` (any port) or `host:port`.
    hosts: Vec<(String, Option<u16>)>,
    /// `--allowed-origin`: `scheme://host[:port]`.
    origins: Vec<Origin>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Origin {
    scheme: String,
    host: String,
    port: u16,
    /// The port a Host header without one means for this scheme.
    default_port: u16,
}

#[derive(Debug, thiserror::Error)]
#[error(
    "--allowed-origin {0:?} is not an origin; write it as scheme://host[:port], e.g. https://app.example.com"
)]
pub struct BadOrigin(String);

impl Allowlist {
    pub fn new(hosts: &[String], origins: &[String]) -> Result<Self, BadOrigin> {
        let hosts = hosts
            .iter()
            .filter_map(|h| authority(h.trim()))
            .collect::<Vec<_>>();
        let origins = origins
            .iter()
            .map(|o| parse_origin(o).ok_or_else(|| BadOrigin(o.clone())))
            .collect::<Result<_, _>>()?;
        Ok(Allowlist { hosts, origins })
    }

    fn host_allowed(&self, host: &str, port: Option<u16>) -> bool {
        LOOPBACK_HOSTS.contains(&host)
            || self
                .hosts
                .iter()
                .any(|(h, p)| h == host && (p.is_none() || *p == port))
    }

    /// Checks one request's headers; the error is the answer to send.
    pub fn check(&self, method: &Method, headers: &HeaderMap) -> Result<(), Refusal> {
        let host = headers
            .get(header::HOST)
            .and_then(|v| v.to_str().ok())
            .and_then(authority);
        let Some((host, port)) = host else {
            return Err(refuse(
                StatusCode::BAD_REQUEST,
                "missing or malformed Host header",
            ));
        };
        if !self.host_allowed(&host, port) {
            tracing::warn!(%host, "refused a request for a foreign Host (possible DNS rebinding)");
            return Err(refuse(
                StatusCode::FORBIDDEN,
                "Host is not allowed: only loopback names and --allowed-host values are served",
            ));
        }
        if let Some(origin) = headers.get(header::ORIGIN) {
            let origin = origin.to_str().ok().and_then(parse_origin);
            let same_origin = origin
                .as_ref()
                .is_some_and(|o| o.host == host && port.unwrap_or(o.default_port) == o.port);
            let listed = origin.as_ref().is_some_and(|o| self.origins.contains(o));
            if !same_origin && !listed {
                tracing::warn!(?origin, "refused a cross-origin request");
                return Err(refuse(
                    StatusCode::FORBIDDEN,
                    "Origin is not allowed: send no Origin (non-browser clients), the server's own origin, or one passed with --allowed-origin",
                ));
            }
        }
        if method == Method::POST && !is_json(headers) {
            return Err(refuse(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "Content-Type must be application/json",
            ));
        }
        Ok(())
    }
}

/// Why a request was refused, answered as `{"error": message}` with `status`.
#[derive(Debug)]
pub struct Refusal {
    status: StatusCode,
    message: &'static str,
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        (self.status, Json(json!({ "error": self.message }))).into_response()
    }
}

fn refuse(status: StatusCode, message: &'static str) -> Refusal {
    Refusal { status, message }
}

fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json"))
}

/// `host[:port]` with the host lowercased and IPv6 brackets removed.
fn authority(value: &str) -> Option<(String, Option<u16>)> {
    let parsed = axum::http::uri::Authority::try_from(value).ok()?;
    let host = parsed.host().trim_matches(['[', ']']).to_ascii_lowercase();
    Some((host, parsed.port_u16()))
}

/// `scheme://host[:port]` (an origin serialization); the port defaults from the scheme.
fn parse_origin(value: &str) -> Option<Origin> {
    let (scheme, rest) = value.trim().split_once("://")?;
    let scheme = scheme.to_ascii_lowercase();
    let (host, port) = authority(rest.strip_suffix('/').unwrap_or(rest))?;
    let default_port = match scheme.as_str() {
        "http" => 80,
        "https" => 443,
        _ => return None,
    };
    Some(Origin {
        scheme,
        host,
        port: port.unwrap_or(default_port),
        default_port,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, v.parse().unwrap());
        }
        h
    }

    fn status(allow: &Allowlist, method: Method, pairs: &[(&'static str, &str)]) -> u16 {
        match allow.check(&method, &headers(pairs)) {
            Ok(()) => 200,
            Err(r) => r.status.as_u16(),
        }
    }

    #[test]
    fn rebinding_and_cross_origin_requests_are_refused() {
        let allow = Allowlist::new(
            &["mcp.example.com".into()],
            &["https://app.example.com".into()],
        )
        .unwrap();
        let json = ("content-type", "application/json");
        let get = Method::GET;
        let post = Method::POST;
        assert_eq!(
            status(&allow, get.clone(), &[("host", "127.0.0.1:8765")]),
            200
        );
        assert_eq!(status(&allow, get.clone(), &[("host", "[::1]:8765")]), 200);
        assert_eq!(
            status(&allow, get.clone(), &[("host", "evil.example:8765")]),
            403
        );
        assert_eq!(status(&allow, get.clone(), &[]), 400);
        assert_eq!(
            status(&allow, get.clone(), &[("host", "mcp.example.com")]),
            200
        );
        let same = [
            ("host", "localhost:8765"),
            ("origin", "http://localhost:8765"),
            json,
        ];
        assert_eq!(status(&allow, post.clone(), &same), 200);
        for origin in [
            "http://evil.example",
            "http://localhost:9999",
            "null",
            "nonsense",
        ] {
            let h = [("host", "localhost:8765"), ("origin", origin), json];
            assert_eq!(status(&allow, post.clone(), &h), 403, "{origin}");
        }
        let listed = [
            ("host", "mcp.example.com"),
            ("origin", "https://app.example.com:443"),
            json,
        ];
        assert_eq!(status(&allow, post.clone(), &listed), 200);
        let plain = [("host", "127.0.0.1:1"), ("content-type", "text/plain")];
        assert_eq!(status(&allow, post.clone(), &plain), 415);
        assert_eq!(
            status(&allow, post.clone(), &[("host", "127.0.0.1:1")]),
            415
        );
        let charset = [
            ("host", "127.0.0.1:1"),
            ("content-type", "Application/JSON; charset=utf-8"),
        ];
        assert_eq!(status(&allow, post, &charset), 200);
    }

    #[test]
    fn a_malformed_allowed_origin_is_refused_at_start() {
        let err = Allowlist::new(&[], &["app.example.com".into()]).unwrap_err();
        assert!(err.to_string().contains("scheme://host[:port]"), "{err}");
    }
}
