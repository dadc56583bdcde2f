//! The generated 710-table catalog of the `large` preset (ten namespaces of 71 tables).
//!
//! Names are built from fixed word lists, so the catalog is the same for every seed.

use crate::catalog::{Catalog, Column, Metric, Role, Table};

const NAMESPACES: [&str; 10] = [
    "marts", "crm", "dds", "finance", "product", "support", "growth", "ops", "billing", "people",
];
const SUBJECTS: [&str; 14] = [
    "account",
    "customer",
    "vendor",
    "product",
    "region",
    "campaign",
    "warehouse",
    "project",
    "team",
    "device",
    "contract",
    "channel",
    "partner",
    "store",
];
const EVENTS: [&str; 19] = [
    "orders",
    "payments",
    "refunds",
    "sessions",
    "tickets",
    "shipments",
    "invoices",
    "signups",
    "renewals",
    "returns",
    "visits",
    "alerts",
    "deployments",
    "claims",
    "bookings",
    "transfers",
    "reviews",
    "downloads",
    "quotes",
];
const GRAINS: [&str; 3] = ["daily", "weekly", "monthly"];

fn col(name: &str, ty: &str, doc: &str) -> Column {
    Column {
        name: name.into(),
        ty: ty.into(),
        doc: doc.into(),
    }
}

/// Builds the 710-table catalog: per namespace 14 dimensions and 57 facts.
pub fn large() -> Catalog {
    let mut tables = Vec::with_capacity(710);
    for ns in NAMESPACES {
        let first_dim = tables.len();
        for subject in SUBJECTS {
            tables.push(Table {
                ns: ns.into(),
                name: format!("dim_{subject}"),
                doc: format!("one row per {subject} ({ns} view)"),
                columns: vec![
                    col(&format!("{subject}_id"), "String", "stable key"),
                    col(&format!("{subject}_name"), "String", "display name"),
                    col("segment", "String", "business segment"),
                    col("created_on", "Date", "first seen"),
                ],
                role: Role::Dim {
                    key_col: format!("{subject}_id"),
                    name_col: format!("{subject}_name"),
                    attr: ("segment".into(), "segment".into()),
                },
            });
        }
        let mut made = 0;
        'outer: for event in EVENTS {
            for grain in GRAINS {
                if made == 57 {
                    break 'outer;
                }
                let subject_ix = (made * 5 + 3) % SUBJECTS.len();
                let subject = SUBJECTS[subject_ix];
                let date_col = if grain == "daily" {
                    "day"
                } else {
                    "period_start"
                };
                tables.push(Table {
                    ns: ns.into(),
                    name: format!("fct_{event}_{grain}"),
                    doc: format!("{grain} {event} per {subject}"),
                    columns: vec![
                        col(date_col, "Date", "period"),
                        col(
                            &format!("{subject}_id"),
                            "String",
                            &format!("joins `{ns}.dim_{subject}`"),
                        ),
                        col(&format!("{event}_count"), "UInt64", "number of events"),
                        col("amount_usd", "Float64", "value in USD"),
                    ],
                    role: Role::Fact {
                        date_col: date_col.into(),
                        metrics: vec![
                            Metric {
                                col: "amount_usd".into(),
                                label: format!("{event} value"),
                            },
                            Metric {
                                col: format!("{event}_count"),
                                label: format!("{event} count"),
                            },
                        ],
                        link: Some((format!("{subject}_id"), first_dim + subject_ix)),
                        noun: event.into(),
                    },
                });
                made += 1;
            }
        }
    }
    Catalog {
        tables,
        namespaces: NAMESPACES.iter().map(|s| s.to_string()).collect(),
    }
}
