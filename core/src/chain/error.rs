//! What the `./core` utilities reject an input with, and how they quote it in the message (the
//! one thing every chain utility shares: no utility depends on another for it).

/// The rejection of an input by one of the utilities. The string is the message a JavaScript
/// caller sees in the thrown `Error`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UtilError(pub String);

impl UtilError {
    /// A new error with this message.
    pub fn new(message: impl Into<String>) -> Self {
        UtilError(message.into())
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.0
    }
}

impl core::fmt::Display for UtilError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UtilError {}

/// `s` in double quotes for an error message, like `{s:?}` for ASCII text: quote, backslash and
/// control characters escaped. Anything outside printable ASCII is written `\u{…}`, so an invisible
/// or look-alike character in rejected input shows. (Rust's `Debug` formatting would compile the
/// Unicode printability tables into the WebAssembly.)
pub fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            ' '..='~' => out.push(c),
            c => {
                out.push_str("\\u{");
                out.push_str(&format!("{:x}", c as u32));
                out.push('}');
            }
        }
    }
    out.push('"');
    out
}
