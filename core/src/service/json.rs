//! A small JSON value, parser and writer for the WebAssembly path.
//!
//! serde_json's `Value` keeps objects in a `BTreeMap` and parses through serde's generic
//! deserializer; in the engine's WebAssembly module the two cost tens of kilobytes. This value keeps
//! object members in a list (last duplicate wins, as with serde_json) and numbers as their JSON
//! text, so no float parsing or formatting is compiled in. Output is compact and escapes exactly
//! what serde_json escapes. The parser refuses nesting deeper than [`MAX_DEPTH`] instead of
//! recursing without bound on hostile input.

use std::borrow::Cow;
use std::fmt::{self, Write as _};

/// Deepest nesting the parser accepts (serde_json's default limit is 128 too).
pub const MAX_DEPTH: usize = 128;

#[derive(Clone, Debug, Default, PartialEq)]
pub enum Value {
    #[default]
    Null,
    Bool(bool),
    Number(Number),
    String(String),
    Array(Vec<Value>),
    Object(Map),
}

/// A JSON number, kept as its (valid) JSON text.
#[derive(Clone, Debug, PartialEq)]
pub struct Number(String);

impl Number {
    /// The number as an unsigned integer, if it is written as one (`12`, not `12.0` or `1e3`).
    pub fn as_u64(&self) -> Option<u64> {
        self.0.parse().ok()
    }

    /// The number as a signed integer, if it is written as one (read by the unsigned parser,
    /// which every module links anyway: std's signed one is ~250 B more of the engine).
    pub fn as_i64(&self) -> Option<i64> {
        match self.0.strip_prefix('-') {
            Some(digits) => digits.parse::<u64>().ok().filter(|&n| n <= 1 << 63).map(|n| (n as i64).wrapping_neg()),
            None => self.0.parse::<u64>().ok().and_then(|n| i64::try_from(n).ok()),
        }
    }

    /// The JSON text of the number.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Object members in order; inserting an existing key replaces its value. Keys written by the
/// engine are static names (no allocation per key); parsed keys are owned.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Map(Vec<(Cow<'static, str>, Value)>);

impl Map {
    pub fn new() -> Map {
        Map(Vec::new())
    }

    pub fn get(&self, key: &str) -> Option<&Value> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    pub fn insert(&mut self, key: impl Into<Cow<'static, str>>, value: Value) {
        let key = key.into();
        match self.0.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => *v = value,
            None => self.0.push((key, value)),
        }
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.0.iter().map(|(k, v)| (k.as_ref(), v))
    }
}

impl IntoIterator for Map {
    type Item = (String, Value);
    type IntoIter = std::iter::Map<std::vec::IntoIter<(Cow<'static, str>, Value)>, fn((Cow<'static, str>, Value)) -> (String, Value)>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter().map(|(k, v)| (k.into_owned(), v))
    }
}

impl Map {
    /// The object of `members`, exactly as inserting them one by one builds it (a repeated key keeps
    /// its first position and takes its last value), in O(n log n) instead of O(n²): one sort of the
    /// member indices by key puts the repeats of each key side by side, instead of a scan of the
    /// whole map per member. A 1 MB response can hold 100,000 keys.
    fn from_members(mut members: Vec<(Cow<'static, str>, Value)>) -> Map {
        if members.len() < 2 {
            return Map(members);
        }
        let mut by_key: Vec<usize> = (0..members.len()).collect();
        // Ties broken by position: the repeats of a key end up in document order.
        by_key.sort_unstable_by(|&a, &b| members[a].0.cmp(&members[b].0).then(a.cmp(&b)));
        let mut keep: Vec<bool> = Vec::new();
        let mut first = by_key[0];
        for pair in by_key.windows(2) {
            let (previous, this) = (pair[0], pair[1]);
            if members[previous].0 != members[this].0 {
                first = this;
                continue;
            }
            // A repeat of `first`'s key, later in the document: its value replaces the first's.
            members[first].1 = std::mem::take(&mut members[this].1);
            if keep.is_empty() {
                keep = vec![true; members.len()];
            }
            keep[this] = false;
        }
        if !keep.is_empty() {
            let mut kept = keep.into_iter();
            members.retain(|_| kept.next().unwrap_or(true));
        }
        Map(members)
    }
}

impl FromIterator<(String, Value)> for Map {
    fn from_iter<I: IntoIterator<Item = (String, Value)>>(iter: I) -> Map {
        Map::from_members(iter.into_iter().map(|(k, v)| (Cow::Owned(k), v)).collect())
    }
}

static NULL: Value = Value::Null;

impl Value {
    /// A member of an object (`None` for a missing key or a value that is not an object).
    /// An object's member (`"key"`) or an array's item (`0`), as serde_json's `get`.
    pub fn get<I: JsonIndex>(&self, index: I) -> Option<&Value> {
        index.find(self)
    }

    pub fn is_object(&self) -> bool {
        matches!(self, Value::Object(_))
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Value::Number(n) => n.as_u64(),
            _ => None,
        }
    }

    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Value::Number(n) => n.as_i64(),
            _ => None,
        }
    }

    /// A number as `f64` (prices): the lazily loaded modules' only float parsing.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Number(n) => crate::service::decimal::parse_f64(&n.0),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&Vec<Value>> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    pub fn as_object(&self) -> Option<&Map> {
        match self {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// Compact JSON text.
    pub fn write(&self, out: &mut String) {
        match self {
            Value::Null => out.push_str("null"),
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::Number(n) => out.push_str(&n.0),
            Value::String(s) => write_str(s, out),
            Value::Array(a) => {
                out.push('[');
                for (i, v) in a.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    v.write(out);
                }
                out.push(']');
            }
            Value::Object(m) => {
                out.push('{');
                for (i, (k, v)) in m.0.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_str(k, out);
                    out.push(':');
                    v.write(out);
                }
                out.push('}');
            }
        }
    }
}

/// What [`Value::get`] takes: a member name or an item index.
pub trait JsonIndex {
    fn find(self, v: &Value) -> Option<&Value>;
}

impl JsonIndex for &str {
    fn find(self, v: &Value) -> Option<&Value> {
        match v {
            Value::Object(m) => m.get(self),
            _ => None,
        }
    }
}

impl JsonIndex for &String {
    fn find(self, v: &Value) -> Option<&Value> {
        JsonIndex::find(self.as_str(), v)
    }
}

impl JsonIndex for usize {
    fn find(self, v: &Value) -> Option<&Value> {
        v.as_array().and_then(|a| a.get(self))
    }
}

impl<'a> IntoIterator for &'a Map {
    type Item = (&'a str, &'a Value);
    type IntoIter = Box<dyn Iterator<Item = (&'a str, &'a Value)> + 'a>;
    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

impl std::ops::Index<&str> for Value {
    type Output = Value;
    /// The member, or `null` when missing (as serde_json indexes).
    fn index(&self, key: &str) -> &Value {
        self.get(key).unwrap_or(&NULL)
    }
}

impl std::ops::Index<usize> for Value {
    type Output = Value;
    fn index(&self, i: usize) -> &Value {
        self.as_array().and_then(|a| a.get(i)).unwrap_or(&NULL)
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        self.write(&mut s);
        f.write_str(&s)
    }
}

/// A JSON string literal, escaped as serde_json escapes (quote, backslash, control characters).
/// Runs of characters that need no escape are copied in one go.
pub fn write_str(s: &str, out: &mut String) {
    out.push('"');
    let mut start = 0;
    for (i, b) in s.bytes().enumerate() {
        let escape = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0..=0x1f => "",
            _ => continue,
        };
        out.push_str(&s[start..i]);
        if escape.is_empty() {
            let _ = write!(out, "\\u{:04x}", b);
        } else {
            out.push_str(escape);
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// Writes JSON straight into a string, without building a [`Value`] first: the snapshot goes out
/// after every event, and copying each of its strings into a tree only to print it doubles the work.
/// Commas are placed by the writer; the caller opens and closes objects and arrays in order.
#[derive(Default)]
pub struct Writer {
    out: String,
    comma: bool,
}

impl Writer {
    pub fn new() -> Writer {
        Writer { out: String::with_capacity(4096), comma: false }
    }

    pub fn finish(self) -> String {
        self.out
    }

    fn sep(&mut self) {
        if self.comma {
            self.out.push(',');
        }
        self.comma = true;
    }

    pub fn begin_object(&mut self) -> &mut Self {
        self.sep();
        self.out.push('{');
        self.comma = false;
        self
    }

    pub fn end_object(&mut self) -> &mut Self {
        self.out.push('}');
        self.comma = true;
        self
    }

    pub fn begin_array(&mut self) -> &mut Self {
        self.sep();
        self.out.push('[');
        self.comma = false;
        self
    }

    pub fn end_array(&mut self) -> &mut Self {
        self.out.push(']');
        self.comma = true;
        self
    }

    /// An object member's name; its value is written next.
    pub fn key(&mut self, k: &str) -> &mut Self {
        self.sep();
        write_str(k, &mut self.out);
        self.out.push(':');
        self.comma = false;
        self
    }

    pub fn str(&mut self, s: &str) -> &mut Self {
        self.sep();
        write_str(s, &mut self.out);
        self
    }

    /// A string, or `null` for `None`.
    pub fn opt_str(&mut self, s: Option<&str>) -> &mut Self {
        match s {
            Some(s) => self.str(s),
            None => self.null(),
        }
    }

    pub fn bool(&mut self, b: bool) -> &mut Self {
        self.sep();
        self.out.push_str(if b { "true" } else { "false" });
        self
    }

    pub fn u64(&mut self, n: u64) -> &mut Self {
        self.sep();
        let _ = write!(self.out, "{n}");
        self
    }

    pub fn i64(&mut self, n: i64) -> &mut Self {
        self.sep();
        let _ = write!(self.out, "{n}");
        self
    }

    pub fn null(&mut self) -> &mut Self {
        self.sep();
        self.out.push_str("null");
        self
    }

    /// A finite number (`null` otherwise): the lazily loaded modules' only float writing.
    pub fn f64(&mut self, n: f64) -> &mut Self {
        if !n.is_finite() {
            return self.null();
        }
        self.sep();
        self.out.push_str(&crate::service::decimal::f64_text(n));
        self
    }

    pub fn value(&mut self, v: &Value) -> &mut Self {
        self.sep();
        v.write(&mut self.out);
        self
    }

    /// A list of strings.
    pub fn strs<S: AsRef<str>>(&mut self, list: &[S]) -> &mut Self {
        self.begin_array();
        for s in list {
            self.str(s.as_ref());
        }
        self.end_array()
    }
}

macro_rules! from_int {
    ($($t:ty),*) => {$(
        impl From<$t> for Value {
            fn from(n: $t) -> Value {
                Value::Number(Number(n.to_string()))
            }
        }
    )*};
}
from_int!(u8, u16, u32, u64, usize, i32, i64);

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::String(s.to_string())
    }
}

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::String(s)
    }
}

impl From<Map> for Value {
    fn from(m: Map) -> Value {
        Value::Object(m)
    }
}

impl<T: Into<Value>> From<Vec<T>> for Value {
    fn from(v: Vec<T>) -> Value {
        Value::Array(v.into_iter().map(Into::into).collect())
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(v: Option<T>) -> Value {
        v.map_or(Value::Null, Into::into)
    }
}

impl<T: Clone + Into<Value>> From<&T> for Value {
    fn from(v: &T) -> Value {
        v.clone().into()
    }
}

impl From<f64> for Value {
    /// A finite number (`null` otherwise).
    fn from(n: f64) -> Value {
        if n.is_finite() {
            Value::Number(Number(crate::service::decimal::f64_text(n)))
        } else {
            Value::Null
        }
    }
}

impl std::ops::IndexMut<&str> for Value {
    /// The member, inserted as `null` when missing; a value that is not an object becomes an empty
    /// object first (as serde_json indexes mutably).
    fn index_mut(&mut self, key: &str) -> &mut Value {
        if !matches!(self, Value::Object(_)) {
            *self = Value::Object(Map::new());
        }
        let Value::Object(m) = self else { unreachable!() };
        if !m.contains_key(key) {
            m.insert(key.to_string(), Value::Null);
        }
        let i = m.0.iter().rposition(|(k, _)| k == key).unwrap_or(0);
        &mut m.0[i].1
    }
}

/// `json!`, as serde_json writes it, for this crate's [`Value`]: objects with string-literal keys,
/// arrays, `null`, and any expression that converts into a value.
#[macro_export]
macro_rules! json {
    (null) => { $crate::service::json::Value::Null };
    ([ $($tt:tt)* ]) => { $crate::service::json::Value::Array({
        #[allow(unused_mut)]
        let mut items = ::std::vec::Vec::new();
        $crate::json_items!(items $($tt)*);
        items
    }) };
    ({ $($tt:tt)* }) => { $crate::service::json::Value::Object({
        #[allow(unused_mut)]
        let mut members = $crate::service::json::Map::new();
        $crate::json_members!(members $($tt)*);
        members
    }) };
    // By reference, as serde_json's takes it: fields of borrowed structs need no clone written out.
    ($e:expr) => { $crate::service::json::Value::from(&$e) };
}

#[doc(hidden)]
#[macro_export]
macro_rules! json_items {
    ($v:ident) => {};
    ($v:ident null $(, $($rest:tt)*)?) => { $v.push($crate::service::json::Value::Null); $($crate::json_items!($v $($rest)*);)? };
    ($v:ident [ $($x:tt)* ] $(, $($rest:tt)*)?) => { $v.push($crate::json!([ $($x)* ])); $($crate::json_items!($v $($rest)*);)? };
    ($v:ident { $($x:tt)* } $(, $($rest:tt)*)?) => { $v.push($crate::json!({ $($x)* })); $($crate::json_items!($v $($rest)*);)? };
    ($v:ident $x:expr $(, $($rest:tt)*)?) => { $v.push($crate::json!($x)); $($crate::json_items!($v $($rest)*);)? };
}

#[doc(hidden)]
#[macro_export]
macro_rules! json_members {
    ($m:ident) => {};
    ($m:ident $k:literal : null $(, $($rest:tt)*)?) => { $m.insert($k, $crate::service::json::Value::Null); $($crate::json_members!($m $($rest)*);)? };
    ($m:ident $k:literal : [ $($x:tt)* ] $(, $($rest:tt)*)?) => { $m.insert($k, $crate::json!([ $($x)* ])); $($crate::json_members!($m $($rest)*);)? };
    ($m:ident $k:literal : { $($x:tt)* } $(, $($rest:tt)*)?) => { $m.insert($k, $crate::json!({ $($x)* })); $($crate::json_members!($m $($rest)*);)? };
    ($m:ident $k:literal : $x:expr $(, $($rest:tt)*)?) => { $m.insert($k, $crate::json!($x)); $($crate::json_members!($m $($rest)*);)? };
}

/// An object from `(key, value)` pairs.
pub fn obj(pairs: Vec<(&'static str, Value)>) -> Value {
    Value::Object(Map(pairs.into_iter().map(|(k, v)| (Cow::Borrowed(k), v)).collect()))
}

impl PartialEq<str> for Value {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == Some(other)
    }
}

impl PartialEq<&str> for Value {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == Some(*other)
    }
}

impl PartialEq<bool> for Value {
    fn eq(&self, other: &bool) -> bool {
        self.as_bool() == Some(*other)
    }
}

impl PartialEq<u64> for Value {
    fn eq(&self, other: &u64) -> bool {
        self.as_u64() == Some(*other)
    }
}

impl PartialEq<usize> for Value {
    fn eq(&self, other: &usize) -> bool {
        self.as_u64() == Some(*other as u64)
    }
}

impl PartialEq<i32> for Value {
    fn eq(&self, other: &i32) -> bool {
        self.as_i64() == Some(i64::from(*other))
    }
}

impl PartialEq<serde_json::Value> for Value {
    fn eq(&self, other: &serde_json::Value) -> bool {
        *self == Value::from(other.clone())
    }
}

/// serde_json's value as ours (tests and the serde impls below; not on the WebAssembly path).
impl From<serde_json::Value> for Value {
    fn from(v: serde_json::Value) -> Value {
        match v {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(b) => Value::Bool(b),
            serde_json::Value::Number(n) => Value::Number(Number(n.to_string())),
            serde_json::Value::String(s) => Value::String(s),
            serde_json::Value::Array(a) => Value::Array(a.into_iter().map(Value::from).collect()),
            serde_json::Value::Object(m) => Value::Object(m.into_iter().map(|(k, v)| (k, Value::from(v))).collect()),
        }
    }
}

impl serde::Serialize for Value {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        match self {
            Value::Null => s.serialize_unit(),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Number(n) => match (n.as_u64(), n.as_i64()) {
                (Some(u), _) => s.serialize_u64(u),
                (None, Some(i)) => s.serialize_i64(i),
                _ => s.serialize_f64(n.0.parse().unwrap_or(0.0)),
            },
            Value::String(v) => s.serialize_str(v),
            Value::Array(a) => {
                let mut seq = s.serialize_seq(Some(a.len()))?;
                for v in a {
                    seq.serialize_element(v)?;
                }
                seq.end()
            }
            Value::Object(m) => {
                let mut map = s.serialize_map(Some(m.len()))?;
                for (k, v) in m.iter() {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
        }
    }
}

impl<'de> serde::Deserialize<'de> for Value {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
        serde_json::Value::deserialize(d).map(Value::from)
    }
}

/// Where the text stops being JSON (1-based, like serde_json's errors).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub line: usize,
    pub column: usize,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid JSON at line {}, column {}", self.line, self.column)
    }
}

/// Parses one JSON value (whitespace around it allowed, nothing else).
pub fn parse(text: &str) -> Result<Value, ParseError> {
    let mut p = Parser { s: text.as_bytes(), i: 0 };
    let v = p.value(0);
    let v = v.and_then(|v| {
        p.ws();
        if p.i == p.s.len() { Some(v) } else { None }
    });
    v.ok_or_else(|| p.error())
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn error(&self) -> ParseError {
        let upto = &self.s[..self.i.min(self.s.len())];
        let line = 1 + upto.iter().filter(|&&b| b == b'\n').count();
        let column = 1 + upto.iter().rev().take_while(|&&b| b != b'\n').count();
        ParseError { line, column }
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\n' | b'\r' | b'\t')) {
            self.i += 1;
        }
    }

    fn eat(&mut self, b: u8) -> bool {
        if self.peek() == Some(b) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn literal(&mut self, word: &[u8], v: Value) -> Option<Value> {
        if self.s[self.i..].starts_with(word) {
            self.i += word.len();
            Some(v)
        } else {
            None
        }
    }

    fn value(&mut self, depth: usize) -> Option<Value> {
        self.ws();
        match self.peek()? {
            b'n' => self.literal(b"null", Value::Null),
            b't' => self.literal(b"true", Value::Bool(true)),
            b'f' => self.literal(b"false", Value::Bool(false)),
            b'"' => self.string().map(Value::String),
            b'[' if depth < MAX_DEPTH => {
                self.i += 1;
                let mut items = Vec::new();
                self.ws();
                if self.eat(b']') {
                    return Some(Value::Array(items));
                }
                loop {
                    items.push(self.value(depth + 1)?);
                    self.ws();
                    if self.eat(b']') {
                        return Some(Value::Array(items));
                    }
                    if !self.eat(b',') {
                        return None;
                    }
                }
            }
            b'{' if depth < MAX_DEPTH => {
                self.i += 1;
                let mut members = Vec::new();
                self.ws();
                if self.eat(b'}') {
                    return Some(Value::Object(Map::new()));
                }
                loop {
                    self.ws();
                    if self.peek() != Some(b'"') {
                        return None;
                    }
                    let k = self.string()?;
                    self.ws();
                    if !self.eat(b':') {
                        return None;
                    }
                    let v = self.value(depth + 1)?;
                    members.push((Cow::Owned(k), v));
                    self.ws();
                    if self.eat(b'}') {
                        return Some(Value::Object(Map::from_members(members)));
                    }
                    if !self.eat(b',') {
                        return None;
                    }
                }
            }
            b'-' | b'0'..=b'9' => self.number(),
            _ => None,
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.i;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.i += 1;
        }
        self.i - start
    }

    fn number(&mut self) -> Option<Value> {
        let start = self.i;
        self.eat(b'-');
        match self.peek()? {
            b'0' => self.i += 1,
            b'1'..=b'9' => {
                self.digits();
            }
            _ => return None,
        }
        if self.eat(b'.') && self.digits() == 0 {
            return None;
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.i += 1;
            if !self.eat(b'+') {
                self.eat(b'-');
            }
            if self.digits() == 0 {
                return None;
            }
        }
        let text = std::str::from_utf8(&self.s[start..self.i]).ok()?;
        Some(Value::Number(Number(text.to_string())))
    }

    fn hex4(&mut self) -> Option<u32> {
        let h = self.s.get(self.i..self.i + 4)?;
        let h = std::str::from_utf8(h).ok()?;
        let n = u32::from_str_radix(h, 16).ok()?;
        if matches!(h.as_bytes()[0], b'+' | b'-') {
            return None;
        }
        self.i += 4;
        Some(n)
    }

    fn string(&mut self) -> Option<String> {
        self.i += 1; // the opening quote
        let mut out = Vec::new();
        loop {
            let b = self.peek()?;
            self.i += 1;
            match b {
                b'"' => return String::from_utf8(out).ok(),
                b'\\' => {
                    let e = self.peek()?;
                    self.i += 1;
                    let c = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let hi = self.hex4()?;
                            let code = if (0xD800..0xDC00).contains(&hi) {
                                if !(self.eat(b'\\') && self.eat(b'u')) {
                                    return None;
                                }
                                let lo = self.hex4()?;
                                if !(0xDC00..0xE000).contains(&lo) {
                                    return None;
                                }
                                0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                            } else {
                                hi
                            };
                            char::from_u32(code)?
                        }
                        _ => return None,
                    };
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
                0..=0x1f => return None,
                b => out.push(b),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Our value and serde_json's agree on every document (same acceptance, same content).
    fn same_as_serde_json(text: &str) {
        let ours = parse(text).ok();
        let theirs = serde_json::from_str::<serde_json::Value>(text).ok();
        assert_eq!(ours.is_some(), theirs.is_some(), "acceptance differs for {text:?}");
        if let (Some(o), Some(t)) = (ours, theirs) {
            let back: serde_json::Value = serde_json::from_str(&o.to_string()).unwrap();
            assert_eq!(back, t, "content differs for {text:?}");
        }
    }

    #[test]
    fn parses_and_writes_like_serde_json() {
        for text in [
            "null", "true", "false", "0", "-0", "12", "-12.5e+3", "1E5", "\"a\\u00e9\\ud83d\\ude00\\n\"", "[]", "{}",
            " [1, \"x\", {\"a\": [null]}] ", "{\"a\":1,\"a\":2}", "{\"k\":\"\\\"\\\\\\/\\b\\f\\r\\t\"}",
            // refused
            "", "01", "1.", ".5", "-", "1e", "+1", "[1,]", "{\"a\"}", "{a:1}", "[1 2]", "\"\\x\"", "\"\\ud800\"",
            "\"\\udc00\"", "\"\u{1}\"", "nul", "truex", "[", "{\"a\":1", "\"abc", "1 2", "\"\\u12\"", "\"\\u+123\"",
        ] {
            same_as_serde_json(text);
        }
    }

    #[test]
    fn the_writer_places_commas_and_matches_the_value_it_would_build() {
        let mut w = Writer::new();
        w.begin_object().key("a").u64(1).key("b").begin_array().str("x\"y").null().bool(true).i64(-2).end_array();
        w.key("c").begin_object().end_object().key("d").opt_str(None).key("e").strs(&["p", "q"]).key("f").value(&obj(vec![("g", Value::Null)]));
        w.end_object();
        let text = w.finish();
        assert_eq!(text, r#"{"a":1,"b":["x\"y",null,true,-2],"c":{},"d":null,"e":["p","q"],"f":{"g":null}}"#);
        assert!(parse(&text).is_ok());
    }

    #[test]
    fn last_duplicate_key_wins_and_order_is_kept() {
        let v = parse(r#"{"b":1,"a":2,"b":3}"#).unwrap();
        assert_eq!(v["b"].as_u64(), Some(3));
        assert_eq!(v.to_string(), r#"{"b":3,"a":2}"#);
    }

    #[test]
    fn every_repeat_of_a_key_is_merged_into_its_first_member() {
        let v = parse(r#"{"c":1,"a":2,"c":3,"b":4,"a":5,"c":6,"":7,"":8}"#).unwrap();
        assert_eq!(v.to_string(), r#"{"c":6,"a":5,"b":4,"":8}"#);
        assert_eq!(v.as_object().map(Map::len), Some(4));
        let nested = parse(r#"{"x":{"k":1,"k":2},"x":{"k":3,"j":0,"k":4}}"#).unwrap();
        assert_eq!(nested.to_string(), r#"{"x":{"k":4,"j":0}}"#);
    }

    #[test]
    fn integers_only_read_as_integers() {
        assert_eq!(parse("42").unwrap().as_u64(), Some(42));
        assert_eq!(parse("-42").unwrap().as_i64(), Some(-42));
        assert_eq!(parse("-42").unwrap().as_u64(), None);
        assert_eq!(parse("4.2").unwrap().as_u64(), None);
        assert_eq!(parse("1e3").unwrap().as_u64(), None);
        assert_eq!(parse("18446744073709551616").unwrap().as_u64(), None);
    }

    #[test]
    fn signed_integers_read_to_both_ends_of_i64_and_no_further() {
        for (text, want) in [
            ("0", Some(0)),
            ("-0", Some(0)),
            ("9223372036854775807", Some(i64::MAX)),
            ("-9223372036854775808", Some(i64::MIN)),
            ("9223372036854775808", None),
            ("-9223372036854775809", None),
            ("-1.5", None),
            ("-1e3", None),
        ] {
            assert_eq!(parse(text).unwrap().as_i64(), want, "{text}");
        }
    }

    #[test]
    fn deep_nesting_is_refused_not_a_stack_overflow() {
        let deep = "[".repeat(100_000);
        assert!(parse(&deep).is_err());
        let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(parse(&ok).is_ok());
        let too_deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
        assert!(parse(&too_deep).is_err());
    }

    #[test]
    fn errors_say_where() {
        assert_eq!(parse("{\n  \"a\": x}").unwrap_err(), ParseError { line: 2, column: 8 });
        assert_eq!(parse("{\"a\":1,}").unwrap_err().to_string(), "invalid JSON at line 1, column 8");
    }

    #[test]
    fn control_characters_are_escaped_like_serde_json() {
        let s: String = (0u8..0x30).map(char::from).chain("é😀\"\\".chars()).collect();
        let mut ours = String::new();
        write_str(&s, &mut ours);
        assert_eq!(ours, serde_json::to_string(&s).unwrap());
    }

    proptest! {
        #[test]
        fn any_text_parses_like_serde_json(text in "[\\[\\]{}\":,0-9a-z.eE+\\- \\\\u]{0,40}") {
            same_as_serde_json(&text);
        }

        /// Objects with many repeated keys: parsing keeps what inserting the members one by one
        /// keeps (first position, last value) and reads like serde_json.
        #[test]
        fn repeated_keys_parse_like_inserting_the_members_in_order(members in proptest::collection::vec(("[abc]{0,2}", any::<u8>()), 0..60)) {
            let text = format!("{{{}}}", members.iter().map(|(k, v)| format!("\"{k}\":{v}")).collect::<Vec<_>>().join(","));
            let mut expected = Map::new();
            for (k, v) in &members {
                expected.insert(k.clone(), Value::from(*v));
            }
            prop_assert_eq!(parse(&text).unwrap(), Value::Object(expected.clone()));
            prop_assert_eq!(members.into_iter().map(|(k, v)| (k, Value::from(v))).collect::<Map>(), expected);
            same_as_serde_json(&text);
        }

        #[test]
        fn written_values_parse_back(s in "\\PC{0,30}", n in any::<i64>(), b in any::<bool>()) {
            let v = obj(vec![("s", s.clone().into()), ("n", n.into()), ("b", b.into()), ("l", vec![Value::Null, s.as_str().into()].into())]);
            prop_assert_eq!(parse(&v.to_string()).unwrap(), v);
        }
    }
}
