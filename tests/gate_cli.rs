//! `nexus-mcp gate` as CI runs it, on a real git repository with real ruff and bandit: a change
//! adding `shell=True` blocks (exit 1, the violation in the summary and in the SARIF file); the
//! fix passes (exit 0); an unknown base is a usage failure (exit 2), never a pass.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::path::Path;
use std::process::{Command, Output};
use support::fixtures::{SAFE, SHELL, git, put};
use support::spawn::{bin, tool_path};

fn gate(repo: &Path, data: &Path, args: &[&str]) -> Output {
    Command::new(bin())
        .arg("gate")
        .args(args)
        .arg("--repo")
        .arg(repo)
        .arg("--data-dir")
        .arg(data)
        .env("PATH", tool_path())
        .env_remove("NEXUS_API_URL")
        .output()
        .unwrap()
}

fn commit(repo: &Path, body: &str, message: &str) {
    std::fs::write(repo.join("app.py"), body).unwrap();
    git(repo, &["add", "-A"]);
    git(repo, &["commit", "-q", "-m", message]);
}

#[test]
fn a_blocking_change_fails_the_gate_and_its_fix_passes() {
    if !support::analysers_on_path() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("shop");
    let data = tmp.path().join("data");
    std::fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "-q", "-b", "main"]);
    commit(
        &repo,
        "import subprocess\n\n\ndef run(cmd):\n    return subprocess.run([cmd], check=True)\n",
        "base",
    );
    commit(
        &repo,
        "import subprocess\n\n\ndef run(cmd):\n    return subprocess.run(cmd, shell=True, check=True)\n",
        "run through a shell",
    );
    let sarif = tmp.path().join("gate.sarif");
    let out = gate(
        &repo,
        &data,
        &["--base", "HEAD~1", "--head", "HEAD", "--pr", "7", "--sarif"],
    );
    // --sarif takes a value: the call above is a usage error, refused before any analysis.
    assert_eq!(out.status.code(), Some(2), "{out:?}");

    let out = gate(
        &repo,
        &data,
        &[
            "--base",
            "HEAD~1",
            "--head",
            "HEAD",
            "--pr",
            "7",
            "--sarif",
            sarif.to_str().unwrap(),
        ],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("FAILED"), "{stdout}");
    assert!(stdout.contains("app.py:5  bandit:B602"), "{stdout}");
    let log: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&sarif).unwrap()).unwrap();
    assert_eq!(log["version"], "2.1.0");
    let results: Vec<&serde_json::Value> = log["runs"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["results"].as_array().unwrap())
        .collect();
    let b602 = results
        .iter()
        .find(|r| r["ruleId"] == "bandit:B602")
        .unwrap_or_else(|| panic!("no bandit:B602 in {log:#}"));
    assert_eq!(b602["level"], "error");
    assert_eq!(
        b602["locations"][0]["physicalLocation"]["region"]["startLine"],
        5
    );

    commit(
        &repo,
        "import subprocess\n\n\ndef run(cmd):\n    return subprocess.run([cmd], check=True)\n",
        "no shell",
    );
    let out = gate(
        &repo,
        &data,
        &["--base", "HEAD~1", "--head", "HEAD", "--json"],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let record: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert!(!stdout.contains("B602"), "{stdout}");
    assert_eq!(record["detailComplete"], true, "{record:#}");

    let out = gate(&repo, &data, &["--base", "no-such-ref", "--head", "HEAD"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}

fn commit_all(repo: &Path, message: &str) {
    git(repo, &["add", "-A"]);
    git(repo, &["commit", "-q", "-m", message]);
}

/// A repository whose base commit has app.py without a shell; `prepare` adds to it first.
fn shop(dir: &Path, prepare: impl Fn(&Path)) -> std::path::PathBuf {
    let repo = dir.join("shop");
    std::fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "-q", "-b", "main"]);
    put(&repo, "app.py", SAFE);
    prepare(&repo);
    commit_all(&repo, "base");
    repo
}

/// The gate on one commit over `shop`: `change` edits the work tree, the edit is committed and
/// the gate runs on HEAD~1..HEAD. Its output, its text, and the directory that holds both.
fn gate_one_commit(change: impl FnOnce(&Path)) -> (Output, String, tempfile::TempDir) {
    let tmp = tempfile::tempdir().unwrap();
    let repo = shop(tmp.path(), |_| {});
    change(&repo);
    commit_all(&repo, "the change");
    let out = gate(
        &repo,
        &tmp.path().join("data"),
        &["--base", "HEAD~1", "--head", "HEAD"],
    );
    let stdout = text(&out);
    (out, stdout, tmp)
}

fn text(out: &Output) -> String {
    format!(
        "{}\n--- stderr:\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The attack: the repository marks Python files binary (`-diff` or `binary`, in the change,
/// at base or in `$GIT_DIR/info/attributes`) and bends git's diff settings, so `git diff`
/// printed "Binary files differ", every finding landed "on unchanged lines" and the gate
/// PASSED a shell=True. Each way now fails the gate on the new line, and a changed
/// `.gitattributes` is listed for review.
#[test]
fn git_attributes_and_diff_settings_do_not_hide_a_change_from_the_gate() {
    if !support::analysers_on_path() {
        return;
    }
    type Setup = fn(&Path);
    let cases: [(&str, Setup, Setup); 3] = [
        (
            "`*.py -diff` committed with the change",
            |_| {},
            |repo| put(repo, ".gitattributes", "*.py -diff\n"),
        ),
        (
            "`*.py binary` at base",
            |repo| put(repo, ".gitattributes", "*.py binary\n"),
            |_| {},
        ),
        (
            "$GIT_DIR/info/attributes and the repository's diff config",
            |_| {},
            |repo| {
                put(repo, ".git/info/attributes", "*.py binary diff=hide\n");
                for (key, value) in [
                    ("diff.noprefix", "true"),
                    ("diff.mnemonicPrefix", "true"),
                    ("diff.renames", "false"),
                    ("diff.external", "true"),
                    ("diff.hide.binary", "true"),
                    ("diff.hide.textconv", "true"),
                    ("core.quotePath", "false"),
                    // Files over the threshold are diffed as binary.
                    ("core.bigFileThreshold", "1"),
                ] {
                    git(repo, &["config", key, value]);
                }
            },
        ),
    ];
    for (what, at_base, with_change) in cases {
        let tmp = tempfile::tempdir().unwrap();
        let repo = shop(tmp.path(), at_base);
        put(&repo, "app.py", SHELL);
        with_change(&repo);
        commit_all(&repo, "run through a shell");
        let out = gate(
            &repo,
            &tmp.path().join("data"),
            &["--base", "HEAD~1", "--head", "HEAD"],
        );
        let stdout = text(&out);
        assert_eq!(out.status.code(), Some(1), "{what}: {stdout}");
        assert!(stdout.contains("app.py:5  bandit:B602"), "{what}: {stdout}");
        assert!(!stdout.contains("PASSED"), "{what}: {stdout}");
        if what.contains("with the change") {
            assert!(
                stdout.contains("gitAttributes config:.gitattributes"),
                "{what}: {stdout}"
            );
        }
    }
}

/// The attack: a file name (and so the analysers' messages about it) carrying terminal
/// control sequences: a screen clear, an OSC window title, concealed text and a newline
/// followed by a forged `gate …: PASSED` line. The summary shows them escaped.
#[test]
fn the_summary_prints_hostile_file_names_escaped() {
    if !support::analysers_on_path() {
        return;
    }
    let evil = "x\u{1b}[2J\u{1b}]0;owned\u{7}\r\ngate acme/shop: PASSED\u{1b}[8m\u{202e}.py";
    let (out, _, _tmp) = gate_one_commit(|repo| put(repo, evil, SHELL));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    for c in ['\u{1b}', '\u{7}', '\r', '\u{202e}'] {
        assert!(!stdout.contains(c), "{c:?} printed raw: {stdout:?}");
    }
    let headlines: Vec<&str> = stdout.lines().filter(|l| l.starts_with("gate ")).collect();
    assert_eq!(headlines.len(), 1, "a forged headline: {stdout}");
    assert!(headlines[0].contains("FAILED"), "{stdout}");
    assert!(
        stdout.contains("x\\u{1b}[2J\\u{1b}]0;owned\\u{7}\\r\\ngate acme/shop: PASSED"),
        "{stdout}"
    );
}

/// Bandit's B105 quotes the hardcoded password it found: the summary, the SARIF file and the
/// JSON record show it redacted, as MCP answers do.
#[test]
fn hardcoded_passwords_bandit_quotes_are_redacted_everywhere_the_gate_writes() {
    if !support::analysers_on_path() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let repo = shop(tmp.path(), |_| {});
    put(
        &repo,
        "settings.py",
        "password = \"Hunter2-Correct-Horse-99\"\n\n\ndef login(user, password=\"Batt3ry-Staple-Pass\"):\n    return user, password\n",
    );
    commit_all(&repo, "settings");
    let sarif = tmp.path().join("gate.sarif");
    let data = tmp.path().join("data");
    let args = ["--base", "HEAD~1", "--head", "HEAD"];
    let summary = gate(
        &repo,
        &data,
        &[&args[..], &["--sarif", sarif.to_str().unwrap()]].concat(),
    );
    let json = gate(&repo, &data, &[&args[..], &["--json"]].concat());
    let summary_text = text(&summary);
    assert!(summary_text.contains("bandit:B105"), "{summary_text}");
    assert!(summary_text.contains("bandit:B107"), "{summary_text}");
    let written = [
        summary_text,
        text(&json),
        std::fs::read_to_string(&sarif).unwrap(),
    ];
    for out in &written {
        for secret in ["Hunter2-Correct-Horse-99", "Batt3ry-Staple-Pass"] {
            assert!(!out.contains(secret), "{secret} in {out}");
        }
    }
}

/// A killed gate leaves its copy of head in the temporary directory: the next gate removes
/// it (it is not locked by a live run), and its own copy is gone when it ends.
#[test]
fn the_next_gate_removes_a_killed_gates_copy_of_head() {
    if !support::analysers_on_path() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let repo = shop(tmp.path(), |_| {});
    put(&repo, "app.py", SAFE.replace("cmd", "command").as_str());
    commit_all(&repo, "rename");
    let scratch = tmp.path().join("tmp");
    let leftover = scratch.join("nexus-gate-KiLLeD");
    put(&leftover, "app.py", "API_KEY = 'copied from head'\n");
    put(&leftover, ".nexus-scratch.lock", "");
    let an_hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    std::fs::File::open(&leftover)
        .unwrap()
        .set_modified(an_hour_ago)
        .unwrap();
    let out = Command::new(bin())
        .args(["gate", "--base", "HEAD~1", "--head", "HEAD", "--repo"])
        .arg(&repo)
        .arg("--data-dir")
        .arg(tmp.path().join("data"))
        .env("PATH", tool_path())
        .env("TMPDIR", &scratch)
        .env_remove("NEXUS_API_URL")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let left: Vec<_> = std::fs::read_dir(&scratch)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n.to_string_lossy().starts_with("nexus-gate-"))
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

/// Found with the test above: git ends a patch header that names a file with a space with a
/// tab, the gate took the tab as part of the name, and every finding in `my app.py` landed
/// "on unchanged lines": a space in a file name passed the gate.
#[test]
fn a_space_in_a_file_name_does_not_hide_its_findings() {
    if !support::analysers_on_path() {
        return;
    }
    let (out, stdout, _tmp) = gate_one_commit(|repo| {
        put(repo, "my app.py", SHELL);
    });
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("my app.py:5  bandit:B602"), "{stdout}");
}

/// A `# nosec` the change adds on its own shell=True line silences bandit: the gate cannot
/// vouch for that line, and says so in the summary, the JSON record and the SARIF log.
#[test]
fn a_suppression_the_change_adds_is_listed_in_every_output() {
    if !support::analysers_on_path() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let repo = shop(tmp.path(), |_| {});
    put(
        &repo,
        "app.py",
        &SHELL.replace("check=True)", "check=True)  # nosec B602"),
    );
    commit_all(&repo, "suppressed");
    let data = tmp.path().join("data");
    let sarif = tmp.path().join("gate.sarif");
    let args = ["--base", "HEAD~1", "--head", "HEAD"];
    let out = gate(
        &repo,
        &data,
        &[&args[..], &["--sarif", sarif.to_str().unwrap()]].concat(),
    );
    let stdout = text(&out);
    assert!(
        !stdout.contains("bandit:B602"),
        "bandit honours it: {stdout}"
    );
    assert!(
        stdout.contains("suppression suppression:app.py:5 (app.py)"),
        "{stdout}"
    );
    let log: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&sarif).unwrap()).unwrap();
    let notes: Vec<&serde_json::Value> = log["runs"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["invocations"][0]["toolConfigurationNotifications"].as_array())
        .flatten()
        .collect();
    assert!(
        notes.iter().any(|n| n["descriptor"]["id"] == "suppression"
            && n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "app.py"),
        "{log:#}"
    );
    let json = gate(&repo, &data, &[&args[..], &["--json"]].concat());
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let listed = v["record"]["unreviewedRules"].as_array().unwrap();
    assert!(
        listed.iter().any(
            |r| r["change"] == "suppression" && r["what"].as_str().unwrap().contains("# nosec")
        ),
        "{v:#}"
    );
}

/// Red team (issue 24, round 2): a file that is a symbolic link at base and a regular file at
/// head is a type change (`T` in `git diff --raw`), which `--diff-filter=ACMR` leaves out: the
/// gate saw "0 file(s) changed" and PASSED a shell=True (two pull requests: one adds the
/// harmless link, the next replaces it with code).
#[test]
fn a_symlink_replaced_by_a_file_is_analysed() {
    if !support::analysers_on_path() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let repo = shop(tmp.path(), |repo| {
        std::fs::remove_file(repo.join("app.py")).unwrap();
        put(repo, "safe.py", SAFE);
        std::os::unix::fs::symlink("safe.py", repo.join("app.py")).unwrap();
    });
    std::fs::remove_file(repo.join("app.py")).unwrap();
    put(&repo, "app.py", SHELL);
    commit_all(&repo, "app.py: a file again, through a shell");
    let out = gate(
        &repo,
        &tmp.path().join("data"),
        &["--base", "HEAD~1", "--head", "HEAD"],
    );
    let stdout = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("app.py:5  bandit:B602"), "{stdout}");
    assert!(!stdout.contains("PASSED"), "{stdout}");
}

/// Red team (issue 24, round 2): a `# nosec` already at base on the first line of a multi-line
/// call covers the whole statement for bandit, and ruff reports S602 on the call's first line:
/// a change to a later line of that call (`shell=False` -> `shell=True`) has its bandit finding
/// silenced by a suppression the change did not add (so none is listed) and its ruff finding
/// "on an unchanged line". The gate PASSED.
#[test]
fn a_base_nosec_on_a_statements_first_line_does_not_hide_a_changed_line_below_it() {
    if !support::analysers_on_path() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let repo = shop(tmp.path(), |repo| {
        put(
            repo,
            "app.py",
            "import subprocess\n\n\ndef run(cmd):\n    return subprocess.run(  # nosec\n        [cmd],\n        shell=False,\n        check=True,\n    )\n",
        );
    });
    put(
        &repo,
        "app.py",
        "import subprocess\n\n\ndef run(cmd):\n    return subprocess.run(  # nosec\n        cmd,\n        shell=True,\n        check=True,\n    )\n",
    );
    commit_all(&repo, "run through a shell");
    let out = gate(
        &repo,
        &tmp.path().join("data"),
        &["--base", "HEAD~1", "--head", "HEAD"],
    );
    let stdout = text(&out);
    assert!(!stdout.contains("PASSED"), "{stdout}");
    assert_ne!(out.status.code(), Some(0), "{stdout}");
}

/// Red team (issue 24, round 2): a change that only deletes lines adds no line, so every
/// finding it causes is "on an unchanged line": deleting `timeout=5,` from a multi-line
/// `requests.get(...)` makes bandit B113 / ruff S113 fire on the call's (unchanged) first
/// line, and the gate PASSED with "no violation on changed lines".
#[test]
fn a_deletion_that_creates_a_finding_is_not_a_pass() {
    if !support::analysers_on_path() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let repo = shop(tmp.path(), |repo| {
        put(
            repo,
            "net.py",
            "import requests\n\n\ndef fetch(url):\n    return requests.get(\n        url,\n        timeout=5,\n    )\n",
        );
    });
    put(
        &repo,
        "net.py",
        "import requests\n\n\ndef fetch(url):\n    return requests.get(\n        url,\n    )\n",
    );
    commit_all(&repo, "no timeout");
    let out = gate(
        &repo,
        &tmp.path().join("data"),
        &["--base", "HEAD~1", "--head", "HEAD"],
    );
    let stdout = text(&out);
    assert!(
        stdout.contains("B113") || stdout.contains("S113"),
        "the finding the deletion causes is not reported: {stdout}"
    );
}

/// Red team (issue 24, round 2): bandit takes `#\s*nosec` followed by anything
/// (`# nosec_reviewed`, `# nosecB602`, `# nosec1` all silence B602), the gate's marker
/// needs a word boundary after `nosec`: the suppression is not listed, the gate PASSED a
/// shell=True with no unreviewed entry, and an agent's pass is witnessed.
#[test]
fn a_nosec_glued_to_more_text_is_listed_as_a_suppression() {
    if !support::analysers_on_path() {
        return;
    }
    for marker in ["# nosec_reviewed", "# nosecB602", "#nosec1"] {
        let (_, stdout, _tmp) = gate_one_commit(|repo| {
            put(
                repo,
                "app.py",
                &SHELL.replace("check=True)", &format!("check=True)  {marker}")),
            );
        });
        assert!(
            !stdout.contains("bandit:B602"),
            "{marker}: bandit honours it: {stdout}"
        );
        assert!(
            stdout.contains("suppression suppression:app.py:5 (app.py)"),
            "{marker}: {stdout}"
        );
    }
}

/// Red team (issue 24, round 2): bandit drops, without a word, files it is named explicitly
/// when a directory on their path is one of its default excludes (`CVS`, `.eggs`, `.tox`,
/// `__pycache__`, `.hg`, `.svn`, `.bzr`): a shell=True in `deploy/CVS/run.py` gave
/// "every analyser ran on every changed file" and PASSED (the same file at `deploy/run.py`
/// fails the gate).
#[test]
fn bandit_default_excludes_do_not_skip_a_changed_file_silently() {
    if !support::analysers_on_path() {
        return;
    }
    for path in ["deploy/CVS/run.py", ".eggs/run.py", "tools/.tox/run.py"] {
        let (out, stdout, _tmp) = gate_one_commit(|repo| {
            put(repo, path, SHELL);
        });
        assert!(!stdout.contains("PASSED"), "{path}: {stdout}");
        assert_ne!(out.status.code(), Some(0), "{path}: {stdout}");
    }
}

/// Red team (issue 24, round 2): Python that is not named `*.py` is not analysed: an executable
/// `bin/deploy` with a `#!/usr/bin/env python3` shebang and a `tool.pyw` carrying shell=True
/// gave "bandit skipped", "every analyser ran on every changed file" and PASSED.
#[test]
fn python_scripts_without_a_py_name_are_analysed() {
    if !support::analysers_on_path() {
        return;
    }
    let script = format!("#!/usr/bin/env python3\n{SHELL}");
    for path in ["bin/deploy", "tool.pyw"] {
        let (out, stdout, _tmp) = gate_one_commit(|repo| {
            put(repo, path, &script);
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                std::fs::set_permissions(repo.join(path), std::fs::Permissions::from_mode(0o755))
                    .unwrap();
            }
        });
        assert!(!stdout.contains("PASSED"), "{path}: {stdout}");
        assert_ne!(out.status.code(), Some(0), "{path}: {stdout}");
    }
}

/// Red team (issue 24, round 2): a backslash in a changed file's name (`back\slash.py`, or a
/// directory `a\b/`): the file is counted ("1 file(s) changed", ruff and bandit "ok") but its
/// findings are lost, and the gate PASSED a shell=True. (The other hostile names tried, with
/// newlines, tabs, quotes, CR, ESC, bidi, ` => ` and leading dashes, are caught.)
#[test]
fn a_backslash_in_a_file_name_does_not_hide_its_findings() {
    if !support::analysers_on_path() {
        return;
    }
    for path in ["back\\slash.py", "a\\b/mod.py"] {
        let (_, stdout, _tmp) = gate_one_commit(|repo| {
            put(repo, path, SHELL);
        });
        assert!(!stdout.contains("PASSED"), "{path}: {stdout}");
        assert!(stdout.contains("bandit:B602"), "{path}: {stdout}");
    }
}

/// Red team (issue 24, round 2): a submodule bump (mode 160000) to a commit adding shell=True
/// is "1 file(s) changed", every tool "skipped", and still "every analyser ran on every
/// changed file: ..." PASSED; nothing says the submodule's new code was not looked at.
#[test]
fn a_submodule_bump_is_not_reported_as_fully_analysed() {
    if !support::analysers_on_path() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let lib = tmp.path().join("lib");
    std::fs::create_dir_all(&lib).unwrap();
    git(&lib, &["init", "-q", "-b", "main"]);
    put(&lib, "lib.py", SAFE);
    commit_all(&lib, "lib");
    let repo = shop(tmp.path(), |_| {});
    let url = lib.to_str().unwrap();
    git(
        &repo,
        &[
            "-c",
            "protocol.file.allow=always",
            "submodule",
            "add",
            "-q",
            url,
            "vendor/lib",
        ],
    );
    commit_all(&repo, "vendor lib");
    put(&lib, "lib.py", SHELL);
    commit_all(&lib, "through a shell");
    let sub = repo.join("vendor/lib");
    git(
        &sub,
        &[
            "-c",
            "protocol.file.allow=always",
            "pull",
            "-q",
            "origin",
            "main",
        ],
    );
    commit_all(&repo, "bump lib");
    let out = gate(
        &repo,
        &tmp.path().join("data"),
        &["--base", "HEAD~1", "--head", "HEAD"],
    );
    let stdout = text(&out);
    assert!(
        !stdout.contains("every analyser ran on every changed file"),
        "{stdout}"
    );
    assert!(!stdout.contains("PASSED"), "{stdout}");
}

/// Red team (issue 24, round 2): Python ends a line at a lone `\r`, git does not. A file
/// written with CR line endings is one line to `git diff` (line 1 changed) and five to bandit,
/// which reports B602 on line 5, "an unchanged line": the gate PASSED a new shell=True.
#[test]
fn cr_line_endings_do_not_put_findings_on_unchanged_lines() {
    if !support::analysers_on_path() {
        return;
    }
    let (out, stdout, _tmp) = gate_one_commit(|repo| {
        put(repo, "app.py", &SHELL.replace('\n', "\r"));
    });
    assert!(stdout.contains("bandit:B602"), "{stdout}");
    assert_eq!(out.status.code(), Some(1), "{stdout}");
}

/// Red team (issue 24, round 2): ruff looks for its configuration in the ancestors of the
/// files it checks, and the gate's copy of head lives in `$TMPDIR`: with no ruff configuration
/// in the repository, a `ruff.toml` in an ancestor of the scratch directory (`/tmp/ruff.toml`
/// by default, writable by every local user on a shared runner) decides what ruff reports.
/// Here it adds S602 and the gate fails; `lint.ignore = ["ALL"]` would silence ruff instead.
#[test]
fn a_ruff_configuration_outside_the_repository_does_not_apply() {
    if !support::analysers_on_path() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let repo = shop(tmp.path(), |_| {});
    put(
        &repo,
        "app.py",
        &SHELL.replace("check=True)", "check=True)  # nosec"),
    );
    commit_all(&repo, "suppressed for bandit");
    let scratch_parent = tmp.path().join("tmp");
    std::fs::create_dir_all(scratch_parent.join("scratch")).unwrap();
    std::fs::write(
        scratch_parent.join("ruff.toml"),
        "[lint]\nselect = [\"S602\"]\n",
    )
    .unwrap();
    let out = Command::new(bin())
        .args(["gate", "--base", "HEAD~1", "--head", "HEAD", "--repo"])
        .arg(&repo)
        .arg("--data-dir")
        .arg(tmp.path().join("data"))
        .env("PATH", tool_path())
        .env("TMPDIR", scratch_parent.join("scratch"))
        .env_remove("NEXUS_API_URL")
        .output()
        .unwrap();
    let stdout = text(&out);
    assert!(!stdout.contains("ruff:S602"), "{stdout}");
}

/// Issue 24, round 2: ruff, like bandit, drops a named file under one of its default excludes
/// (`dist`, `venv`, `node_modules`, ...) without a word (`--force-exclude`): the summary said
/// every analyser ran on every changed file. It is now listed as not checked by ruff.
#[test]
fn ruff_default_excludes_do_not_skip_a_changed_file_silently() {
    if !support::analysers_on_path() {
        return;
    }
    let (_, stdout, _tmp) = gate_one_commit(|repo| {
        put(repo, "dist/tool.py", SAFE);
    });
    assert!(
        !stdout.contains("every analyser ran on every changed file"),
        "{stdout}"
    );
    assert!(
        stdout.contains("ruff ") && stdout.contains("partial"),
        "{stdout}"
    );
    assert!(!stdout.contains("PASSED"), "{stdout}");
}

// --- issue 26: the README's CI job, analysers the repository configures, a checkout's tree ---

/// The gate step of the README's GitHub Actions job, as written: its `run:` command (a folded
/// scalar) with each `${{ … }}` evaluated as Actions does for the event described by `github`
/// (a context Actions leaves undefined, like `vars.*` here, is ""; `a || b` is the first
/// non-empty), run by bash in `checkout` with the step's `env:` evaluated the same way, the
/// runner's own variables, and `nexus-mcp` on PATH.
fn readme_job(checkout: &Path, home: &Path, github: &[(&str, &str)]) -> Output {
    let readme = std::fs::read_to_string(support::root().join("README.md")).unwrap();
    let job = readme
        .split("```yaml\n")
        .find(|b| b.contains("rules-gate:"))
        .and_then(|b| b.split("```").next())
        .expect("the README has the rules-gate job");
    let step = job
        .split_once("- name: nexus-mcp gate\n")
        .expect("the job has its gate step")
        .1;
    let eval = |text: &str| -> String {
        let mut out = String::new();
        let mut rest = text;
        while let Some((before, after)) = rest.split_once("${{") {
            let (expr, tail) = after.split_once("}}").expect("a closed expression");
            out.push_str(before);
            let value = expr
                .split("||")
                .map(|name| {
                    github
                        .iter()
                        .find(|(k, _)| *k == name.trim())
                        .map_or("", |(_, v)| *v)
                })
                .find(|v| !v.is_empty())
                .unwrap_or("");
            out.push_str(value);
            rest = tail;
        }
        out + rest
    };
    let (mut env, mut run, mut in_env, mut in_run) = (Vec::new(), Vec::new(), false, false);
    for line in step.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with("- ") && !in_run {
            break;
        }
        if in_run {
            if line.starts_with("        ") {
                run.push(trimmed);
                continue;
            }
            break;
        }
        match trimmed {
            "env:" => in_env = true,
            "run: >-" => (in_env, in_run) = (false, true),
            kv if in_env => {
                let (k, v) = kv.split_once(": ").expect("KEY: value");
                env.push((k.to_owned(), eval(v)));
            }
            _ => {}
        }
    }
    assert!(!run.is_empty() && !env.is_empty(), "the gate step: {step}");
    let command = eval(&run.join(" "));
    let bin_dir = bin().parent().unwrap().to_path_buf();
    let mut path = std::ffi::OsString::from(bin_dir);
    path.push(":");
    path.push(tool_path());
    let mut cmd = Command::new("bash");
    cmd.args(["-e", "-c", &command])
        .current_dir(checkout)
        .env("PATH", path)
        .env("HOME", home)
        .env("XDG_DATA_HOME", home.join(".local/share"))
        .env("GITHUB_ACTIONS", "true")
        .env("CI", "true");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

/// The README's GitHub Actions job as it runs on a pull request from a fork or a repository
/// without the variable: Actions writes an undefined `vars.NEXUS_API_URL` and a secret it does
/// not pass as "", and the command runs in the checkout with `--base origin/<base>`. Empty
/// means unset: the gate analyses on the local nexus-lite, blocks the shell=True, and writes
/// the SARIF file the upload step reads. An empty variable reads as unset for every
/// subcommand's options (`NEXUS_MCP_MANIFEST=` with `tools`).
#[test]
fn the_readme_job_as_written_gates_a_pull_request_with_empty_variables() {
    if !support::analysers_on_path() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let upstream = shop(tmp.path(), |_| {});
    // actions/checkout with fetch-depth 0: a clone, origin/main there, the PR's merge commit
    // (`github.sha`) checked out; the job gates the PR head, its second parent.
    let checkout = tmp.path().join("checkout");
    git(
        tmp.path(),
        &["clone", "-q", upstream.to_str().unwrap(), "checkout"],
    );
    put(&checkout, "app.py", SHELL);
    commit_all(&checkout, "run through a shell");
    let sha = git(&checkout, &["rev-parse", "HEAD"]).trim().to_string();
    git(&checkout, &["checkout", "-q", "--detach", "origin/main"]);
    git(&checkout, &["merge", "-q", "--no-ff", "-m", "Merge", &sha]);
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let merge = git(&checkout, &["rev-parse", "HEAD"]).trim().to_string();
    let out = readme_job(
        &checkout,
        &home,
        &[
            ("github.event_name", "pull_request"),
            ("github.base_ref", "main"),
            ("github.event.repository.default_branch", "main"),
            ("github.event.pull_request.head.sha", &sha),
            ("github.event.pull_request.number", "12"),
            ("github.sha", &merge),
        ],
    );
    let all = text(&out);
    assert_eq!(out.status.code(), Some(1), "{all}");
    assert!(all.contains("app.py:5  bandit:B602"), "{all}");
    assert!(all.contains("SARIF written to gate.sarif"), "{all}");
    let log: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(checkout.join("gate.sarif")).unwrap())
            .unwrap();
    assert_eq!(log["version"], "2.1.0");
    assert!(
        log["runs"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|run| run["results"].as_array().unwrap())
            .any(|r| r["ruleId"] == "bandit:B602"),
        "{log:#}"
    );
    sarif_is_valid(&log);

    let tools = Command::new(bin())
        .arg("tools")
        .env("NEXUS_MCP_MANIFEST", "")
        .output()
        .unwrap();
    assert_eq!(tools.status.code(), Some(0), "{}", text(&tools));
    assert!(
        String::from_utf8_lossy(&tools.stdout).contains("kg_file_context"),
        "{}",
        text(&tools)
    );
}

/// The SARIF 2.1.0 JSON Schema, from a registry rather than a copy of ours: Microsoft's sarif-om
/// sdist on PyPI ships it (`sarif-2.1.0-rtm.4.json`, draft-04), so the check needs PyPI access
/// (NEXUS_LITE_SDIST_TEST=1, as CI sets).
const SARIF_SCHEMA_SDIST: &str = "sarif-om==1.0.4";

/// `log` validates against the SARIF 2.1.0 schema (every error listed when it does not).
fn sarif_is_valid(log: &serde_json::Value) {
    if !support::sdist::wanted(SARIF_SCHEMA_SDIST) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let python = support::python_with_mcp().unwrap_or_else(|| "python3".into());
    let package = support::sdist::fetch(&python, SARIF_SCHEMA_SDIST, tmp.path());
    let mut schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(package.join("sarif-2.1.0-rtm.4.json")).unwrap(),
    )
    .unwrap();
    // The schema's own bug: the `language` patterns have an unescaped `]`, which ECMA-262 (the
    // meta-schema's "regex" format) refuses. Escaped, they mean what a lenient engine reads.
    fn escape_bracket(v: &mut serde_json::Value) -> usize {
        match v {
            serde_json::Value::Object(map) => map
                .iter_mut()
                .map(|(k, v)| match v {
                    serde_json::Value::String(p)
                        if k == "pattern" && p == "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$" =>
                    {
                        *p = "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}\\]?$".into();
                        1
                    }
                    other => escape_bracket(other),
                })
                .sum(),
            serde_json::Value::Array(items) => items.iter_mut().map(escape_bracket).sum(),
            _ => 0,
        }
    }
    assert!(
        escape_bracket(&mut schema) > 0,
        "the schema changed: look again"
    );
    let validator = jsonschema::draft4::new(&schema).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(log)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "the SARIF is not valid SARIF 2.1.0: {errors:#?}\n{log:#}"
    );
    // The validator checks: a version SARIF does not define is refused.
    let mut broken = log.clone();
    broken["version"] = "2.0.0".into();
    assert!(!validator.is_valid(&broken), "{broken:#}");
}

/// The repository configures semgrep (`.semgrep.yml` at base, an ERROR rule the change
/// violates) and semgrep is not installed where the gate runs: its rules went unchecked, so
/// the gate neither passes nor says every analyser ran. The verdict is unknown (exit 2) and
/// the summary names semgrep, its configuration and how to install it.
#[test]
fn a_configured_analyser_that_is_missing_is_never_a_pass() {
    if !support::analysers_on_path() {
        return;
    }
    // The test's PATH without any directory holding semgrep.
    let path = std::env::join_paths(
        std::env::split_paths(&tool_path()).filter(|d| !d.join("semgrep").exists()),
    )
    .unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let repo = shop(tmp.path(), |repo| {
        put(
            repo,
            ".semgrep.yml",
            "rules:\n  - id: no-print\n    pattern: print(...)\n    message: use the logger, not print\n    languages: [python]\n    severity: ERROR\n",
        );
    });
    put(
        &repo,
        "report.py",
        "def report(total):\n    print(total)\n    return total\n",
    );
    commit_all(&repo, "print the total");
    let out = Command::new(bin())
        .args(["gate", "--base", "HEAD~1", "--head", "HEAD", "--repo"])
        .arg(&repo)
        .arg("--data-dir")
        .arg(tmp.path().join("data"))
        .env("PATH", &path)
        .env_remove("NEXUS_API_URL")
        .output()
        .unwrap();
    let all = text(&out);
    assert_eq!(out.status.code(), Some(2), "{all}");
    assert!(!all.contains("PASSED"), "{all}");
    assert!(!all.contains("every analyser ran"), "{all}");
    assert!(all.contains("INCOMPLETE"), "{all}");
    assert!(all.contains("semgrep MISSING"), "{all}");
    assert!(
        all.contains("semgrep: configured (.semgrep.yml) but not on PATH: install it where the gate runs (pip install semgrep)"),
        "{all}"
    );
}

/// (path, `tool:code`, line) of every ruff and bandit finding in `files`, run by hand in the
/// full checkout `root`, as a person would.
fn analysers_in_checkout(
    root: &Path,
    files: &[&str],
) -> std::collections::BTreeSet<(String, String, u64)> {
    let run = |program: &str, args: &[&str]| -> serde_json::Value {
        let out = Command::new(program)
            .current_dir(root)
            .args(args)
            .arg("--")
            .args(files)
            .env("PATH", tool_path())
            .output()
            .unwrap();
        serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{program} JSON: {e}\n{}", text(&out)))
    };
    let mut found = std::collections::BTreeSet::new();
    let ruff = run("ruff", &["check", "--output-format", "json", "--no-cache"]);
    for f in ruff.as_array().unwrap() {
        let path = Path::new(f["filename"].as_str().unwrap());
        let path = path
            .strip_prefix(root.canonicalize().unwrap())
            .unwrap_or(path);
        found.insert((
            path.to_string_lossy().into_owned(),
            format!("ruff:{}", f["code"].as_str().unwrap()),
            f["location"]["row"].as_u64().unwrap(),
        ));
    }
    let bandit = run("bandit", &["-f", "json", "-q"]);
    for f in bandit["results"].as_array().unwrap() {
        found.insert((
            f["filename"]
                .as_str()
                .unwrap()
                .trim_start_matches("./")
                .to_string(),
            format!("bandit:{}", f["test_id"].as_str().unwrap()),
            f["line_number"].as_u64().unwrap(),
        ));
    }
    found
}

/// The gate's ruff and bandit violations, from its JSON record.
fn gate_findings(out: &Output) -> std::collections::BTreeSet<(String, String, u64)> {
    let answer: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("gate --json: {e}\n{}", text(out)));
    answer["record"]["violations"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|v| {
            let id = v["ruleId"].as_str().unwrap();
            id.starts_with("ruff:") || id.starts_with("bandit:")
        })
        .map(|v| {
            (
                v["path"].as_str().unwrap().to_string(),
                v["ruleId"].as_str().unwrap().to_string(),
                v["line"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// On a real project (the fastmcp 2.12.4 sdist from PyPI, its own ruff configuration with the
/// team's `INP` added at base), the gate finds what `ruff check` and `bandit` find on the
/// changed files in a full checkout of head, no more: a new module in an existing package is
/// not INP001 (its `__init__.py` did not change), and a new example's `fastmcp` import is
/// first-party, not an I001, though no file of the package changed. The changes are all new
/// files, so every finding in them is on a changed line.
#[test]
fn the_gate_finds_what_the_analysers_find_in_a_full_checkout_of_head() {
    const SDIST: &str = "fastmcp==2.12.4";
    if !support::sdist::wanted(SDIST) || !support::analysers_on_path() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let python = support::python_with_mcp().unwrap_or_else(|| "python3".into());
    let repo = support::sdist::fetch(&python, SDIST, tmp.path());
    git(&repo, &["init", "-q", "-b", "main"]);
    commit_all(&repo, "fastmcp 2.12.4 as released");
    let pyproject = std::fs::read_to_string(repo.join("pyproject.toml")).unwrap();
    let with_inp = pyproject.replace(
        "extend-select = [\"I\", \"UP\"]",
        "extend-select = [\"I\", \"UP\", \"INP\"]",
    );
    assert_ne!(pyproject, with_inp, "fastmcp's ruff selection moved");
    std::fs::write(repo.join("pyproject.toml"), with_inp).unwrap();
    commit_all(&repo, "lint: implicit namespace packages");

    let module = "src/fastmcp/utilities/retry.py";
    let example = "examples/retry_client.py";
    let nested = "src/fastmcp/server/auth/providers/static_token.py";
    let test = "tests/utilities/test_static_token.py";
    let changes: [(&str, &str, &str); 4] = [
        (
            "retry",
            module,
            "\"\"\"Retry an awaitable a few times.\"\"\"\n\nimport asyncio\nfrom collections.abc import Awaitable, Callable\n\nfrom fastmcp.utilities.logging import get_logger\n\nlogger = get_logger(__name__)\n\n\nasync def retry(call: Callable[[], Awaitable[object]], attempts: int = 3) -> object:\n    for attempt in range(1, attempts + 1):\n        try:\n            return await call()\n        except Exception:\n            if attempt == attempts:\n                raise\n            logger.warning(\"attempt %d failed\", attempt)\n            await asyncio.sleep(0)\n    return None\n",
        ),
        (
            "example",
            example,
            "import asyncio\nimport os\n\nimport httpx\n\nfrom fastmcp import Client\n\n\nasync def main() -> None:\n    async with Client(\"http://127.0.0.1:8000/mcp\") as client:\n        tools = await client.list_tools()\n        assert tools, httpx.__version__\n        print(tools)\n\n\nif __name__ == \"__main__\":\n    asyncio.run(main())\n",
        ),
        // Three packages deep, beside modules the copy of head leaves out: first-party, relative
        // and third-party imports out of order.
        (
            "nested",
            nested,
            "import os\nfrom .jwt import JWTVerifier\nimport httpx\nfrom fastmcp.server.auth.auth import TokenVerifier\nfrom ..auth import AccessToken\n\n\nclass StaticTokenVerifier(JWTVerifier):\n    token = os.environ.get(\"TOKEN\", \"\")\n    client = httpx.AsyncClient\n    kinds = (TokenVerifier, AccessToken)\n",
        ),
        // A test module: `tests` is a first-party package at the root, `fastmcp` one under src/.
        (
            "test",
            test,
            "import pytest\nfrom tests.conftest import *  # noqa: F403\nfrom fastmcp.server.auth.providers.static_token import StaticTokenVerifier\n\n\ndef test_token():\n    assert StaticTokenVerifier.token is not None\n    pytest.skip(\"example\")\n",
        ),
    ];
    for (branch, path, body) in changes {
        git(&repo, &["checkout", "-q", "-b", branch, "main"]);
        put(&repo, path, body);
        commit_all(&repo, &format!("add {path}"));
        let out = gate(
            &repo,
            &tmp.path().join("data"),
            &["--base", "main", "--head", "HEAD", "--json"],
        );
        let got = gate_findings(&out);
        // The repository's work tree is a full checkout of head.
        let want = analysers_in_checkout(&repo, &[path]);
        assert_eq!(got, want, "{path}\n{}", text(&out));
        // What the partial copy of head reported: the module's package had no `__init__.py`
        // there, and the example's `fastmcp` was third-party.
        let false_positive = match branch {
            "retry" => Some("ruff:INP001"),
            "example" => Some("ruff:I001"),
            _ => None,
        };
        if let Some(id) = false_positive {
            assert!(!got.iter().any(|(_, i, _)| i == id), "{id} in {got:?}");
        }
        if branch == "nested" || branch == "test" {
            // Not vacuous: the imports are out of order in both views (first-party decided by
            // the directories the copy of head has).
            assert!(got.iter().any(|(_, i, _)| i == "ruff:I001"), "{got:?}");
        }
        if path == example {
            // Not vacuous: the example's unused import and assert are found by both.
            for id in ["ruff:F401", "bandit:B101"] {
                assert!(got.iter().any(|(_, i, _)| i == id), "{id} in {got:?}");
            }
        }
        git(&repo, &["checkout", "-q", "main"]);
    }
}

/// `.semgrepignore` decides which files semgrep skips, so the copy of head carries it and a
/// change to it is listed for review as analyser configuration (no agent's pass is witnessed).
#[test]
fn a_changed_semgrepignore_is_listed_as_analyser_configuration() {
    if !support::analysers_on_path() {
        return;
    }
    let (out, all, _tmp) = gate_one_commit(|repo| put(repo, ".semgrepignore", "app.py\n"));
    assert!(
        all.contains(
            "config:.semgrepignore (.semgrepignore): analyser configuration .semgrepignore changed"
        ),
        "{all}"
    );
    assert_eq!(out.status.code(), Some(0), "{all}");
}

/// `--format github` prints one workflow command per violation, as ruff's `github` format
/// does, so Actions annotates the pull request's lines without code scanning. A file named
/// like a workflow command (`::error title=PASSED::…`, here also skipped for its lone-CR line
/// ends) never becomes one: every line GitHub would read as a command is one of the gate's
/// annotations, its values escaped.
#[test]
fn format_github_annotates_violations_and_file_names_never_become_commands() {
    if !support::analysers_on_path() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let repo = shop(tmp.path(), |_| {});
    put(&repo, "app.py", SHELL);
    let hostile = "::error title=PASSED::all clear,line=1.py";
    put(
        &repo,
        hostile,
        "import subprocess\rsubprocess.run('ls', shell=True)\n",
    );
    commit_all(&repo, "run through a shell");
    let out = gate(
        &repo,
        &tmp.path().join("data"),
        &["--base", "HEAD~1", "--head", "HEAD", "--format", "github"],
    );
    let all = text(&out);
    assert_eq!(out.status.code(), Some(1), "{all}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.lines().any(|l| l
            == "::error file=app.py,line=5,title=bandit%3AB602::subprocess call with shell=True identified, security issue."),
        "{all}"
    );
    let escaped = "%3A%3Aerror title=PASSED%3A%3Aall clear%2Cline=1.py";
    assert!(
        stdout.lines().any(|l| l.starts_with(&format!(
            "::notice file={escaped},line=2,title=bandit%3AB602::"
        ))),
        "{all}"
    );
    let commands: Vec<&str> = stdout
        .lines()
        .filter(|l| l.trim_start().starts_with("::"))
        .collect();
    assert!(!commands.is_empty());
    for c in &commands {
        let rest = c
            .strip_prefix("::error file=")
            .or_else(|| c.strip_prefix("::warning file="))
            .or_else(|| c.strip_prefix("::notice file="))
            .unwrap_or_else(|| panic!("not an annotation: {c}\n{all}"));
        let (properties, _message) = rest.split_once("::").unwrap();
        let values: Vec<&str> = properties.split(',').collect();
        assert!(
            values[1..]
                .iter()
                .all(|v| v.starts_with("line=") || v.starts_with("title=")),
            "{c}"
        );
    }
    // The summary follows, with the skipped file listed, not first on its line.
    assert!(stdout.contains("FAILED"), "{all}");
    assert!(
        stdout.contains(&format!("    - {hostile} (it ends lines with a lone CR")),
        "{all}"
    );
    // Without the flag, no command is printed.
    let plain = gate(
        &repo,
        &tmp.path().join("data"),
        &["--base", "HEAD~1", "--head", "HEAD"],
    );
    assert!(
        !String::from_utf8_lossy(&plain.stdout)
            .lines()
            .any(|l| l.trim_start().starts_with("::")),
        "{}",
        text(&plain)
    );
}

// --- Issue 26: claims witnessed on real pull requests (report_check, analyser ids) ---

const NO_PRINT: &str = "---\nname: no-print\nseverity: error\nforbid: 'print\\('\n---\n# No print\nUse logging, never print() in library code.\n";

/// The agent's report_check through the real nexus-rules surface, served over stdio in its work
/// tree with the data directory the gate uses, driven by the Python MCP SDK as an agent's is.
fn report_check(repo: &Path, data: &Path, results: &[(&str, bool)]) -> serde_json::Value {
    let py = support::python_with_mcp()
        .expect("report_check is driven by Python with the `mcp` package: run `bash .ci/setup`");
    let results: Vec<_> = results
        .iter()
        .map(|(id, pass)| serde_json::json!({"ruleId": id, "pass": pass}))
        .collect();
    let args = serde_json::json!({"sessionId": "feature", "results": results});
    let mut server = Command::new(bin());
    server
        .current_dir(repo)
        .args([
            "--surface",
            "nexus-rules",
            "serve",
            "--scopes",
            "rules:read,rules:report",
        ])
        .arg("--data-dir")
        .arg(data)
        .env("PATH", tool_path())
        .env_remove("NEXUS_API_URL");
    support::local::PySdk::stdio(&py, &server, "nexus-rules (Python SDK)").ok("report_check", args)
}

/// `rule`'s (claimed, witnessed, disputed) self-check results, from `nexus-mcp rules stats`.
fn standings(repo: &Path, data: &Path, rule: &str) -> (i64, i64, i64) {
    let out = Command::new(bin())
        .args(["rules", "stats", "--json", "--repo"])
        .arg(repo)
        .arg("--data-dir")
        .arg(data)
        .env_remove("NEXUS_API_URL")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let answer: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let row = answer["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["ruleId"] == rule)
        .unwrap_or_else(|| panic!("{rule} not in the stats: {answer:#}"))
        .clone();
    let n = |k: &str| row[k].as_i64().unwrap_or(0);
    (n("claimed"), n("witnessed"), n("disputed"))
}

/// CI checks out GitHub's merge commit (`github.sha`), whose tree is not the one the agent
/// checked when its branch is behind the base: gated on it, the agent's claim stays claimed.
/// The README job gates the PR head (`github.event.pull_request.head.sha`, an ancestor of the
/// merge commit checked out) and the same claim is witnessed.
#[test]
fn a_claim_on_a_pr_behind_its_base_is_witnessed_by_the_readme_job() {
    if !support::analysers_on_path() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let repo = shop(tmp.path(), |r| put(r, ".nexus/rules/no-print.md", NO_PRINT));
    git(&repo, &["checkout", "-q", "-b", "feature"]);
    put(&repo, "lib.py", "def double(x):\n    return 2 * x\n");
    commit_all(&repo, "double");
    let pr_head = git(&repo, &["rev-parse", "HEAD"]).trim().to_string();
    git(&repo, &["checkout", "-q", "main"]);
    put(&repo, "other.py", "X = 1\n");
    commit_all(&repo, "main moves on");
    git(&repo, &["checkout", "-q", "feature"]);

    let check = report_check(&repo, &data, &[("no-print", true)]);
    assert_eq!(check["status"], "claimed", "{check:#}");
    assert_eq!(check["unknownRuleIds"], serde_json::json!([]), "{check:#}");

    // refs/pull/12/merge, as actions/checkout presents it: the base merged with the PR head.
    git(&repo, &["checkout", "-q", "--detach", "main"]);
    git(
        &repo,
        &["merge", "-q", "--no-ff", "-m", "Merge feature", "feature"],
    );
    let merge = git(&repo, &["rev-parse", "HEAD"]).trim().to_string();

    let on_merge = gate(
        &repo,
        &data,
        &["--base", "main", "--head", &merge, "--pr", "12"],
    );
    assert_eq!(on_merge.status.code(), Some(0), "{}", text(&on_merge));
    assert_eq!(standings(&repo, &data, "no-print"), (1, 0, 0));

    let readme_job = gate(
        &repo,
        &data,
        &["--base", "main", "--head", &pr_head, "--pr", "12"],
    );
    let all = text(&readme_job);
    assert_eq!(readme_job.status.code(), Some(0), "{all}");
    assert!(
        all.contains("1 file(s) changed"),
        "only the PR's change: {all}"
    );
    assert_eq!(standings(&repo, &data, "no-print"), (0, 1, 0));
}

/// report_check answered analyser ids (`ruff:T201`) as unknown, "counting for nothing", while
/// the gate reports violations under those very ids. They count now: a pass is witnessed when
/// the gate's analysis ran completely with the rule selected and found nothing on the change,
/// disputed when it found it; a rule the repository's ruff does not select stays claimed.
#[test]
fn analyser_ids_in_report_check_are_witnessed_and_disputed_by_the_gate() {
    if !support::analysers_on_path() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let repo = shop(tmp.path(), |r| {
        put(
            r,
            "pyproject.toml",
            "[tool.ruff.lint]\nselect = [\"T20\", \"F\"]\n",
        )
    });
    git(&repo, &["checkout", "-q", "-b", "feature"]);
    put(&repo, "lib.py", "def double(x):\n    return 2 * x\n");
    commit_all(&repo, "double");
    let ids = [
        ("ruff:T201", true),
        ("bandit:B602", true),
        ("ruff:E501", true),
    ];
    let check = report_check(&repo, &data, &ids);
    assert_eq!(check["unknownRuleIds"], serde_json::json!([]), "{check:#}");
    assert!(
        !check["note"]
            .as_str()
            .unwrap()
            .contains("count for nothing"),
        "{check:#}"
    );
    let out = gate(&repo, &data, &["--base", "main", "--head", "HEAD"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(standings(&repo, &data, "ruff:T201"), (0, 1, 0));
    assert_eq!(standings(&repo, &data, "bandit:B602"), (0, 1, 0));
    // Not selected by this repository's ruff: its silence proves nothing.
    assert_eq!(standings(&repo, &data, "ruff:E501"), (1, 0, 0));
    // A report after the gate run on the same tree is judged by the stored run at once.
    let later = report_check(&repo, &data, &[("bandit:B602", true)]);
    assert_eq!(later["status"], "witnessed", "{later:#}");

    put(
        &repo,
        "lib.py",
        "def double(x):\n    print(x)\n    return 2 * x\n",
    );
    commit_all(&repo, "print");
    report_check(&repo, &data, &[("ruff:T201", true)]);
    let out = gate(&repo, &data, &["--base", "main", "--head", "HEAD"]);
    assert!(text(&out).contains("ruff:T201"), "{}", text(&out));
    assert_eq!(standings(&repo, &data, "ruff:T201"), (0, 1, 1));
}

/// Ruff resolves its settings from the nearest configuration above each file: a package whose
/// own ruff.toml does not select T20 leaves print() there unflagged, so a pass on `ruff:T201`
/// for a change touching it is not witnessed; the rules both configurations select are.
#[test]
fn an_analyser_rule_a_nested_ruff_configuration_does_not_select_stays_claimed() {
    if !support::analysers_on_path() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let repo = shop(tmp.path(), |r| {
        put(r, "ruff.toml", "[lint]\nselect = [\"T20\", \"F\"]\n");
        put(r, "pkg/ruff.toml", "[lint]\nselect = [\"F\"]\n");
        put(r, "pkg/__init__.py", "");
    });
    git(&repo, &["checkout", "-q", "-b", "feature"]);
    put(&repo, "lib.py", "def double(x):\n    return 2 * x\n");
    put(&repo, "pkg/shout.py", "def shout(x):\n    print(x)\n");
    commit_all(&repo, "double and shout");
    report_check(&repo, &data, &[("ruff:T201", true), ("ruff:F401", true)]);
    let out = gate(&repo, &data, &["--base", "main", "--head", "HEAD"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(!text(&out).contains("ruff:T201"), "{}", text(&out));
    assert_eq!(standings(&repo, &data, "ruff:T201"), (1, 0, 0));
    assert_eq!(standings(&repo, &data, "ruff:F401"), (0, 1, 0));
}

/// Ruff's `S602` is bandit's `B602`: on a line both report, the gate keeps bandit's finding
/// alone, so a pass on `ruff:S602` there is disputed, not witnessed by ruff's apparent silence.
#[test]
fn a_pass_on_a_ruff_port_of_a_bandit_check_is_disputed_by_bandits_finding() {
    if !support::analysers_on_path() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let repo = shop(tmp.path(), |r| {
        put(r, "pyproject.toml", "[tool.ruff.lint]\nselect = [\"S\"]\n")
    });
    put(&repo, "app.py", SHELL);
    commit_all(&repo, "run through a shell");
    report_check(&repo, &data, &[("ruff:S602", true)]);
    let out = gate(&repo, &data, &["--base", "HEAD~1", "--head", "HEAD"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("bandit:B602"), "{}", text(&out));
    assert_eq!(standings(&repo, &data, "ruff:S602"), (0, 0, 1));
}

// --- issue 26: the gate's cost, whole-file SARIF on a push ---

/// Runs the gate in `repo` on HEAD~1..HEAD with `--json` and `path` as PATH.
fn gate_json(repo: &Path, data: &Path, path: &std::ffi::OsStr) -> (Output, serde_json::Value) {
    let out = Command::new(bin())
        .args([
            "gate", "--base", "HEAD~1", "--head", "HEAD", "--json", "--repo",
        ])
        .arg(repo)
        .arg("--data-dir")
        .arg(data)
        .env("PATH", path)
        .env_remove("NEXUS_API_URL")
        .output()
        .unwrap();
    let answer = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("gate --json: {e}\n{}", text(&out)));
    (out, answer)
}

/// `bandit --version` costs a Python start, so the gate asks each installed analyser once and
/// keeps the answer in its data directory, keyed by the binary: a `bandit` that logs its
/// `--version` calls is asked on the first run only, the record still names its version, and
/// it is asked again once it is rewritten (as an upgrade does).
#[test]
fn analyser_versions_are_asked_once_per_installed_binary() {
    use std::os::unix::fs::PermissionsExt;
    if !support::analysers_on_path() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let repo = shop(tmp.path(), |_| {});
    put(&repo, "app.py", SHELL);
    commit_all(&repo, "run through a shell");
    let real = std::env::split_paths(&tool_path())
        .map(|d| d.join("bandit"))
        .find(|p| p.is_file())
        .unwrap();
    let bin_dir = tmp.path().join("bin");
    std::fs::create_dir_all(&bin_dir).unwrap();
    let log = tmp.path().join("asked.log");
    let wrapper = bin_dir.join("bandit");
    let write_wrapper = |extra: &str| {
        std::fs::write(
            &wrapper,
            format!(
                "#!/bin/sh\n{extra}if [ \"$1\" = --version ]; then echo asked >> '{}'; fi\nexec '{}' \"$@\"\n",
                log.display(),
                real.display()
            ),
        )
        .unwrap();
        std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    };
    write_wrapper("");
    let path = std::env::join_paths(
        std::iter::once(bin_dir.clone()).chain(std::env::split_paths(&tool_path())),
    )
    .unwrap();
    let data = tmp.path().join("data");
    let asked = || {
        std::fs::read_to_string(&log)
            .unwrap_or_default()
            .lines()
            .count()
    };
    let bandit_version = |answer: &serde_json::Value| {
        answer["record"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == "bandit")
            .map(|t| t["version"].clone())
            .unwrap()
    };
    let (out, first) = gate_json(&repo, &data, &path);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert_eq!(asked(), 1);
    let version = bandit_version(&first);
    assert!(
        version
            .as_str()
            .is_some_and(|v| v.starts_with(|c: char| c.is_ascii_digit())),
        "{version}"
    );
    let (out, second) = gate_json(&repo, &data, &path);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert_eq!(
        asked(),
        1,
        "the second run asked bandit for its version again"
    );
    assert_eq!(bandit_version(&second), version);
    write_wrapper("# upgraded\n");
    let (out, third) = gate_json(&repo, &data, &path);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert_eq!(
        asked(),
        2,
        "a rewritten bandit was not asked for its version"
    );
    assert_eq!(bandit_version(&third), version);
}

/// The README's job on a push to the default branch: Actions writes
/// `github.event.pull_request.number` as "" (`--pr ""`), `github.base_ref` as "" (the job
/// falls back to the default branch) and the head is `github.sha`. An empty `--pr` means no
/// pull request: the gate analyses every Python file of head, puts every finding in the SARIF
/// (a file the push did not touch included, so code scanning holds the branch's alerts to
/// compare a pull request with), stores no record, starts no local nexus-lite, and exits 0
/// though the findings include an error. A `--pr` that is not a number is still refused.
#[test]
fn the_readme_job_as_written_uploads_whole_file_sarif_on_a_push() {
    if !support::analysers_on_path() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let upstream = shop(tmp.path(), |repo| {
        put(
            repo,
            "legacy/check.py",
            "def check(x):\n    assert x\n    return x\n",
        );
    });
    put(&upstream, "app.py", SHELL);
    commit_all(&upstream, "run through a shell");
    let sha = git(&upstream, &["rev-parse", "HEAD"]).trim().to_string();
    // actions/checkout on a push, fetch-depth 0: the default branch at the pushed commit.
    let checkout = tmp.path().join("checkout");
    git(
        tmp.path(),
        &["clone", "-q", upstream.to_str().unwrap(), "checkout"],
    );
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let job = |pr: &str| {
        Command::new(bin())
            .current_dir(&checkout)
            .args(["gate", "--base", "origin/main", "--head", &sha, "--pr", pr])
            .args(["--sarif", "gate.sarif"])
            .env("PATH", tool_path())
            .env("HOME", &home)
            .env("XDG_DATA_HOME", home.join(".local/share"))
            .env("GITHUB_ACTIONS", "true")
            .env("GITHUB_EVENT_NAME", "push")
            .env("CI", "true")
            .env("NEXUS_API_URL", "")
            .env("NEXUS_API_TOKEN", "")
            .output()
            .unwrap()
    };
    let out = readme_job(
        &checkout,
        &home,
        &[
            ("github.event_name", "push"),
            ("github.event.repository.default_branch", "main"),
            ("github.sha", &sha),
        ],
    );
    let all = text(&out);
    assert_eq!(out.status.code(), Some(0), "{all}");
    assert!(all.contains("WHOLE FILES (no pull request"), "{all}");
    assert!(all.contains("2 Python file(s) of head analysed"), "{all}");
    assert!(all.contains("record not stored"), "{all}");
    assert!(all.contains("SARIF written to gate.sarif"), "{all}");
    let log: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(checkout.join("gate.sarif")).unwrap())
            .unwrap();
    let results: Vec<(String, String)> = log["runs"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|run| run["results"].as_array().unwrap())
        .map(|r| {
            (
                r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                    .as_str()
                    .unwrap()
                    .to_string(),
                r["ruleId"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    for want in [
        ("app.py", "bandit:B602"),
        ("legacy/check.py", "bandit:B101"),
    ] {
        assert!(
            results
                .iter()
                .any(|(p, id)| (p.as_str(), id.as_str()) == want),
            "{want:?} in {results:?}"
        );
    }
    sarif_is_valid(&log);
    let data = home.join(".local/share/nexus-lite");
    assert!(
        !data.join(support::local::DAEMON_JSON).exists(),
        "a whole-file run started a local nexus-lite"
    );

    let out = job("twelve");
    let all = text(&out);
    assert_eq!(out.status.code(), Some(2), "{all}");
    assert!(
        all.contains("`twelve` is not a pull-request number"),
        "{all}"
    );
}

// --- Issue 26 (gatefeat): checkedRules, semgrep ids, SARIF help, baselines ---

/// The Python SDK as an agent on `repo`'s nexus-rules server, in `home` (the gate run with
/// `home.run(["gate", …])` records into the same local nexus-lite).
fn rules_agent(
    home: &support::local::LocalHome,
    repo: &Path,
    extra_args: &[&str],
    test: &str,
) -> Option<support::local::PySdk> {
    let py = support::require(
        support::python_with_mcp(),
        "Python with the `mcp` package (.venv/bin/python or $NEXUS_MCP_PYTHON)",
        test,
    )?;
    let repo_arg = repo.display().to_string();
    let mut args = vec!["--surface", "nexus-rules", "serve", "--repo", &repo_arg];
    args.extend_from_slice(extra_args);
    let mut agent = support::local::PySdk::spawn(home, &py, &args, "nexus-rules (Python SDK)");
    agent.ready();
    Some(agent)
}

/// An agent that passed the gate learns which analyser rules that pass covers: the short list
/// whole; ruff's `ALL` summarised per group, with one group listed in full on request.
#[test]
fn get_gate_result_shows_the_analyser_rules_a_pass_covers() {
    const TEST: &str = "get_gate_result_shows_the_analyser_rules_a_pass_covers";
    if !support::analysers_on_path() {
        return;
    }
    let home = support::local::LocalHome::new();
    let repo = shop(&home.scratch(), |r| {
        put(
            r,
            "pyproject.toml",
            "[tool.ruff.lint]\nselect = [\"T20\", \"F\"]\n",
        )
    });
    put(&repo, "lib.py", "def double(x):\n    return 2 * x\n");
    commit_all(&repo, "double");
    let repo_s = repo.display().to_string();
    let gate_pr = |pr: &str| {
        home.run(
            &[
                "gate", "--base", "HEAD~1", "--head", "HEAD", "--pr", pr, "--repo", &repo_s,
            ],
            "nexus-mcp gate",
        )
    };
    let out = gate_pr("3");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let Some(mut agent) = rules_agent(&home, &repo, &[], TEST) else {
        return;
    };
    let small = agent.capability("get_gate_result", serde_json::json!({"pr": 3}));
    let listed: Vec<&str> = small["checkedRules"]
        .as_array()
        .unwrap_or_else(|| panic!("{small:#}"))
        .iter()
        .filter_map(|v| v.as_str())
        .collect();
    assert!(
        listed.contains(&"ruff:T201") && listed.contains(&"ruff:F401"),
        "{small:#}"
    );
    assert!(listed.contains(&"bandit:*"), "{small:#}");
    assert!(!listed.contains(&"ruff:E501"), "not selected: {small:#}");
    assert_eq!(small["checkedRulesCount"], listed.len(), "{small:#}");
    assert!(small.get("checkedRulesNote").is_none(), "{small:#}");

    put(
        &repo,
        "pyproject.toml",
        "[tool.ruff.lint]\nselect = [\"ALL\"]\n",
    );
    put(
        &repo,
        "lib.py",
        "\"\"\"Doubling.\"\"\"\n\n\ndef double(x: int) -> int:\n    \"\"\"Double x.\"\"\"\n    return 2 * x\n",
    );
    commit_all(&repo, "every ruff rule");
    let out = gate_pr("4");
    assert_ne!(out.status.code(), Some(2), "{}", text(&out));
    let all = agent.capability("get_gate_result", serde_json::json!({"pr": 4}));
    let count = all["checkedRulesCount"].as_u64().unwrap_or(0);
    assert!(count > 300, "ruff ALL enables hundreds of rules: {all:#}");
    assert_eq!(
        all["checkedRules"].as_array().map(Vec::len),
        Some(60),
        "{all:#}"
    );
    assert!(all.to_string().len() < 12_000, "within the answer budget");
    let groups = all["checkedRulesByGroup"]
        .as_object()
        .unwrap_or_else(|| panic!("{all:#}"));
    assert!(
        groups.contains_key("ruff:PLR") && groups.contains_key("ruff:T"),
        "{all:#}"
    );
    assert!(
        all["checkedRulesNote"]
            .as_str()
            .unwrap_or("")
            .contains("checkedPrefix"),
        "{all:#}"
    );
    let plr = agent.capability(
        "get_gate_result",
        serde_json::json!({"pr": 4, "checkedPrefix": "ruff:PLR"}),
    );
    let plr_rules = plr["checkedRules"]
        .as_array()
        .unwrap_or_else(|| panic!("{plr:#}"));
    assert_eq!(
        Some(plr_rules.len() as u64),
        groups["ruff:PLR"].as_u64(),
        "{plr:#}"
    );
    assert!(plr_rules.iter().any(|r| r == "ruff:PLR0913"), "{plr:#}");
    assert!(plr.get("checkedRulesNote").is_none(), "{plr:#}");
    // `bandit:*` covers every bandit id a prefix names.
    let bandit = agent.capability(
        "get_gate_result",
        serde_json::json!({"pr": 4, "checkedPrefix": "bandit:B6"}),
    );
    assert_eq!(
        bandit["checkedRules"],
        serde_json::json!(["bandit:*"]),
        "{bandit:#}"
    );
}

const NO_EVAL: &str = "rules:\n  - id: no-eval\n    pattern: eval(...)\n    message: eval runs arbitrary code\n    languages: [python]\n    severity: ERROR\n";

/// `semgrep:<rule id>` counts in report_check like `ruff:T201`: a pass is witnessed where
/// semgrep ran the repository's rule on the change and found nothing, disputed by its finding.
#[test]
fn semgrep_rule_ids_in_report_check_are_witnessed_and_disputed_by_the_gate() {
    if !support::semgrep_on_path(
        "semgrep_rule_ids_in_report_check_are_witnessed_and_disputed_by_the_gate",
    ) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let repo = shop(tmp.path(), |r| put(r, ".semgrep.yml", NO_EVAL));
    git(&repo, &["checkout", "-q", "-b", "feature"]);
    put(&repo, "lib.py", "def double(x):\n    return 2 * x\n");
    commit_all(&repo, "double");
    let check = report_check(&repo, &data, &[("semgrep:no-eval", true)]);
    assert_eq!(check["unknownRuleIds"], serde_json::json!([]), "{check:#}");
    let out = gate(&repo, &data, &["--base", "main", "--head", "HEAD"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(
        text(&out).contains("semgrep ok"),
        "semgrep ran: {}",
        text(&out)
    );
    assert_eq!(standings(&repo, &data, "semgrep:no-eval"), (0, 1, 0));

    put(
        &repo,
        "lib.py",
        "def double(x):\n    return eval(f\"2 * {x}\")\n",
    );
    commit_all(&repo, "eval");
    report_check(&repo, &data, &[("semgrep:no-eval", true)]);
    let out = gate(&repo, &data, &["--base", "main", "--head", "HEAD"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("semgrep:no-eval"), "{}", text(&out));
    assert_eq!(standings(&repo, &data, "semgrep:no-eval"), (0, 1, 1));
}

/// The SARIF rule of `id` in `log` (any run).
fn sarif_rule<'a>(log: &'a serde_json::Value, id: &str) -> &'a serde_json::Value {
    log["runs"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["tool"]["driver"]["rules"].as_array().unwrap())
        .find(|r| r["id"] == id)
        .unwrap_or_else(|| panic!("no rule {id} in {log:#}"))
}

/// Code scanning shows a rule's help beside its alert: ruff's explanation (from one `ruff rule
/// --all` call, cached per ruff version in the data directory), bandit's check with its page,
/// and the playbook rule's own text; the log stays valid SARIF 2.1.0.
#[test]
fn sarif_rules_carry_their_help_text_and_links() {
    if !support::analysers_on_path() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let repo = shop(tmp.path(), |r| {
        put(
            r,
            "pyproject.toml",
            "[tool.ruff.lint]\nselect = [\"T20\", \"S\"]\n",
        );
        put(r, ".nexus/rules/no-print.md", NO_PRINT);
    });
    put(&repo, "app.py", SHELL);
    put(&repo, "lib.py", "def shout(x):\n    print(x)\n");
    commit_all(&repo, "shell and print");
    let sarif = tmp.path().join("gate.sarif");
    let run = || {
        let out = gate(
            &repo,
            &data,
            &[
                "--base",
                "HEAD~1",
                "--head",
                "HEAD",
                "--sarif",
                sarif.to_str().unwrap(),
            ],
        );
        assert_eq!(out.status.code(), Some(1), "{}", text(&out));
        let log: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&sarif).unwrap()).unwrap();
        log
    };
    let log = run();
    let t201 = sarif_rule(&log, "ruff:T201");
    assert_eq!(
        t201["helpUri"], "https://docs.astral.sh/ruff/rules/print/",
        "{t201:#}"
    );
    assert!(
        t201["shortDescription"]["text"]
            .as_str()
            .unwrap()
            .starts_with("print"),
        "{t201:#}"
    );
    let md = t201["help"]["markdown"].as_str().unwrap();
    assert!(md.contains("## What it does"), "{t201:#}");
    assert_eq!(
        t201["fullDescription"]["text"], t201["help"]["text"],
        "{t201:#}"
    );
    let b602 = sarif_rule(&log, "bandit:B602");
    assert_eq!(
        b602["helpUri"],
        "https://bandit.readthedocs.io/en/latest/plugins/b602_subprocess_popen_with_shell_equals_true.html",
        "{b602:#}"
    );
    assert!(
        b602["fullDescription"]["text"]
            .as_str()
            .unwrap()
            .contains("B602"),
        "{b602:#}"
    );
    let own = sarif_rule(&log, "no-print");
    assert!(
        own["fullDescription"]["text"]
            .as_str()
            .unwrap()
            .contains("Use logging, never print()"),
        "{own:#}"
    );
    assert!(
        own["help"]["markdown"]
            .as_str()
            .unwrap()
            .contains(".nexus/rules/no-print.md"),
        "{own:#}"
    );
    sarif_is_valid(&log);

    // The catalogues are cached per analyser version; ruff's is read from its cache next
    // time: an edited cache shows.
    let cached = |tool: &str| {
        std::fs::read_dir(data.join("rule-help"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| {
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                name.starts_with(&format!("{tool}-")) && name.ends_with(".json")
            })
            .unwrap_or_else(|| panic!("no cached {tool} rule help"))
    };
    cached("bandit");
    let cache = cached("ruff");
    let mut rules: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&cache).unwrap()).unwrap();
    let all = rules.as_array_mut().unwrap();
    assert!(all.len() > 500, "every ruff rule from one call");
    for r in all.iter_mut().filter(|r| r["code"] == "T201") {
        r["explanation"] = "cached explanation".into();
    }
    std::fs::write(&cache, rules.to_string()).unwrap();
    let again = run();
    assert_eq!(
        sarif_rule(&again, "ruff:T201")["help"]["text"],
        "cached explanation"
    );
}

/// A shop whose last commit adds a legacy shell call, and the gate's `--write-baseline` over
/// that commit (not yet committed): (repository, data directory, the gate's output).
fn legacy_shell_baselined(dir: &Path) -> (std::path::PathBuf, std::path::PathBuf, Output) {
    let data = dir.join("data");
    let repo = shop(dir, |_| {});
    put(&repo, "app.py", SHELL);
    commit_all(&repo, "legacy shell");
    let wrote = gate(
        &repo,
        &data,
        &["--base", "HEAD~1", "--head", "HEAD", "--write-baseline"],
    );
    assert_eq!(wrote.status.code(), Some(0), "{}", text(&wrote));
    (repo, data, wrote)
}

/// A team waives an existing finding in a committed baseline, written by the gate itself; the
/// waiver survives the line being re-indented and moved, and shows in SARIF as an external
/// suppression with its reason. A pull request cannot waive its own new finding (the base's
/// baseline applies; its edit is listed as unreviewed), and an expired waiver waives nothing.
#[test]
fn a_reviewed_baseline_waives_existing_findings_and_only_those() {
    if !support::analysers_on_path() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let (repo, data, wrote) = legacy_shell_baselined(tmp.path());
    assert!(
        text(&wrote).contains("wrote 1 new waiver(s)"),
        "{}",
        text(&wrote)
    );
    let file = repo.join(".nexus/baseline.yaml");
    let written = std::fs::read_to_string(&file).unwrap();
    assert!(
        written.contains("rule: bandit:B602") && written.contains("path: app.py"),
        "{written}"
    );
    let reviewed = written.replace(
        "existing finding at",
        "the command is a constant; ticket SHOP-12. Was: existing finding at",
    );
    std::fs::write(&file, &reviewed).unwrap();
    commit_all(&repo, "baseline the legacy shell call");
    // Writing again adds nothing: the finding is waived already.
    let again = gate(
        &repo,
        &data,
        &["--base", "HEAD~2", "--head", "HEAD", "--write-baseline"],
    );
    assert!(
        text(&again).contains("wrote 0 new waiver(s) (1 in all)"),
        "{}",
        text(&again)
    );
    git(&repo, &["checkout", "-q", "--", "."]);

    git(&repo, &["checkout", "-q", "-b", "feature"]);
    put(
        &repo,
        "app.py",
        "import subprocess\n\n\ndef run(cmd):\n    if cmd:\n        return subprocess.run(cmd, shell=True, check=True)\n    return None\n",
    );
    commit_all(&repo, "re-indent the legacy call");
    let sarif = tmp.path().join("gate.sarif");
    let out = gate(
        &repo,
        &data,
        &[
            "--base",
            "main",
            "--head",
            "HEAD",
            "--sarif",
            sarif.to_str().unwrap(),
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "waived, not counted: {}",
        text(&out)
    );
    assert!(text(&out).contains("1 finding(s) waived"), "{}", text(&out));
    let log: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&sarif).unwrap()).unwrap();
    let b602 = log["runs"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["results"].as_array().unwrap())
        .find(|r| r["ruleId"] == "bandit:B602")
        .unwrap_or_else(|| panic!("the waived result is still reported: {log:#}"));
    assert_eq!(b602["suppressions"][0]["kind"], "external", "{b602:#}");
    assert!(
        b602["suppressions"][0]["justification"]
            .as_str()
            .unwrap()
            .contains("SHOP-12"),
        "{b602:#}"
    );
    assert_eq!(
        b602["locations"][0]["physicalLocation"]["region"]["startLine"],
        6
    );
    sarif_is_valid(&log);
    // The agent reads the waived count in get_gate_result, beside no violation.
    let asked = Command::new(bin())
        .current_dir(&repo)
        .args(["--surface", "nexus-rules", "call", "use_capability"])
        .arg(serde_json::json!({"capability": "get_gate_result", "arguments": {}}).to_string())
        .arg("--data-dir")
        .arg(&data)
        .env("PATH", tool_path())
        .env_remove("NEXUS_API_URL")
        .output()
        .unwrap();
    assert!(asked.status.success(), "{}", text(&asked));
    let result: serde_json::Value = serde_json::from_slice(&asked.stdout).unwrap();
    assert_eq!(
        (&result["waivedCount"], &result["violationCount"]),
        (&serde_json::json!(1), &serde_json::json!(0)),
        "{result:#}"
    );

    // The PR waives its own new finding: the base's baseline applies, the edit is listed.
    put(
        &repo,
        "tool.py",
        "import subprocess\n\n\ndef go(c):\n    return subprocess.call(c, shell=True)\n",
    );
    commit_all(&repo, "another shell");
    let own = gate(
        &repo,
        &data,
        &["--base", "HEAD~1", "--head", "HEAD", "--write-baseline"],
    );
    assert_eq!(own.status.code(), Some(0), "{}", text(&own));
    commit_all(&repo, "waive it in the PR");
    let out = gate(&repo, &data, &["--base", "main", "--head", "HEAD"]);
    let all = text(&out);
    assert_eq!(out.status.code(), Some(1), "{all}");
    assert!(all.contains("tool.py:5  bandit:B602"), "{all}");
    assert!(
        all.contains("baseline config:.nexus/baseline.yaml"),
        "{all}"
    );

    // Expired on the base branch: the legacy finding counts again, and the summary says why.
    git(&repo, &["checkout", "-q", "main"]);
    std::fs::write(
        &file,
        reviewed.replace("reason:", "expires: 2020-01-31\n  reason:"),
    )
    .unwrap();
    commit_all(&repo, "the waiver expires");
    git(&repo, &["checkout", "-q", "feature"]);
    git(&repo, &["rebase", "-q", "main"]);
    let out = gate(&repo, &data, &["--base", "main", "--head", "HEAD~2"]);
    let all = text(&out);
    assert_eq!(out.status.code(), Some(1), "{all}");
    assert!(all.contains("app.py:6  bandit:B602"), "{all}");
    assert!(
        all.contains("waiver expired bandit:B602") && all.contains("2020-01-31"),
        "{all}"
    );
}

/// bootstrap_playbook on a real project (the fastmcp sdist) after two gate runs of one pull
/// request: the unused import the author fixed between the runs (and fastmcp's ruff selects)
/// ranks above a more frequent finding nobody fixed; pytest's asserts in tests are not
/// proposed (said in the answer); asking again queues nothing.
#[test]
fn bootstrap_ranks_what_the_team_fixes_and_skips_test_asserts() {
    const TEST: &str = "bootstrap_ranks_what_the_team_fixes_and_skips_test_asserts";
    const SDIST: &str = "fastmcp==2.12.4";
    if !support::sdist::wanted(SDIST) || !support::analysers_on_path() {
        return;
    }
    let home = support::local::LocalHome::new();
    let python = support::python_with_mcp().unwrap_or_else(|| "python3".into());
    // Its own folder: `fetch` returns the first directory it finds there.
    let work = home.scratch().join("sdist");
    std::fs::create_dir_all(&work).unwrap();
    let repo = support::sdist::fetch(&python, SDIST, &work);
    git(&repo, &["init", "-q", "-b", "main"]);
    commit_all(&repo, "fastmcp 2.12.4 as released");
    git(&repo, &["checkout", "-q", "-b", "feature"]);
    put(
        &repo,
        "tests/test_jitter.py",
        "from fastmcp.utilities.jitter import jitter\n\n\ndef test_jitter():\n    assert jitter(1) >= 0\n    assert jitter(2) >= 0\n    assert jitter(3) >= 0\n",
    );
    let module = "src/fastmcp/utilities/jitter.py";
    let body = "\"\"\"Random delays.\"\"\"\n\nimport random\n\n\ndef jitter(n: int) -> float:\n    a = random.random()\n    b = random.random()\n    c = random.random()\n    return n * random.random() + a + b + c\n";
    put(&repo, module, &format!("import os\n{body}"));
    commit_all(&repo, "jitter");
    let repo_s = repo.display().to_string();
    let gate_pr = || {
        let out = home.run(
            &[
                "gate", "--base", "main", "--head", "HEAD", "--pr", "5", "--repo", &repo_s,
            ],
            "nexus-mcp gate",
        );
        assert_ne!(out.status.code(), Some(2), "{}", text(&out));
        text(&out)
    };
    let first = gate_pr();
    assert!(
        first.contains("ruff:F401") && first.contains("bandit:B311"),
        "{first}"
    );
    assert!(first.contains("bandit:B101"), "{first}");
    put(&repo, module, body);
    commit_all(&repo, "drop the unused import");
    let second = gate_pr();
    assert!(!second.contains("ruff:F401"), "{second}");

    let Some(mut agent) = rules_agent(
        &home,
        &repo,
        &["--scopes", "rules:read,rules:propose"],
        TEST,
    ) else {
        return;
    };
    let answer = agent.capability("bootstrap_playbook", serde_json::json!({}));
    let enforced: Vec<String> = answer["queued"]
        .as_array()
        .unwrap_or_else(|| panic!("{answer:#}"))
        .iter()
        .map(|p| {
            p["fields"]["enforcedBy"][0]
                .as_str()
                .unwrap_or("")
                .to_string()
        })
        .collect();
    let at = |id: &str| {
        enforced
            .iter()
            .position(|e| e == id)
            .unwrap_or_else(|| panic!("{id} not queued: {enforced:?}"))
    };
    assert!(
        at("ruff:F401") < at("bandit:B311"),
        "fixed first: {enforced:?}"
    );
    assert!(
        !enforced
            .iter()
            .any(|e| e.contains("B101") || e.contains("S101")),
        "{enforced:?}"
    );
    let gate_source = answer["sources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["path"] == "gate records")
        .unwrap_or_else(|| panic!("{answer:#}"));
    assert!(
        gate_source["warning"]
            .as_str()
            .unwrap_or("")
            .contains("bandit:B101: only pytest"),
        "{gate_source:#}"
    );
    let f401 = answer["queued"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["fields"]["enforcedBy"][0] == "ruff:F401")
        .unwrap();
    assert!(
        f401["body"]
            .as_str()
            .unwrap()
            .contains("fixed 1 time(s) within a pull request"),
        "{f401:#}"
    );
    let again = agent.capability("bootstrap_playbook", serde_json::json!({}));
    assert_eq!(again["queued"], serde_json::json!([]), "{again:#}");
}

/// A waiver is stale only when its finding is gone from head, on any line of its file, as the
/// analyser that ran says: editing another line of a file with a waived finding (found on the
/// fastmcp sdist: 4,747 waivers, an import edit called every waiver of the file stale), or a
/// gate whose analysers are missing, reports no waiver unmatched; removing the finding does.
#[test]
fn a_waiver_is_unmatched_only_when_its_finding_is_gone() {
    if !support::analysers_on_path() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let (repo, data, _) = legacy_shell_baselined(tmp.path());
    commit_all(&repo, "baseline the legacy shell call");

    put(&repo, "app.py", &format!("# the shell runner\n{SHELL}"));
    commit_all(&repo, "a comment above it");
    let edited = gate(&repo, &data, &["--base", "HEAD~1", "--head", "HEAD"]);
    assert!(!text(&edited).contains("unmatched"), "{}", text(&edited));
    let blind = Command::new(bin())
        .args(["gate", "--base", "HEAD~1", "--head", "HEAD", "--repo"])
        .arg(&repo)
        .arg("--data-dir")
        .arg(&data)
        .env("PATH", "/usr/bin:/bin")
        .env_remove("NEXUS_API_URL")
        .output()
        .unwrap();
    assert_eq!(blind.status.code(), Some(2), "{}", text(&blind));
    assert!(!text(&blind).contains("unmatched"), "{}", text(&blind));

    put(&repo, "app.py", &SHELL.replace("shell=True", "shell=False"));
    commit_all(&repo, "no shell");
    let fixed = gate(&repo, &data, &["--base", "HEAD~1", "--head", "HEAD"]);
    assert!(
        text(&fixed).contains("waiver unmatched bandit:B602: app.py changed"),
        "{}",
        text(&fixed)
    );
}
