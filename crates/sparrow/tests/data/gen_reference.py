#!/usr/bin/env python3
"""Writes reference.json: answers of the Python sparrow-decider 0.2.0 package, for the Rust
parity test (crates/sparrow/tests/parity.rs).

Run once, from the repository root:
    python3 -m venv /tmp/sparrow-venv
    /tmp/sparrow-venv/bin/pip install sparrow-decider==0.2.0
    /tmp/sparrow-venv/bin/python crates/sparrow/tests/data/gen_reference.py

Each case is one request (a state and several questions). For every question the file keeps
the package's rounded answer (`Decider.ask`) and its unrounded option probabilities
(`Decider.probs`). `tokenizer_cases` keep the WordPiece ids of a few texts.
"""
from __future__ import annotations

import datetime
import json
import os
import platform
import sys

import numpy as np
import sparrow_decider
from sparrow_decider import Decider

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "reference.json")

# ---- the harness's failure-labelling request (harness-formats.md §7.2, §7.4, §7.5) ----------
SUB_MODES = {
    "misread_question": "pursued a different question than the one asked, for example the wrong metric or the wrong subject; not a SQL mistake made while pursuing the right question",
    "ambiguous_question": "the question itself is underspecified or has no single correct answer; the candidate is not at fault",
    "wrong_identifier": "used the wrong id, key, or literal to identify the entity, for example an internal account id where an organization id is needed, so the filter matched nothing or the wrong row",
    "unresolved_lookup": "did not resolve a named entity to its row before querying facts, for example never looking the name up or skipping the dimension join",
    "wrong_table": "read a table that does not hold the asked-for concept when another table does; not a wrong predicate on the right table",
    "wrong_column": "used a real column but misread what it measures, picking the wrong field for the metric",
    "wrong_join": "joined on the wrong key, or missed a join the answer requires",
    "wrong_grain": "counted or summed at the wrong grain (per row vs per entity vs per day), inflating or collapsing the result",
    "wrong_aggregation": "wrong aggregate or grouping (for example avg vs sum, or a missing GROUP BY) while the entities and filters are right",
    "wrong_filter": "the right tables, columns, and entities are used, but a predicate is wrong or missing (wrong category or comparison, or an absent qualifier); not a wrong identifier and not a time-window mistake",
    "wrong_time_window": "wrong reference date or time range (point-in-time vs range, or wrong window bounds)",
    "clickhouse_error": "the SQL failed to run and returned a ClickHouse error (syntax, unknown identifier, or an unsupported feature)",
    "stopped_early": "returned a final answer before resolving the question, often after empty results, when more turns were available",
    "ran_out_of_budget": "hit the turn limit without a usable answer",
    "tool_loop": "repeated near-identical queries without making progress",
    "correct_but_judged_fail": "the final answer looks correct for the question despite the fail verdict",
}
RULES = {
    "point_in_time_filter": "for current values, filter to the most recent day, e.g. day = (SELECT max(day) ...)",
    "time_series_window": "for trends, use the snapshot date as the end of the range and count the window backwards",
    "crm_join": "join the CRM dimension to the usage mart on tenant_id, rather than reading the mart alone",
    "spend_guidance": "sum daily_spend over the period for spend; read plan and region off the mart directly",
    "none": "no semantic rule explains this failure",
}
FAILURE_QUESTIONS = {
    "sub_mode": {"type": "choice", "criteria": SUB_MODES,
                 "instructions": "Given the question, the reference SQL and answer, and the candidate's SQL, results, and final answer, pick the single most specific sub-mode for why the candidate failed. Its family is derived from your choice, so pick the sub-mode that fits best."},
    "prevented_by_rule": {"type": "choice", "criteria": RULES,
                          "instructions": "Which of these judgment-call schema-prompt rules best explains why the candidate failed? The mechanically checkable rules are scored separately in code, so they are not listed here; the state field `mechanical_checks` shows what the SQL did. Choose 'none' if no listed rule explains the failure."},
    "schema_hint_would_help": {"type": "noul",
                               "instructions": "Would giving the candidate a correct schema-use hint (the right table, column, join, or grain) before it queried most likely have prevented this failure?"},
    "correct_despite_fail": {"type": "noul",
                             "instructions": "Does the candidate's final answer actually look correct for the question, despite being scored a failure?"},
}


def failure_state(result_rows: int, error: str | None, turns: int) -> dict:
    rows = "\n".join(f"tenant_{i:03d}\tEMEA\tpro\t{1234.5 + i * 17.25}" for i in range(result_rows))
    result = "tenant_name\tregion\tplan\tspend\n" + rows
    if len(result) > 2000:
        result = result[:2000] + " ...(truncated)"
    return {
        "question": "What was the total spend of Acme Corp over the last 30 days before the snapshot date?",
        "reference_sql": ["SELECT sum(daily_spend) FROM marts.usage_daily u JOIN crm.tenants t ON u.tenant_id = t.tenant_id "
                          "WHERE t.tenant_name = 'Acme Corp' AND u.day > toDate('2025-06-30') - 30 AND u.day <= toDate('2025-06-30')"],
        "reference_answer": "Acme Corp spent 48,213.70 USD in the 30 days up to 2025-06-30.",
        "candidate_sqls": ["SELECT tenant_name, region, plan, sum(daily_spend) AS spend FROM marts.usage_daily WHERE day >= today() - 30 GROUP BY ALL",
                           "SELECT sum(daily_spend) FROM marts.usage_daily WHERE tenant_id = 'acme' AND day >= now() - INTERVAL 30 DAY"],
        "candidate_results": [result, "0"],
        "candidate_final_answer": "Acme Corp spent 0 USD in the last 30 days.",
        "candidate_turns": turns,
        "candidate_error": error,
        "mechanical_checks": {
            "decidable": {"reference_date": "violation", "default_to_usage_mart": "ok", "output_column_naming": "n/a"},
            "n_queries": 2,
            "has_repeated_query": False,
        },
    }


def levels(n: int) -> list[str]:
    words = ["none at all", "barely", "a little", "somewhat", "moderately", "noticeably", "clearly",
             "strongly", "very strongly", "completely"]
    return words[:n] if n < len(words) else words


LONG_TEXT = " ".join(
    f"Line {i}: the pump at station {i % 7} reported pressure {10 + i * 0.5} bar and a café déjà-vu note."
    for i in range(120))  # ~10,000 characters, far past 512 tokens: tests truncation

CASES = [
    ("billing_string_state", "User: I was charged twice for my subscription this month, please refund one of the charges.", {
        "refund": {"type": "noul", "instructions": "Is the user asking for money back?"},
        "billing": {"type": "noul", "instructions": "Is this message about billing?",
                    "criteria": {"true": "Concerns a charge, invoice or refund", "false": "Anything else"}},
        "intent": {"type": "choice", "instructions": "Primary intent?",
                   "criteria": {"billing": "charges, invoices", "bug": "broken feature"}},
        "urgency": {"type": "score", "instructions": "How urgent?", "criteria": ["not urgent", "soon", "now"]},
    }),
    ("light_on", "The light is on.", {
        "on": {"type": "noul", "instructions": "Is the light on?"},
        "on_true_only": {"type": "noul", "instructions": "Is the light on?", "criteria": {"true": "the lamp is lit"}},
        "on_false_only": {"type": "noul", "instructions": "Is the light on?", "criteria": {"false": "it is dark"}},
        "on_nulls": {"type": "noul", "instructions": "Is the light on?", "criteria": {"true": None, "false": None}},
        "no_instructions": {"type": "noul", "criteria": {"true": "The light is lit", "false": "The light is off"}},
        "untyped": {"instructions": "Is anything described?"},
    }),
    ("light_off", "The light is off.", {
        "on": {"type": "noul", "instructions": "Is the light on?"},
        "state_of_light": {"type": "choice", "instructions": "What is the state of the light?",
                           "criteria": {"on": None, "off": None, "broken": None}},
    }),
    ("ticket_object", {"subject": "Duplicate charge", "message": "I was charged twice. Please fix this ASAP.", "priority": 2,
                       "tags": ["billing", "refund"], "customer": {"tier": "gold", "since": 2019, "ltv": 1234.5}}, {
        "billing": {"type": "noul", "instructions": "Is this about billing?"},
        "team": {"type": "choice", "instructions": "Which team?", "criteria": {"billing": None, "technical": None}},
        "team4": {"type": "choice", "instructions": "Which team should handle `message`?",
                  "criteria": {"billing": "Payments, invoicing, refunds", "technical": "Bugs, outages",
                               "sales": "Upgrades, quotes, new contracts", "other": None}},
        "urgency": {"type": "score", "instructions": "How urgent?", "criteria": ["Can wait", "This week", "Today"]},
        "frustration": {"type": "score", "instructions": "How frustrated is the customer?",
                        "criteria": ["Calm", "Frustrated but civil", "Very angry"]},
    }),
    ("failure_cell_error", failure_state(60, None, 7), FAILURE_QUESTIONS),
    ("failure_cell_clickhouse", failure_state(3, "Code: 47. DB::Exception: Unknown expression identifier `spend_usd` in scope SELECT sum(spend_usd)", 3),
     FAILURE_QUESTIONS),
    ("array_state", [{"role": "user", "content": "My order #4411 never arrived."},
                     {"role": "agent", "content": "Sorry! I have re-shipped it with express delivery."},
                     {"role": "user", "content": "Thanks, that was fast 👍"}], {
        "resolved": {"type": "noul", "instructions": "Was the customer's problem resolved?"},
        "sentiment": {"type": "score", "instructions": "How positive is the final message?",
                      "criteria": ["very negative", "negative", "neutral", "positive", "very positive"]},
        "topic": {"type": "choice", "instructions": "What is the conversation about?",
                  "criteria": {"delivery": "shipping, lost parcels", "billing": "charges", "account": "login, password",
                               "product": "defects, sizes", "other": "anything else", "spam": "unsolicited",
                               "praise": "compliments"}},
    }),
    ("unicode_accents", "Crème brûlée à la carte — naïve façade, São Paulo, Zürich, Ångström. Ελληνικά ΣΟΦΙΑΣ; 東京で会議。 emoji 🚀🔥 and tabs\there\r\nnew line", {
        "french": {"type": "noul", "instructions": "Does the text mention a French dessert?"},
        "city": {"type": "choice", "instructions": "Which city is mentioned first?",
                 "criteria": {"São Paulo": "a city in Brazil", "Zürich": "a city in Switzerland", "東京": "Tokyo, Japan"}},
        "exotic": {"type": "score", "instructions": "How many scripts are used?", "criteria": ["one", "two", "three or more"]},
    }),
    ("empty_state", "", {
        "anything": {"type": "noul", "instructions": "Is there any content?"},
        "empty_instr": {"type": "noul", "instructions": ""},
        "choice_empty_desc": {"type": "choice", "instructions": "Pick one", "criteria": {"a": "", "b": "   "}},
        "score_empty": {"type": "score", "instructions": "", "criteria": ["", "x"]},
    }),
    ("whitespace_state", "   \n\t  ", {
        "anything": {"type": "noul", "instructions": "   Is there any content?   "},
    }),
    ("long_string_state", LONG_TEXT, {
        "pressure": {"type": "noul", "instructions": "Does any station report pressure above 60 bar?"},
        "station": {"type": "choice", "instructions": "Which station is mentioned most?",
                    "criteria": {f"station {i}": f"pump station number {i}" for i in range(7)}},
        "severity": {"type": "score", "instructions": "How severe is the situation?", "criteria": levels(10)},
    }),
    ("long_object_state", {f"sensor_{i:02d}": {"reading": round(0.1 * i, 3), "unit": "°C", "ok": i % 3 != 0,
                                                 "note": "nominal" if i % 5 else "check calibration soon"}
                           for i in range(70)}, {
        "faulty": {"type": "noul", "instructions": "Does any sensor need attention?"},
        "calib": {"type": "noul", "instructions": "Is calibration mentioned?", "criteria": {"true": {"keyword": "calibration"}}},
        "worst": {"type": "score", "instructions": "How many sensors are not ok?", "criteria": levels(4)},
    }),
    ("numbers_state", {"tiny": 1e-05, "big": 1e16, "neg": -2.5e-07, "int": 42, "float_int": 100.0, "zero": 0.0,
                       "frac": 0.1, "list": [1, 2.5, -3], "nested": {"deep": {"deeper": [None, True, False, "x\"y\\z"]}},
                       "empty_list": [], "empty_obj": {}}, {
        "numeric": {"type": "noul", "instructions": "Does the state contain numbers?"},
        "kind": {"type": "choice", "instructions": "What kind of data is this?",
                 "criteria": {"telemetry": "sensor readings", "config": "settings", "prose": "natural language text"}},
    }),
    ("content_as_json", "Server CPU at 97% for 20 minutes; memory at 40%; disk fine.", {
        "obj_instructions": {"type": "noul", "instructions": {"ask": "Is the server overloaded?", "field": "cpu"}},
        "arr_instructions": {"type": "noul", "instructions": ["Is the server overloaded?", "Consider CPU only."]},
        "null_instructions": {"type": "noul", "instructions": None},
        "obj_descriptions": {"type": "choice", "instructions": "Which resource is the bottleneck?",
                             "criteria": {"cpu": {"metric": "cpu", "threshold": 90}, "memory": ["ram", "swap"],
                                          "disk": None, "network": "bandwidth or latency"}},
        "obj_levels": {"type": "score", "instructions": "How loaded is the server?",
                       "criteria": [{"level": "idle"}, ["busy", "but fine"], "overloaded"]},
        "obj_noul_criteria": {"type": "noul", "instructions": "Is the server overloaded?",
                              "criteria": {"true": {"cpu": "> 90%"}, "false": ["cpu", "< 90%"]}},
    }),
    ("many_options", "A customer writes in Portuguese asking to cancel the annual plan and get a prorated refund.", {
        "lang": {"type": "choice", "instructions": "Which language is the message written in?",
                 "criteria": {"english": None, "portuguese": None, "spanish": None, "french": None, "german": None,
                              "italian": None, "dutch": None, "japanese": None, "chinese": None, "korean": None,
                              "russian": None, "arabic": None}},
        "action": {"type": "choice", "instructions": "What should the agent do?",
                   "criteria": {"cancel": "cancel the subscription", "refund": "issue a refund",
                                "escalate": "hand over to a human", "ignore": "no action needed",
                                "upsell": "offer a better plan", "translate": "translate the message",
                                "close": "close the ticket", "ask": "ask for more information", "wait": "wait for reply"}},
        "s2": {"type": "score", "instructions": "Is the customer likely to churn?", "criteria": ["no", "yes"]},
        "s6": {"type": "score", "instructions": "How much effort will this take?", "criteria": levels(6)},
        "s8": {"type": "score", "instructions": "How angry is the customer?", "criteria": levels(8)},
    }),
    ("control_chars", "Alarm\u0007 raised\u0000 at \u200bnode-7\ufffd; status=DEGRADED\u00a0(2 of 3 replicas)", {
        "degraded": {"type": "noul", "instructions": "Is the cluster degraded?"},
        "replicas": {"type": "score", "instructions": "How many replicas are healthy?",
                     "criteria": ["0", "1", "2", "3"]},
    }),
    ("sql_text", "SELECT tenant_id, count(*) FROM marts.usage_daily WHERE day = (SELECT max(day) FROM marts.usage_daily) GROUP BY tenant_id ORDER BY 2 DESC LIMIT 10", {
        "is_sql": {"type": "noul", "instructions": "Is the state a SQL query?"},
        "dialect": {"type": "choice", "instructions": "Which operation does the query perform?",
                    "criteria": {"read": "SELECT", "write": "INSERT or UPDATE", "ddl": "CREATE or ALTER", "admin": "SYSTEM commands"}},
        "complexity": {"type": "score", "instructions": "How complex is the query?",
                       "criteria": ["trivial", "simple", "moderate", "complex", "very complex", "extreme", "absurd"]},
        "grain": {"type": "score", "instructions": "At what grain does it aggregate?",
                  "criteria": ["row", "tenant", "day", "region", "plan", "tenant and day", "global", "month", "year"]},
    }),
]

TOKENIZER_TEXTS = [
    "Hello, World! Is the light on?",
    "Crème brûlée à la carte — naïve façade; Ångström ΣΟΦΙΑΣ",
    "東京で会議 emoji 🚀 tabs\there",
    "SELECT sum(daily_spend) FROM marts.usage_daily WHERE day >= toDate('2025-06-30') - 30",
    "unaffable supercalifragilisticexpialidocious " + "x" * 101,
    "",
    "[CLS] [SEP] [UNK] ##ing don't",
]


def kernel_cases() -> dict:
    """The package's own float32 GELU (A&S erf) and softmax on fixed inputs."""
    from sparrow_decider.engine import gelu, softmax
    xs = np.array([-6.0, -3.0, -1.5, -0.5, -1e-3, 0.0, 1e-3, 0.25, 0.5, 1.0, 2.0, 4.5, 9.0], np.float32)
    vectors = [[0.0, 0.0], [1.0, 2.0, 3.0], [-50.0, 50.0, 0.5, 0.25], [88.0, 89.0, 90.0]]
    return {
        "gelu": {"x": [float(x) for x in xs], "y": [float(y) for y in gelu(xs)]},
        "softmax": [{"x": v, "y": [float(y) for y in softmax(np.array(v, np.float32))]} for v in vectors],
    }


def main() -> None:
    d = Decider.load()
    cases = []
    n_questions = 0
    for name, state, questions in CASES:
        answers = d.ask(state, questions)
        probs = {qid: [float(x) for x in d.probs(state, q)[3]] for qid, q in questions.items()}
        cases.append({"name": name, "state": state, "questions": questions, "answers": answers,
                      "probabilities": probs})
        n_questions += len(questions)
    tok = d.static.tok
    texts = TOKENIZER_TEXTS + [sparrow_decider._content(CASES[3][1])]
    ref = {
        "provenance": {
            "package": f"sparrow-decider {sparrow_decider.__version__} (PyPI), model {d.name}",
            "python": platform.python_version(),
            "numpy": np.__version__,
            "command": "/tmp/sparrow-venv/bin/python crates/sparrow/tests/data/gen_reference.py",
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "answers": "Decider.ask(state, questions), rounded to 4 decimals by the package",
            "probabilities": "Decider.probs(state, question)[3], float32 widened to float",
            "n_questions": n_questions,
        },
        "tokenizer_cases": [{"text": t, "ids": tok.encode(t, 512)} for t in texts],
        "kernel_cases": kernel_cases(),
        "cases": cases,
    }
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump(ref, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(f"wrote {OUT}: {len(cases)} requests, {n_questions} questions", file=sys.stderr)


if __name__ == "__main__":
    main()
