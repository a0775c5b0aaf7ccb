//! Errors of scenario files, `--set key=value` overrides, and finding the line of a key
//! (from `toml_edit`'s spans, for every section of the schema).

/// A scenario or sweep file that could not be loaded.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ScenarioError {
    /// TOML syntax or schema error; the message names the key and the line.
    #[error("{0}")]
    Parse(String),
    /// A `--set` override that could not be applied.
    #[error("--set {key}: {reason}")]
    Override {
        /// The dotted key as given.
        key: String,
        /// What went wrong.
        reason: String,
    },
    /// A value that parses but makes no sense.
    #[error("invalid `{key}`: {reason}")]
    Invalid {
        /// Dotted path of the offending key (`flow.1.cc.target`).
        key: String,
        /// What is wrong with it.
        reason: String,
    },
}

pub(super) fn invalid(key: impl Into<String>, reason: impl Into<String>) -> ScenarioError {
    ScenarioError::Invalid {
        key: key.into(),
        reason: reason.into(),
    }
}

/// Applies one `key=value` override to a TOML document. Keys are dotted; array elements
/// are addressed by index (`flow.0.cc.target=25ms`). Values are TOML (`25`, `true`,
/// `"x"`, `{ kind = "red" }`) or, failing that, bare strings (`25ms`). Intermediate tables
/// are created; array elements must exist.
pub fn apply_override(doc: &mut toml::Value, key: &str, value: &str) -> Result<(), ScenarioError> {
    let err = |reason: String| ScenarioError::Override {
        key: key.to_string(),
        reason,
    };
    let parts: Vec<&str> = key.split('.').collect();
    if key.is_empty() || parts.iter().any(|p| p.is_empty()) {
        return Err(err("empty key component".into()));
    }
    let parsed: toml::Value = match format!("v = {value}").parse::<toml::Table>() {
        Ok(mut t) => t
            .remove("v")
            .unwrap_or(toml::Value::String(value.to_string())),
        Err(_) => toml::Value::String(value.to_string()),
    };
    let mut slot = doc;
    for (i, part) in parts.iter().enumerate() {
        let last = i + 1 == parts.len();
        slot = match slot {
            toml::Value::Table(t) => {
                if last {
                    t.insert(part.to_string(), parsed);
                    return Ok(());
                }
                t.entry(part.to_string())
                    .or_insert_with(|| toml::Value::Table(toml::Table::new()))
            }
            toml::Value::Array(a) => {
                let idx: usize = part
                    .parse()
                    .map_err(|_| err(format!("`{part}` indexes an array and must be a number")))?;
                let len = a.len();
                let el = a.get_mut(idx).ok_or_else(|| {
                    err(format!(
                        "index {idx} out of range (array has {len} elements)"
                    ))
                })?;
                if last {
                    *el = parsed;
                    return Ok(());
                }
                el
            }
            _ => return Err(err(format!("`{}` is not a table", parts[..i].join(".")))),
        };
    }
    Ok(())
}

/// The 1-based line of `text` where the dotted `key` (`flow.1.cc.gain`,
/// `swarm.class.0.share`, `topology.queue`; array elements by index) is written, from the
/// TOML parser's spans: the line of the key itself, or, when the file leaves it to its
/// default, of the deepest table or value on its path that the file writes (the
/// `[[swarm.class]]` header of a class without a `share`). `None` when the text does not
/// parse or writes nothing on the path.
pub fn locate_key(text: &str, key: &str) -> Option<usize> {
    let doc = toml_edit::ImDocument::parse(text).ok()?;
    let mut node = Node::Table(doc.as_table());
    let mut at = None;
    for part in key.split('.') {
        let Some((span, next)) = node.child(part) else {
            break;
        };
        at = span.map(|s| s.start).or(at);
        node = next;
    }
    at.map(|byte| text[..byte].matches('\n').count() + 1)
}

/// A place in a parsed TOML document that a key can lead into.
#[derive(Clone, Copy)]
enum Node<'a> {
    Table(&'a toml_edit::Table),
    Item(&'a toml_edit::Item),
    Value(&'a toml_edit::Value),
}

impl<'a> Node<'a> {
    /// The child `part` names (a key, or an index into an array), with the span of what
    /// writes it: the key of a key-value pair, the header of a table in an array.
    fn child(self, part: &str) -> Option<(Option<std::ops::Range<usize>>, Node<'a>)> {
        use toml_edit::{Item, Value};
        let index = || part.parse::<usize>().ok();
        match self {
            Node::Table(t) => {
                let (k, v) = t.get_key_value(part)?;
                Some((k.span().or_else(|| v.span()), Node::Item(v)))
            }
            Node::Item(Item::Table(t)) => Node::Table(t).child(part),
            Node::Item(Item::ArrayOfTables(a)) => {
                let t = a.get(index()?)?;
                Some((t.span(), Node::Table(t)))
            }
            Node::Item(Item::Value(v)) => Node::Value(v).child(part),
            Node::Item(Item::None) => None,
            Node::Value(Value::InlineTable(t)) => {
                let (k, v) = t.get_key_value(part)?;
                Some((k.span().or_else(|| v.span()), Node::Item(v)))
            }
            Node::Value(Value::Array(a)) => {
                let v = a.get(index()?)?;
                Some((v.span(), Node::Value(v)))
            }
            Node::Value(_) => None,
        }
    }
}

/// Splits `key=value`.
pub fn split_override(s: &str) -> Result<(&str, &str), ScenarioError> {
    s.split_once('=')
        .map(|(k, v)| (k.trim(), v.trim()))
        .ok_or_else(|| ScenarioError::Override {
            key: s.to_string(),
            reason: "expected key=value".into(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "duration = \"1s\"\n\
[topology]\n\
kind = \"dumbbell\"\n\
queue = { kind = \"red\", min = 5 }\n\
[[flow]]\n\
cc = { name = \"ledbat\" }\n\
[[flow]]\n\
cc.name = \"ledbat\"\n\
cc.target = \"25ms\"\n\
start = [\"1s\",\n  \"2s\"]\n\
[swarm]\n\
[[swarm.class]]\n\
name = \"a\"\n\
[swarm.class.utp_cc]\n\
gain = 2\n";

    #[test]
    fn a_written_key_is_found_on_its_own_line() {
        assert_eq!(locate_key(TEXT, "duration"), Some(1));
        assert_eq!(locate_key(TEXT, "topology.kind"), Some(3));
        // Inside an inline table, and dotted keys.
        assert_eq!(locate_key(TEXT, "topology.queue.min"), Some(4));
        assert_eq!(locate_key(TEXT, "flow.1.cc.target"), Some(9));
        // An array element on a continuation line.
        assert_eq!(locate_key(TEXT, "flow.1.start.1"), Some(11));
        // A sub-table of an array-of-tables element.
        assert_eq!(locate_key(TEXT, "swarm.class.0.utp_cc.gain"), Some(16));
    }

    #[test]
    fn a_defaulted_key_points_at_the_deepest_table_written() {
        // Flow 0 has no `start`: its [[flow]] header.
        assert_eq!(locate_key(TEXT, "flow.0.start"), Some(5));
        assert_eq!(locate_key(TEXT, "flow.1"), Some(7));
        assert_eq!(locate_key(TEXT, "swarm.class.0.share"), Some(13));
        assert_eq!(locate_key(TEXT, "swarm.choke.round"), Some(12));
        // An index past the end: where the array is first written.
        assert_eq!(locate_key(TEXT, "flow.2.cc"), Some(5));
        // Nothing on the path, or text that does not parse.
        assert_eq!(locate_key(TEXT, "seed"), None);
        assert_eq!(locate_key("a = ", "a"), None);
    }
}
