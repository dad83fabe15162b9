//! Python source roots, found the way Python finds packages: a project is a directory holding
//! `pyproject.toml`, `setup.cfg` or `setup.py` (and the repository root); its source roots are
//! the package directories it declares (setuptools, poetry, hatch, flit, setup.cfg, a literal
//! `package_dir` in setup.py, never executed), else a `src/` layout, else the project itself.
//! A module is named relative to its source root, so `proj/src/pkg/core.py` is `pkg.core`.

use super::{module_name, read_project_file};
use regex::Regex;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;
use std::sync::LazyLock;

/// The files that make a directory a Python project.
const PROJECT_FILES: [&str; 3] = ["pyproject.toml", "setup.cfg", "setup.py"];

/// A source root: the directory whose children are top-level modules, and the package name
/// that directory stands for (`""` for a root; `pkg` for setuptools' `package-dir = {pkg =
/// "lib"}`).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Root {
    dir: String,
    prefix: String,
}

#[derive(Debug)]
struct Project {
    dir: String,
    /// Longest directory first.
    roots: Vec<Root>,
}

/// The projects of one work tree, deepest directory first (the repository root, `""`, last).
#[derive(Debug)]
pub(super) struct Roots {
    projects: Vec<Project>,
    /// Project directory -> index in `projects` (a file finds its project by its parents).
    by_dir: HashMap<String, usize>,
}

/// Where a Python file sits: its project (an index, stable for one run), its module name and
/// the other names an import may use for it (its path name, its name within the project).
pub(super) struct Placement {
    pub(super) project: usize,
    pub(super) module: String,
    pub(super) aliases: Vec<String>,
}

fn within(path: &str, dir: &str) -> Option<String> {
    if dir.is_empty() {
        return Some(path.to_string());
    }
    path.strip_prefix(dir)
        .and_then(|r| r.strip_prefix('/'))
        .map(str::to_string)
}

fn join(dir: &str, rel: &str) -> String {
    let rel = rel.trim().trim_start_matches("./").trim_end_matches('/');
    match (dir.is_empty(), rel.is_empty() || rel == ".") {
        (_, true) => dir.to_string(),
        (true, false) => rel.to_string(),
        (false, false) => format!("{dir}/{rel}"),
    }
}

/// `prefix` + the dotted module of `rel` (a path inside the root); `None` for the `__init__.py`
/// of a root that is itself a package folder without a name (it keeps its path name).
fn dotted(prefix: &str, rel: &str) -> Option<String> {
    let m = module_name(rel);
    match (prefix.is_empty(), m.as_str()) {
        (true, "__init__") => None,
        (true, _) => Some(m),
        (false, "__init__") => Some(prefix.to_string()),
        (false, _) => Some(format!("{prefix}.{m}")),
    }
}

impl Roots {
    /// Reads the project files among `files` (tracked paths) under the work tree `root`.
    pub(super) fn detect(root: &Path, files: &[String]) -> Roots {
        let mut configs: BTreeMap<String, Vec<(&str, String)>> = BTreeMap::new();
        for f in files {
            let (dir, name) = f.rsplit_once('/').unwrap_or(("", f.as_str()));
            if !PROJECT_FILES.contains(&name) {
                continue;
            }
            let text = read_project_file(&root.join(f)).unwrap_or_default();
            configs
                .entry(dir.to_string())
                .or_default()
                .push((name, text));
        }
        let mut python: Vec<&str> = files
            .iter()
            .map(String::as_str)
            .filter(|f| f.ends_with(".py"))
            .collect();
        python.sort_unstable(); // for the prefix search of `src/` layouts
        let tracked: HashSet<&str> = python.iter().copied().collect();
        let mut projects: Vec<Project> = configs
            .iter()
            .map(|(dir, cfgs)| Project {
                dir: dir.clone(),
                roots: project_roots(dir, cfgs, &python, &tracked),
            })
            .collect();
        if !configs.contains_key("") {
            // No project files at the top: path names, as before source roots were read.
            projects.push(Project {
                dir: String::new(),
                roots: vec![Root {
                    dir: String::new(),
                    prefix: String::new(),
                }],
            });
        }
        projects.sort_by(|a, b| {
            let depth = |d: &str| {
                if d.is_empty() {
                    0
                } else {
                    d.matches('/').count() + 1
                }
            };
            depth(&b.dir).cmp(&depth(&a.dir)).then(a.dir.cmp(&b.dir))
        });
        for p in &mut projects {
            p.roots
                .sort_by(|a, b| b.dir.len().cmp(&a.dir.len()).then(a.dir.cmp(&b.dir)));
            p.roots.dedup();
        }
        let by_dir = projects
            .iter()
            .enumerate()
            .map(|(i, p)| (p.dir.clone(), i))
            .collect();
        Roots { projects, by_dir }
    }

    /// The deepest project directory above `path` (its index).
    fn project_of(&self, path: &str) -> Option<usize> {
        let mut dir = path;
        loop {
            dir = dir.rsplit_once('/').map_or("", |(d, _)| d);
            if let Some(i) = self.by_dir.get(dir) {
                return Some(*i);
            }
            if dir.is_empty() {
                return None;
            }
        }
    }

    /// The project of `path` (the deepest project directory above it) and its module names.
    pub(super) fn place(&self, path: &str) -> Placement {
        let found = self.project_of(path).and_then(|i| {
            let p = self.projects.get(i)?;
            within(path, &p.dir).map(|rel| (i, p, rel))
        });
        let Some((project, p, in_project)) = found else {
            return Placement {
                project: self.projects.len(),
                module: module_name(path),
                aliases: Vec::new(),
            };
        };
        let path_name = module_name(path);
        let module = p
            .roots
            .iter()
            .find_map(|r| within(path, &r.dir).and_then(|rel| dotted(&r.prefix, &rel)))
            .unwrap_or_else(|| path_name.clone());
        let mut aliases = Vec::new();
        for alt in [path_name, module_name(&in_project)] {
            if alt != module && !aliases.contains(&alt) {
                aliases.push(alt);
            }
        }
        Placement {
            project,
            module,
            aliases,
        }
    }
}

/// The source roots of the project in `dir` from its project files (`(file name, text)`).
fn project_roots(
    dir: &str,
    cfgs: &[(&str, String)],
    python: &[&str],
    tracked: &HashSet<&str>,
) -> Vec<Root> {
    let mut declared: Vec<(String, String)> = Vec::new(); // (relative dir, prefix)
    for (name, text) in cfgs {
        match *name {
            "pyproject.toml" => declared.extend(pyproject_roots(text, dir, tracked)),
            "setup.cfg" => declared.extend(setup_cfg_roots(text)),
            _ => declared.extend(setup_py_roots(text)),
        }
    }
    if declared.is_empty() {
        let src = join(dir, "src");
        let prefix = format!("{src}/");
        let first = python.partition_point(|f| *f < prefix.as_str());
        let src_layout = !tracked.contains(format!("{src}/__init__.py").as_str())
            && python.get(first).is_some_and(|f| f.starts_with(&prefix));
        declared.push((
            if src_layout { "src" } else { "" }.to_string(),
            String::new(),
        ));
    }
    declared
        .into_iter()
        .map(|(rel, prefix)| Root {
            dir: join(dir, &rel),
            prefix,
        })
        .collect()
}

fn toml_strs(v: Option<&toml::Value>) -> Vec<String> {
    match v {
        Some(toml::Value::String(s)) => vec![s.clone()],
        Some(toml::Value::Array(a)) => a
            .iter()
            .filter_map(|x| x.as_str().map(str::to_string))
            .collect(),
        _ => Vec::new(),
    }
}

fn at<'a>(t: &'a toml::Table, keys: &[&str]) -> Option<&'a toml::Value> {
    let (first, rest) = keys.split_first()?;
    let mut cur = t.get(*first)?;
    for k in rest {
        cur = cur.as_table()?.get(*k)?;
    }
    Some(cur)
}

/// `pyproject.toml`: setuptools `package-dir` and `packages.find.where`, poetry `packages`
/// (`from`), PDM `package-dir`, maturin `python-source`, hatch wheel `packages` (the parent of
/// each), flit's module (in `src/` or not).
fn pyproject_roots(text: &str, dir: &str, tracked: &HashSet<&str>) -> Vec<(String, String)> {
    let table = match text.parse::<toml::Table>() {
        Ok(t) => t,
        Err(e) => {
            tracing::debug!(dir, error = %e, "pyproject.toml not parsed; its roots are not read");
            return Vec::new();
        }
    };
    let mut out = Vec::new();
    if let Some(map) = at(&table, &["tool", "setuptools", "package-dir"]).and_then(|v| v.as_table())
    {
        for (pkg, d) in map {
            if let Some(d) = d.as_str() {
                out.push((d.to_string(), pkg.clone()));
            }
        }
    }
    for w in toml_strs(at(
        &table,
        &["tool", "setuptools", "packages", "find", "where"],
    )) {
        out.push((w, String::new()));
    }
    if let Some(pkgs) = at(&table, &["tool", "poetry", "packages"]).and_then(|v| v.as_array()) {
        for p in pkgs {
            let from = p.get("from").and_then(|f| f.as_str()).unwrap_or("");
            out.push((from.to_string(), String::new()));
        }
    }
    // PDM's `package-dir` and maturin's `python-source` name the root folder itself.
    for key in [
        &["tool", "pdm", "build", "package-dir"][..],
        &["tool", "maturin", "python-source"],
    ] {
        out.extend(
            toml_strs(at(&table, key))
                .into_iter()
                .map(|d| (d, String::new())),
        );
    }
    for p in toml_strs(at(
        &table,
        &["tool", "hatch", "build", "targets", "wheel", "packages"],
    )) {
        let parent = p
            .trim_end_matches('/')
            .rsplit_once('/')
            .map_or("", |(d, _)| d);
        out.push((parent.to_string(), String::new()));
    }
    let flit = at(&table, &["tool", "flit", "module", "name"])
        .or_else(|| {
            let backend = at(&table, &["build-system", "build-backend"])?.as_str()?;
            backend
                .starts_with("flit")
                .then(|| at(&table, &["project", "name"]))
                .flatten()
        })
        .and_then(|v| v.as_str())
        .map(|n| n.replace(['-', '.'], "_"));
    if let Some(m) = flit {
        let in_src = [format!("src/{m}/__init__.py"), format!("src/{m}.py")]
            .iter()
            .any(|p| tracked.contains(join(dir, p).as_str()));
        out.push((if in_src { "src" } else { "" }.to_string(), String::new()));
    }
    out
}

/// A minimal INI reader (what setuptools reads from setup.cfg): `[section]`, `key = value` or
/// `key: value`, indented continuation lines, `#`/`;` comments. Keys are (section, key).
fn ini(text: &str) -> BTreeMap<(String, String), String> {
    let mut out: BTreeMap<(String, String), String> = BTreeMap::new();
    let mut section = String::new();
    let mut last: Option<(String, String)> = None;
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with(['#', ';']) {
            continue;
        }
        if line.starts_with([' ', '\t']) {
            if let Some(v) = last.as_ref().and_then(|k| out.get_mut(k)) {
                v.push('\n');
                v.push_str(trimmed);
            }
            continue;
        }
        if let Some(name) = trimmed.strip_prefix('[').and_then(|s| s.strip_suffix(']')) {
            section = name.trim().to_string();
            last = None;
            continue;
        }
        let split = trimmed.find(['=', ':']);
        if let Some(i) = split {
            let key = (section.clone(), trimmed[..i].trim().to_string());
            out.insert(key.clone(), trimmed[i + 1..].trim().to_string());
            last = Some(key);
        }
    }
    out
}

/// setup.cfg: `[options] package_dir` (`=src`, `pkg = lib`) and `[options.packages.find]
/// where`.
fn setup_cfg_roots(text: &str) -> Vec<(String, String)> {
    let cfg = ini(text);
    let mut out = Vec::new();
    if let Some(v) = cfg.get(&("options".to_string(), "package_dir".to_string())) {
        for entry in v.split(['\n', ',']) {
            if let Some((pkg, d)) = entry.split_once('=') {
                out.push((d.trim().to_string(), pkg.trim().to_string()));
            }
        }
    }
    if let Some(v) = cfg.get(&("options.packages.find".to_string(), "where".to_string())) {
        out.extend(
            v.split(['\n', ','])
                .map(str::trim)
                .filter(|w| !w.is_empty())
                .map(|w| (w.to_string(), String::new())),
        );
    }
    out
}

static SETUP_PY_ROOT: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(
        r#"package_dir\s*=\s*\{\s*(?:""|'')\s*:\s*["']([^"']+)["']|find(?:_namespace)?_packages\(\s*(?:where\s*=\s*)?["']([^"']+)["']"#,
    )
    .ok()
});

/// setup.py, read by a pattern and never executed: `package_dir={"": "src"}` and
/// `find_packages("src")` / `find_packages(where="src")`.
fn setup_py_roots(text: &str) -> Vec<(String, String)> {
    let Some(re) = SETUP_PY_ROOT.as_ref() else {
        return Vec::new();
    };
    re.captures_iter(text)
        .filter_map(|c| c.get(1).or_else(|| c.get(2)))
        .map(|m| (m.as_str().to_string(), String::new()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roots_of(files: &[(&str, &str)]) -> Roots {
        super::super::detect_in(files, Roots::detect)
    }

    #[test]
    fn layouts_name_modules_from_their_roots() {
        let r = roots_of(&[
            (
                "a/pyproject.toml",
                "[tool.setuptools]\npackage-dir = {\"\" = \"lib\"}\n",
            ),
            ("a/lib/pkg/core.py", ""),
            ("a/tests/test_core.py", ""),
            (
                "b/setup.cfg",
                "[metadata]\nname = b\n\n[options]\npackage_dir =\n    = source\n",
            ),
            ("b/source/bpkg/__init__.py", ""),
            (
                "c/setup.py",
                "from setuptools import setup\nsetup(package_dir={'': 'code'})\n",
            ),
            ("c/code/cpkg/m.py", ""),
            ("d/pyproject.toml", "[tool.ruff]\nline-length = 99\n"),
            ("d/src/dpkg/x.py", ""),
            (
                "e/pyproject.toml",
                "[tool.poetry]\npackages = [{ include = \"epkg\", from = \"py\" }]\n",
            ),
            ("e/py/epkg/y.py", ""),
            (
                "f/pyproject.toml",
                "[tool.hatch.build.targets.wheel]\npackages = [\"pysrc/fpkg\"]\n",
            ),
            ("f/pysrc/fpkg/z.py", ""),
            ("g/setup.cfg", "[options.packages.find]\nwhere = lib\n"),
            ("g/lib/gpkg/w.py", ""),
            (
                "h/pyproject.toml",
                "[tool.setuptools.package-dir]\nhpkg = \"hsrc\"\n",
            ),
            ("h/hsrc/__init__.py", ""),
            ("h/hsrc/v.py", ""),
            (
                "j/pyproject.toml",
                "[tool.maturin]\npython-source = \"python\"\n",
            ),
            ("j/python/jpkg/__init__.py", ""),
            (
                "l/pyproject.toml",
                "[tool.pdm.build]\npackage-dir = \"pysrc\"\n",
            ),
            ("l/pysrc/lpkg/m.py", ""),
            ("top.py", ""),
            ("src/legacy.py", ""),
            ("i/setup.cfg", "[options]\npackage_dir =\n    = lib\n"),
            ("i/lib/__init__.py", ""),
        ]);
        let name = |p: &str| r.place(p).module;
        assert_eq!(name("a/lib/pkg/core.py"), "pkg.core");
        assert_eq!(name("a/tests/test_core.py"), "a.tests.test_core");
        assert_eq!(name("b/source/bpkg/__init__.py"), "bpkg");
        assert_eq!(name("c/code/cpkg/m.py"), "cpkg.m");
        assert_eq!(name("d/src/dpkg/x.py"), "dpkg.x");
        assert_eq!(name("e/py/epkg/y.py"), "epkg.y");
        assert_eq!(name("f/pysrc/fpkg/z.py"), "fpkg.z");
        assert_eq!(name("g/lib/gpkg/w.py"), "gpkg.w");
        assert_eq!(name("h/hsrc/__init__.py"), "hpkg");
        assert_eq!(name("h/hsrc/v.py"), "hpkg.v");
        // No project file at the top: path names, as before.
        assert_eq!(name("top.py"), "top");
        assert_eq!(name("src/legacy.py"), "src.legacy");
        assert_eq!(name("i/lib/__init__.py"), "i.lib");
        assert_eq!(name("j/python/jpkg/__init__.py"), "jpkg");
        assert_eq!(name("l/pysrc/lpkg/m.py"), "lpkg.m");
        let a = r.place("a/tests/test_core.py");
        assert!(a.aliases.contains(&"tests.test_core".to_string()));
        assert_ne!(a.project, r.place("b/source/bpkg/__init__.py").project);
    }

    #[test]
    fn a_flat_project_is_its_own_root_and_a_broken_pyproject_falls_back() {
        let r = roots_of(&[
            ("proj/pyproject.toml", "this is not toml ["),
            ("proj/pkg/core.py", ""),
            ("proj/src/__init__.py", ""),
            ("proj/src/x.py", ""),
        ]);
        assert_eq!(r.place("proj/pkg/core.py").module, "pkg.core");
        assert_eq!(r.place("proj/src/x.py").module, "src.x");
    }

    #[test]
    fn ini_reads_sections_keys_and_continuations() {
        let cfg =
            ini("[options]\n# c\npackage_dir =\n    =src\n    other = lib\nzip_safe: false\n");
        assert_eq!(
            cfg.get(&("options".into(), "package_dir".into()))
                .map(String::as_str),
            Some("\n=src\nother = lib")
        );
        assert_eq!(
            cfg.get(&("options".into(), "zip_safe".into()))
                .map(String::as_str),
            Some("false")
        );
        assert_eq!(
            setup_cfg_roots("[options]\npackage_dir =\n    =src\n    other = lib\n"),
            vec![("src".into(), "".into()), ("lib".into(), "other".into())]
        );
    }
}
