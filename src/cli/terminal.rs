//! Text for a person's terminal. Proposal titles, rule ids, file names and analyser messages
//! are written by agents and repositories: printed raw, a control sequence clears the screen,
//! sets the window title, hides text or forges a `PASSED` line. Every human-facing print of
//! the `gate` and `rules` commands goes through [`text`]; JSON and SARIF are escaped by their
//! encoders. GitHub Actions reads the same output for workflow commands (`::error …`): the
//! annotations of `gate --format github` escape their values with [`workflow_data`] and
//! [`workflow_property`], and no printed line starts with a file name.
//!
//! Escaped: every C0 control (tab too: it can push text out of sight), DEL, the C1 controls
//! U+0080–U+009F, the bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069),
//! the marks U+200E, U+200F, U+061C and the separators U+2028, U+2029. `\n`, `\r` and `\t` are
//! shown as such, the others as `\u{..}` (hex). A backslash is doubled when what follows it
//! would otherwise read as an escape, so the output is unambiguous (and reversible).

use std::borrow::Cow;

/// `s` safe to print on a terminal: one line, no control or direction-changing character.
pub fn text(s: &str) -> Cow<'_, str> {
    if !s.chars().any(|c| escaped(c) || c == '\\') {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let next = chars.peek().copied();
                let ambiguous =
                    next.is_some_and(|n| matches!(n, '\\' | 'n' | 'r' | 't' | 'u') || escaped(n));
                out.push_str(if ambiguous { "\\\\" } else { "\\" });
            }
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if escaped(c) => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// `s` as the message of a GitHub Actions workflow command (`::error …::message`): [`text`],
/// then GitHub's own escaping, so it stays one command's message.
pub fn workflow_data(s: &str) -> String {
    text(s)
        .replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// `s` as a property value of a workflow command (`file=…,title=…`): also `:` and `,`, which
/// would end the property or the properties.
pub fn workflow_property(s: &str) -> String {
    workflow_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// Whether `c` is never printed as itself.
pub fn escaped(c: char) -> bool {
    nexus_lite::core::util::terminal_control(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_bidi_are_shown_not_obeyed() {
        assert_eq!(text("plain `x` é"), "plain `x` é");
        assert_eq!(
            text("a\x1b[2J\nPASSED\r\t\u{7}\u{9b}\u{202e}z"),
            "a\\u{1b}[2J\\nPASSED\\r\\t\\u{7}\\u{9b}\\u{202e}z"
        );
        // A backslash stays one unless it would read as an escape.
        assert_eq!(text(r"\bfoo\(x\)"), r"\bfoo\(x\)");
        assert_eq!(text("\\n\\\n"), "\\\\n\\\\\\n");
    }

    /// GitHub decodes `%25`, `%0D`, `%0A` (and `%3A`, `%2C` in properties): a literal `%0A`
    /// stays text, and a value never ends its property or its command.
    #[test]
    fn workflow_values_stay_one_value() {
        assert_eq!(
            workflow_data("50%0A done\n::error::x"),
            "50%250A done\\n::error::x"
        );
        assert_eq!(workflow_property("a:b,c%\r"), "a%3Ab%2Cc%25\\r");
    }
}
