//! Types a function's docstring gives in Sphinx fields (`:rtype: requests.Response`,
//! `:type timeout: Timeout`, `:param .Message m:`), for code typed in docstrings instead of
//! annotations (requests, paramiko and much pre-3.5 Python). jedi reads them too. An
//! annotation wins over the docstring.

use ruff_python_ast::Stmt;

use super::Src;
use crate::code::lang::{DOC_TYPE, FileParse, TypeFact};

/// Builtin and standard names a docstring often gives, which name no class of the repository.
const NOT_CLASSES: &[&str] = &[
    "Callable", "Iterable", "Iterator", "Mapping", "None", "Sequence", "any", "bool", "bytes",
    "callable", "dict", "file", "float", "int", "iterable", "iterator", "list", "object", "set",
    "str", "tuple", "type", "unicode",
];

/// Facts for function `idx` (its body `body`) from its docstring's Sphinx fields.
pub(super) fn facts(out: &mut FileParse, src: &Src<'_>, idx: usize, body: &[Stmt]) {
    let Some(doc) = docstring(src, body) else {
        return;
    };
    for line in doc.lines() {
        let Some(field) = line.trim_start().strip_prefix(':') else {
            continue;
        };
        let Some((head, ty)) = field.split_once(':') else {
            continue;
        };
        let words: Vec<&str> = head.split_whitespace().collect();
        match words.as_slice() {
            ["rtype"] => {
                if let Some(ty) = class_named(ty)
                    && !out.returns.iter().any(|(i, _)| *i == idx)
                {
                    out.returns.push((idx, ty));
                }
            }
            ["type", name] => param(out, idx, name, ty),
            // `:param .Message m:` (the type before the name, paramiko's style).
            ["param", ty, name] => param(out, idx, name, ty),
            _ => {}
        }
    }
}

/// A parameter's docstring type, unless something (its annotation, a default class) typed it.
fn param(out: &mut FileParse, idx: usize, name: &str, ty: &str) {
    if let Some(ty) = class_named(ty)
        && super::types::latest_fact(out, Some(idx), name).is_none()
    {
        out.types.push(TypeFact {
            scope: Some(idx),
            name: name.to_string(),
            ty,
        });
    }
}

/// The text of the string that opens a function's body, without its prefix and quotes.
fn docstring<'a>(src: &Src<'a>, body: &[Stmt]) -> Option<&'a str> {
    let Some(Stmt::Expr(first)) = body.first() else {
        return None;
    };
    super::types::is_string(&first.value).then(|| {
        src.of(&*first.value)
            .trim_start_matches(['r', 'R', 'u', 'U'])
            .trim_matches(['"', '\''])
    })
}

/// The one class a docstring type names, as a [`DOC_TYPE`] fact: `requests.Response`,
/// `` :class:`Response <Response>` ``, `~paramiko.message.Message`, `.Transport`,
/// `Timeout or None`, `str, optional` (none). `None` for builtins, several classes or prose.
fn class_named(ty: &str) -> Option<String> {
    let mut ty = ty.trim();
    for role in [":py:class:", ":class:", ":py:obj:", ":obj:"] {
        ty = ty.strip_prefix(role).unwrap_or(ty);
    }
    let ty = ty.trim_matches('`');
    // `Title <target>`: the target.
    let ty = match (ty.find('<'), ty.strip_suffix('>')) {
        (Some(open), Some(inner)) => &inner[open + 1..],
        _ => ty,
    };
    let mut named = ty
        .split(" or ")
        .flat_map(|part| part.split(','))
        .map(|part| part.trim().trim_start_matches(['~', '.']))
        .filter(|part| !matches!(*part, "" | "None" | "optional"));
    let one = named.next()?;
    let dotted = one.split('.').all(|p| {
        p.chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_')
            && p.chars().all(|c| c.is_alphanumeric() || c == '_')
    });
    let last = one.rsplit('.').next().unwrap_or(one);
    (named.next().is_none() && dotted && NOT_CLASSES.binary_search(&last).is_err())
        .then(|| format!("{DOC_TYPE}{one}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn not_classes_are_sorted_for_binary_search() {
        assert!(NOT_CLASSES.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn a_docstring_type_names_one_class_or_none() {
        let doc = |t: &str| class_named(t).map(|s| s[DOC_TYPE.len()..].to_string());
        assert_eq!(doc(" requests.Response"), Some("requests.Response".into()));
        assert_eq!(doc(":class:`Response <Response>`"), Some("Response".into()));
        assert_eq!(
            doc("`~paramiko.message.Message`"),
            Some("paramiko.message.Message".into())
        );
        assert_eq!(doc(".Transport"), Some("Transport".into()));
        assert_eq!(doc("Timeout or None"), Some("Timeout".into()));
        assert_eq!(doc("float or tuple"), None);
        assert_eq!(doc("str, optional"), None);
        assert_eq!(doc("dict"), None);
        assert_eq!(doc("a list of things"), None);
        assert_eq!(doc("urllib3 Timeout object"), None);
        assert_eq!(doc(""), None);
    }
}
