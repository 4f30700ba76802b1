//! Static files with explicit content types and no path traversal.

use std::path::{Component, Path, PathBuf};

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

pub fn content_type(path: &Path) -> &'static str {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(|e| e.to_ascii_lowercase())
        .as_deref()
    {
        Some("html" | "htm") => "text/html; charset=utf-8",
        Some("js" | "mjs" | "cjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("wasm") => "application/wasm",
        Some("json" | "map") => "application/json",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("jpg" | "jpeg") => "image/jpeg",
        Some("gif") => "image/gif",
        Some("webp") => "image/webp",
        Some("ico") => "image/x-icon",
        Some("woff2") => "font/woff2",
        Some("woff") => "font/woff",
        Some("txt" | "md") => "text/plain; charset=utf-8",
        Some("ts") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// Joins a URL path below `base`, refusing anything but normal components.
pub fn safe_join(base: &Path, rel: &str) -> Option<PathBuf> {
    if rel.is_empty() || rel.contains('\\') || rel.contains('\0') {
        return None;
    }
    let mut out = base.to_path_buf();
    for c in Path::new(rel).components() {
        match c {
            Component::Normal(p) => {
                if p.to_str().is_some_and(|s| s.starts_with('.')) {
                    return None; // no dotfiles
                }
                out.push(p)
            }
            _ => return None,
        }
    }
    Some(out)
}

fn not_found() -> Response {
    (
        StatusCode::NOT_FOUND,
        axum::Json(serde_json::json!({"error": "not found", "status": 404})),
    )
        .into_response()
}

pub async fn serve(base: &Path, rel: &str) -> Response {
    let Some(path) = safe_join(base, rel) else {
        return not_found();
    };
    match tokio::fs::metadata(&path).await {
        Ok(m) if m.is_file() => {}
        _ => return not_found(),
    }
    match tokio::fs::read(&path).await {
        Ok(bytes) => {
            let mut res = bytes.into_response();
            let h = res.headers_mut();
            h.insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static(content_type(&path)),
            );
            h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
            res
        }
        Err(_) => not_found(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn join_refuses_traversal() {
        let b = Path::new("/r");
        assert_eq!(safe_join(b, "a/b.js"), Some(PathBuf::from("/r/a/b.js")));
        assert_eq!(safe_join(b, "../x"), None);
        assert_eq!(safe_join(b, "a/../../x"), None);
        assert_eq!(safe_join(b, "/etc/passwd"), None);
        assert_eq!(safe_join(b, ".git/config"), None);
        assert_eq!(safe_join(b, "a\\b"), None);
        assert_eq!(safe_join(b, ""), None);
    }

    #[test]
    fn types() {
        assert_eq!(content_type(Path::new("x.wasm")), "application/wasm");
        assert!(content_type(Path::new("x.mjs")).starts_with("text/javascript"));
        assert!(content_type(Path::new("x.JS")).starts_with("text/javascript"));
    }
}
