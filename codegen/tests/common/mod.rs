//! What the manifest-error tests share: the demo manifest they edit, collecting its errors, and
//! checking that the single error points at the right place.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use nexus_mcp_codegen::{ManifestError, parse};
use std::path::Path;

/// The one demo surface, valid as is: the engine tests serve the same file, so every mistake
/// pinned here is an edit of a manifest known to work end to end.
pub const DEMO: &str = include_str!("../../../tests/manifests/demo.yaml");

/// Where DEMO lives, relative to the workspace root: the file messages name.
pub const FILE: &str = "tests/manifests/demo.yaml";

/// `source` with `from` (which must occur exactly once) replaced by `to`.
pub fn edit_in(source: &str, from: &str, to: &str) -> String {
    assert_eq!(source.matches(from).count(), 1, "`{from}` must occur once");
    source.replacen(from, to, 1)
}

/// The errors of `source`, read as `file`, which must fail.
pub fn errors_in(file: &str, source: &str) -> Vec<ManifestError> {
    match parse(Path::new(file), source) {
        Ok(_) => panic!("the manifest was accepted:\n{source}"),
        Err(errors) => errors,
    }
}

/// The single error of `source`, checked to point at `expected_at` in the source.
pub fn only_error_in(file: &str, source: &str, expected_at: &str) -> String {
    let errors = errors_in(file, source);
    assert_eq!(errors.len(), 1, "expected one error, got {errors:#?}");
    points_at(source, &errors[0], expected_at)
}

/// `e` shown, after checking that its line and column point at `expected_at` in `source`.
pub fn points_at(source: &str, e: &ManifestError, expected_at: &str) -> String {
    let line = source.lines().nth(e.line - 1).expect("line exists");
    let at = line.get(e.column - 1..).expect("column exists");
    assert!(
        at.starts_with(expected_at),
        "{}:{} points at `{at}`, expected `{expected_at}`",
        e.line,
        e.column
    );
    e.to_string()
}
