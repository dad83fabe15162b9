//! A document's Markdown as HTML a browser may show: CommonMark with tables and task lists,
//! where raw HTML is shown as text (comments dropped), images become their alt text (no
//! request leaves the page) and a link keeps its target only when it is http, https, mailto
//! or a fragment (`javascript:` and friends become inert text).

use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd, html};

pub fn to_html(markdown: &str) -> String {
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_FOOTNOTES;
    let events = Parser::new_ext(markdown, options).filter_map(|event| match event {
        Event::Html(raw) | Event::InlineHtml(raw) => {
            (!raw.trim_start().starts_with("<!--")).then_some(Event::Text(raw))
        }
        Event::Start(Tag::Image { .. }) => Some(Event::Text(CowStr::Borrowed("[image: "))),
        Event::End(TagEnd::Image) => Some(Event::Text(CowStr::Borrowed("]"))),
        Event::Start(Tag::Link {
            link_type,
            dest_url,
            title,
            id,
        }) => Some(Event::Start(Tag::Link {
            link_type,
            dest_url: if safe_target(&dest_url) {
                dest_url
            } else {
                CowStr::Borrowed("#")
            },
            title,
            id,
        })),
        other => Some(other),
    });
    let mut out = String::with_capacity(markdown.len() * 3 / 2);
    html::push_html(&mut out, events);
    out
}

fn safe_target(url: &str) -> bool {
    let url = url.trim();
    if url.starts_with('#') {
        return true;
    }
    let lower = url.to_ascii_lowercase();
    ["http://", "https://", "mailto:"]
        .iter()
        .any(|scheme| lower.starts_with(scheme))
}

#[cfg(test)]
mod tests {
    use super::to_html;

    #[test]
    fn raw_html_is_text_and_comments_go() {
        let html = to_html(
            "<script>alert(1)</script>\n\nhi <b onclick=x>there</b>\n\n<!-- SECTION:BEGIN -->\n",
        );
        assert!(!html.contains("<script"), "{html}");
        assert!(!html.contains("<b "), "{html}");
        assert!(html.contains("&lt;script&gt;"), "{html}");
        assert!(!html.contains("SECTION"), "{html}");
    }

    #[test]
    fn script_links_and_images_are_inert() {
        let html = to_html(
            "[x](javascript:alert(1)) [y](JaVaScRiPt:alert(1)) [z](https://example.org/a)\n\n![pic](https://evil.example/p.png)",
        );
        assert!(!html.to_ascii_lowercase().contains("javascript:"), "{html}");
        assert!(html.contains("href=\"https://example.org/a\""), "{html}");
        assert!(!html.contains("<img"), "{html}");
        assert!(html.contains("[image: pic]"), "{html}");
    }

    #[test]
    fn task_lists_render_their_check_state() {
        let html = to_html("- [x] done\n- [ ] open\n");
        assert!(html.contains("checked"), "{html}");
    }
}
