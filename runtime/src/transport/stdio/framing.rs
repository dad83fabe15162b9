//! What one line of stdio input becomes: a message for the session, nothing, or an error answer
//! the transport writes itself (JSON-RPC 2.0 §5.1 codes, `"id": null` when no id can be read).
//!
//! A well-formed line is parsed exactly once, into rmcp's message type; the line is only looked
//! at again as a plain JSON value when that parse fails.

use rmcp::model::{
    CallToolRequest, CallToolRequestMethod, CancelTaskMethod, ClientJsonRpcMessage, ClientRequest,
    CompleteRequestMethod, ConstString, DiscoverRequestMethod, GetMeta, GetPromptRequestMethod,
    GetSkillRequestMethod, GetTaskMethod, InitializeResultMethod, JsonRpcMessage, JsonRpcRequest,
    ListPromptsRequestMethod, ListResourceTemplatesRequestMethod, ListResourcesRequestMethod,
    ListSkillsRequestMethod, ListToolsRequestMethod, PingRequestMethod,
    ReadResourceDirectoryRequestMethod, ReadResourceRequestMethod, SetLevelRequestMethod,
    SubscribeRequestMethod, SubscriptionsListenRequestMethod, UnsubscribeRequestMethod,
    UpdateTaskMethod,
};
use serde::de::IgnoredAny;
use serde_json::{Map, Value, json};

pub const PARSE_ERROR: i64 = -32700;
pub const INVALID_REQUEST: i64 = -32600;
pub const INVALID_PARAMS: i64 = -32602;
pub const METHOD_NOT_FOUND: i64 = -32601;

/// The first revision without sessions: a request naming it in `_meta` is stateless.
const STATELESS_VERSION: &str = "2026-07-28";
const PROTOCOL_VERSION_META: &str = "io.modelcontextprotocol/protocolVersion";

/// Methods of the session era that MCP 2026-07-28 removed; rmcp still parses them, so a
/// stateless request for one whose params are not the old shape would otherwise read as
/// "invalid params" rather than "no such method".
fn removed_in_stateless(method: &str) -> bool {
    [
        InitializeResultMethod::VALUE,
        PingRequestMethod::VALUE,
        SetLevelRequestMethod::VALUE,
        SubscribeRequestMethod::VALUE,
        UnsubscribeRequestMethod::VALUE,
    ]
    .contains(&method)
}

/// `params._meta` names protocol version 2026-07-28 or later (dates compare as strings).
fn is_stateless(params: Option<&Value>) -> bool {
    params
        .and_then(|p| p.pointer("/_meta"))
        .and_then(|m| m.get(PROTOCOL_VERSION_META))
        .and_then(Value::as_str)
        .is_some_and(|v| v >= STATELESS_VERSION)
}

/// What the transport does with one line.
#[derive(Debug)]
pub enum Frame {
    /// A message for the session.
    Message(Box<ClientJsonRpcMessage>),
    /// Nothing: a blank line, or a notification that is not MCP (rmcp ignores those too).
    Skip,
    /// An error response to write back, one JSON object.
    Reply(Value),
}

/// Classifies one line (without its `\n`).
pub fn frame(line: &[u8]) -> Frame {
    if let Some(message) = tool_call(line) {
        return Frame::Message(Box::new(message));
    }
    frame_in_full(line)
}

/// The tools/call request `line` holds, parsed as rmcp's one `CallToolRequest` type, or None
/// (not a tools/call, or one [`frame_in_full`] must look at).
///
/// rmcp's `ClientRequest` is an untagged union: it tries every request type in turn, each
/// failing on its method with an error message built and dropped, then falls back to a custom
/// request. For a `"tools/call"` method every type before `CallToolRequest` fails on the method
/// name, so when `CallToolRequest` alone parses, the whole union parses to that same value:
/// the shape checks and the `_meta` handling are rmcp's own code, with the one type in place of
/// the union. Anything else (bad params, a response, not JSON) goes the full way, so every
/// answer stays [`frame_in_full`]'s (the fuzz tests compare both on every line they make).
fn tool_call(line: &[u8]) -> Option<ClientJsonRpcMessage> {
    const METHOD: &[u8] = b"\"tools/call\"";
    if !line.windows(METHOD.len()).any(|w| w == METHOD) {
        return None;
    }
    type OnlyCall = JsonRpcMessage<CallToolRequest, IgnoredAny, IgnoredAny>;
    match serde_json::from_slice::<OnlyCall>(line) {
        Ok(JsonRpcMessage::Request(JsonRpcRequest {
            jsonrpc,
            id,
            request,
        })) => Some(JsonRpcMessage::Request(JsonRpcRequest {
            jsonrpc,
            id,
            request: ClientRequest::CallToolRequest(request),
        })),
        _ => None,
    }
}

/// Whether `body` is a tools/call request in its plainest form, which [`frame`] is sure to take
/// as a message: exactly the keys `jsonrpc` ("2.0"), `id` (a string, or an integer rmcp keeps),
/// `method` ("tools/call") and `params`, whose keys are a string `name` and at most an object
/// `arguments` and an object `_meta`, no key twice and no escape in the strings read. Checked
/// without building anything, for the HTTP transport, which needs only that answer (rmcp
/// parses the body itself). Anything less plain answers false and goes [`frame`]'s way, so
/// being stricter than rmcp is always safe (tests/fuzz.rs checks the implication).
pub fn is_plain_tool_call(body: &[u8]) -> bool {
    serde_json::from_slice::<plain::ObjectOnly<plain::Call>>(body).is_ok()
}

/// The shapes [`is_plain_tool_call`] accepts; every value is read and dropped.
mod plain {
    use serde::Deserialize;
    use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
    use std::fmt;

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub(super) struct Call {
        #[serde(rename = "jsonrpc", deserialize_with = "version")]
        _jsonrpc: (),
        #[serde(rename = "id", deserialize_with = "id")]
        _id: (),
        #[serde(rename = "method", deserialize_with = "tools_call")]
        _method: (),
        #[serde(rename = "params")]
        _params: ObjectOnly<Params>,
    }

    /// `T` from a JSON object only: serde's derive also takes a struct from an array of its
    /// fields (`"params": ["x"]`), which rmcp refuses.
    pub(super) struct ObjectOnly<T>(T);

    impl<'de, T: Deserialize<'de>> Deserialize<'de> for ObjectOnly<T> {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct Fields<T>(std::marker::PhantomData<T>);
            impl<'de, T: Deserialize<'de>> Visitor<'de> for Fields<T> {
                type Value = T;
                fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                    f.write_str("an object")
                }
                fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
                    T::deserialize(de::value::MapAccessDeserializer::new(map))
                }
            }
            d.deserialize_map(Fields(std::marker::PhantomData))
                .map(ObjectOnly)
        }
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Params {
        #[serde(rename = "name", deserialize_with = "name")]
        _name: (),
        #[serde(default, rename = "arguments", deserialize_with = "object")]
        _arguments: (),
        #[serde(default, rename = "_meta", deserialize_with = "object")]
        _meta: (),
    }

    fn exactly<'de, D: Deserializer<'de>>(d: D, want: &str) -> Result<(), D::Error> {
        let s = <&str>::deserialize(d)?;
        if s == want {
            Ok(())
        } else {
            Err(de::Error::custom("not the plain form"))
        }
    }

    fn version<'de, D: Deserializer<'de>>(d: D) -> Result<(), D::Error> {
        exactly(d, "2.0")
    }

    fn tools_call<'de, D: Deserializer<'de>>(d: D) -> Result<(), D::Error> {
        exactly(d, "tools/call")
    }

    fn name<'de, D: Deserializer<'de>>(d: D) -> Result<(), D::Error> {
        <&str>::deserialize(d).map(drop)
    }

    /// A string, or an integer that fits rmcp's i64 (a float, even integral, is not plain).
    fn id<'de, D: Deserializer<'de>>(d: D) -> Result<(), D::Error> {
        struct Id;
        impl<'de> Visitor<'de> for Id {
            type Value = ();
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string or an integer")
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
                Ok(())
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<(), E> {
                i64::try_from(v).map(drop).map_err(E::custom)
            }
            fn visit_borrowed_str<E: de::Error>(self, _: &'de str) -> Result<(), E> {
                Ok(())
            }
        }
        d.deserialize_any(Id)
    }

    fn object<'de, D: Deserializer<'de>>(d: D) -> Result<(), D::Error> {
        ObjectOnly::<Members>::deserialize(d).map(drop)
    }

    /// An object's members: any values, at most [`MAX_DEPTH`] deep.
    struct Members;

    impl<'de> Deserialize<'de> for Members {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_any(Any(1)).map(|()| Members)
        }
    }

    /// How deep a plain call's `arguments` and `_meta` may nest. Deeper goes the full way,
    /// which stops where serde_json does for rmcp (128 levels in all).
    const MAX_DEPTH: u8 = 64;

    /// Any JSON value at most [`MAX_DEPTH`] deep, read as serde_json reads one for rmcp:
    /// through `deserialize_any`, so strings are checked and numbers must fit, which
    /// `IgnoredAny` would skip.
    #[derive(Clone, Copy)]
    struct Any(u8);

    impl Any {
        fn deeper<E: de::Error>(self) -> Result<Any, E> {
            if self.0 < MAX_DEPTH {
                Ok(Any(self.0 + 1))
            } else {
                Err(E::custom("nested too deep to be plain"))
            }
        }
    }

    impl<'de> DeserializeSeed<'de> for Any {
        type Value = ();
        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
            d.deserialize_any(self)
        }
    }

    impl<'de> Visitor<'de> for Any {
        type Value = ();
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a JSON value")
        }
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
            Ok(())
        }
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
            Ok(())
        }
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
            Ok(())
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
            Ok(())
        }
        fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
            Ok(())
        }
        fn visit_unit<E: de::Error>(self) -> Result<(), E> {
            Ok(())
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            let inner = self.deeper()?;
            while seq.next_element_seed(inner)?.is_some() {}
            Ok(())
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            let inner = self.deeper()?;
            while map.next_key_seed(Any(0))?.is_some() {
                map.next_value_seed(inner)?;
            }
            Ok(())
        }
    }
}

/// [`frame`] without its tools/call shortcut: the line parsed as rmcp's whole message type.
pub fn frame_in_full(line: &[u8]) -> Frame {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Frame::Skip;
    }
    match serde_json::from_slice::<ClientJsonRpcMessage>(line) {
        Ok(JsonRpcMessage::Request(request)) => match &request.request {
            // rmcp falls back to a custom request when a method it knows has params of the
            // wrong shape; the handler would then answer "method not found".
            ClientRequest::CustomRequest(custom) if is_client_request_method(&custom.method) => {
                let id = serde_json::to_value(&request.id).unwrap_or(Value::Null);
                // rmcp moves `_meta` out of the params into the request's extensions.
                let stateless = custom
                    .get_meta()
                    .protocol_version()
                    .is_some_and(|v| v.as_str() >= STATELESS_VERSION);
                Frame::Reply(bad_params(
                    id,
                    &custom.method,
                    custom.params.as_ref(),
                    stateless,
                ))
            }
            _ => Frame::Message(Box::new(JsonRpcMessage::Request(request))),
        },
        Ok(message) => Frame::Message(Box::new(message)),
        Err(_) => rejected(line),
    }
}

/// The answer to a line that is not a message rmcp understands.
fn rejected(line: &[u8]) -> Frame {
    let value = match serde_json::from_slice::<Value>(line) {
        Ok(value) => value,
        Err(e) => {
            return Frame::Reply(error(
                Value::Null,
                PARSE_ERROR,
                format!(
                    "Parse error: the line is not JSON ({}, column {}); send one JSON-RPC message per line",
                    unparsable(&e),
                    e.column()
                ),
            ));
        }
    };
    let object = match value {
        Value::Object(object) => object,
        Value::Array(_) => {
            return Frame::Reply(error(
                Value::Null,
                INVALID_REQUEST,
                "Invalid Request: JSON-RPC batches are not supported (MCP 2025-11-25 removed them); send one message per line".into(),
            ));
        }
        _ => {
            return Frame::Reply(error(
                Value::Null,
                INVALID_REQUEST,
                "Invalid Request: a JSON-RPC message is a JSON object".into(),
            ));
        }
    };
    if let Some(Value::String(method)) = object.get("method")
        && !object.contains_key("id")
        && !is_standard_notification(method)
        && !is_client_request_method(method)
    {
        return Frame::Skip;
    }
    let id = readable_id(&object);
    // A well-formed request to a known method that rmcp could not parse: its params are wrong.
    if let Some(Value::String(method)) = object.get("method")
        && is_client_request_method(method)
        && !id.is_null()
        && object.get("jsonrpc") == Some(&Value::from("2.0"))
        && object.contains_key("params")
        && !object.contains_key("result")
        && !object.contains_key("error")
    {
        let params = object.get("params");
        return Frame::Reply(bad_params(id, method, params, is_stateless(params)));
    }
    Frame::Reply(error(id, INVALID_REQUEST, invalid_request_problem(&object)))
}

/// The request id, when it has a type JSON-RPC and MCP allow (string or integer).
fn readable_id(object: &Map<String, Value>) -> Value {
    match object.get("id") {
        Some(Value::String(s)) => Value::String(s.clone()),
        Some(Value::Number(n)) if n.is_i64() => Value::Number(n.clone()),
        _ => Value::Null,
    }
}

fn invalid_request_problem(object: &Map<String, Value>) -> String {
    let problem = if object.get("jsonrpc") != Some(&Value::from("2.0")) {
        "\"jsonrpc\" must be \"2.0\""
    } else if object
        .get("id")
        .is_some_and(|id| readable_id(object).is_null() && !id.is_null())
    {
        "\"id\" must be a string or an integer"
    } else if !object.contains_key("method")
        && !object.contains_key("result")
        && !object.contains_key("error")
    {
        "a request needs a \"method\" (a response a \"result\" or an \"error\")"
    } else if object.get("method").is_some_and(|m| !m.is_string()) {
        "\"method\" must be a string"
    } else {
        "not a JSON-RPC 2.0 request, notification or response MCP defines"
    };
    format!("Invalid Request: {problem}")
}

/// The answer to a request for a known method whose params rmcp could not read: -32602, or
/// -32601 when the request is stateless and the method one the stateless revision removed.
fn bad_params(id: Value, method: &str, params: Option<&Value>, stateless: bool) -> Value {
    if stateless && removed_in_stateless(method) {
        return error(
            id,
            METHOD_NOT_FOUND,
            format!(
                "Method not found: {method} is not part of MCP {STATELESS_VERSION} (SEP-2575 removed it); call server/discover, and send the client's capabilities and log level in each request's _meta"
            ),
        );
    }
    error(id, INVALID_PARAMS, params_problem(method, params))
}

fn params_problem(method: &str, params: Option<&Value>) -> String {
    let problem = match params {
        Some(p) if !p.is_object() => "params must be an object".to_owned(),
        Some(p) if method == CallToolRequestMethod::VALUE => {
            if !p.get("name").is_some_and(Value::is_string) {
                "\"name\" must be the tool's name, a string".to_owned()
            } else if p.get("arguments").is_some_and(|a| !a.is_object()) {
                "\"arguments\" must be an object".to_owned()
            } else {
                "params do not match the method's schema".to_owned()
            }
        }
        _ => "params do not match the method's schema".to_owned(),
    };
    format!("Invalid params for {method}: {problem}")
}

fn error(id: Value, code: i64, message: String) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// Methods a client may call on a server, as rmcp parses them.
fn is_client_request_method(method: &str) -> bool {
    [
        PingRequestMethod::VALUE,
        InitializeResultMethod::VALUE,
        DiscoverRequestMethod::VALUE,
        CompleteRequestMethod::VALUE,
        SetLevelRequestMethod::VALUE,
        GetPromptRequestMethod::VALUE,
        ListPromptsRequestMethod::VALUE,
        ListResourcesRequestMethod::VALUE,
        ListResourceTemplatesRequestMethod::VALUE,
        ReadResourceRequestMethod::VALUE,
        SubscriptionsListenRequestMethod::VALUE,
        SubscribeRequestMethod::VALUE,
        UnsubscribeRequestMethod::VALUE,
        CallToolRequestMethod::VALUE,
        ListToolsRequestMethod::VALUE,
        GetTaskMethod::VALUE,
        UpdateTaskMethod::VALUE,
        CancelTaskMethod::VALUE,
        ListSkillsRequestMethod::VALUE,
        GetSkillRequestMethod::VALUE,
        ReadResourceDirectoryRequestMethod::VALUE,
    ]
    .contains(&method)
}

fn is_standard_notification(method: &str) -> bool {
    [
        "notifications/cancelled",
        "notifications/initialized",
        "notifications/progress",
        "notifications/roots/list_changed",
    ]
    .contains(&method)
}

fn unparsable(e: &serde_json::Error) -> &'static str {
    match e.classify() {
        serde_json::error::Category::Eof => "it ends early",
        _ => "syntax error",
    }
}

/// The answer to a line longer than `max` bytes, which was dropped unread.
pub fn too_long(max: usize) -> Value {
    error(
        Value::Null,
        INVALID_REQUEST,
        format!("Invalid Request: the line is longer than {max} bytes and was dropped"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(line: &str) -> Value {
        match frame(line.as_bytes()) {
            Frame::Reply(v) => v,
            other => panic!("not a reply: {other:?}"),
        }
    }

    /// The tools/call shortcut gives what the full parse gives, on the lines it takes and on
    /// the ones it hands on (tests/fuzz.rs compares both on generated lines too).
    #[test]
    fn the_tools_call_shortcut_parses_as_the_whole_union_does() {
        let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"progressToken":7}"#;
        let lines = [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"kg_latest_graph","arguments":{"repository":"a/b"}}}"#.to_owned(),
            format!(r#"{{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{{"name":"t","arguments":{{}},{meta}}}}}"#),
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":[1]}}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":5}}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":[]}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":1.5,"method":"tools/call","params":{"name":"t"}}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":null,"method":"tools/call","params":{"name":"t"}}"#.to_owned(),
            r#"{"jsonrpc":"1.0","id":1,"method":"tools/call","params":{"name":"t"}}"#.to_owned(),
            r#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"t"}}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"},"result":{}}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","method":"tools/call","params":{"name":"t"}}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"name":"tools/call"}}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":1,"result":{"x":"tools/call"}}"#.to_owned(),
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"t\"}}\r".to_owned(),
            "\u{feff}{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"t\"}}".to_owned(),
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t""#.to_owned(),
        ];
        let shown = |f: Frame| match f {
            Frame::Message(m) => format!("{m:?} {}", serde_json::to_string(&m).unwrap()),
            other => format!("{other:?}"),
        };
        let (mut taken, mut plain) = (Vec::new(), Vec::new());
        for (i, line) in lines.iter().enumerate() {
            if tool_call(line.as_bytes()).is_some() {
                taken.push(i);
            }
            if is_plain_tool_call(line.as_bytes()) {
                plain.push(i);
            }
            assert_eq!(
                shown(frame(line.as_bytes())),
                shown(frame_in_full(line.as_bytes())),
                "{line}"
            );
        }
        assert_eq!(
            taken,
            [0, 1, 2, 15],
            "the well-formed calls take the shortcut"
        );
        assert_eq!(plain, [0, 1, 2, 15], "and are plain");
        for other in [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":null}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","task":{}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"},"x":1}"#,
            r#"{"jsonrpc":"2.0","id":"\u0031","method":"tools/call","params":{"name":"t"}}"#,
            r#"{"jsonrpc":"2.0","id":9223372036854775808,"method":"tools/call","params":{"name":"t"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","_meta":{},"_meta":{}}}"#,
        ] {
            assert!(!is_plain_tool_call(other.as_bytes()), "{other}");
        }
        // Not plain, and not messages either: serde's derive would have passed the two arrays,
        // which it reads as a struct's fields in order (fuzz), and IgnoredAny the last three.
        for bad in [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":["t"]}"#.to_owned(),
            r#"["2.0",1,"tools/call",{"name":"t"}]"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"a":"\ud800"}}}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"a":1e999}}}"#.to_owned(),
            format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"t","arguments":{{"a":{}1{}}}}}}}"#,
                "[".repeat(200),
                "]".repeat(200)
            ),
        ] {
            assert!(
                matches!(frame_in_full(bad.as_bytes()), Frame::Reply(_)),
                "{bad}"
            );
            assert!(!is_plain_tool_call(bad.as_bytes()), "{bad}");
        }
    }

    #[test]
    fn a_stateless_request_for_a_removed_method_is_method_not_found() {
        let meta = r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;
        for method in ["initialize", "logging/setLevel", "resources/subscribe"] {
            let line = format!(
                r#"{{"jsonrpc":"2.0","id":3,"method":"{method}","params":{{"_meta":{meta}}}}}"#
            );
            assert_eq!(reply(&line)["error"]["code"], METHOD_NOT_FOUND, "{line}");
        }
        // The same bad params in a 2025 session are still invalid params.
        let line = r#"{"jsonrpc":"2.0","id":3,"method":"logging/setLevel","params":{}}"#;
        assert_eq!(reply(line)["error"]["code"], INVALID_PARAMS);
    }
}
