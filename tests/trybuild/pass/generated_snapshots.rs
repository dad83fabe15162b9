// Written by codegen/tests/generated.rs (NEXUS_MCP_UPDATE_SNAPSHOTS=1): compiles every pinned
// snapshot of generated Rust with warnings denied, so warning-free output is checked here
// instead of by a `deny` in the generated code itself.
#![deny(warnings)]
// In a binary nothing is exported, so generated items no code here calls would count as
// dead; in the nexus-mcp library they are public.
#![allow(dead_code)]

mod demo {
    include!("../../../codegen/tests/snapshots/demo.rs");
}

mod nexus_code_kg {
    include!("../../../codegen/tests/snapshots/nexus_code_kg.rs");
}

mod nexus_doc_kg {
    include!("../../../codegen/tests/snapshots/nexus_doc_kg.rs");
}

mod nexus_rules {
    include!("../../../codegen/tests/snapshots/nexus_rules.rs");
}

fn main() {
    assert!(!demo::SURFACES.is_empty());
    assert!(!nexus_code_kg::SURFACES.is_empty());
    assert!(!nexus_doc_kg::SURFACES.is_empty());
    assert!(!nexus_rules::SURFACES.is_empty());
}
