//! nexus-mcp: the command line lives in `nexus_mcp::cli`.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    nexus_mcp::cli::main()
}
