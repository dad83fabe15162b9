//! Links in Markdown bodies, read with a CommonMark parser (pulldown-cmark), so code spans and
//! fences hold no links and nested brackets parse: inline and reference links, autolinks,
//! images, wikilinks `[[T]]`, `[[T|label]]`, `[[T#H]]`, embeds `![[T]]`, and typed list items
//! `- depends_on [[T]]` whose first word names a relation. Also the path arithmetic links need.

use pulldown_cmark::{Event, LinkType, Options, Parser, Tag, TagEnd};

/// A link found in a body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BodyLink {
    /// The destination as written.
    pub target: String,
    /// 1-based line within the body.
    pub line: usize,
    pub wikilink: bool,
    pub embed: bool,
    /// The relation word before the link on a list item (`depends_on` in `- depends_on [[T]]`).
    pub relation: Option<String>,
}

/// The links of `body`.
pub fn extract(body: &str, markdown: bool, wikilinks: bool) -> Vec<BodyLink> {
    let mut opts = Options::ENABLE_TABLES | Options::ENABLE_TASKLISTS;
    if wikilinks {
        opts |= Options::ENABLE_WIKILINKS;
    }
    let starts = line_starts(body);
    let mut out = Vec::new();
    // The text of the current list item before its first link (a relation word, maybe).
    let mut item_text: Option<String> = None;
    for (event, range) in Parser::new_ext(body, opts).into_offset_iter() {
        match event {
            Event::Start(Tag::Item) => item_text = Some(String::new()),
            Event::End(TagEnd::Item) => item_text = None,
            Event::Text(t) => {
                if let Some(s) = item_text.as_mut() {
                    s.push_str(&t);
                }
            }
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                ..
            })
            | Event::Start(Tag::Image {
                link_type,
                dest_url,
                ..
            }) => {
                let wiki = matches!(link_type, LinkType::WikiLink { .. });
                if (wiki && !wikilinks) || (!wiki && !markdown) {
                    continue;
                }
                let embed = body[range.clone()].starts_with('!');
                let relation = item_text.take().and_then(|t| relation_word(&t));
                out.push(BodyLink {
                    target: dest_url.to_string(),
                    line: line_of(&starts, range.start),
                    wikilink: wiki,
                    embed,
                    relation,
                });
            }
            _ => {}
        }
    }
    out
}

fn relation_word(text: &str) -> Option<String> {
    let t = text.trim().trim_end_matches(':').trim();
    (!t.is_empty()
        && !t.contains(char::is_whitespace)
        && t.chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-'))
    .then(|| t.to_string())
}

/// Byte offsets where each line starts.
pub fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect()
}

/// The 1-based line holding byte `offset`.
pub fn line_of(starts: &[usize], offset: usize) -> usize {
    match starts.binary_search(&offset) {
        Ok(i) => i + 1,
        Err(i) => i,
    }
}

/// A destination cleaned for resolution: `<…>`, `#fragment` and `?query` stripped and
/// percent-decoded. `None` when nothing is left (a same-page `#anchor`).
pub fn clean_target(raw: &str) -> Option<String> {
    let t = raw.trim();
    let t = t
        .strip_prefix('<')
        .and_then(|x| x.strip_suffix('>'))
        .unwrap_or(t);
    let t = t.split('#').next().unwrap_or("");
    let t = t.split('?').next().unwrap_or("");
    if t.is_empty() {
        return None;
    }
    Some(
        percent_encoding::percent_decode_str(t)
            .decode_utf8_lossy()
            .into_owned(),
    )
}

/// `scheme:` at the start (`https:`, `mailto:`), or a protocol-relative `//host`.
pub fn is_url(s: &str) -> bool {
    if s.starts_with("//") {
        return true;
    }
    match s.split_once(':') {
        Some((scheme, _)) => {
            scheme.len() > 1
                && scheme
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic())
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        }
        None => false,
    }
}

/// `rel` joined to the workspace-relative directory `base` (`""` is the root), normalised;
/// `None` when it climbs above the root.
pub fn join(base: &str, rel: &str) -> Option<String> {
    let mut parts: Vec<&str> = if rel.starts_with('/') {
        Vec::new()
    } else {
        base.split('/').filter(|s| !s.is_empty()).collect()
    };
    for seg in rel.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    Some(parts.join("/"))
}

/// The directory part of a workspace-relative path (`""` for a top-level file).
pub fn parent(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(d, _)| d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn targets(body: &str) -> Vec<String> {
        extract(body, true, true)
            .into_iter()
            .map(|l| l.target)
            .collect()
    }

    #[test]
    fn links_in_code_are_not_links() {
        let body = "See [a](a.md) and `[b](b.md)` and `[[c]]`.\n\n```md\n[d](d.md) [[e]]\n```\n\n    [f](f.md)\n";
        assert_eq!(targets(body), vec!["a.md"]);
    }

    #[test]
    fn wikilink_forms_and_relations_are_read() {
        let body = "- depends_on [[install]]\n- see-also: [[trouble|Troubles]]\n- plain [[x#Heading]] and [[y]]\n\n![[diagram.png]]\n";
        let links = extract(body, true, true);
        let got: Vec<(&str, Option<&str>, bool, usize)> = links
            .iter()
            .map(|l| (l.target.as_str(), l.relation.as_deref(), l.embed, l.line))
            .collect();
        assert_eq!(
            got,
            vec![
                ("install", Some("depends_on"), false, 1),
                ("trouble", Some("see-also"), false, 2),
                ("x#Heading", Some("plain"), false, 3),
                ("y", None, false, 3),
                ("diagram.png", None, true, 5),
            ]
        );
        assert!(links.iter().all(|l| l.wikilink));
    }

    #[test]
    fn nested_brackets_and_reference_links_parse() {
        let body = "[a [nested] label](x.md) and [ref][r]\n\n[r]: <y z.md>\n";
        assert_eq!(targets(body), vec!["x.md", "y z.md"]);
    }

    #[test]
    fn targets_are_cleaned_and_paths_joined() {
        assert_eq!(clean_target("<a%20b.md#h>").as_deref(), Some("a b.md"));
        assert_eq!(clean_target("#top"), None);
        assert!(is_url("https://x.y/z") && is_url("mailto:a@b") && !is_url("a/b.md"));
        assert_eq!(
            join("docs/guide", "../ref/x.md").as_deref(),
            Some("docs/ref/x.md")
        );
        assert_eq!(join("docs", "/keps/a").as_deref(), Some("keps/a"));
        assert_eq!(join("docs", "../../x"), None);
    }
}
