//! Shapes a backend answer for an agent: pick/exclude by dotted path, caps on arrays and
//! strings, redaction, and a hard character budget. Every cut is recorded; nothing is ever cut
//! silently.

use crate::redact;
use crate::spec::ResponseSpec;
use serde::Serialize;
use serde_json::{Map, Value};

/// One array that lost items.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cut {
    pub path: String,
    pub kept: usize,
    pub total: usize,
}

/// What trimming did to a result.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Report {
    pub cuts: Vec<Cut>,
    /// Where a string was shortened, in [`Cut::path`] notation.
    pub shortened: Vec<String>,
    pub redacted: usize,
}

impl Report {
    pub fn truncated(&self) -> bool {
        !self.cuts.is_empty() || !self.shortened.is_empty()
    }

    /// Strings shortened and still in the result.
    pub fn strings_shortened(&self) -> usize {
        self.shortened.len()
    }

    /// Items kept of the array at `path`, when it was cut.
    pub fn kept_at(&self, path: &str) -> Option<usize> {
        self.cuts.iter().find(|c| c.path == path).map(|c| c.kept)
    }
}

/// A parsed `a.*.b` pattern.
fn segments(pattern: &str) -> Vec<&str> {
    pattern.split('.').filter(|s| !s.is_empty()).collect()
}

/// Applies pick, exclude, redaction and caps (not the budget: see [`fit_budget`]).
pub fn shape(mut value: Value, spec: &ResponseSpec) -> (Value, Report) {
    let mut report = Report::default();
    if !spec.pick.is_empty() {
        let patterns: Vec<Vec<&str>> = spec.pick.iter().map(|p| segments(p)).collect();
        value = pick(
            value,
            &patterns.iter().map(Vec::as_slice).collect::<Vec<_>>(),
        );
    }
    for pattern in spec.exclude {
        exclude(&mut value, &segments(pattern));
    }
    report.redacted = redact::redact_value(&mut value);
    if spec.max_items.is_some() || spec.max_string.is_some() {
        cap(&mut value, spec, &mut At::default(), &mut report);
    }
    (value, report)
}

fn seg_matches(seg: &str, key: &str) -> bool {
    seg == "*" || seg == key
}

/// Keeps the paths that match a pattern (with their ancestors and all their descendants).
/// Arrays are transparent unless the pattern names `*` or an index.
fn pick(value: Value, patterns: &[&[&str]]) -> Value {
    if patterns.iter().any(|p| p.is_empty()) {
        return value;
    }
    match value {
        Value::Object(map) => {
            let mut out = Map::new();
            for (key, v) in map {
                let rest: Vec<&[&str]> = patterns
                    .iter()
                    .filter(|p| seg_matches(p[0], &key))
                    .map(|p| &p[1..])
                    .collect();
                if !rest.is_empty() {
                    out.insert(key, pick(v, &rest));
                }
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(
            items
                .into_iter()
                .enumerate()
                .map(|(i, v)| {
                    let index = i.to_string();
                    let rest: Vec<&[&str]> = patterns
                        .iter()
                        .map(|p| {
                            if p[0] == "*" || p[0] == index {
                                &p[1..]
                            } else {
                                *p
                            }
                        })
                        .collect();
                    pick(v, &rest)
                })
                .collect(),
        ),
        scalar => scalar,
    }
}

fn exclude(value: &mut Value, pattern: &[&str]) {
    let Some((first, rest)) = pattern.split_first() else {
        return;
    };
    match value {
        Value::Object(map) => {
            if rest.is_empty() {
                map.retain(|k, _| !seg_matches(first, k));
            } else {
                for (k, v) in map.iter_mut() {
                    if seg_matches(first, k) {
                        exclude(v, rest);
                    }
                }
            }
        }
        Value::Array(items) => {
            let consumed = *first == "*" || first.parse::<usize>().is_ok();
            for (i, v) in items.iter_mut().enumerate() {
                if !consumed {
                    exclude(v, pattern);
                } else if seg_matches(first, &i.to_string()) {
                    exclude(v, rest);
                }
            }
        }
        _ => {}
    }
}

fn cap(value: &mut Value, spec: &ResponseSpec, at: &mut At, report: &mut Report) {
    match value {
        Value::Array(items) => {
            if let Some(max) = spec.max_items
                && items.len() > max
            {
                report.cuts.push(Cut {
                    path: at.path.clone(),
                    kept: max,
                    total: items.len(),
                });
                items.truncate(max);
            }
            for (i, item) in items.iter_mut().enumerate() {
                at.enter(Step::Index(i), |at| cap(item, spec, at, report));
            }
        }
        Value::Object(map) => {
            for (key, item) in map.iter_mut() {
                at.enter(Step::Key(key), |at| cap(item, spec, at, report));
            }
        }
        Value::String(s) => {
            if let Some(max) = spec.max_string
                && shorten(s, max)
            {
                report.shortened.push(at.path.clone());
            }
        }
        _ => {}
    }
}

/// Where a value sits: the path reported to the agent (`files[3].symbols`) and the JSON
/// pointer that finds it again whatever its keys contain (`/files/3/symbols`).
#[derive(Debug, Clone, Default)]
struct At {
    path: String,
    pointer: String,
}

enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

impl At {
    /// Runs `f` one step further down, at `key` or `[index]`.
    fn enter<T>(&mut self, step: Step<'_>, f: impl FnOnce(&mut At) -> T) -> T {
        use std::fmt::Write;
        let (path_len, pointer_len) = (self.path.len(), self.pointer.len());
        self.pointer.push('/');
        match step {
            Step::Key(key) => {
                if !self.path.is_empty() {
                    self.path.push('.');
                }
                self.path.push_str(key);
                // RFC 6901 escapes.
                for c in key.chars() {
                    match c {
                        '~' => self.pointer.push_str("~0"),
                        '/' => self.pointer.push_str("~1"),
                        c => self.pointer.push(c),
                    }
                }
            }
            Step::Index(index) => {
                let _ = write!(self.path, "[{index}]");
                let _ = write!(self.pointer, "{index}");
            }
        }
        let out = f(self);
        self.path.truncate(path_len);
        self.pointer.truncate(pointer_len);
        out
    }
}

/// Cuts `s` to about `max` characters on a char boundary, saying how much went.
fn shorten(s: &mut String, max: usize) -> bool {
    let total = s.chars().count();
    if total <= max {
        return false;
    }
    let keep: String = s.chars().take(max).collect();
    *s = format!("{keep}…[{} more characters cut]", total - max);
    true
}

/// The length of `value`'s compact JSON, counted without building it.
pub fn size(value: &Value) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    serde_json::to_writer(&mut count, value).map_or(0, |()| count.0)
}

/// Cuts `value` until its JSON fits `budget` characters: first the biggest arrays, each to the
/// longest head that fits (at least one item), then the longest strings. Records every cut in
/// `report`.
pub fn fit_budget(value: &mut Value, budget: usize, report: &mut Report) {
    // Every round drops at least one item or halves a string, so this ends; the bound is a
    // guard, not a tuning knob.
    for _ in 0..256 {
        let total = size(value);
        if total <= budget {
            return;
        }
        let biggest_array = heaviest(value, |v| match v {
            Value::Array(items) if items.len() > 1 => Some(size(v)),
            _ => None,
        });
        if let Some(at) = biggest_array {
            cut_array(value, &at, total - budget, report);
            continue;
        }
        if !shorten_longest_string(value, report) {
            return;
        }
    }
}

/// Where the node that `weigh` scores highest sits (the first of equals), or `None` when it
/// scores none.
fn heaviest(value: &Value, weigh: impl Fn(&Value) -> Option<usize>) -> Option<At> {
    fn walk(
        value: &Value,
        at: &mut At,
        weigh: &impl Fn(&Value) -> Option<usize>,
        best: &mut Option<(At, usize)>,
    ) {
        if let Some(weight) = weigh(value)
            && best.as_ref().is_none_or(|(_, b)| weight > *b)
        {
            *best = Some((at.clone(), weight));
        }
        match value {
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    at.enter(Step::Index(i), |at| walk(item, at, weigh, best));
                }
            }
            Value::Object(map) => {
                for (key, item) in map {
                    at.enter(Step::Key(key), |at| walk(item, at, weigh, best));
                }
            }
            _ => {}
        }
    }
    let mut best = None;
    walk(value, &mut At::default(), &weigh, &mut best);
    best.map(|(at, _)| at)
}

/// Drops the tail of the array at `path` until `excess` characters are gone, keeping at least
/// one item: an array's items add up, so this keeps as many as the budget allows.
fn cut_array(value: &mut Value, at: &At, excess: usize, report: &mut Report) {
    let Some(Value::Array(items)) = value.pointer_mut(&at.pointer) else {
        return;
    };
    let path = at.path.as_str();
    let total = items.len();
    let (mut kept, mut freed) = (total, 0);
    while kept > 1 && freed < excess {
        kept -= 1;
        // The item and the comma before it.
        freed += size(&items[kept]) + 1;
    }
    items.truncate(kept);
    // Cuts and shortened strings inside the dropped items are gone with them.
    report
        .cuts
        .retain(|c| !inside_dropped_item(&c.path, path, kept));
    report
        .shortened
        .retain(|s| !inside_dropped_item(s, path, kept));
    match report.cuts.iter_mut().find(|c| c.path == path) {
        Some(cut) => cut.kept = kept,
        None => report.cuts.push(Cut {
            path: path.to_owned(),
            kept,
            total,
        }),
    }
}

/// Whether `cut_path` lies inside item `kept` or later of the array at `array_path`.
fn inside_dropped_item(cut_path: &str, array_path: &str, kept: usize) -> bool {
    cut_path
        .strip_prefix(array_path)
        .and_then(|rest| rest.strip_prefix('['))
        .and_then(|rest| rest.split(']').next())
        .and_then(|index| index.parse::<usize>().ok())
        .is_some_and(|index| index >= kept)
}

fn shorten_longest_string(value: &mut Value, report: &mut Report) -> bool {
    // Only strings that can be cut compete: a short string of wide characters must not hide a
    // longer cuttable one behind it.
    let longest = heaviest(value, |v| match v {
        Value::String(s) if s.len() > 64 && s.chars().count() > 64 => Some(s.len()),
        _ => None,
    });
    let Some(at) = longest else {
        return false;
    };
    match value.pointer_mut(&at.pointer) {
        Some(Value::String(s)) if s.chars().count() > 64 => {
            let half = (s.chars().count() / 2).max(64);
            shorten(s, half);
            if !report.shortened.contains(&at.path) {
                report.shortened.push(at.path);
            }
            true
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn spec(
        pick: &'static [&'static str],
        exclude: &'static [&'static str],
        max_items: Option<usize>,
    ) -> ResponseSpec {
        ResponseSpec {
            pick,
            exclude,
            max_items,
            max_string: Some(20),
            budget: 8000,
        }
    }

    #[test]
    fn pick_keeps_matching_paths_through_arrays() {
        let v = json!({"graph": {"graph_id": "g", "secret_path": "/srv"}, "items": [{"path": "a.py", "details": {}}, {"path": "b.py"}], "other": 1});
        let (out, _) = shape(v, &spec(&["graph.graph_id", "items.*.path"], &[], None));
        assert_eq!(
            out,
            json!({"graph": {"graph_id": "g"}, "items": [{"path": "a.py"}, {"path": "b.py"}]})
        );
    }

    #[test]
    fn exclude_and_caps_are_reported() {
        let v = json!({"items": [{"path": "a", "details": 1}, {"path": "b", "details": 2}, {"path": "c"}], "note": "x".repeat(30)});
        let (out, report) = shape(v, &spec(&[], &["items.details"], Some(2)));
        assert_eq!(out["items"], json!([{"path": "a"}, {"path": "b"}]));
        assert_eq!(
            report.cuts,
            vec![Cut {
                path: "items".into(),
                kept: 2,
                total: 3
            }]
        );
        assert_eq!(report.strings_shortened(), 1);
        assert!(
            out["note"]
                .as_str()
                .unwrap()
                .ends_with("…[10 more characters cut]")
        );
    }

    #[test]
    fn budget_keeps_as_many_items_as_fit_and_says_so() {
        let items: Vec<Value> = (0..200)
            .map(|i| json!({"path": format!("src/module_{i}.py"), "line": i}))
            .collect();
        let mut v = json!({"items": items.clone(), "total": 200});
        let mut report = Report::default();
        fit_budget(&mut v, 2000, &mut report);
        assert!(size(&v) <= 2000);
        let kept = v["items"].as_array().unwrap().len();
        assert_eq!(
            report.cuts,
            vec![Cut {
                path: "items".into(),
                kept,
                total: 200
            }]
        );
        let one_more = json!({"items": items[..=kept], "total": 200});
        assert!(
            size(&one_more) > 2000,
            "{kept} items kept, but {} would fit",
            kept + 1
        );
        assert_eq!(
            v["items"][0]["path"], "src/module_0.py",
            "cuts keep the head of a list"
        );
    }

    #[test]
    fn nested_arrays_and_long_strings_are_cut_until_the_budget_holds() {
        let files: Vec<Value> = (0..40)
            .map(|i| json!({"path": format!("f{i}.py"), "symbols": (0..30).map(|j| format!("sym_{i}_{j}")).collect::<Vec<_>>(), "doc": "d".repeat(300)}))
            .collect();
        let mut v = json!({"files": files});
        let mut report = Report::default();
        fit_budget(&mut v, 1500, &mut report);
        assert!(size(&v) <= 1500, "{} > 1500", size(&v));
        assert!(report.truncated());
        for cut in &report.cuts {
            assert!(cut.kept >= 1 && cut.kept < cut.total, "{cut:?}");
        }
    }

    #[test]
    fn arrays_and_strings_under_keys_with_dots_or_brackets_are_cut_too() {
        // Backends key maps by file path; a path-shaped key must not hide its array from the cut.
        let rows: Vec<Value> = (0..50)
            .map(|i| json!({"line": i, "rule": "S324"}))
            .collect();
        let mut v = json!({"by_path": {"src/a.py": rows, "b[1].md": "x".repeat(900)}});
        let mut report = Report::default();
        fit_budget(&mut v, 600, &mut report);
        assert!(size(&v) <= 600, "{} > 600: {v}", size(&v));
        let kept = v["by_path"]["src/a.py"].as_array().map_or(0, Vec::len);
        assert!((1..50).contains(&kept), "kept {kept}");
        assert!(
            report
                .cuts
                .iter()
                .any(|c| c.path == "by_path.src/a.py" && c.kept == kept && c.total == 50),
            "{:?}",
            report.cuts
        );
        assert_eq!(report.strings_shortened(), 1, "{report:?}");
    }

    #[test]
    fn a_string_dropped_with_its_item_is_not_counted_as_shortened() {
        // max_string (20) shortens item 15's doc; the budget then drops items 10 to 19.
        let items: Vec<Value> = (0..20)
            .map(|i| json!({"id": i, "doc": if i == 15 { "d".repeat(200) } else { "short".to_owned() }}))
            .collect();
        let (mut v, mut report) = shape(json!({"items": items}), &spec(&[], &[], None));
        assert_eq!(report.strings_shortened(), 1);
        fit_budget(&mut v, 300, &mut report);
        assert!(size(&v) <= 300, "{} > 300: {v}", size(&v));
        let kept = v["items"].as_array().map_or(0, Vec::len);
        assert!(
            kept <= 15,
            "item 15 and its shortened doc are gone: kept {kept}"
        );
        assert_eq!(report.strings_shortened(), 0, "{report:?}");
    }
}
