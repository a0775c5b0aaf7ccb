//! Errors of scenario files, `--set key=value` overrides, and finding the line of a key.

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

/// The 1-based line where the dotted `key` (`flow.1.cc.gain`, `topology.queue`) is set in
/// `text`, found by scanning: the `[[flow]]` table with that index (or the `[topology]`
/// table), then the first line in it assigning the last non-numeric component.
pub fn locate_key(text: &str, key: &str) -> Option<usize> {
    let parts: Vec<&str> = key.split('.').collect();
    let lines: Vec<&str> = text.lines().collect();
    let header = |l: &str| l.trim_start().starts_with('[');
    let (mut start, mut end) = (0, lines.len());
    let mut rest: &[&str] = &parts;
    if parts.len() >= 2 {
        if let Ok(n) = parts[1].parse::<usize>() {
            let arr = format!("[[{}]]", parts[0]);
            let at = lines
                .iter()
                .enumerate()
                .filter(|(_, l)| l.trim() == arr)
                .nth(n)?
                .0;
            start = at + 1;
            end = lines[start..]
                .iter()
                .position(|l| {
                    l.trim() == arr
                        || (header(l) && !l.trim().starts_with(&format!("[{}.", parts[0])))
                })
                .map_or(lines.len(), |p| start + p);
            rest = &parts[2..];
        } else if let Some(at) = lines
            .iter()
            .position(|l| l.trim() == format!("[{}]", parts[0]))
        {
            start = at + 1;
            end = lines[start..]
                .iter()
                .position(|l| header(l))
                .map_or(lines.len(), |p| start + p);
            rest = &parts[1..];
        }
    }
    let name = rest
        .iter()
        .rev()
        .find(|p| p.parse::<usize>().is_err())
        .copied()
        .or(parts.last().copied())?;
    let assigns = |l: &str| {
        let mut from = 0;
        while let Some(i) = l[from..].find(name) {
            let i = from + i;
            let before_ok =
                i == 0 || matches!(l.as_bytes()[i - 1], b' ' | b'{' | b',' | b'.' | b'\t');
            let after = l[i + name.len()..].trim_start();
            if before_ok && (after.starts_with('=') || after.starts_with('.')) {
                return true;
            }
            from = i + name.len();
        }
        false
    };
    (start..end).find(|&i| assigns(lines[i])).map(|i| i + 1)
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
