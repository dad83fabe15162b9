//! An upstream answer parsed with a credential's literal value (the Nexus token) replaced by
//! `[REDACTED]` in every string and key as the value is built: no second walk over the answer
//! for the token, and the one redaction walk ([`crate::redact_value`]) follows when the result
//! is shaped.

use crate::REDACTED;
use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use std::fmt;

/// `bytes` parsed as JSON, `token`'s literal value replaced wherever it occurs in a string or a
/// key. An empty token replaces nothing (a plain parse).
pub fn parse(bytes: &[u8], token: &str) -> serde_json::Result<Value> {
    if token.is_empty() {
        return serde_json::from_slice(bytes);
    }
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value = Scrubbed(token).deserialize(&mut de)?;
    de.end()?;
    Ok(value)
}

/// `text` with `token` replaced; an empty token replaces nothing.
pub fn text(token: &str, text: &mut String) {
    if !token.is_empty() && text.contains(token) {
        *text = text.replace(token, REDACTED);
    }
}

/// Builds a [`Value`] as serde_json's own visitor does, strings and keys scrubbed.
#[derive(Clone, Copy)]
struct Scrubbed<'t>(&'t str);

impl Scrubbed<'_> {
    fn string(self, s: String) -> String {
        if s.contains(self.0) {
            s.replace(self.0, REDACTED)
        } else {
            s
        }
    }
}

impl<'de> DeserializeSeed<'de> for Scrubbed<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Scrubbed<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(self.string(v.to_owned())))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(self.string(v)))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        self.deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(item) = seq.next_element_seed(self)? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let value = map.next_value_seed(self)?;
            out.insert(self.string(key), value);
        }
        Ok(Value::Object(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The two-walk scrub this parse replaces: the reference it must agree with.
    fn walked(token: &str, value: &mut Value) {
        match value {
            Value::String(s) if s.contains(token) => *s = s.replace(token, REDACTED),
            Value::Array(items) => items.iter_mut().for_each(|v| walked(token, v)),
            Value::Object(map) => {
                *map = std::mem::take(map)
                    .into_iter()
                    .map(|(k, v)| (k.replace(token, REDACTED), v))
                    .collect();
                map.values_mut().for_each(|v| walked(token, v));
            }
            _ => {}
        }
    }

    #[test]
    fn the_token_goes_from_strings_and_keys_and_the_rest_is_a_plain_parse() {
        let token = "tok-3f9a";
        let doc = json!({
            "a": "Bearer tok-3f9a and tok-3f9a",
            "tok-3f9a": {"n": 1, "f": 1.5, "neg": -3, "big": u64::MAX, "b": true, "z": null},
            "items": ["x", "pre-tok-3f9a-post", [{"k": "tok-3f9a"}]],
            "é": "ünïcode tok-3f9a",
        });
        let bytes = serde_json::to_vec(&doc).unwrap_or_default();
        let parsed = parse(&bytes, token).ok();
        let mut want = doc.clone();
        walked(token, &mut want);
        assert_eq!(parsed, Some(want));
        let text = serde_json::to_string(&parsed).unwrap_or_default();
        assert!(!text.contains(token), "{text}");
        // Key order is kept (preserve_order), as a plain parse keeps it.
        let keys: Vec<String> = parsed
            .as_ref()
            .and_then(Value::as_object)
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default();
        assert_eq!(keys, ["a", REDACTED, "items", "é"]);
        assert_eq!(parse(&bytes, "").ok(), Some(doc));
    }

    #[test]
    fn what_a_plain_parse_refuses_is_refused() {
        for bad in [&b"{"[..], b"[1,]", b"{} x", b"", b"\"\\ud800\""] {
            assert_eq!(
                parse(bad, "t").is_ok(),
                serde_json::from_slice::<Value>(bad).is_ok(),
                "{}",
                String::from_utf8_lossy(bad)
            );
        }
        // Escaped JSON still has its token found: it is unescaped before it is compared.
        let escaped = br#"{"m": "t\u006fken"}"#;
        assert_eq!(parse(escaped, "token").ok(), Some(json!({"m": REDACTED})));
    }
}
