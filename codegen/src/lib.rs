//! nexus-mcp-codegen turns manifest/*.yaml into Rust: typed tool inputs and outputs, a
//! custom-handler trait, and the static registry the nexus-mcp runtime is driven by.
//! Its API: [`parse`] checks one manifest's text (every problem at file:line:column), [`load`]
//! reads a directory of them, [`build`] writes the generated Rust (what build.rs calls), and
//! [`surface`] builds a manifest's registry value: the build bakes it, `--manifest` serves it.

mod bake;
pub mod budget;
mod checker;
mod emit;
pub mod emit_capabilities;
pub mod envelope;
pub mod error;
pub mod include;
mod locate;
pub mod model;
mod naming;
pub mod portable;
pub mod schema;
mod settings;
mod surface;
mod validate;
mod validate_capabilities;
mod validate_resources;

pub use error::{CodegenError, ManifestError};
/// [`load`] under its former name (codegen/tests/generated.rs reads the manifests with it).
pub use load as load_dir;
pub use model::Manifest;
pub use settings::Settings;
pub use surface::surface;

use quote::{format_ident, quote};
use std::path::{Path, PathBuf};

/// A manifest file, read and checked.
#[derive(Debug, Clone)]
pub struct LoadedManifest {
    pub path: PathBuf,
    pub manifest: Manifest,
}

/// Parses and checks one manifest's text; `path` is used in messages only.
pub fn parse(path: &Path, source: &str) -> Result<Manifest, Vec<ManifestError>> {
    let mut manifest: Manifest = yaml_serde::from_str(source).map_err(|e| {
        let (line, column) = e
            .location()
            .map_or((1, 1), |l| inside(source, l.line(), l.column()));
        let (subject, message) = name_subject(source, &strip_location(&e.to_string()));
        vec![ManifestError {
            file: path.to_owned(),
            line,
            column,
            subject,
            message: format!("{message}. See manifest/README.md for the keys a manifest accepts."),
        }]
    })?;
    let mut errors = include::expand(path, source, &mut manifest);
    errors.extend(validate::check(path, source, &manifest));
    if errors.is_empty() {
        Ok(manifest)
    } else {
        Err(errors)
    }
}

/// The position clamped into `source`: the YAML scanner reports an unexpected end of input on
/// the line after the last one, which an editor cannot jump to.
fn inside(source: &str, line: usize, column: usize) -> (usize, usize) {
    let lines: Vec<&str> = source.split('\n').collect();
    match lines.get(line.max(1) - 1) {
        Some(text) => (line.max(1), column.clamp(1, text.chars().count() + 1)),
        None => {
            let last = lines.last().map_or(0, |l| l.chars().count());
            (lines.len(), last + 1)
        }
    }
}

/// yaml_serde writes " at line L column C" after the problem (twice when it names what it was
/// scanning); we print the position up front instead.
fn strip_location(message: &str) -> String {
    let mut out = message.to_owned();
    while let Some(at) = out.find(" at line ") {
        let rest = &out[at + " at line ".len()..];
        let digits = |s: &str| s.len() - s.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let line_len = digits(rest);
        let Some(after) = rest[line_len..].strip_prefix(" column ") else {
            break;
        };
        let end = at + " at line ".len() + line_len + " column ".len() + digits(after);
        out.replace_range(at..end, "");
    }
    out
}

/// yaml_serde says where it failed as a path (`tools[1].nexus: unknown field ...`); name the
/// tool (prompt, resource, scope) instead, like every other message does. Falls back to the
/// message as is when the entry has no readable name.
fn name_subject(source: &str, message: &str) -> (Option<String>, String) {
    const LISTS: [(&str, &str, &str); 4] = [
        ("tools", "name", "tool"),
        ("prompts", "name", "prompt"),
        ("resources", "uri", "resource"),
        ("scopes", "name", "scope"),
    ];
    for (list, key, label) in LISTS {
        let Some(rest) = message.strip_prefix(list).and_then(|r| r.strip_prefix('[')) else {
            continue;
        };
        let Some((index, rest)) = rest.split_once(']') else {
            continue;
        };
        let Ok(index) = index.parse::<usize>() else {
            continue;
        };
        let at = [
            locate::Step::from(list),
            locate::Step::from(index),
            locate::Step::from(key),
        ];
        let Some(name) = locate::Locator::new(source).scalar(&at) else {
            continue;
        };
        // `: what` for the entry itself, `.nexus: what` for a key inside it.
        let what = rest
            .strip_prefix(": ")
            .or_else(|| rest.strip_prefix('.'))
            .unwrap_or(rest);
        return (Some(format!("{label} `{name}`")), what.to_owned());
    }
    (None, message.to_owned())
}

/// Reads every `*.yaml` manifest in `dir`, sorted by name. `display_root` is the directory paths
/// in messages are relative to (the crate root, so editors can jump to them).
pub fn load(dir: &Path, display_root: &Path) -> Result<Vec<LoadedManifest>, CodegenError> {
    let entries = std::fs::read_dir(dir).map_err(|source| CodegenError::Read {
        path: dir.to_owned(),
        source,
    })?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    paths.sort();
    let mut loaded = Vec::new();
    let mut errors = Vec::new();
    for path in paths {
        let source = std::fs::read_to_string(&path).map_err(|source| CodegenError::Read {
            path: path.clone(),
            source,
        })?;
        let shown = path.strip_prefix(display_root).unwrap_or(&path).to_owned();
        match parse(&shown, &source) {
            Ok(manifest) => loaded.push(LoadedManifest {
                path: shown,
                manifest,
            }),
            Err(mut e) => errors.append(&mut e),
        }
    }
    if errors.is_empty() {
        Ok(loaded)
    } else {
        Err(CodegenError::Manifest(errors))
    }
}

/// The formatted Rust source for all surfaces with the default [`Settings`].
pub fn generate(manifests: &[LoadedManifest]) -> Result<String, CodegenError> {
    generate_with(manifests, &Settings::default())
}

/// The formatted Rust source for all surfaces: one module per surface plus `SURFACES`.
pub fn generate_with(
    manifests: &[LoadedManifest],
    settings: &Settings,
) -> Result<String, CodegenError> {
    let runtime =
        syn::parse_str::<syn::Path>(&settings.runtime_path).map_err(|e| CodegenError::Emit {
            surface: "(settings)".to_owned(),
            message: format!(
                "runtime_path `{}` is not a Rust path: {e}",
                settings.runtime_path
            ),
        })?;
    let modules = manifests
        .iter()
        .map(|m| emit::surface(&m.manifest, &m.path.display().to_string(), &runtime));
    let statics = manifests.iter().map(|m| {
        let module = format_ident!("{}", m.manifest.surface.replace('-', "_"));
        quote!(&#module::SURFACE)
    });
    let tokens = quote! {
        #(#modules)*
        /// Every surface declared under manifest/, in file-name order.
        pub static SURFACES: &[&#runtime::spec::SurfaceSpec] = &[#(#statics),*];
    };
    let file = syn::parse2::<syn::File>(tokens).map_err(|e| CodegenError::Emit {
        surface: manifests
            .iter()
            .map(|m| m.manifest.surface.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        message: e.to_string(),
    })?;
    Ok(prettyplease::unparse(&file))
}

/// What build.rs does: load `manifest_dir`, generate, write `out_file`.
pub fn build(
    manifest_dir: &Path,
    display_root: &Path,
    out_file: &Path,
) -> Result<Vec<PathBuf>, CodegenError> {
    let manifests = load(manifest_dir, display_root)?;
    let source = generate(&manifests)?;
    std::fs::write(out_file, source).map_err(|source| CodegenError::Write {
        path: out_file.to_owned(),
        source,
    })?;
    Ok(manifests
        .iter()
        .map(|m| display_root.join(&m.path))
        .collect())
}
