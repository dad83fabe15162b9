//! What the manifest-error tests share: edit a manifest text, collect its errors, and check that
//! the single error points at the right place.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use nexus_mcp_codegen::{ManifestError, parse};
use std::path::Path;

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
    let e = &errors[0];
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
