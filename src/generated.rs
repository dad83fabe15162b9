//! The registry and typed handlers generated from manifest/*.yaml by build.rs (see codegen/).
//! Read the expanded code with `cargo expand generated` or in target/*/build/nexus-mcp-*/out/.

include!(concat!(env!("OUT_DIR"), "/surfaces.rs"));
