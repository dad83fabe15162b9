//! Frontmatter splitting and lenient YAML: a BOM and CRLF are tolerated, `---` or `...` closes
//! the block, unquoted `@handle` values of the configured keys are quoted before parsing (they
//! are invalid YAML and real files hold them), dates stay strings, and a file that still does
//! not parse yields an error with its line and column instead of failing the workspace.

use serde::Serialize;
use serde_json::{Map, Value};

/// A file (or the configuration) that could not be read as intended.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ParseError {
    pub path: String,
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub message: String,
}

/// A file split into its frontmatter text and body.
#[derive(Debug, PartialEq)]
pub struct Split<'a> {
    /// The YAML between the fences; `None` when the file has no frontmatter.
    pub yaml: Option<&'a str>,
    /// The Markdown after the closing fence (the whole text without frontmatter).
    pub body: &'a str,
    /// 1-based line of the first YAML line (frontmatter errors are reported against the file).
    pub yaml_line: usize,
    /// 1-based line of the first body line.
    pub body_line: usize,
    /// The opening fence has no closing one.
    pub unclosed: bool,
}

/// Splits `text` (a BOM already stripped or not) at its frontmatter fences.
pub fn split(text: &str) -> Split<'_> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let first_end = text.find('\n').map_or(text.len(), |i| i + 1);
    if text[..first_end].trim_end() != "---" {
        return Split {
            yaml: None,
            body: text,
            yaml_line: 1,
            body_line: 1,
            unclosed: false,
        };
    }
    let mut pos = first_end;
    let mut line = 2;
    while pos < text.len() {
        let end = text[pos..].find('\n').map_or(text.len(), |i| pos + i + 1);
        let l = text[pos..end].trim_end();
        if l == "---" || l == "..." {
            return Split {
                yaml: Some(&text[first_end..pos]),
                body: &text[end..],
                yaml_line: 2,
                body_line: line + 1,
                unclosed: false,
            };
        }
        pos = end;
        line += 1;
    }
    Split {
        yaml: None,
        body: text,
        yaml_line: 2,
        body_line: 1,
        unclosed: true,
    }
}

/// Quotes unquoted `@handle` values of `keys` (scalar or block-list items right under the key),
/// as Backlog.md does before parsing. Returns `None` when nothing needed quoting.
pub fn prequote(yaml: &str, keys: &[String]) -> Option<String> {
    let mut out = String::with_capacity(yaml.len() + 16);
    let mut changed = false;
    let mut in_key = false;
    for line in yaml.split_inclusive('\n') {
        let (content, eol) = match line.strip_suffix('\n') {
            Some(c) => (c.strip_suffix('\r').unwrap_or(c), &line[c.len()..]),
            None => (line, ""),
        };
        let trimmed = content.trim_start();
        let indent = &content[..content.len() - trimmed.len()];
        if indent.is_empty() && !trimmed.starts_with('-') {
            in_key = false;
            if let Some((k, v)) = trimmed.split_once(':') {
                let key = k.trim().trim_matches(|c| c == '"' || c == '\'');
                if keys.iter().any(|x| x == key) {
                    in_key = true;
                    let v = v.trim();
                    if let Some(q) = quote_handle(v) {
                        out.push_str(&format!("{k}: {q}{eol}"));
                        changed = true;
                        continue;
                    }
                }
            }
        } else if in_key
            && let Some(item) = trimmed.strip_prefix("- ")
            && let Some(q) = quote_handle(item.trim())
        {
            out.push_str(&format!("{indent}- {q}{eol}"));
            changed = true;
            continue;
        }
        out.push_str(line);
    }
    changed.then_some(out)
}

fn quote_handle(v: &str) -> Option<String> {
    let q = |s: &str| format!("'{}'", s.trim().replace('\'', "''"));
    let list = |inner: &str| {
        let items: Vec<String> = inner.split(',').map(q).collect();
        format!("[{}]", items.join(", "))
    };
    if let Some(inner) = v.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        return inner.trim_start().starts_with('@').then(|| list(inner));
    }
    if !v.starts_with('@') {
        return None;
    }
    Some(if v.contains(',') { list(v) } else { q(v) })
}

/// The deepest nesting (flow `[`/`{` and block indentation levels) accepted: libyaml's work
/// grows with the square of the depth (100,000 `[` took a minute), real metadata is 2-4 deep.
pub const MAX_YAML_DEPTH: usize = 64;

/// Aliases (`*name`) accepted in one document, and the largest document holding any: each alias
/// repeats its anchor's content, so a few nested ones multiply it (billion laughs).
pub const MAX_YAML_ALIASES: usize = 8;
pub const MAX_ALIASED_YAML_BYTES: usize = 64 * 1024;

/// The one YAML entry point of the docs domain (frontmatter, sidecars, the configuration):
/// a linear pre-scan refuses deep nesting and alias bombs before the parser sees the text.
pub fn from_yaml(text: &str) -> Result<Value, ParseError> {
    guard(text)?;
    yaml_serde::from_str(text).map_err(yaml_error)
}

/// Refuses `text` when its nesting or its aliases exceed the bounds above. It may over-count
/// (an opening bracket or `*` inside a scalar counts), never under-count: openings count even
/// inside quotes, closings only outside them, and a quote is taken as opened wherever YAML
/// could open one.
pub fn guard(text: &str) -> Result<(), ParseError> {
    let refuse = |line: usize, what: String| ParseError {
        path: String::new(),
        line: Some(line),
        column: None,
        message: format!("the YAML is refused before parsing: {what}"),
    };
    let deep = |how: &str| {
        format!("it is nested more than {MAX_YAML_DEPTH} levels deep ({how}); flatten it")
    };
    let mut flow = 0usize;
    let mut aliases = 0usize;
    let mut indents: Vec<usize> = Vec::new();
    let mut quote: Option<u8> = None;
    for (no, line) in yaml_lines(text).enumerate() {
        let bytes = line.as_bytes();
        {
            // Block structure: indentation levels, plus `- `/`? ` items opened on this line
            // (counted inside quotes and flow collections too: over, never under).
            let indent = bytes.iter().take_while(|b| **b == b' ').count();
            let rest = line[indent..].trim_end();
            if !rest.is_empty() && !rest.starts_with('#') {
                while indents.last().is_some_and(|top| *top >= indent) {
                    indents.pop();
                }
                indents.push(indent);
                let mut j = indent;
                let mut items = 0;
                while j + 1 < bytes.len()
                    && matches!(bytes[j], b'-' | b'?')
                    && matches!(bytes[j + 1], b' ' | b'\t')
                {
                    items += 1;
                    j += 2;
                    while j < bytes.len() && matches!(bytes[j], b' ' | b'\t') {
                        j += 1;
                    }
                }
                if indents.len() + items > MAX_YAML_DEPTH {
                    return Err(refuse(no + 1, deep("by indentation")));
                }
            }
        }
        let mut prev = b' ';
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            if matches!(b, b'[' | b'{') {
                flow += 1;
                if flow > MAX_YAML_DEPTH {
                    return Err(refuse(no + 1, deep("`[` and `{`")));
                }
            }
            if b == b'*' && token_start(prev) {
                aliases += 1;
                if aliases > MAX_YAML_ALIASES || text.len() > MAX_ALIASED_YAML_BYTES {
                    return Err(refuse(
                        no + 1,
                        format!(
                            "it uses aliases (`*name`) beyond what is accepted (at most {MAX_YAML_ALIASES}, in at most {MAX_ALIASED_YAML_BYTES} bytes); write the values out"
                        ),
                    ));
                }
            }
            match (quote, b) {
                // `''` is a quote inside a single-quoted scalar.
                (Some(b'\''), b'\'') if bytes.get(i + 1) == Some(&b'\'') => i += 1,
                (Some(b'\''), b'\'') | (Some(b'"'), b'"') => quote = None,
                (Some(b'"'), b'\\') => i += 1,
                (Some(_), _) => {}
                (None, b'#') if matches!(prev, b' ' | b'\t') => break,
                (None, b'\'' | b'"') if token_start(prev) => quote = Some(b),
                (None, b']' | b'}') => flow = flow.saturating_sub(1),
                (None, _) => {}
            }
            prev = b;
            i += 1;
        }
    }
    Ok(())
}

/// The lines of `text` as libyaml breaks them: at `\n`, `\r\n` and a lone `\r` (a guard that
/// broke at `\n` only would read `[\r"]"` as one line and miss the quote YAML opens).
fn yaml_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let t = rest?;
        match t.find(['\r', '\n']) {
            Some(i) => {
                let next = if t[i..].starts_with("\r\n") {
                    i + 2
                } else {
                    i + 1
                };
                rest = Some(&t[next..]);
                Some(&t[..i])
            }
            None => {
                rest = None;
                Some(t)
            }
        }
    })
}

/// Whether a token (a quoted scalar, an alias) may start after byte `prev`; generous on purpose
/// (line breaks included, though [`yaml_lines`] already starts each line afresh).
fn token_start(prev: u8) -> bool {
    matches!(
        prev,
        b' ' | b'\t'
            | b'\r'
            | b'\n'
            | b'['
            | b'{'
            | b','
            | b':'
            | b'-'
            | b'?'
            | b'!'
            | b'&'
            | b'|'
            | b'>'
    )
}

/// A YAML error as a [`ParseError`] (path filled by the caller; line relative to the YAML).
pub fn yaml_error(e: yaml_serde::Error) -> ParseError {
    let (line, column) = match e.location() {
        Some(l) => (Some(l.line()), Some(l.column())),
        None => (None, None),
    };
    let mut message = e.to_string();
    if let Some(at) = message.find(" at line ") {
        message.truncate(at);
    }
    ParseError {
        path: String::new(),
        line,
        column,
        message,
    }
}

/// Parses a frontmatter or sidecar YAML mapping. `first_line` is the file line of the YAML's
/// first line (errors are reported against the file).
pub fn parse_yaml(
    yaml: &str,
    first_line: usize,
    prequote_keys: &[String],
) -> Result<Map<String, Value>, ParseError> {
    let quoted = prequote(yaml, prequote_keys);
    let text = quoted.as_deref().unwrap_or(yaml);
    let parsed = from_yaml(text);
    match parsed {
        Ok(Value::Object(m)) => Ok(m),
        Ok(Value::Null) => Ok(Map::new()),
        Ok(other) => Err(ParseError {
            path: String::new(),
            line: Some(first_line),
            column: Some(1),
            message: format!(
                "the metadata is a YAML {} where a mapping (`key: value` lines) was expected",
                kind(&other)
            ),
        }),
        Err(mut err) => {
            err.line = err.line.map(|l| l + first_line - 1);
            Err(err)
        }
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Array(_) => "list",
        Value::String(_) => "string",
        Value::Number(_) => "number",
        Value::Bool(_) => "boolean",
        _ => "value",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_tolerates_bom_crlf_and_dot_fences() {
        let s = split("\u{feff}---\r\nid: A-1\r\n...\r\nbody\r\n");
        assert_eq!(s.yaml, Some("id: A-1\r\n"));
        assert_eq!(s.body, "body\r\n");
        assert_eq!(s.body_line, 4);
        let none = split("# Title\n---\n");
        assert_eq!(none.yaml, None);
        assert!(split("---\nid: x\n").unclosed);
    }

    #[test]
    fn handles_are_quoted_before_parsing_and_dates_stay_strings() {
        let keys = vec!["assignee".to_string(), "reporter".to_string()];
        let m = parse_yaml(
            "assignee: @jonas\nreporter:\n  - @maria\ncreated: 2024-13-45\n",
            2,
            &keys,
        )
        .unwrap();
        assert_eq!(m["assignee"], "@jonas");
        assert_eq!(m["reporter"][0], "@maria");
        assert_eq!(m["created"], "2024-13-45");
    }

    #[test]
    fn invalid_yaml_reports_the_file_line_and_column() {
        let e = parse_yaml("id: X-1\nlabels: [billing\ndeps: []\n", 2, &[]).unwrap_err();
        assert!(e.line.unwrap() >= 3, "{e:?}");
        assert!(e.column.is_some());
        assert!(!e.message.contains(" at line "), "{}", e.message);
    }
}
