//! Quoting a caller's input back in a message, capped: what argument problems and tool errors
//! both need (its own module so that neither imports the other).

use std::borrow::Cow;

/// At most this many characters of an input value are quoted back in a message.
pub const ECHO_MAX: usize = 80;

/// `value` as a message may quote it: whole when short, else its first [`ECHO_MAX`] characters,
/// `…` and its length, so a huge argument never comes back in an error.
pub fn echo(value: &str) -> Cow<'_, str> {
    cut(value, ECHO_MAX)
}

/// Longest message an error carries: the backstop for a quote not capped where it was written
/// (a Nexus message, a schema error naming a huge property).
pub const MESSAGE_MAX: usize = 1000;

/// A whole message within [`MESSAGE_MAX`] characters.
pub fn capped(message: &str) -> Cow<'_, str> {
    cut(message, MESSAGE_MAX)
}

/// `text` whole when at most `max` characters, else its first `max`, `…` and its length.
pub fn cut(text: &str, max: usize) -> Cow<'_, str> {
    match text.char_indices().nth(max) {
        None => Cow::Borrowed(text),
        Some((at, _)) => Cow::Owned(format!(
            "{}… ({} characters)",
            &text[..at],
            text.chars().count()
        )),
    }
}
