//! The synthetic warehouse: tables, columns and the roles the question templates use.
//!
//! `article` is a hand-written 18-table warehouse in three namespaces (`marts`, `crm`,
//! `dds`); `large` is a generated 710-table catalog (see `catalog_large.rs`).

/// A column: name, ClickHouse type and a short description.
#[derive(Debug, Clone)]
pub struct Column {
    /// Column name.
    pub name: String,
    /// ClickHouse type, e.g. `Float64`.
    pub ty: String,
    /// One-line description for the schema prompt.
    pub doc: String,
}

/// A numeric measure on a fact table.
#[derive(Debug, Clone)]
pub struct Metric {
    /// Column holding the measure.
    pub col: String,
    /// Human label, e.g. `MRR (USD)`.
    pub label: String,
}

/// What a table is for, as the question templates see it.
#[derive(Debug, Clone)]
pub enum Role {
    /// Facts with a date column, measures and (optionally) a key into a dimension.
    Fact {
        /// Date or DateTime column.
        date_col: String,
        /// Measures, the first is the main one.
        metrics: Vec<Metric>,
        /// `(key column, index of the dimension table)`.
        link: Option<(String, usize)>,
        /// Plural noun for one row, e.g. `support cases`.
        noun: String,
    },
    /// A dimension with a key, a display name and one descriptive attribute.
    Dim {
        /// Key column shared with the facts.
        key_col: String,
        /// Display-name column (what questions name).
        name_col: String,
        /// `(attribute column, human label)`, e.g. `("region", "region")`.
        attr: (String, String),
    },
}

/// One table of the warehouse.
#[derive(Debug, Clone)]
pub struct Table {
    /// Namespace (database), e.g. `crm`.
    pub ns: String,
    /// Table name inside the namespace.
    pub name: String,
    /// One-line description for the schema prompt.
    pub doc: String,
    /// Columns in declaration order.
    pub columns: Vec<Column>,
    /// Role used by the templates.
    pub role: Role,
}

impl Table {
    /// `namespace.table`, the form the harness matchers capture.
    pub fn qualified(&self) -> String {
        format!("{}.{}", self.ns, self.name)
    }
}

/// A warehouse: its tables and namespaces.
#[derive(Debug, Clone)]
pub struct Catalog {
    /// Tables; indices are stable and used as table ids.
    pub tables: Vec<Table>,
    /// Namespaces in prompt order.
    pub namespaces: Vec<String>,
}

impl Catalog {
    /// Indices of fact tables that link to a dimension.
    pub fn linked_facts(&self) -> Vec<usize> {
        (0..self.tables.len())
            .filter(|&i| matches!(&self.tables[i].role, Role::Fact { link: Some(_), .. }))
            .collect()
    }

    /// Indices of all fact tables.
    pub fn facts(&self) -> Vec<usize> {
        (0..self.tables.len())
            .filter(|&i| matches!(self.tables[i].role, Role::Fact { .. }))
            .collect()
    }

    /// Index of the table with this qualified name.
    pub fn find(&self, qualified: &str) -> Option<usize> {
        self.tables.iter().position(|t| t.qualified() == qualified)
    }
}

/// Parses `"name Type: doc; name2 Type2: doc2"` into columns.
pub fn columns(spec: &str) -> Vec<Column> {
    spec.split(';')
        .filter_map(|part| {
            let (head, doc) = part.split_once(':').unwrap_or((part, ""));
            let mut words = head.split_whitespace();
            let name = words.next()?.to_string();
            let ty = words.collect::<Vec<_>>().join(" ");
            Some(Column {
                name,
                ty,
                doc: doc.trim().to_string(),
            })
        })
        .collect()
}

fn metric(col: &str, label: &str) -> Metric {
    Metric {
        col: col.to_string(),
        label: label.to_string(),
    }
}

struct FactSpec<'a> {
    ns: &'a str,
    name: &'a str,
    doc: &'a str,
    cols: &'a str,
    date: &'a str,
    metrics: &'a [(&'a str, &'a str)],
    link: Option<(&'a str, &'a str)>,
    noun: &'a str,
}

fn dim(
    ns: &str,
    name: &str,
    doc: &str,
    cols: &str,
    key: &str,
    label: &str,
    attr: (&str, &str),
) -> Table {
    Table {
        ns: ns.into(),
        name: name.into(),
        doc: doc.into(),
        columns: columns(cols),
        role: Role::Dim {
            key_col: key.into(),
            name_col: label.into(),
            attr: (attr.0.into(), attr.1.into()),
        },
    }
}

fn fact(spec: FactSpec<'_>, tables: &[Table]) -> Table {
    let link = spec.link.and_then(|(key, dim)| {
        tables
            .iter()
            .position(|t| t.qualified() == dim)
            .map(|i| (key.to_string(), i))
    });
    Table {
        ns: spec.ns.into(),
        name: spec.name.into(),
        doc: spec.doc.into(),
        columns: columns(spec.cols),
        role: Role::Fact {
            date_col: spec.date.into(),
            metrics: spec.metrics.iter().map(|(c, l)| metric(c, l)).collect(),
            link,
            noun: spec.noun.into(),
        },
    }
}

/// The 18-table warehouse of the `article` preset (namespaces `marts`, `crm`, `dds`).
pub fn article() -> Catalog {
    let mut t: Vec<Table> = vec![
        dim(
            "marts",
            "org_current",
            "one row per organisation, current attributes (denormalised)",
            "org_id String: stable id, e.g. `o0042`; org_name String: display name; plan String: `starter`, `growth` or `enterprise`; region String: e.g. `EMEA`; sub_region String: e.g. `EMEA North`; segment String: `smb`, `mid_market` or `enterprise`",
            "org_id",
            "org_name",
            ("plan", "plan"),
        ),
        dim(
            "crm",
            "dim_account",
            "one row per CRM account",
            "account_key String: joins the CRM facts; org_id String: joins the marts; account_name String: matches `org_name`; owner_id String: account executive; territory_id String: sales territory; signed_on Date: contract start",
            "account_key",
            "account_name",
            ("owner_id", "account owner"),
        ),
        dim(
            "crm",
            "dim_owner",
            "account executives and their teams",
            "owner_id String: e.g. `ae-12`; owner_name String: full name; role String: `AE`, `SE` or `CSM`; team String: e.g. `EMEA Enterprise`",
            "owner_id",
            "owner_name",
            ("team", "sales team"),
        ),
        dim(
            "crm",
            "dim_territory",
            "sales territories",
            "territory_id String: e.g. `t-emea-n-03`; territory_name String: display name; ae_name String: territory AE; region String: e.g. `EMEA`; sub_region String: e.g. `EMEA North`",
            "territory_id",
            "territory_name",
            ("sub_region", "sub-region"),
        ),
        dim(
            "dds",
            "dim_organization",
            "source-of-truth organisation records (detailed data store)",
            "organization_id UInt64: internal surrogate key; org_id String: public id used by the marts; legal_name String: registered name; country String: ISO code; created_at DateTime: record creation",
            "organization_id",
            "legal_name",
            ("country", "country"),
        ),
        dim(
            "dds",
            "dim_plan",
            "price-list plans",
            "plan_code String: e.g. `growth_annual`; plan_name String: display name; tier String: `starter`, `growth` or `enterprise`; list_price_usd Float64: monthly list price",
            "plan_code",
            "plan_name",
            ("tier", "tier"),
        ),
        dim(
            "dds",
            "dim_region",
            "cloud regions",
            "region_code String: e.g. `eu-west-1`; region_name String: display name; sub_region String: sales sub-region; cloud String: `aws`, `gcp` or `azure`",
            "region_code",
            "region_name",
            ("cloud", "cloud provider"),
        ),
    ];
    let facts = [
        FactSpec {
            ns: "marts",
            name: "usage_daily",
            doc: "one row per organisation per day; the default table for usage and spend",
            cols: "day Date: usage date; org_id String: joins `marts.org_current`; queries UInt32: queries run; storage_gb Float64: storage held; compute_minutes Float64: compute consumed; daily_spend Float64: spend for the day (USD)",
            date: "day",
            metrics: &[
                ("daily_spend", "spend"),
                ("compute_minutes", "compute minutes"),
                ("queries", "query count"),
            ],
            link: Some(("org_id", "marts.org_current")),
            noun: "usage days",
        },
        FactSpec {
            ns: "marts",
            name: "mrr_monthly",
            doc: "monthly recurring revenue per organisation and month",
            cols: "month Date: first day of the month; org_id String: joins `marts.org_current`; territory_id String: joins `crm.dim_territory`; mrr_usd Float64: MRR at month end; seats UInt32: paid seats",
            date: "month",
            metrics: &[("mrr_usd", "MRR"), ("seats", "paid seats")],
            link: Some(("org_id", "marts.org_current")),
            noun: "MRR snapshots",
        },
        FactSpec {
            ns: "marts",
            name: "revenue_by_region",
            doc: "recognised revenue per region and month",
            cols: "month Date: first day of the month; region String: sales region; revenue_usd Float64: recognised revenue; new_logos UInt32: organisations won",
            date: "month",
            metrics: &[
                ("revenue_usd", "recognised revenue"),
                ("new_logos", "new logos"),
            ],
            link: None,
            noun: "region-months",
        },
        FactSpec {
            ns: "marts",
            name: "product_usage_weekly",
            doc: "feature usage per organisation and ISO week",
            cols: "week Date: Monday of the week; org_id String: joins `marts.org_current`; feature String: product feature; active_users UInt32: weekly active users; events UInt64: tracked events",
            date: "week",
            metrics: &[
                ("active_users", "weekly active users"),
                ("events", "tracked events"),
            ],
            link: Some(("org_id", "marts.org_current")),
            noun: "feature-weeks",
        },
        FactSpec {
            ns: "marts",
            name: "seat_utilization",
            doc: "purchased vs active seats per organisation per day",
            cols: "day Date: snapshot date; org_id String: joins `marts.org_current`; seats_purchased UInt32: seats on contract; seats_active UInt32: seats used that day",
            date: "day",
            metrics: &[
                ("seats_active", "active seats"),
                ("seats_purchased", "purchased seats"),
            ],
            link: Some(("org_id", "marts.org_current")),
            noun: "seat snapshots",
        },
        FactSpec {
            ns: "marts",
            name: "billing_invoices",
            doc: "issued invoices",
            cols: "invoice_id String: invoice number; org_id String: joins `marts.org_current`; issued_on Date: issue date; amount_usd Float64: invoice total; status String: `paid`, `open` or `void`",
            date: "issued_on",
            metrics: &[("amount_usd", "invoiced amount")],
            link: Some(("org_id", "marts.org_current")),
            noun: "invoices",
        },
        FactSpec {
            ns: "crm",
            name: "fct_opportunity",
            doc: "sales pipeline, joined via `account_key`",
            cols: "opportunity_id String: id; account_key String: joins `crm.dim_account`; stage String: `discovery` to `closed_won`/`closed_lost`; amount_usd Float64: deal size; opened_on Date: created; closed_on Nullable(Date): null while open",
            date: "opened_on",
            metrics: &[("amount_usd", "pipeline amount")],
            link: Some(("account_key", "crm.dim_account")),
            noun: "opportunities",
        },
        FactSpec {
            ns: "crm",
            name: "fct_support_case",
            doc: "support cases, joined via `account_key`",
            cols: "case_id String: id; account_key String: joins `crm.dim_account`; priority String: `low` to `urgent`; opened_on Date: opened; closed_on Nullable(Date): null while open; handle_hours Float64: time to resolve",
            date: "opened_on",
            metrics: &[("handle_hours", "handling hours")],
            link: Some(("account_key", "crm.dim_account")),
            noun: "support cases",
        },
        FactSpec {
            ns: "crm",
            name: "fct_renewal",
            doc: "contract renewals, joined via `account_key`",
            cols: "renewal_id String: id; account_key String: joins `crm.dim_account`; renewal_date Date: due date; arr_usd Float64: annual value at renewal; outcome String: `renewed`, `churned` or `pending`",
            date: "renewal_date",
            metrics: &[("arr_usd", "renewal ARR")],
            link: Some(("account_key", "crm.dim_account")),
            noun: "renewals",
        },
        FactSpec {
            ns: "dds",
            name: "fct_subscription_event",
            doc: "raw subscription changes, keyed by the internal `organization_id`",
            cols: "event_id String: id; organization_id UInt64: joins `dds.dim_organization`; event_time DateTime: when; event_type String: `new`, `upgrade`, `downgrade` or `churn`; plan_code String: joins `dds.dim_plan`; mrr_delta_usd Float64: MRR change",
            date: "event_time",
            metrics: &[("mrr_delta_usd", "MRR change")],
            link: Some(("organization_id", "dds.dim_organization")),
            noun: "subscription events",
        },
        FactSpec {
            ns: "dds",
            name: "fct_payment",
            doc: "payments received, keyed by the internal `organization_id`",
            cols: "payment_id String: id; organization_id UInt64: joins `dds.dim_organization`; paid_at DateTime: settlement time; amount_usd Float64: amount; method String: `card`, `wire` or `invoice`",
            date: "paid_at",
            metrics: &[("amount_usd", "payments received")],
            link: Some(("organization_id", "dds.dim_organization")),
            noun: "payments",
        },
    ];
    for spec in facts {
        let table = fact(spec, &t);
        t.push(table);
    }
    Catalog {
        tables: t,
        namespaces: vec!["marts".into(), "crm".into(), "dds".into()],
    }
}
