//! Parameters addressed by dotted paths into a configuration's serialised (JSON) form:
//! `delay.base_history=12` sets field `base_history` of field `delay`. The one way every
//! `key=value` parameter in this project is applied, whether to a controller's config
//! ([`crate::ControllerConfig::set`]) or to a part of one (the kernel rLEDBAT receiver's
//! `competitor.*` keys), so that the same key gets the same error text everywhere.
//!
//! A value is read as JSON (`25`, `true`, `[1,2]`) and, when it is not JSON, as a string
//! (`25ms`), which the field's own deserialiser then parses.

use serde::de::DeserializeOwned;
use serde::Serialize;

/// `cfg` with the parameter at the dotted path `key` set from `value`. `reserved` names
/// top-level fields that are not parameters (a config's `name` tag). The error is the
/// reason alone (the caller names the key): "no such parameter (known: ...)" for a path
/// that is not a field, else the field's deserialiser's complaint.
pub fn set<T: Serialize + DeserializeOwned>(
    cfg: &T,
    key: &str,
    value: &str,
    reserved: &[&str],
) -> Result<T, String> {
    let mut tree = serde_json::to_value(cfg).map_err(|e| e.to_string())?;
    let parts: Vec<&str> = key.split('.').collect();
    if key.is_empty() || parts.iter().any(|p| p.is_empty()) || reserved.contains(&key) {
        return Err("not a parameter name".into());
    }
    let unknown = || {
        let known: Vec<String> = list(cfg, reserved).into_iter().map(|(k, _)| k).collect();
        format!("no such parameter (known: {})", known.join(", "))
    };
    let parsed: serde_json::Value = serde_json::from_str(value)
        .unwrap_or_else(|_| serde_json::Value::String(value.to_string()));
    let mut slot = &mut tree;
    let mut inserted = false;
    for (i, part) in parts.iter().enumerate() {
        let map = slot.as_object_mut().ok_or_else(unknown)?;
        if i + 1 == parts.len() && !map.contains_key(*part) {
            // A field left out of the serialised form at its default
            // (`skip_serializing_if`) is still a parameter: the struct's
            // `deny_unknown_fields` tells.
            map.insert(part.to_string(), serde_json::Value::Null);
            inserted = true;
        }
        slot = map.get_mut(*part).ok_or_else(unknown)?;
    }
    *slot = parsed;
    serde_json::from_value(tree).map_err(|e| {
        if inserted && e.to_string().contains("unknown field") {
            unknown()
        } else {
            e.to_string()
        }
    })
}

/// Every parameter of `cfg` as (dotted key, value as text), sorted by key at each level, without
/// the top-level fields named in `reserved`.
pub fn list<T: Serialize>(cfg: &T, reserved: &[&str]) -> Vec<(String, String)> {
    fn walk(
        prefix: &str,
        v: &serde_json::Value,
        reserved: &[&str],
        out: &mut Vec<(String, String)>,
    ) {
        match v {
            serde_json::Value::Object(m) => {
                for (k, x) in m {
                    if prefix.is_empty() && reserved.contains(&k.as_str()) {
                        continue;
                    }
                    let key = if prefix.is_empty() {
                        k.clone()
                    } else {
                        format!("{prefix}.{k}")
                    };
                    walk(&key, x, reserved, out);
                }
            }
            serde_json::Value::String(s) => out.push((prefix.to_string(), s.clone())),
            other => out.push((prefix.to_string(), other.to_string())),
        }
    }
    let mut out = Vec::new();
    if let Ok(v) = serde_json::to_value(cfg) {
        walk("", &v, reserved, &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Inner {
        a: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        b: Option<String>,
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Outer {
        name: String,
        on: bool,
        inner: Inner,
    }

    fn outer() -> Outer {
        Outer {
            name: "x".into(),
            on: false,
            inner: Inner { a: 1, b: None },
        }
    }

    #[test]
    fn sets_a_nested_field_from_json_or_a_bare_string() {
        let o = set(&outer(), "inner.a", "7", &["name"]).unwrap();
        assert_eq!(o.inner.a, 7);
        let o = set(&o, "on", "true", &["name"]).unwrap();
        assert!(o.on);
        // `b` is skipped while None, and a bare word is taken as a string.
        let o = set(&o, "inner.b", "hello", &["name"]).unwrap();
        assert_eq!(o.inner.b.as_deref(), Some("hello"));
    }

    #[test]
    fn unknown_keys_list_the_known_ones_without_the_reserved() {
        let e = set(&outer(), "inner.c", "1", &["name"]).unwrap_err();
        assert_eq!(e, "no such parameter (known: inner.a, on)");
        let e = set(&outer(), "off", "1", &["name"]).unwrap_err();
        assert!(e.starts_with("no such parameter"), "{e}");
        // A key below a leaf is not a parameter either.
        let e = set(&outer(), "on.x", "1", &["name"]).unwrap_err();
        assert!(e.starts_with("no such parameter"), "{e}");
    }

    #[test]
    fn reserved_and_malformed_keys_are_refused() {
        for k in ["name", "", "inner.", ".on", "inner..a"] {
            assert_eq!(
                set(&outer(), k, "1", &["name"]).unwrap_err(),
                "not a parameter name",
                "{k:?}"
            );
        }
    }

    #[test]
    fn a_bad_value_gives_the_fields_own_complaint() {
        let e = set(&outer(), "inner.a", "-3", &["name"]).unwrap_err();
        assert!(e.contains("invalid value"), "{e}");
    }

    #[test]
    fn list_walks_nested_fields_sorted_by_key() {
        let got = list(&outer(), &["name"]);
        assert_eq!(
            got,
            vec![
                ("inner.a".into(), "1".into()),
                ("on".into(), "false".into())
            ]
        );
        assert_eq!(list(&outer(), &[])[1], ("name".into(), "x".into()));
    }
}
