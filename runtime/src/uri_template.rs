//! RFC 6570 URI templates, levels 1 and 2 (`{var}`, `{+var}`, `{#var}`), matched against a URI
//! to recover the variables (resources/read of a resource template). Crates on crates.io expand
//! templates; the one that also matches (uri-template-ex 0.0.x) is an unstable first release, and
//! matching these three forms is a few dozen lines.

use percent_encoding::percent_decode_str;
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq, Eq)]
enum Part<'a> {
    Literal(&'a str),
    /// `{name}`: one path segment's worth, percent-decoded.
    Simple(&'a str),
    /// `{+name}`: anything, `/` included.
    Reserved(&'a str),
    /// `{#name}`: `#` then anything.
    Fragment(&'a str),
}

/// Why a template is not one this server serves.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UriTemplateError {
    #[error("`{{` without a closing `}}`")]
    Unclosed,
    #[error(
        "`{{{0}}}` is not supported: only RFC 6570 level 1-2 expressions are ({{var}}, {{+var}}, {{#var}})"
    )]
    Unsupported(String),
}

fn parse(template: &str) -> Result<Vec<Part<'_>>, UriTemplateError> {
    let mut parts = Vec::new();
    let mut rest = template;
    while let Some(start) = rest.find('{') {
        if start > 0 {
            parts.push(Part::Literal(&rest[..start]));
        }
        let len = rest[start..].find('}').ok_or(UriTemplateError::Unclosed)?;
        let expr = &rest[start + 1..start + len];
        let (op, name) = match expr.chars().next() {
            Some('+') => (Some('+'), &expr[1..]),
            Some('#') => (Some('#'), &expr[1..]),
            _ => (None, expr),
        };
        let plain = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !plain {
            return Err(UriTemplateError::Unsupported(expr.to_owned()));
        }
        parts.push(match op {
            Some('+') => Part::Reserved(name),
            Some('#') => Part::Fragment(name),
            _ => Part::Simple(name),
        });
        rest = &rest[start + len + 1..];
    }
    if !rest.is_empty() {
        parts.push(Part::Literal(rest));
    }
    Ok(parts)
}

/// The variable names of `template`, in order.
pub fn variables(template: &str) -> Result<Vec<String>, UriTemplateError> {
    Ok(parse(template)?
        .into_iter()
        .filter_map(|p| match p {
            Part::Literal(_) => None,
            Part::Simple(n) | Part::Reserved(n) | Part::Fragment(n) => Some(n.to_owned()),
        })
        .collect())
}

/// The variables of `uri` when it matches `template`; `None` when it does not (or the
/// template is not one [`variables`] accepts). Values are never empty.
pub fn matches(template: &str, uri: &str) -> Option<BTreeMap<String, String>> {
    let parts = parse(template).ok()?;
    let mut found = Vec::new();
    match_from(&parts, uri, &mut found).then(|| {
        found
            .into_iter()
            .map(|(name, raw)| {
                let value = percent_decode_str(raw).decode_utf8_lossy().into_owned();
                (name.to_owned(), value)
            })
            .collect()
    })
}

/// Matches `uri` against `parts`, collecting each variable's raw (still encoded) value: values
/// are decoded once, after the whole match, and a variable followed by a literal only tries the
/// places that literal occurs, so a long URI costs linear time, not one decode per split.
fn match_from<'a, 'u>(
    parts: &[Part<'a>],
    uri: &'u str,
    found: &mut Vec<(&'a str, &'u str)>,
) -> bool {
    let Some((first, rest)) = parts.split_first() else {
        return uri.is_empty();
    };
    let (name, value_part, allowed): (&str, &str, fn(char) -> bool) = match first {
        Part::Literal(lit) => {
            return uri
                .strip_prefix(lit)
                .is_some_and(|tail| match_from(rest, tail, found));
        }
        Part::Simple(n) => (n, uri, |c| !matches!(c, '/' | '?' | '#')),
        Part::Reserved(n) => (n, uri, |_| true),
        Part::Fragment(n) => match uri.strip_prefix('#') {
            Some(tail) => (n, tail, |_| true),
            None => return false,
        },
    };
    // The value may run up to the first character its form does not allow.
    let limit = value_part
        .char_indices()
        .find(|(_, c)| !allowed(*c))
        .map_or(value_part.len(), |(i, _)| i);
    // Shortest value first, so a literal after the variable anchors it.
    let ends: Box<dyn Iterator<Item = usize>> = match rest.first() {
        None => Box::new(std::iter::once(value_part.len())),
        Some(Part::Literal(lit)) => Box::new(value_part.match_indices(*lit).map(|(i, _)| i)),
        Some(_) => Box::new(
            value_part
                .char_indices()
                .map(|(i, _)| i)
                .chain([value_part.len()]),
        ),
    };
    for end in ends.filter(|end| *end > 0) {
        if end > limit {
            break;
        }
        let mark = found.len();
        found.push((name, &value_part[..end]));
        if match_from(rest, &value_part[end..], found) {
            return true;
        }
        found.truncate(mark);
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn simple_variables_take_one_segment_and_are_decoded() {
        assert_eq!(
            matches("test://template/{id}/data", "test://template/123/data"),
            Some(vars(&[("id", "123")]))
        );
        assert_eq!(
            matches(
                "docugraph://workspace/node/{id}",
                "docugraph://workspace/node/a%20b"
            ),
            Some(vars(&[("id", "a b")]))
        );
        assert_eq!(
            matches(
                "docugraph://workspace/node/{id}",
                "docugraph://workspace/node/a/b"
            ),
            None
        );
        assert_eq!(
            matches(
                "docugraph://workspace/node/{id}",
                "docugraph://workspace/node/"
            ),
            None
        );
        assert_eq!(
            matches("x://{a}-{b}", "x://1-2-3"),
            Some(vars(&[("a", "1"), ("b", "2-3")]))
        );
    }

    #[test]
    fn reserved_and_fragment_variables_may_hold_slashes() {
        assert_eq!(
            matches("file://{+path}", "file://src/lib.rs"),
            Some(vars(&[("path", "src/lib.rs")]))
        );
        assert_eq!(
            matches("doc://page{#section}", "doc://page#a/b"),
            Some(vars(&[("section", "a/b")]))
        );
        assert_eq!(matches("doc://page{#section}", "doc://page"), None);
    }

    /// Was one percent-decode of the value so far per character: a 200 KB id took minutes.
    #[test]
    fn a_huge_value_matches_in_linear_time() {
        let id = "x".repeat(1_000_000);
        let uri = format!("docugraph://workspace/node/{id}");
        let found = matches("docugraph://workspace/node/{id}", &uri).unwrap();
        assert_eq!(found["id"].len(), 1_000_000);
        let uri = format!("test://template/{id}/data");
        assert_eq!(
            matches("test://template/{id}/data", &uri).unwrap()["id"].len(),
            1_000_000
        );
        let path = "a/".repeat(300_000);
        let uri = format!("test://{path}end");
        assert!(matches("test://{+p}/x", &uri).is_none());
    }

    #[test]
    fn level_3_and_broken_templates_are_refused() {
        assert_eq!(variables("a://{x}/{+y}"), Ok(vec!["x".into(), "y".into()]));
        assert_eq!(
            variables("a://{?q}"),
            Err(UriTemplateError::Unsupported("?q".into()))
        );
        assert_eq!(
            variables("a://{x*}"),
            Err(UriTemplateError::Unsupported("x*".into()))
        );
        assert_eq!(variables("a://{x"), Err(UriTemplateError::Unclosed));
        assert_eq!(matches("a://{?q}", "a://?q=1"), None);
    }
}
