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
    pub strings_shortened: usize,
    pub redacted: usize,
}

impl Report {
    pub fn truncated(&self) -> bool {
        !self.cuts.is_empty() || self.strings_shortened > 0
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
    cap(&mut value, spec, &mut String::new(), &mut report);
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

fn cap(value: &mut Value, spec: &ResponseSpec, path: &mut String, report: &mut Report) {
    match value {
        Value::Array(items) => {
            if let Some(max) = spec.max_items
                && items.len() > max
            {
                report.cuts.push(Cut {
                    path: path.clone(),
                    kept: max,
                    total: items.len(),
                });
                items.truncate(max);
            }
            for (i, item) in items.iter_mut().enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                cap(item, spec, path, report);
                path.truncate(len);
            }
        }
        Value::Object(map) => {
            for (key, item) in map.iter_mut() {
                let len = path.len();
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(key);
                cap(item, spec, path, report);
                path.truncate(len);
            }
        }
        Value::String(s) => {
            if let Some(max) = spec.max_string
                && shorten(s, max)
            {
                report.strings_shortened += 1;
            }
        }
        _ => {}
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
        let mut biggest: Option<(String, usize)> = None;
        largest_array(value, &mut String::new(), &mut biggest);
        if let Some((path, _)) = biggest {
            cut_array(value, &path, total - budget, report);
            continue;
        }
        if !shorten_longest_string(value, report) {
            return;
        }
    }
}

fn largest_array(value: &Value, path: &mut String, best: &mut Option<(String, usize)>) {
    match value {
        Value::Array(items) => {
            let s = size(value);
            if items.len() > 1 && best.as_ref().is_none_or(|(_, b)| s > *b) {
                *best = Some((path.clone(), s));
            }
            for (i, item) in items.iter().enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                largest_array(item, path, best);
                path.truncate(len);
            }
        }
        Value::Object(map) => {
            for (key, item) in map {
                let len = path.len();
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(key);
                largest_array(item, path, best);
                path.truncate(len);
            }
        }
        _ => {}
    }
}

/// Drops the tail of the array at `path` until `excess` characters are gone, keeping at least
/// one item: an array's items add up, so this keeps as many as the budget allows.
fn cut_array(value: &mut Value, path: &str, excess: usize, report: &mut Report) {
    let Some(Value::Array(items)) = lookup_mut(value, path) else {
        return;
    };
    let total = items.len();
    let (mut kept, mut freed) = (total, 0);
    while kept > 1 && freed < excess {
        kept -= 1;
        // The item and the comma before it.
        freed += size(&items[kept]) + 1;
    }
    items.truncate(kept);
    // Cuts inside the dropped items are gone with them.
    report
        .cuts
        .retain(|c| !inside_dropped_item(&c.path, path, kept));
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

/// Resolves a path as written in [`Cut::path`] (`items[3].symbols`).
fn lookup_mut<'a>(value: &'a mut Value, path: &str) -> Option<&'a mut Value> {
    let mut node = value;
    for part in path.split('.').filter(|p| !p.is_empty()) {
        let (key, indexes) = match part.find('[') {
            Some(at) => (&part[..at], &part[at..]),
            None => (part, ""),
        };
        if !key.is_empty() {
            node = node.get_mut(key)?;
        }
        for index in indexes.split(['[', ']']).filter(|s| !s.is_empty()) {
            node = node.get_mut(index.parse::<usize>().ok()?)?;
        }
    }
    Some(node)
}

fn shorten_longest_string(value: &mut Value, report: &mut Report) -> bool {
    fn longest(value: &mut Value) -> Option<&mut String> {
        match value {
            Value::String(s) => Some(s),
            Value::Array(items) => items.iter_mut().filter_map(longest).max_by_key(|s| s.len()),
            Value::Object(map) => map.values_mut().filter_map(longest).max_by_key(|s| s.len()),
            _ => None,
        }
    }
    match longest(value) {
        Some(s) if s.chars().count() > 64 => {
            let half = (s.chars().count() / 2).max(64);
            shorten(s, half);
            report.strings_shortened += 1;
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
            redact: &[],
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
        assert_eq!(report.strings_shortened, 1);
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
}
