//! Every setting nexus-mcp reads from the environment is also a flag, shown in `--help` with its
//! variable, and the generic description names no surface.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Variables the command line reads that are the system's, not settings of ours.
const SYSTEM: &[&str] = &["HOME", "PATH", "USER", "XDG_CONFIG_HOME"];

/// Where source text names an environment variable it reads.
const READS: &[&str] = &["env::var(\"", "var_os(\"", "env = \"", "from_env(\""];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The variables read by the binary's own code and the engine's.
fn variables_read() -> BTreeSet<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    rust_files(&root.join("runtime/src"), &mut files);
    let mut names = BTreeSet::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for read in READS {
            for (at, _) in text.match_indices(read) {
                let rest = &text[at + read.len()..];
                let name = &rest[..rest.find('"').unwrap()];
                if !SYSTEM.contains(&name) {
                    names.insert(name.to_owned());
                }
            }
        }
    }
    names
}

fn help(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_nexus-mcp"))
        .args(args)
        .arg("--help")
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?} --help failed");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn every_variable_read_is_a_flag_in_help() {
    let names = variables_read();
    for expected in ["NEXUS_API_TOKEN", "NEXUS_MCP_API_KEY", "NEXUS_MCP_LOG"] {
        assert!(
            names.contains(expected),
            "{expected} not found in {names:?}"
        );
    }
    let helps: String = [
        &[][..],
        &["serve"],
        &["call"],
        &["tools"],
        &["contract"],
        &["gate"],
        &["rules"],
        &["status"],
        &["view"],
    ]
    .iter()
    .map(|args| help(args))
    .collect();
    let missing: Vec<&String> = names
        .iter()
        .filter(|name| !helps.contains(&format!("[env: {name}")))
        .collect();
    assert!(
        missing.is_empty(),
        "read from the environment but not a flag in --help: {missing:?}"
    );
}

#[test]
fn secrets_are_not_shown_in_help() {
    let help = Command::new(env!("CARGO_BIN_EXE_nexus-mcp"))
        .args(["serve", "--help"])
        .env("NEXUS_API_TOKEN", "token-in-help")
        .env("NEXUS_MCP_API_KEY", "key-in-help")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&help.stdout);
    assert!(
        text.contains("[env: NEXUS_API_TOKEN]") && text.contains("[env: NEXUS_MCP_API_KEY]"),
        "{text}"
    );
    assert!(
        !text.contains("token-in-help") && !text.contains("key-in-help"),
        "{text}"
    );
}

#[test]
fn the_generic_description_names_no_surface() {
    let about = help(&[]).lines().next().unwrap().to_lowercase();
    for word in ["code", "kg", "knowledge graph", "doc", "rules"] {
        assert!(!about.contains(word), "`{word}` in the about line: {about}");
    }
}

/// A service token so short that cutting its value out of every answer would cut ordinary
/// text (`test` out of `tests/test_x.py`) is refused at start, saying why, and not echoed.
#[test]
fn a_service_token_too_short_to_scrub_is_refused() {
    let out = Command::new(env!("CARGO_BIN_EXE_nexus-mcp"))
        .arg("serve")
        .env("NEXUS_API_URL", "http://127.0.0.1:9")
        .env("NEXUS_API_TOKEN", "tst")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains("NEXUS_API_TOKEN (or --nexus-token) is 3 characters long")
            && stderr.contains("at least 8 characters"),
        "{stderr}"
    );
    assert!(!stderr.contains("tst"), "the token is echoed: {stderr}");
}
