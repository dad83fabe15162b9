//! A mapped answer is picked, shortened and cut to the budget, and a cut page continues exactly
//! where it stopped through next_cursor.

use crate::support::inproc::Options;
use crate::{PAGE_ITEMS, engine};
use serde_json::{Value, json};

fn ids(result: &Value) -> Vec<String> {
    result["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["id"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn a_page_cut_by_the_budget_continues_with_next_cursor() {
    let e = engine(Options::default()).await;
    let first = e
        .call("list_notes", json!({"folder": "team", "limit": 50}))
        .await
        .unwrap();
    assert_ne!(first.is_error, Some(true), "{first:?}");
    let first = first.structured_content.unwrap();
    let size = first.to_string().chars().count();
    assert!(size <= 8000, "{size} characters over the 8,000 budget");
    let shown = ids(&first);
    assert!(
        !shown.is_empty() && shown.len() < PAGE_ITEMS,
        "the budget cuts the page: {} items shown",
        shown.len()
    );
    let item = &first["items"][0];
    assert!(item.get("internal_only").is_none(), "not picked: {item}");
    let summary = item["summary"].as_str().unwrap();
    assert!(
        summary.contains("more characters cut]") && summary.chars().count() < 450,
        "max_string 400 shortens summaries: {summary}"
    );
    assert_eq!(
        first["truncation"]["truncated"], true,
        "{}",
        first["truncation"]
    );
    let cursor = first["next_cursor"].as_str().unwrap().to_owned();
    assert_eq!(first["truncation"]["next_cursor"], cursor.as_str());

    // The next page starts right after the last item shown, from the same backend page.
    let second = e
        .call(
            "list_notes",
            json!({"folder": "team", "limit": 50, "cursor": cursor}),
        )
        .await
        .unwrap()
        .structured_content
        .unwrap();
    let next = ids(&second);
    assert_eq!(next.first(), Some(&format!("n{}", shown.len())), "{next:?}");
    let seen = e.backend.seen();
    assert_eq!(seen.len(), 2, "{seen:?}");
    assert_eq!(
        seen[1].param("cursor"),
        None,
        "still the backend's first page: {seen:?}"
    );
    assert_eq!(seen[1].param("folder").as_deref(), Some("team"));

    // Paging on reaches the backend's own cursor once the first backend page is used up.
    let mut cursor = second["next_cursor"].as_str().map(str::to_owned);
    let mut pages = 2;
    while let Some(c) = cursor.take() {
        pages += 1;
        assert!(pages < 40, "paging does not end");
        let page = e
            .call(
                "list_notes",
                json!({"folder": "team", "limit": 50, "cursor": c}),
            )
            .await
            .unwrap()
            .structured_content
            .unwrap();
        if ids(&page).iter().any(|id| id.starts_with("p2-")) {
            break;
        }
        cursor = page["next_cursor"].as_str().map(str::to_owned);
    }
    let last = e.backend.seen().pop().unwrap();
    assert_eq!(last.param("cursor").as_deref(), Some("b2"), "{last:?}");
}
