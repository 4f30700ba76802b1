//! Generated SVG images: a coloured rounded square with initials. No third-party artwork.

/// 32-bit FNV-1a, for a stable colour per id.
fn fnv1a(s: &str) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in s.bytes() {
        h ^= b as u32;
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

/// Up to two initials from a label: first letters of the first two words, or the first two
/// alphanumerics of a single word. Always ASCII alphanumerics (safe to embed in markup).
pub fn initials(label: &str) -> String {
    let words: Vec<&str> = label
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let out: String = match words.as_slice() {
        [] => "?".into(),
        [one] => one.chars().take(2).collect(),
        [a, b, ..] => {
            // "Test Wallet 07" → "T7"-style initials are confusing; prefer a trailing number when present.
            let last = words.last().copied().unwrap_or(b);
            if words.len() > 2 && last.chars().all(|c| c.is_ascii_digit()) {
                format!("{}{}", &a[..1], last)
            } else {
                format!("{}{}", &a[..1], &b[..1])
            }
        }
    };
    out.to_ascii_uppercase()
}

/// Whether an id is acceptable in an image path: 1 to 64 of `[A-Za-z0-9._-]`.
pub fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
}

/// The SVG for an id, labelled with initials of `label`.
pub fn svg(id: &str, label: &str) -> String {
    let h = fnv1a(id);
    let hue = h % 360;
    let hue2 = (hue + 40) % 360;
    let text = initials(label);
    let size = if text.len() > 2 { 30 } else { 38 };
    format!(
        concat!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96">"#,
            r#"<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">"#,
            r#"<stop offset="0" stop-color="hsl({hue},70%,52%)"/><stop offset="1" stop-color="hsl({hue2},70%,40%)"/>"#,
            r#"</linearGradient></defs>"#,
            r#"<rect width="96" height="96" rx="24" fill="url(#g)"/>"#,
            r#"<text x="48" y="50" dominant-baseline="middle" text-anchor="middle" "#,
            r#"font-family="system-ui,sans-serif" font-weight="700" font-size="{size}" fill="white">{text}</text>"#,
            r#"</svg>"#
        ),
        hue = hue,
        hue2 = hue2,
        size = size,
        text = text
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initials_cases() {
        assert_eq!(initials("Demo Wallet"), "DW");
        assert_eq!(initials("Test Wallet 07"), "T07");
        assert_eq!(initials("usdc"), "US");
        assert_eq!(initials("<script>"), "SC");
        assert_eq!(initials(""), "?");
    }

    #[test]
    fn ids() {
        assert!(valid_id("692ed6ba-e569-459a-556a-776476829e00"));
        assert!(valid_id("USD"));
        assert!(!valid_id("../x"));
        assert!(!valid_id(""));
        assert!(!valid_id(&"a".repeat(65)));
    }

    #[test]
    fn svg_is_stable_and_differs_by_id() {
        assert_eq!(svg("a", "A"), svg("a", "A"));
        assert_ne!(svg("a", "A"), svg("b", "A"));
        assert!(svg("a", "Demo Wallet").contains(">DW</text>"));
    }
}
