//! Markdown structure of a rule file: its H2 sections (one rule each in prose files) and its
//! first heading (a title), found by a real CommonMark parser so `##` lines inside code
//! fences are not headings.

use pulldown_cmark::{Event, HeadingLevel, Parser, Tag, TagEnd};

/// One part of a Markdown body: the text before the first H2 (`heading: None`) or an H2
/// section (its heading line included in `text`).
#[derive(Debug, Clone, PartialEq)]
pub struct Section {
    pub heading: Option<String>,
    pub text: String,
}

/// The body's preamble and H2 sections, in order. A body without H2 is one part.
pub fn split_h2(body: &str) -> Vec<Section> {
    let starts: Vec<(usize, String)> = headings(body)
        .into_iter()
        .filter(|h| h.level == HeadingLevel::H2)
        .map(|h| (h.start, h.text))
        .collect();
    let mut out = Vec::new();
    let first = starts.first().map(|(s, _)| *s).unwrap_or(body.len());
    out.push(Section {
        heading: None,
        text: body[..first].to_string(),
    });
    for (i, (start, text)) in starts.iter().enumerate() {
        let end = starts.get(i + 1).map(|(s, _)| *s).unwrap_or(body.len());
        out.push(Section {
            heading: Some(text.clone()),
            text: body[*start..end].to_string(),
        });
    }
    out
}

/// The text of the first heading of any level, if any.
pub fn first_heading(body: &str) -> Option<String> {
    headings(body).into_iter().next().map(|h| h.text)
}

/// Whether `text` holds anything besides headings of level 1 and blank space.
pub fn has_content_beyond_h1(text: &str) -> bool {
    let mut in_h1 = false;
    for event in Parser::new(text) {
        match event {
            Event::Start(Tag::Heading {
                level: HeadingLevel::H1,
                ..
            }) => in_h1 = true,
            Event::End(TagEnd::Heading(HeadingLevel::H1)) => in_h1 = false,
            Event::Text(t) | Event::Code(t) if !in_h1 && !t.trim().is_empty() => return true,
            Event::Html(_) | Event::Rule if !in_h1 => return true,
            _ => {}
        }
    }
    false
}

struct Heading {
    level: HeadingLevel,
    start: usize,
    text: String,
}

fn headings(body: &str) -> Vec<Heading> {
    let mut out = Vec::new();
    let mut current: Option<Heading> = None;
    for (event, range) in Parser::new(body).into_offset_iter() {
        match event {
            Event::Start(Tag::Heading { level, .. }) => {
                current = Some(Heading {
                    level,
                    start: range.start,
                    text: String::new(),
                });
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some(h) = current.as_mut() {
                    h.text.push_str(&t);
                }
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some(mut h) = current.take() {
                    h.text = h.text.trim().to_string();
                    out.push(h);
                }
            }
            _ => {}
        }
    }
    out
}

/// GitHub's heading anchor: lowercase, letters/digits/`-`/`_` kept, spaces to `-`.
pub fn slug(heading: &str) -> String {
    let mut out = String::new();
    for c in heading.trim().chars() {
        if c.is_alphanumeric() || c == '_' || c == '-' {
            out.extend(c.to_lowercase());
        } else if c == ' ' {
            out.push('-');
        }
    }
    if out.is_empty() {
        "section".to_string()
    } else {
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn h2_sections_ignore_hashes_in_code_fences_and_keep_h3_inside() {
        let body = "# Title\n\nIntro.\n\n## Testing\n\n```sh\n## not a heading\n```\n\n### Sub\n\ntext\n\n## Style `guide`\n\nshort\n";
        let parts = split_h2(body);
        assert_eq!(parts.len(), 3);
        assert_eq!(parts[0].heading, None);
        assert!(parts[0].text.contains("Intro."));
        assert_eq!(parts[1].heading.as_deref(), Some("Testing"));
        assert!(parts[1].text.starts_with("## Testing"));
        assert!(parts[1].text.contains("## not a heading") && parts[1].text.contains("### Sub"));
        assert_eq!(parts[2].heading.as_deref(), Some("Style guide"));
        assert_eq!(first_heading(body).as_deref(), Some("Title"));
        assert!(has_content_beyond_h1(&parts[0].text));
        assert!(!has_content_beyond_h1("# Only a title\n\n"));
    }

    #[test]
    fn slugs_follow_github_anchors() {
        assert_eq!(slug("API errors"), "api-errors");
        assert_eq!(slug("Style: the `guide`!"), "style-the-guide");
        assert_eq!(slug("Déjà vu"), "déjà-vu");
        assert_eq!(slug("!!!"), "section");
    }
}
