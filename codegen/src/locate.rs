//! Maps a path inside the manifest (`tools[3].nexus.query.limit`) to a line and column.
//! yaml_serde reports positions only for syntax and shape errors; semantic checks need this.

use saphyr::{LoadableYamlNode, MarkedYaml, Scalar, YamlData};

/// One step of a path into the YAML document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    Key(String),
    Index(usize),
}

impl From<&str> for Step {
    fn from(key: &str) -> Self {
        Step::Key(key.to_owned())
    }
}

impl From<usize> for Step {
    fn from(index: usize) -> Self {
        Step::Index(index)
    }
}

/// A parsed document that answers "where is this path?".
pub struct Locator<'a> {
    root: Option<MarkedYaml<'a>>,
}

impl<'a> Locator<'a> {
    pub fn new(source: &'a str) -> Self {
        let root = MarkedYaml::load_from_str(source)
            .ok()
            .and_then(|docs| docs.into_iter().next());
        Locator { root }
    }

    /// Line (1-based) and column (1-based) of the deepest node of `path` that exists: a missing
    /// key points at its parent, which is where the author has to add it.
    pub fn position(&self, path: &[Step]) -> (usize, usize) {
        let Some(mut node) = self.root.as_ref() else {
            return (1, 1);
        };
        let mut at = node.span.start;
        for step in path {
            let next = match (step, &node.data) {
                (Step::Key(key), YamlData::Mapping(map)) => map.iter().find_map(|(k, v)| {
                    (scalar_text(k).as_deref() == Some(key.as_str())).then_some((k, v))
                }),
                (Step::Index(i), YamlData::Sequence(seq)) => seq.get(*i).map(|v| (v, v)),
                // JSON pointers (schema error locations) spell indices as keys.
                (Step::Key(key), YamlData::Sequence(seq)) => key
                    .parse::<usize>()
                    .ok()
                    .and_then(|i| seq.get(i))
                    .map(|v| (v, v)),
                _ => None,
            };
            let Some((key, value)) = next else { break };
            // Point at the key for mapping entries: that is the line an editor shows.
            at = key.span.start;
            node = value;
        }
        (at.line(), at.col() + 1)
    }

    /// The text of the scalar at `path`, if there is one (e.g. a tool's name).
    pub fn scalar(&self, path: &[Step]) -> Option<String> {
        let mut node = self.root.as_ref()?;
        for step in path {
            node = match (step, &node.data) {
                (Step::Key(key), YamlData::Mapping(map)) => map.iter().find_map(|(k, v)| {
                    (scalar_text(k).as_deref() == Some(key.as_str())).then_some(v)
                })?,
                (Step::Index(i), YamlData::Sequence(seq)) => seq.get(*i)?,
                _ => return None,
            };
        }
        scalar_text(node)
    }
}

fn scalar_text(node: &MarkedYaml<'_>) -> Option<String> {
    match &node.data {
        YamlData::Value(Scalar::String(s)) => Some(s.to_string()),
        YamlData::Representation(s, _, _) => Some(s.to_string()),
        // A numeric key (an `errors:` status such as `404:`) is found by its text.
        YamlData::Value(Scalar::Integer(i)) => Some(i.to_string()),
        YamlData::Value(other) => Some(format!("{other:?}")),
        _ => None,
    }
}
