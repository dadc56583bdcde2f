//! Property tests for the trajectory viewer's pure parts: highlight spans rebuild the input,
//! result parsing never panics, the diff rebuilds both sides, audit files round-trip.
// proptest needs std features (fork/timeouts) the wasm32 runner lacks; native only.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use runlens_core::audit::{AuditDecision, AuditLog, Verdict};
use runlens_core::trajectory::{DiffTag, ResultView, result_table, sql_diff, sql_highlight};

/// SQL-looking text: keywords, names, quotes of every kind, comments, operators, unicode.
fn sqlish() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("SELECT".to_string()),
        Just(" FROM crm.dim_account".to_string()),
        Just("'it''s'".to_string()),
        Just("\"q\"".to_string()),
        Just("`b`".to_string()),
        Just("-- c\n".to_string()),
        Just("/* x */".to_string()),
        Just("$$d$$".to_string()),
        Just("::".to_string()),
        Just("\r\n".to_string()),
        Just("\t".to_string()),
        Just("é€😀".to_string()),
        Just("'".to_string()),
        Just("/*".to_string()),
        Just("`".to_string()),
        "[a-z0-9_.,;()=<>!?:@#$%^&*+-]{0,6}",
    ];
    prop::collection::vec(piece, 0..12).prop_map(|v| v.concat())
}

proptest! {
    #[test]
    fn highlight_spans_concatenate_to_arbitrary_input(s in any::<String>()) {
        let joined: String = sql_highlight(&s).iter().map(|x| x.text.as_str()).collect();
        prop_assert_eq!(joined, s);
    }

    #[test]
    fn highlight_spans_concatenate_to_sqlish_input(s in sqlish()) {
        let spans = sql_highlight(&s);
        prop_assert!(spans.iter().all(|x| !x.text.is_empty()));
        let joined: String = spans.iter().map(|x| x.text.as_str()).collect();
        prop_assert_eq!(joined, s);
    }

    #[test]
    fn result_table_is_total_and_rows_match_columns(s in any::<String>(), json in "(\\{\"[a-c]\":[0-9]\\}\n){0,4}") {
        for text in [s, json.clone(), format!("{json}... (truncated)")] {
            if let ResultView::Table { columns, rows, .. } = result_table(&text) {
                prop_assert!(rows.iter().all(|r| r.len() == columns.len()));
            }
        }
    }

    #[test]
    fn diff_rebuilds_both_sides(a in sqlish(), b in sqlish()) {
        let diff = sql_diff(&a, &b);
        for line in &diff {
            let inline: String = line.inline.iter().map(|(_, t)| t.as_str()).collect();
            prop_assert_eq!(&inline, &line.text);
        }
        let side = |keep: DiffTag| diff.iter().filter(|l| l.tag == DiffTag::Equal || l.tag == keep)
            .map(|l| l.text.clone()).collect::<Vec<_>>();
        let lines = |s: &str| s.lines().map(str::to_owned).collect::<Vec<_>>();
        prop_assert_eq!(side(DiffTag::Delete), lines(&a));
        prop_assert_eq!(side(DiffTag::Insert), lines(&b));
    }

    #[test]
    fn audit_log_round_trips_json_and_csv(
        entries in prop::collection::vec(("[a-z/,\" ]{1,8}", 0usize..3, any::<String>(), "[0-9T:Z-]{0,20}"), 0..8)
    ) {
        let mut log = AuditLog::new();
        for (key, v, note, at) in entries {
            log.record(AuditDecision { key, verdict: Verdict::ALL[v], note, decided_at: at });
        }
        prop_assert_eq!(AuditLog::from_json(&log.to_json()), Ok(log.clone()));
        prop_assert_eq!(AuditLog::from_csv(&log.to_csv()), Ok(log));
    }
}
