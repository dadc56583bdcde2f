//! YAML read as PyYAML's `yaml.safe_load` reads it: the harness writes its config for
//! PyYAML, so a plain `yes` is a boolean, `1e3` a string and `1.0e+3` a number here too.
//!
//! The text is parsed by `saphyr-parser` (a maintained, safe-Rust YAML parser) into events; this
//! module builds the tree and resolves **plain** scalars with PyYAML's YAML 1.1 rules (quoted
//! and block scalars are strings):
//!
//! | plain text | PyYAML gives |
//! |---|---|
//! | `yes` `Yes` `YES` `no` `on` `off` `true` `False` … (not `y`, `n`) | bool |
//! | `~` `null` `Null` `NULL`, nothing | None |
//! | `1_000` `+1` `017` (octal) `0x1F` `0b101` `1:30` (base 60) | int |
//! | `1.0e+3` `.5` `3.` `1:30.5` `.inf` `-.Inf` `.NaN` (a dot needed; `e` needs a sign) | float |
//! | `2026-12-06`, `2026-12-06 10:00:00` | date, datetime |
//! | `1e3` `1.0e3` `-.5` `0o17` `08` `NaN` `inf` `y` | str |
//!
//! Also as PyYAML: anchors and aliases, merge keys (`<<: *base`, explicit keys win), a later
//! duplicate key wins (at the first one's place), `!!str`/`!!int`/`!!float`/`!!bool`/`!!null`
//! tags, one document per stream, and a plain `=` is an error. Every node keeps its line.

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;
use saphyr_parser::{Event, Parser, ScalarStyle, Tag};

/// A node and the 1-based line it starts on.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// What the node holds.
    pub value: Value,
    /// 1-based line of its first character.
    pub line: usize,
}

/// A loaded value, typed as PyYAML types it.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// `None`.
    Null,
    /// `bool`.
    Bool(bool),
    /// `int` (within i128).
    Int(i128),
    /// `float`.
    Float(f64),
    /// A `date` or `datetime`, as written.
    Timestamp(String),
    /// `str`.
    Str(String),
    /// `list`.
    Seq(Vec<Node>),
    /// `dict`, in document order, duplicate keys already resolved.
    Map(Vec<(Node, Node)>),
}

impl Value {
    /// How an error message names this value: `null`, `true`, `number 3`, `string "x"`,
    /// `a list of 2 items`, `a mapping`, `a date 2026-12-06`.
    pub fn describe(&self) -> String {
        match self {
            Value::Null => "null".to_owned(),
            Value::Bool(b) => b.to_string(),
            Value::Int(n) => format!("number {n}"),
            Value::Float(f) => format!("number {f}"),
            Value::Timestamp(t) => format!("a date {t}"),
            Value::Str(s) => format!("string {s:?}"),
            Value::Seq(items) => format!("a list of {} items", items.len()),
            Value::Map(_) => "a mapping".to_owned(),
        }
    }

    /// The value of `key` in a mapping (string keys only).
    pub fn get(&self, key: &str) -> Option<&Node> {
        match self {
            Value::Map(entries) => entries
                .iter()
                .find(|(k, _)| matches!(&k.value, Value::Str(s) if s == key))
                .map(|(_, v)| v),
            _ => None,
        }
    }
}

/// A YAML text that PyYAML would not load, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YamlError {
    /// 1-based line.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

enum Frame {
    Seq {
        items: Vec<Node>,
        line: usize,
        anchor: usize,
    },
    Map {
        /// Key, value, and whether the key is a merge key (a plain `<<`).
        entries: Vec<(Node, Node, bool)>,
        key: Option<(Node, bool)>,
        line: usize,
        anchor: usize,
    },
}

/// Loads the one document of `text` (`None` for an empty stream).
///
/// ```
/// use runlens_core::yaml::{load, Value};
/// let doc = load("a: yes\nb: '1e3'\nc: 1e3\nd: 0x1F\n").unwrap().unwrap();
/// assert_eq!(doc.value.get("a").unwrap().value, Value::Bool(true));
/// assert_eq!(doc.value.get("b").unwrap().value, Value::Str("1e3".into()));
/// assert_eq!(doc.value.get("c").unwrap().value, Value::Str("1e3".into()));
/// assert_eq!(doc.value.get("d").unwrap().value, Value::Int(31));
/// assert_eq!(doc.value.get("d").unwrap().line, 4);
/// ```
pub fn load(text: &str) -> Result<Option<Node>, YamlError> {
    let mut anchors: HashMap<usize, Node> = HashMap::new();
    let mut stack: Vec<Frame> = Vec::new();
    let mut root: Option<Node> = None;
    let mut documents = 0;
    for item in Parser::new_from_str(text) {
        let (event, span) = item.map_err(|e| YamlError {
            line: e.marker().line(),
            message: e.info().to_owned(),
        })?;
        let line = span.start.line();
        let node = match event {
            Event::DocumentStart(_) => {
                documents += 1;
                if documents > 1 {
                    return Err(YamlError {
                        line,
                        message: "expected a single document in the stream".into(),
                    });
                }
                continue;
            }
            Event::Alias(id) => anchors.get(&id).cloned().ok_or_else(|| YamlError {
                line,
                message: "an alias to an unknown anchor".into(),
            })?,
            Event::Scalar(text, style, anchor, tag) => {
                let merge = style == ScalarStyle::Plain && tag.is_none() && text == "<<";
                let awaiting_key = matches!(stack.last(), Some(Frame::Map { key: None, .. }));
                if merge && awaiting_key {
                    if let Some(Frame::Map { key, .. }) = stack.last_mut() {
                        let node = Node {
                            value: Value::Str(text.into_owned()),
                            line,
                        };
                        *key = Some((node, true));
                    }
                    continue;
                }
                if merge {
                    return Err(YamlError {
                        line,
                        message: "a plain `<<` (a merge key) outside a mapping's keys".into(),
                    });
                }
                let value = scalar(&text, style, tag.as_deref())
                    .map_err(|message| YamlError { line, message })?;
                remember(&mut anchors, anchor, Node { value, line })
            }
            Event::SequenceStart(anchor, tag) => {
                collection_tag(tag.as_deref(), "seq", line)?;
                stack.push(Frame::Seq {
                    items: Vec::new(),
                    line,
                    anchor,
                });
                continue;
            }
            Event::MappingStart(anchor, tag) => {
                collection_tag(tag.as_deref(), "map", line)?;
                stack.push(Frame::Map {
                    entries: Vec::new(),
                    key: None,
                    line,
                    anchor,
                });
                continue;
            }
            Event::SequenceEnd => match stack.pop() {
                Some(Frame::Seq {
                    items,
                    line,
                    anchor,
                }) => remember(
                    &mut anchors,
                    anchor,
                    Node {
                        value: Value::Seq(items),
                        line,
                    },
                ),
                _ => return Err(unbalanced(line)),
            },
            Event::MappingEnd => match stack.pop() {
                Some(Frame::Map {
                    entries,
                    line,
                    anchor,
                    ..
                }) => {
                    let value = Value::Map(flatten(entries)?);
                    remember(&mut anchors, anchor, Node { value, line })
                }
                _ => return Err(unbalanced(line)),
            },
            _ => continue,
        };
        match stack.last_mut() {
            None => root = Some(node),
            Some(Frame::Seq { items, .. }) => items.push(node),
            Some(Frame::Map { entries, key, .. }) => match key.take() {
                None => *key = Some((node, false)),
                Some((k, merge)) => entries.push((k, node, merge)),
            },
        }
    }
    Ok(root)
}

fn remember(anchors: &mut HashMap<usize, Node>, anchor: usize, node: Node) -> Node {
    if anchor > 0 {
        anchors.insert(anchor, node.clone());
    }
    node
}

fn unbalanced(line: usize) -> YamlError {
    YamlError {
        line,
        message: "unbalanced collection events".into(),
    }
}

/// Merge keys applied (PyYAML's `flatten_mapping`: merged entries first, a list of maps in
/// reverse order, so earlier maps and explicit keys win) and duplicate keys resolved (the
/// last value at the first key's place, like a Python `dict`).
fn flatten(entries: Vec<(Node, Node, bool)>) -> Result<Vec<(Node, Node)>, YamlError> {
    let mut merged: Vec<(Node, Node)> = Vec::new();
    let mut explicit: Vec<(Node, Node)> = Vec::new();
    for (key, value, merge) in entries {
        if !merge {
            explicit.push((key, value));
            continue;
        }
        let maps: Vec<Node> = match value.value {
            Value::Map(_) => vec![value],
            Value::Seq(items) => items,
            other => {
                return Err(YamlError {
                    line: value.line,
                    message: format!(
                        "a merge key needs a mapping or a list of them, found {}",
                        other.describe()
                    ),
                });
            }
        };
        let mut lists = Vec::new();
        for map in maps {
            match map.value {
                Value::Map(inner) => lists.push(inner),
                other => {
                    return Err(YamlError {
                        line: map.line,
                        message: format!("a merge key needs mappings, found {}", other.describe()),
                    });
                }
            }
        }
        lists.reverse();
        merged.extend(lists.into_iter().flatten());
    }
    let mut out: Vec<(Node, Node)> = Vec::new();
    for (key, value) in merged.into_iter().chain(explicit) {
        match out.iter_mut().find(|(k, _)| k.value == key.value) {
            Some(slot) => slot.1 = value,
            None => out.push((key, value)),
        }
    }
    Ok(out)
}

/// A collection's explicit tag must be the standard one (or none).
fn collection_tag(tag: Option<&Tag>, kind: &str, line: usize) -> Result<(), YamlError> {
    match tag.map(standard_suffix) {
        None => Ok(()),
        Some(Some(suffix)) if suffix == kind => Ok(()),
        Some(_) => Err(YamlError {
            line,
            message: format!("unsupported tag {} on a collection", show_tag(tag)),
        }),
    }
}

/// `str` for `!!str` and `tag:yaml.org,2002:str`; `None` for other tags.
fn standard_suffix(tag: &Tag) -> Option<&str> {
    match tag.handle.as_str() {
        "!!" | "tag:yaml.org,2002:" => Some(tag.suffix.as_str()),
        _ => None,
    }
}

fn show_tag(tag: Option<&Tag>) -> String {
    tag.map_or_else(String::new, |t| format!("{}{}", t.handle, t.suffix))
}

fn scalar(text: &str, style: ScalarStyle, tag: Option<&Tag>) -> Result<Value, String> {
    if let Some(tag) = tag {
        let suffix = standard_suffix(tag);
        if (tag.handle == "!" && tag.suffix.is_empty()) || suffix == Some("str") {
            return Ok(Value::Str(text.to_owned()));
        }
        let resolved = plain(text)?;
        return match suffix {
            Some("null") if matches!(resolved, Value::Null) => Ok(Value::Null),
            Some("bool") if matches!(resolved, Value::Bool(_)) => Ok(resolved),
            Some("int") if matches!(resolved, Value::Int(_)) => Ok(resolved),
            Some("float") => match resolved {
                Value::Float(_) => Ok(resolved),
                Value::Int(n) => Ok(Value::Float(n as f64)),
                _ => Err(format!("{text:?} is not a float")),
            },
            Some("null") => Err(format!("{text:?} is not null")),
            Some("bool") => Err(format!("{text:?} is not a bool")),
            Some("int") => Err(format!("{text:?} is not an int")),
            _ => Err(format!("unsupported tag {}", show_tag(Some(tag)))),
        };
    }
    match style {
        ScalarStyle::Plain => plain(text),
        _ => Ok(Value::Str(text.to_owned())),
    }
}

static BOOL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$")
        .expect("valid regex")
});
static INT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$",
    )
    .expect("valid regex")
});
static FLOAT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
    )
    .expect("valid regex")
});
static TIMESTAMP: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?:[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)$",
    )
    .expect("valid regex")
});

/// A plain scalar, resolved as PyYAML's implicit resolvers do.
fn plain(text: &str) -> Result<Value, String> {
    Ok(match text {
        "" | "~" | "null" | "Null" | "NULL" => Value::Null,
        "=" => {
            return Err(
                "a plain `=` (YAML 1.1's value key), which PyYAML's safe_load refuses".into(),
            );
        }
        _ if BOOL.is_match(text) => Value::Bool(matches!(
            text,
            "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON"
        )),
        _ if INT.is_match(text) => match int(text) {
            Some(n) => Value::Int(n),
            None => Value::Str(text.to_owned()),
        },
        _ if FLOAT.is_match(text) => Value::Float(float(text)),
        _ if TIMESTAMP.is_match(text) => Value::Timestamp(text.to_owned()),
        _ => Value::Str(text.to_owned()),
    })
}

/// An int as PyYAML constructs it: `_` ignored, a sign, then `0b`, `0x`, a leading `0`
/// (octal) or `a:b:c` (base 60).
fn int(text: &str) -> Option<i128> {
    let digits: String = text.chars().filter(|c| *c != '_').collect();
    let (negative, digits) = match digits.as_bytes().first() {
        Some(b'-') => (true, &digits[1..]),
        Some(b'+') => (false, &digits[1..]),
        _ => (false, &digits[..]),
    };
    let magnitude = if let Some(bin) = digits.strip_prefix("0b") {
        i128::from_str_radix(bin, 2).ok()?
    } else if let Some(hex) = digits.strip_prefix("0x") {
        i128::from_str_radix(hex, 16).ok()?
    } else if digits.contains(':') {
        digits.split(':').try_fold(0i128, |acc, part| {
            acc.checked_mul(60)?.checked_add(part.parse::<i128>().ok()?)
        })?
    } else if digits.len() > 1 && digits.starts_with('0') {
        i128::from_str_radix(digits, 8).ok()?
    } else {
        digits.parse().ok()?
    };
    Some(if negative { -magnitude } else { magnitude })
}

/// A float as PyYAML constructs it (`_` ignored, `.inf`, `.nan`, base 60).
fn float(text: &str) -> f64 {
    let text: String = text.chars().filter(|c| *c != '_').collect();
    let lower = text.to_ascii_lowercase();
    let (sign, body) = match lower.as_bytes().first() {
        Some(b'-') => (-1.0, &lower[1..]),
        Some(b'+') => (1.0, &lower[1..]),
        _ => (1.0, &lower[..]),
    };
    match body {
        ".inf" => sign * f64::INFINITY,
        ".nan" => f64::NAN,
        _ if body.contains(':') => {
            let value = body.split(':').fold(0.0, |acc, part| {
                acc * 60.0 + part.parse::<f64>().unwrap_or(0.0)
            });
            sign * value
        }
        _ => sign * body.parse::<f64>().unwrap_or(f64::NAN),
    }
}
