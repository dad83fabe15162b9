//! Two properties of one object that become the same Rust field (`taskId` and `task_id`) would
//! not compile, or worse, one would shadow the other: refuse them, naming both.

use super::Checker;
use crate::locate::Step;
use crate::model::Manifest;
use crate::naming;
use crate::schema;
use serde_json::Value;

pub(super) fn check(c: &mut Checker<'_>, manifest: &Manifest) {
    for (name, ty) in &manifest.types {
        let at = [Step::from("types"), Step::from(name.as_str())];
        one_object(c, &at, Some(format!("type `{name}`")), ty);
    }
    for (i, tool) in manifest.tools.iter().enumerate() {
        for (key, schema) in [("input", &tool.input), ("output", &tool.output)] {
            let at = [Step::from("tools"), Step::from(i), Step::from(key)];
            one_object(c, &at, Some(format!("tool `{}`", tool.name)), schema);
        }
    }
}

fn one_object(c: &mut Checker<'_>, at: &[Step], subject: Option<String>, schema: &Value) {
    let props = schema::properties(schema);
    for (first, second, field) in naming::collisions(props.iter().map(|(p, _)| *p)) {
        let mut here = at.to_vec();
        here.extend([Step::from("properties"), Step::from(second)]);
        c.report(
            &here,
            subject.clone(),
            format!(
                "properties `{first}` and `{second}` both become the Rust field `{field}`. Rename one of them (JSON names that differ only in case or separators are confusing for clients too)."
            ),
        );
    }
}
