//! The refusal a client reads when a confirmation is missing is worded from the manifest: what a
//! real run changes and who approves it. A tool that asks for a confirmation must say both.

use super::Checker;
use crate::locate::Step;
use crate::model::Manifest;

pub(super) fn check(c: &mut Checker<'_>, manifest: &Manifest) {
    for (i, tool) in manifest.tools.iter().enumerate() {
        let Some(m) = &tool.mutation else { continue };
        if m.require_true.is_empty() {
            continue;
        }
        for (key, value, example) in [
            ("changes", &m.changes, "changes: changes the graph"),
            (
                "approver",
                &m.approver,
                "approver: a human or the SR method",
            ),
        ] {
            if value.as_deref().is_none_or(|v| v.trim().is_empty()) {
                c.report(
                    &[Step::from("tools"), Step::from(i), Step::from("mutation")],
                    Some(format!("tool `{}`", tool.name)),
                    format!("a tool with `require_true` needs `mutation.{key}` for the refusal message a client reads (e.g. `{example}`)."),
                );
            }
        }
    }
}
