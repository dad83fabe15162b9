//! A mapped answer is picked, shortened and cut to the budget, and a cut page continues exactly
//! where it stopped through next_cursor, whichever of its lists was cut.

use crate::support::inproc::Options;
use crate::{FOLDERS, PAGE_ITEMS, deep_folders, engine};
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

fn strings(result: &Value, key: &str) -> Vec<String> {
    result[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn every_cut_list_of_a_page_continues_through_the_one_cursor() {
    // Folder `deep` pages its notes through the backend (two pages) and sends its 300
    // subfolders whole with each: both lists are cut, and the one cursor reaches every item of
    // both, each once, in order.
    let e = engine(Options::default()).await;
    let (mut notes, mut folders) = (Vec::new(), Vec::new());
    let mut cursor: Option<String> = None;
    let mut folder_cuts = 0;
    for page in 1.. {
        assert!(page < 60, "paging does not end");
        let mut args = json!({"folder": "deep", "limit": 50});
        if let Some(c) = &cursor {
            args["cursor"] = json!(c);
        }
        let result = e.call("list_notes", args).await.unwrap();
        assert_ne!(result.is_error, Some(true), "{result:?}");
        let result = result.structured_content.unwrap();
        let size = result.to_string().chars().count();
        assert!(size <= 8000, "page {page}: {size} characters");
        let cuts = result["truncation"]["cuts"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        if cuts.iter().any(|c| c["path"] == "folders") {
            folder_cuts += 1;
        }
        match &cursor {
            None => assert!(result.get("continued_from").is_none(), "{result}"),
            // Each resumed page says how many of each list came before it, so an emptied list
            // reads as "shown", not as "none".
            Some(_) => assert_eq!(
                result["continued_from"]["folders"],
                json!(folders.len()),
                "page {page}: {}",
                result["continued_from"]
            ),
        }
        notes.extend(ids(&result));
        folders.extend(strings(&result, "folders"));
        cursor = result["next_cursor"].as_str().map(str::to_owned);
        if cursor.is_none() {
            // Summaries stay shortened (max_string; get_note reads one whole), but no list is.
            assert_eq!(cuts, Vec::<Value>::new(), "a cut with no cursor: {result}");
            break;
        }
    }
    let expected_notes: Vec<String> = ["n", "p2-n"]
        .iter()
        .flat_map(|p| (0..PAGE_ITEMS).map(move |i| format!("{p}{i}")))
        .collect();
    assert_eq!(notes, expected_notes);
    assert_eq!(folders.len(), FOLDERS);
    assert_eq!(folders, deep_folders());
    assert!(
        folder_cuts >= 2,
        "the subfolders alone need more than one answer: {folder_cuts} cuts"
    );
}

#[tokio::test]
async fn a_cursor_naming_a_list_the_tool_does_not_page_is_refused() {
    use base64::Engine as _;
    let e = engine(Options::default()).await;
    let forged = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .encode(json!({"b": null, "s": 0, "a": {"secrets": 3}}).to_string());
    let result = e
        .call("list_notes", json!({"folder": "deep", "cursor": forged}))
        .await
        .unwrap();
    assert_eq!(result.is_error, Some(true), "{result:?}");
    let text = format!("{result:?}");
    assert!(
        text.contains("is not a cursor this server issued"),
        "{text}"
    );
}
