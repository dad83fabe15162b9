//! Acceptance criteria: the items between the configured markers (they win), else under the
//! first configured heading (case-insensitive) up to the next heading of the same or higher
//! level, nested subheadings kept as `group`. Any box mark is kept (`[~]`, `[-]`: `checked`
//! null); an item without a box has `checked` null; `#N` after the box is the index.
//! Checkboxes outside the section are not criteria.

use super::config::CriteriaConfig;
use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Criterion {
    pub index: usize,
    pub text: String,
    pub checked: Option<bool>,
    /// The character in the box (`" "`, `"x"`, `"~"`), `None` without a box.
    pub mark: Option<String>,
    pub group: Option<String>,
    /// 1-based line in the file.
    pub line: usize,
}

/// Where the criteria were found.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Criteria {
    pub items: Vec<Criterion>,
    /// `markers`, the heading text, or `None` when the document has no criteria section.
    pub section: Option<String>,
    pub warnings: Vec<String>,
}

/// The criteria of `body`, whose first line is line `body_line` of the file.
pub fn extract(body: &str, body_line: usize, cfg: &CriteriaConfig) -> Criteria {
    let lines: Vec<&str> = body.lines().collect();
    let mut warnings = Vec::new();
    let fenced = fence_map(&lines);
    let (range, section, headed) = match marker_range(&lines, &fenced, cfg) {
        Some(Ok(r)) => (Some(r), Some("markers".to_string()), false),
        Some(Err(w)) => {
            warnings.push(w);
            (None, None, false)
        }
        None => match heading_range(&lines, &fenced, &cfg.headings) {
            Some((r, title)) => (Some(r), Some(title), true),
            None => (None, None, false),
        },
    };
    let Some((start, end)) = range else {
        return Criteria {
            items: Vec::new(),
            section,
            warnings,
        };
    };
    let mut items: Vec<(Criterion, Option<usize>, usize)> = Vec::new();
    let mut group: Option<String> = None;
    for i in start..end {
        let line = lines[i];
        if fenced[i] {
            continue;
        }
        if headed && let Some((_, title)) = heading(line) {
            if cfg.include_subheadings {
                group = Some(title);
                continue;
            }
            break;
        }
        if let Some(item) = parse_item(line) {
            items.push((
                Criterion {
                    index: 0,
                    text: item.text,
                    checked: item.checked,
                    mark: item.mark,
                    group: group.clone(),
                    line: body_line + i,
                },
                item.number,
                item.indent,
            ));
        } else if let Some((last, _, indent)) = items.last_mut() {
            let t = line.trim();
            let lead = line.len() - line.trim_start().len();
            if !t.is_empty() && lead > *indent {
                last.text.push(' ');
                last.text.push_str(t);
            }
        }
    }
    if items.is_empty() {
        warnings.push(format!(
            "the criteria section ({}) has no list items",
            section.as_deref().unwrap_or("?")
        ));
    }
    let numbered: Vec<Option<usize>> = items.iter().map(|(_, n, _)| *n).collect();
    if numbered.iter().any(Option::is_some) {
        let mut seen = std::collections::BTreeSet::new();
        for (pos, n) in numbered.iter().enumerate() {
            match n {
                Some(n) if !seen.insert(*n) => {
                    warnings.push(format!("criterion #{n} is numbered twice"))
                }
                None => warnings.push(format!(
                    "criterion {} has no #N number while others have one",
                    pos + 1
                )),
                _ => {}
            }
        }
        let expected: std::collections::BTreeSet<usize> = (1..=numbered.len()).collect();
        if seen != expected && seen.len() == numbered.len() {
            warnings.push(format!(
                "criteria numbers have gaps: {}",
                seen.iter()
                    .map(|n| format!("#{n}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
    let items = items
        .into_iter()
        .enumerate()
        .map(|(pos, (mut c, n, _))| {
            c.index = n.unwrap_or(pos + 1);
            c
        })
        .collect();
    Criteria {
        items,
        section,
        warnings,
    }
}

/// Which lines are inside fenced code blocks (fences included).
fn fence_map(lines: &[&str]) -> Vec<bool> {
    let mut out = Vec::with_capacity(lines.len());
    let mut open: Option<(char, usize)> = None;
    for l in lines {
        let t = l.trim_start();
        let fence = ['`', '~'].into_iter().find_map(|c| {
            let n = t.chars().take_while(|x| *x == c).count();
            (n >= 3).then_some((c, n))
        });
        match (open, fence) {
            (None, Some(f)) => {
                open = Some(f);
                out.push(true);
            }
            (Some((c, n)), Some((c2, n2))) if c == c2 && n2 >= n && t.trim_end().len() == n2 => {
                open = None;
                out.push(true);
            }
            (o, _) => out.push(o.is_some()),
        }
    }
    out
}

type Range = (usize, usize);

fn marker_range(
    lines: &[&str],
    fenced: &[bool],
    cfg: &CriteriaConfig,
) -> Option<Result<Range, String>> {
    let begin = lines
        .iter()
        .enumerate()
        .position(|(i, l)| !fenced[i] && l.trim() == cfg.markers.begin.trim())?;
    match lines[begin + 1..]
        .iter()
        .position(|l| l.trim() == cfg.markers.end.trim())
    {
        Some(n) => Some(Ok((begin + 1, begin + 1 + n))),
        None => Some(Err(format!(
            "`{}` has no closing `{}`; the criteria are not read until the marker is closed",
            cfg.markers.begin, cfg.markers.end
        ))),
    }
}

/// An ATX heading: (level, text).
fn heading(line: &str) -> Option<(usize, String)> {
    let t = line.trim_start();
    if line.len() - t.len() > 3 {
        return None;
    }
    let level = t.chars().take_while(|c| *c == '#').count();
    if !(1..=6).contains(&level) {
        return None;
    }
    let rest = &t[level..];
    if !rest.is_empty() && !rest.starts_with([' ', '\t']) {
        return None;
    }
    Some((level, rest.trim().trim_end_matches('#').trim().to_string()))
}

fn heading_range(lines: &[&str], fenced: &[bool], names: &[String]) -> Option<(Range, String)> {
    for name in names {
        let wanted = name.trim().trim_end_matches(':').to_lowercase();
        for (i, l) in lines.iter().enumerate() {
            if fenced[i] {
                continue;
            }
            let Some((level, text)) = heading(l) else {
                continue;
            };
            if text.trim_end_matches(':').to_lowercase() != wanted {
                continue;
            }
            let end = (i + 1..lines.len())
                .find(|j| !fenced[*j] && heading(lines[*j]).is_some_and(|(lv, _)| lv <= level))
                .unwrap_or(lines.len());
            return Some(((i + 1, end), text));
        }
    }
    None
}

struct Item {
    text: String,
    checked: Option<bool>,
    mark: Option<String>,
    number: Option<usize>,
    indent: usize,
}

fn parse_item(line: &str) -> Option<Item> {
    let t = line.trim_start();
    let indent = line.len() - t.len();
    let rest = if let Some(r) = t.strip_prefix(['-', '*', '+']) {
        r
    } else {
        let digits = t.chars().take_while(char::is_ascii_digit).count();
        if digits == 0 {
            return None;
        }
        t[digits..].strip_prefix(['.', ')'])?
    };
    if !rest.starts_with([' ', '\t']) {
        return None;
    }
    let rest = rest.trim_start();
    let (mark, rest) = match rest.strip_prefix('[') {
        Some(r) => {
            let mut chars = r.char_indices();
            match (chars.next(), chars.next()) {
                (Some((_, c)), Some((j, ']'))) => (Some(c.to_string()), r[j + 1..].trim_start()),
                _ => (None, rest),
            }
        }
        None => (None, rest),
    };
    let checked = match mark.as_deref() {
        Some(" ") => Some(false),
        Some("x") | Some("X") => Some(true),
        _ => None,
    };
    let (number, text) = match rest.strip_prefix('#') {
        Some(r) => {
            let digits = r.chars().take_while(char::is_ascii_digit).count();
            match r[..digits].parse::<usize>() {
                Ok(n) if r[digits..].is_empty() || r[digits..].starts_with(' ') => {
                    (Some(n), r[digits..].trim_start())
                }
                _ => (None, rest),
            }
        }
        None => (None, rest),
    };
    Some(Item {
        text: text.trim().to_string(),
        checked,
        mark,
        number,
        indent,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg() -> CriteriaConfig {
        CriteriaConfig::default()
    }

    /// (ordinal, text, checked, mark, line) of one parsed criterion.
    type Row<'a> = (usize, &'a str, Option<bool>, Option<&'a str>, usize);

    #[test]
    fn markers_win_and_any_mark_is_kept() {
        let body = "## Acceptance Criteria\n<!-- AC:BEGIN -->\n- [x] #1 done\n- [ ] #2 open\n- [~] #3 partly\n<!-- AC:END -->\n<!-- DOD:BEGIN -->\n- [ ] #1 dod\n<!-- DOD:END -->\n";
        let c = extract(body, 10, &cfg());
        assert_eq!(c.section.as_deref(), Some("markers"));
        let got: Vec<Row> = c
            .items
            .iter()
            .map(|i| {
                (
                    i.index,
                    i.text.as_str(),
                    i.checked,
                    i.mark.as_deref(),
                    i.line,
                )
            })
            .collect();
        assert_eq!(
            got,
            vec![
                (1, "done", Some(true), Some("x"), 12),
                (2, "open", Some(false), Some(" "), 13),
                (3, "partly", None, Some("~"), 14),
            ]
        );
        assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    }

    #[test]
    fn a_heading_section_keeps_groups_and_continuations_and_stops_at_the_next_heading() {
        let body = "- [ ] outside\n## Acceptance criteria\n### Storage\n1. [x] first\n2) [ ] second\n   continued\n### Access\n- [-] dropped\n- no box\n## Notes\n- [ ] not read\n";
        let c = extract(body, 1, &cfg());
        assert_eq!(c.section.as_deref(), Some("Acceptance criteria"));
        let got: Vec<(&str, Option<&str>, Option<bool>)> = c
            .items
            .iter()
            .map(|i| (i.text.as_str(), i.group.as_deref(), i.checked))
            .collect();
        assert_eq!(
            got,
            vec![
                ("first", Some("Storage"), Some(true)),
                ("second continued", Some("Storage"), Some(false)),
                ("dropped", Some("Access"), None),
                ("no box", Some("Access"), None),
            ]
        );
    }

    #[test]
    fn no_section_is_empty_and_gaps_or_empty_sections_warn() {
        let none = extract("# T\n- [ ] todo\n", 1, &cfg());
        assert!(none.items.is_empty() && none.section.is_none());
        let gaps = extract(
            "<!-- AC:BEGIN -->\n- [ ] #1 a\n- [ ] #3 b\n<!-- AC:END -->\n",
            1,
            &cfg(),
        );
        assert!(
            gaps.warnings.iter().any(|w| w.contains("gaps")),
            "{:?}",
            gaps.warnings
        );
        let empty = extract("## Acceptance Criteria\n\ntext only\n", 1, &cfg());
        assert!(empty.warnings.iter().any(|w| w.contains("no list items")));
        let fenced = extract(
            "## Acceptance Criteria\n```\n- [ ] in code\n```\n- [ ] real\n",
            1,
            &cfg(),
        );
        assert_eq!(fenced.items.len(), 1);
    }
}
