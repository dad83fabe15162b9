//! Lenient frontmatter: the block between a first `---` line and the next `---` line, read
//! line by line (`key: value`, inline `[a, b]` lists, block `- item` lists, `|`/`>` block
//! scalars), because real rule files are often not YAML (Cursor's unquoted
//! `globs: **/*.{ts,tsx}` is an alias error to a YAML parser). YAML fills in only what the
//! line reading could not (nested maps); a file neither can read gives warnings, never an error.

use std::collections::BTreeMap;

/// One frontmatter value.
#[derive(Debug, Clone, PartialEq)]
pub enum FmValue {
    Str(String),
    List(Vec<String>),
    /// A nested mapping (string keys and scalar values), from YAML.
    Map(BTreeMap<String, String>),
    Null,
}

/// The frontmatter of a file and where its body starts.
#[derive(Debug, Clone, Default)]
pub struct Frontmatter {
    /// Whether the file starts with a frontmatter block.
    pub present: bool,
    pub fields: BTreeMap<String, FmValue>,
    /// Byte offset of the body (after the closing `---` line).
    pub body_start: usize,
    pub warnings: Vec<String>,
}

/// Reads the frontmatter of `text` (see the module comment).
pub fn parse(text: &str) -> Frontmatter {
    let mut fm = Frontmatter::default();
    let Some((block, body_start)) = split(text, &mut fm.warnings) else {
        return fm;
    };
    fm.present = true;
    fm.body_start = body_start;
    let unreadable = read_lines(block, &mut fm.fields);
    let needs_yaml = !unreadable.is_empty() || fm.fields.values().any(|v| v == &FmValue::Null);
    if needs_yaml {
        match yaml_serde::from_str::<yaml_serde::Value>(block) {
            Ok(yaml_serde::Value::Mapping(map)) => {
                for (k, v) in map {
                    let Some(key) = k.as_str() else { continue };
                    let from_yaml = yaml_value(&v);
                    match fm.fields.get(key) {
                        None | Some(FmValue::Null) => {
                            fm.fields.insert(key.to_string(), from_yaml);
                        }
                        Some(_) => {}
                    }
                }
            }
            _ if !unreadable.is_empty() => {
                for (line, text) in unreadable {
                    fm.warnings.push(format!(
                        "frontmatter line {line} (`{}`) is neither `key: value` nor a list item, and the block is not YAML either; the line is ignored",
                        cut(text, 60)
                    ));
                }
            }
            _ => {}
        }
    }
    fm
}

/// The frontmatter block and the body's offset, when the file starts with `---`.
fn split<'a>(text: &'a str, warnings: &mut Vec<String>) -> Option<(&'a str, usize)> {
    let start = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let rest = &text[start..];
    let first_end = rest.find('\n')?;
    if rest[..first_end].trim_end() != "---" {
        return None;
    }
    let block_start = start + first_end + 1;
    let mut pos = block_start;
    for line in text[block_start..].split_inclusive('\n') {
        let trimmed = line.trim_end();
        if trimmed == "---" || trimmed == "..." {
            return Some((&text[block_start..pos], pos + line.len()));
        }
        pos += line.len();
    }
    warnings.push(
        "the file starts with `---` but the frontmatter is never closed by another `---` line; the whole file is read as the body"
            .to_string(),
    );
    None
}

/// Line-by-line reading into `fields`; returns the lines it could not read (1-based numbers).
fn read_lines<'a>(block: &'a str, fields: &mut BTreeMap<String, FmValue>) -> Vec<(usize, &'a str)> {
    let mut unreadable = Vec::new();
    let mut current: Option<String> = None;
    // A block scalar being collected: (key, folded, lines).
    let mut scalar: Option<(String, bool, Vec<&str>)> = None;
    for (i, line) in block.lines().enumerate() {
        let indented = line.starts_with(' ') || line.starts_with('\t');
        if let Some((_, _, lines)) = scalar.as_mut() {
            if indented || line.trim().is_empty() {
                lines.push(line.trim());
                continue;
            }
            finish_scalar(scalar.take(), fields);
        }
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if indented || trimmed.starts_with("- ") || trimmed == "-" {
            if let Some(item) = trimmed.strip_prefix('-').filter(|_| current.is_some()) {
                let key = current.clone().unwrap_or_default();
                let item = unquote(item.trim());
                match fields.get_mut(&key) {
                    Some(FmValue::List(items)) => items.push(item),
                    _ => {
                        fields.insert(key, FmValue::List(vec![item]));
                    }
                }
                continue;
            }
            if current.is_some() {
                // A nested mapping (`metadata:` with indented keys): YAML reads it.
                continue;
            }
            unreadable.push((i + 1, line));
            continue;
        }
        let Some((key, value)) = key_value(trimmed) else {
            unreadable.push((i + 1, line));
            current = None;
            continue;
        };
        current = Some(key.to_string());
        let value = value.trim();
        if value.is_empty() || value == "~" || value == "null" {
            fields.insert(key.to_string(), FmValue::Null);
        } else if let Some(style) = value
            .strip_prefix('|')
            .map(|_| false)
            .or_else(|| value.strip_prefix('>').map(|_| true))
        {
            scalar = Some((key.to_string(), style, Vec::new()));
        } else if value.starts_with('[') && value.ends_with(']') {
            let inner = &value[1..value.len() - 1];
            let items = split_list(inner).into_iter().map(|s| unquote(&s)).collect();
            fields.insert(key.to_string(), FmValue::List(items));
        } else {
            fields.insert(key.to_string(), FmValue::Str(unquote(value)));
        }
    }
    finish_scalar(scalar, fields);
    unreadable
}

fn finish_scalar(
    scalar: Option<(String, bool, Vec<&str>)>,
    fields: &mut BTreeMap<String, FmValue>,
) {
    if let Some((key, folded, lines)) = scalar {
        let sep = if folded { " " } else { "\n" };
        let text = lines.join(sep).trim().to_string();
        fields.insert(key, FmValue::Str(text));
    }
}

/// `key: value` with a plain key (letters, digits, `_`, `-`, `.`).
fn key_value(line: &str) -> Option<(&str, &str)> {
    let (key, value) = line.split_once(':')?;
    let key = key.trim();
    let plain = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    if !plain || !(value.is_empty() || value.starts_with(' ') || value.starts_with('\t')) {
        return None;
    }
    Some((key, value))
}

/// Splits a comma list, keeping commas inside `{}`, `[]` and quotes (`**/*.{ts,tsx}`).
pub fn split_list(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    let mut cur = String::new();
    for c in s.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => {
                quote = None;
                cur.push(c);
            }
            (Some(_), c) => cur.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                cur.push(c);
            }
            (None, '{' | '[') => {
                depth += 1;
                cur.push(c);
            }
            (None, '}' | ']') => {
                depth -= 1;
                cur.push(c);
            }
            (None, ',') if depth <= 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
            }
            (None, c) => cur.push(c),
        }
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out.retain(|s| !s.is_empty());
    out
}

/// A scalar without its quotes: double quotes unescaped as YAML does, `''` in single quotes.
pub fn unquote(s: &str) -> String {
    let s = s.trim();
    if s.len() >= 2 && s.starts_with('"') && s.ends_with('"') {
        if let Ok(v) = yaml_serde::from_str::<String>(s) {
            return v;
        }
        return s[1..s.len() - 1].to_string();
    }
    if s.len() >= 2 && s.starts_with('\'') && s.ends_with('\'') {
        return s[1..s.len() - 1].replace("''", "'");
    }
    s.to_string()
}

fn yaml_value(v: &yaml_serde::Value) -> FmValue {
    use yaml_serde::Value as Y;
    match v {
        Y::Null => FmValue::Null,
        Y::Bool(b) => FmValue::Str(b.to_string()),
        Y::Number(n) => FmValue::Str(n.to_string()),
        Y::String(s) => FmValue::Str(s.clone()),
        Y::Sequence(items) => FmValue::List(
            items
                .iter()
                .filter_map(|i| match yaml_value(i) {
                    FmValue::Str(s) => Some(s),
                    _ => None,
                })
                .collect(),
        ),
        Y::Mapping(map) => FmValue::Map(
            map.iter()
                .filter_map(|(k, v)| match (k.as_str(), yaml_value(v)) {
                    (Some(k), FmValue::Str(s)) => Some((k.to_string(), s)),
                    _ => None,
                })
                .collect(),
        ),
        Y::Tagged(t) => yaml_value(&t.value),
    }
}

fn cut(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(max).collect::<String>())
    }
}

impl Frontmatter {
    /// A string field (a list is joined with `, `); `None` when absent, null or empty.
    pub fn str(&self, key: &str) -> Option<String> {
        match self.fields.get(key)? {
            FmValue::Str(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
            FmValue::List(items) if !items.is_empty() => Some(items.join(", ")),
            _ => None,
        }
    }

    /// A list field: a list, or a comma-separated string (commas inside braces kept).
    pub fn list(&self, key: &str) -> Vec<String> {
        match self.fields.get(key) {
            Some(FmValue::List(items)) => items
                .iter()
                .map(|s| unquote(s))
                .filter(|s| !s.is_empty())
                .collect(),
            Some(FmValue::Str(s)) => split_list(s)
                .into_iter()
                .map(|s| unquote(&s))
                .filter(|s| !s.is_empty())
                .collect(),
            _ => Vec::new(),
        }
    }

    /// A boolean field: `true`/`"true"`/`yes` or `false`/`no`; `None` when absent or empty;
    /// anything else is `None` with a warning.
    pub fn bool(&mut self, key: &str) -> Option<bool> {
        let value = self.str(key)?;
        match value.to_ascii_lowercase().as_str() {
            "true" | "yes" | "on" => Some(true),
            "false" | "no" | "off" => Some(false),
            other => {
                self.warnings.push(format!(
                    "`{key}: {other}` is not true or false; it is ignored"
                ));
                None
            }
        }
    }

    pub fn has(&self, key: &str) -> bool {
        self.fields.contains_key(key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unquoted_cursor_globs_that_yaml_rejects_are_read() {
        let text =
            "---\ndescription: TS style\nglobs: **/*.{ts,tsx}\nalwaysApply: false\n---\nbody\n";
        assert!(yaml_serde::from_str::<yaml_serde::Value>("globs: **/*.{ts,tsx}\n").is_err());
        let mut fm = parse(text);
        assert!(fm.present);
        assert_eq!(fm.list("globs"), vec!["**/*.{ts,tsx}"]);
        assert_eq!(fm.str("description").as_deref(), Some("TS style"));
        assert_eq!(fm.bool("alwaysApply"), Some(false));
        assert_eq!(&text[fm.body_start..], "body\n");
        assert!(fm.warnings.is_empty(), "{:?}", fm.warnings);
    }

    #[test]
    fn quoted_comma_strings_block_lists_and_string_booleans() {
        let mut fm = parse(
            "---\nglobs: \"web/**/*.css, web/**/*.scss\"\nalwaysApply: \"true\"\npaths:\n  - \"services/api/**\"\n  - lib/**\n---\n",
        );
        assert_eq!(fm.list("globs"), vec!["web/**/*.css", "web/**/*.scss"]);
        assert_eq!(fm.bool("alwaysApply"), Some(true));
        assert_eq!(fm.list("paths"), vec!["services/api/**", "lib/**"]);
    }

    #[test]
    fn inline_lists_regexes_and_block_scalars() {
        let fm = parse(
            "---\nenforcedBy: [bandit:B602, 'ruff:S608']\nforbid: '\\bprint\\('\nalso: \"a\\\\b\"\ndescription: >\n  one\n  two\n---\n",
        );
        assert_eq!(fm.list("enforcedBy"), vec!["bandit:B602", "ruff:S608"]);
        assert_eq!(fm.str("forbid").as_deref(), Some("\\bprint\\("));
        assert_eq!(fm.str("also").as_deref(), Some("a\\b"));
        assert_eq!(fm.str("description").as_deref(), Some("one two"));
    }

    #[test]
    fn nested_maps_come_from_yaml_and_garbage_is_a_warning() {
        let fm = parse("---\nname: x\nmetadata:\n  author: me\n---\n");
        assert_eq!(
            fm.fields.get("metadata"),
            Some(&FmValue::Map(BTreeMap::from([(
                "author".into(),
                "me".into()
            )])))
        );
        let fm = parse("---\nname: x\nthis is not yaml: [\n{oops\n---\nbody");
        assert_eq!(fm.str("name").as_deref(), Some("x"));
        assert!(!fm.warnings.is_empty());
    }

    #[test]
    fn no_frontmatter_or_an_unclosed_one_reads_everything_as_body() {
        let fm = parse("# Title\n---\n");
        assert!(!fm.present);
        assert_eq!(fm.body_start, 0);
        let fm = parse("---\nname: x\n");
        assert!(!fm.present);
        assert_eq!(fm.warnings.len(), 1);
    }
}
