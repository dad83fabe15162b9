//! Manifest → Rust code generator.
