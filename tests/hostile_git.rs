#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Hostile repositories against `kg_compare_with_local_git` (and the freshness block of every
//! local answer): comparing a graph with a checkout runs none of the repository's programs.

#[path = "../nexus-lite/tests/common/hostile.rs"]
mod hostile;

use nexus_mcp::surfaces::code_kg::freshness::{Verdict, assess};
use std::collections::BTreeSet;

/// For each vector, against a dirty work tree (status must hash the modified file): no planted
/// program runs, and the modified file carrying a finding still makes the verdict unsafe. A graph
/// commit the clone lacks (fetched lazily by a partial clone) runs none either.
#[tokio::test]
async fn comparing_with_a_hostile_checkout_runs_none_of_its_programs() {
    let tmp = tempfile::tempdir().unwrap();
    let with_findings: BTreeSet<String> = [hostile::DIRTY_FILE.to_string()].into();
    let mut fired = Vec::new();
    for vector in hostile::VECTORS {
        let h = hostile::plant(tmp.path(), vector);
        let head = hostile::git(&h.repo, &["rev-parse", "HEAD"]);
        let ev = assess(&h.repo, &head, &with_findings, 20).await;
        assert_eq!(ev.head.as_deref(), Some(head.as_str()), "{vector}: {ev:?}");
        assert_eq!(
            ev.dirty_files,
            vec![hostile::DIRTY_FILE],
            "{vector}: {ev:?}"
        );
        assert_eq!(
            ev.verdict,
            Verdict::UnsafeForPatchDecision,
            "{vector}: {ev:?}"
        );
        let ev = assess(&h.repo, hostile::MISSING_COMMIT, &with_findings, 20).await;
        assert_ne!(ev.verdict, Verdict::Fresh, "{vector}: {ev:?}");
        assert!(
            ev.reasons
                .iter()
                .any(|r| r.contains("not in the local history")),
            "{vector}: {ev:?}"
        );
        if h.fired() {
            fired.push(h.vector);
        }
    }
    assert!(fired.is_empty(), "planted programs ran for: {fired:?}");
}
