//! nexus-mcp: the command line lives in `nexus_mcp::cli`.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    // SAFETY: first thing in main, before any tree-sitter object exists.
    unsafe { nexus_lite::code::lang::parsers_use_mimalloc() };
    nexus_mcp::cli::main()
}
