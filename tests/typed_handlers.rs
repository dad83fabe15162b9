//! The generated `CustomHandlers` trait is the compile-time contract of custom tools: an impl
//! that forgets a tool or takes the wrong input type does not build, a complete one builds with
//! `#![deny(warnings)]`. The expected compiler output is pinned in tests/trybuild/*.stderr
//! (regenerate with `TRYBUILD=overwrite cargo test --test typed_handlers` and review the diff).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[test]
fn custom_handlers_are_type_checked() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/trybuild/*.rs");
    cases.pass("tests/trybuild/pass/*.rs");
}
