//! `runlens_core::yaml` reads YAML as PyYAML's `yaml.safe_load` does. Every expected value
//! below was printed by PyYAML 6.0.3 (`yaml.safe_load("k: " + text)["k"]`, Python 3.11) on
//! 2026-12-06; comments give PyYAML's `repr`.

use runlens_core::yaml::{Node, Value, load};

fn value_of(text: &str) -> Value {
    let doc = load(&format!("k: {text}\n")).unwrap().unwrap();
    doc.value.get("k").unwrap().value.clone()
}

fn map(doc: &Node) -> Vec<(String, Value)> {
    match &doc.value {
        Value::Map(entries) => entries
            .iter()
            .map(|(k, v)| match &k.value {
                Value::Str(k) => (k.clone(), v.value.clone()),
                other => panic!("key {other:?}"),
            })
            .collect(),
        other => panic!("not a map: {other:?}"),
    }
}

#[test]
fn plain_words_read_as_pyyaml_reads_them() {
    use Value::*;
    let cases: Vec<(&str, Value)> = vec![
        ("yes", Bool(true)),
        ("Yes", Bool(true)),
        ("YES", Bool(true)),
        ("no", Bool(false)),
        ("on", Bool(true)),
        ("On", Bool(true)),
        ("off", Bool(false)),
        ("OFF", Bool(false)),
        ("y", Str("y".into())),
        ("n", Str("n".into())),
        ("Y", Str("Y".into())),
        ("true", Bool(true)),
        ("True", Bool(true)),
        ("TRUE", Bool(true)),
        ("false", Bool(false)),
        ("null", Null),
        ("Null", Null),
        ("NULL", Null),
        ("~", Null),
        ("", Null),
        ("1e3", Str("1e3".into())),
        ("1.0e3", Str("1.0e3".into())),
        ("1.0e+3", Float(1000.0)),
        ("1e+3", Str("1e+3".into())),
        (".5", Float(0.5)),
        ("-.5", Str("-.5".into())),
        ("+1", Int(1)),
        ("0x1F", Int(31)),
        ("0o17", Str("0o17".into())),
        ("017", Int(15)),
        ("0b101", Int(5)),
        ("1_000", Int(1000)),
        ("1:30", Int(90)),
        ("1:30.5", Float(90.5)),
        (".inf", Float(f64::INFINITY)),
        ("-.Inf", Float(f64::NEG_INFINITY)),
        ("3.", Float(3.0)),
        ("-0", Int(0)),
        ("0", Int(0)),
        ("00", Int(0)),
        ("08", Str("08".into())),
        ("1,000", Str("1,000".into())),
        ("12e", Str("12e".into())),
        ("0.1_1", Float(0.11)),
        ("+.inf", Float(f64::INFINITY)),
        ("NaN", Str("NaN".into())),
        ("inf", Str("inf".into())),
        // datetime.date(2026, 12, 6) and datetime.datetime(2026, 12, 6, 10, 0).
        ("2026-12-06", Timestamp("2026-12-06".into())),
        (
            "2026-12-06 10:00:00",
            Timestamp("2026-12-06 10:00:00".into()),
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(value_of(text), expected, "{text:?}");
    }
    // float('nan') is not equal to itself.
    assert!(matches!(value_of(".NaN"), Float(f) if f.is_nan()));
}

#[test]
fn quoted_and_block_scalars_are_strings_and_tags_are_honoured() {
    // {'a': 'yes', 'b': '1', 'c': 'yes\n'}
    let doc = load("a: 'yes'\nb: \"1\"\nc: |\n  yes\n").unwrap().unwrap();
    assert_eq!(
        map(&doc),
        [
            ("a".to_owned(), Value::Str("yes".into())),
            ("b".to_owned(), Value::Str("1".into())),
            ("c".to_owned(), Value::Str("yes\n".into())),
        ]
    );
    // {'a': '123', 'b': 3.0, 'c': 7}
    let doc = load("a: !!str 123\nb: !!float 3\nc: !!int '7'\n")
        .unwrap()
        .unwrap();
    assert_eq!(
        map(&doc),
        [
            ("a".to_owned(), Value::Str("123".into())),
            ("b".to_owned(), Value::Float(3.0)),
            ("c".to_owned(), Value::Int(7)),
        ]
    );
}

#[test]
fn merge_keys_anchors_and_duplicates_resolve_as_in_pyyaml() {
    // m == {'y': 2, 'z': 4, 'x': 9}: earlier merged maps and explicit keys win.
    let text = "base: &b {x: 1, y: 2}\nother: &o {y: 3, z: 4}\nm:\n  <<: [*b, *o]\n  x: 9\n";
    let doc = load(text).unwrap().unwrap();
    let m = doc.value.get("m").unwrap();
    assert_eq!(
        map(m),
        [
            ("y".to_owned(), Value::Int(2)),
            ("z".to_owned(), Value::Int(4)),
            ("x".to_owned(), Value::Int(9)),
        ]
    );
    assert_eq!(m.line, 4);
    // {'a': 3, 'b': 2}: the last value, at the first key's place.
    let doc = load("a: 1\nb: 2\na: 3\n").unwrap().unwrap();
    assert_eq!(
        map(&doc),
        [
            ("a".to_owned(), Value::Int(3)),
            ("b".to_owned(), Value::Int(2)),
        ]
    );
    // {'<<': {'x': 1}}: a quoted `<<` is an ordinary key.
    let doc = load("'<<': {x: 1}\n").unwrap().unwrap();
    assert_eq!(map(&doc)[0].0, "<<");
}

#[test]
fn what_pyyaml_refuses_is_an_error_with_its_line() {
    // PyYAML: "expected a single document in the stream".
    let err = load("a: 1\n---\nb: 2\n").unwrap_err();
    assert_eq!(
        (err.line, err.message.as_str()),
        (2, "expected a single document in the stream")
    );
    // "found undefined alias 'nope'".
    assert_eq!(load("x: 1\na: *nope\n").unwrap_err().line, 2);
    // "invalid literal for int() with base 10: 'abc'".
    assert_eq!(
        load("a: 1\nb: !!int abc\n").unwrap_err(),
        runlens_core::yaml::YamlError {
            line: 2,
            message: "\"abc\" is not an int".into()
        }
    );
    // "could not determine a constructor for the tag '!custom'".
    assert_eq!(
        load("a: !custom 1\n").unwrap_err().message,
        "unsupported tag !custom"
    );
    // "... for the tag 'tag:yaml.org,2002:value'".
    assert_eq!(load("a: =\n").unwrap_err().line, 1);
    assert_eq!(load("").unwrap(), None);
}
