//! Page previews for the signer pages: each page rendered to a PNG by poppler's `pdftoppm`
//! in a child process (a crash or a hostile file cannot take the server down), with a time
//! limit, an output cap, a cap on the child's memory and CPU time (`prlimit`, from util-linux)
//! and a bound on how many render at once (a page of hostile vector art can keep a core busy
//! for its whole time limit). Without `pdftoppm` on the PATH the pages fall back to the
//! browser's own PDF viewer.

use std::process::Stdio;
use std::time::Duration;

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use tokio::io::AsyncWriteExt;
use tokio::process::Command;

/// Pages shown as images; longer documents show the first ones and a link to the whole file.
pub const MAX_PREVIEW_PAGES: usize = 30;
const RENDER_TIMEOUT: Duration = Duration::from_secs(15);
const MAX_PNG_BYTES: usize = 8 * 1024 * 1024;
const DPI: &str = "80";
/// Renders running at once; more wait up to `QUEUE_WAIT`, then get "try again".
const RENDERS_AT_ONCE: usize = 2;
const QUEUE_WAIT: Duration = Duration::from_secs(10);
/// Address space and CPU seconds of one pdftoppm child.
const CHILD_MEMORY_BYTES: u64 = 512 * 1024 * 1024;
const CHILD_CPU_SECS: u64 = 15;

fn render_slots() -> &'static tokio::sync::Semaphore {
    static SLOTS: std::sync::OnceLock<tokio::sync::Semaphore> = std::sync::OnceLock::new();
    SLOTS.get_or_init(|| tokio::sync::Semaphore::new(RENDERS_AT_ONCE))
}

fn prlimit_available() -> bool {
    static FOUND: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *FOUND.get_or_init(|| {
        std::process::Command::new("prlimit")
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    })
}

/// pdftoppm, under `prlimit` where it exists.
fn pdftoppm_command() -> Command {
    if !prlimit_available() {
        return Command::new("pdftoppm");
    }
    let mut command = Command::new("prlimit");
    command.arg(format!("--as={CHILD_MEMORY_BYTES}")).arg(format!("--cpu={CHILD_CPU_SECS}")).arg("--").arg("pdftoppm");
    command
}

/// Whether previews can be rendered on this machine.
pub fn available() -> bool {
    static FOUND: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *FOUND.get_or_init(|| {
        std::process::Command::new("pdftoppm").arg("-v").stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok()
    })
}

/// The 1-based page numbers to show for a document of `pages` pages.
pub fn preview_pages(pages: usize) -> Vec<usize> {
    (1..=pages.min(MAX_PREVIEW_PAGES)).collect()
}

/// Renders one page (1-based) of `pdf` as a PNG (the PDF goes in on stdin; pdftoppm can only
/// write its image to a file, which is removed afterwards).
pub async fn render_page(pdf: &[u8], page: usize) -> Result<Vec<u8>, String> {
    let _slot = tokio::time::timeout(QUEUE_WAIT, render_slots().acquire())
        .await
        .map_err(|_| "the preview is busy; try again in a moment".to_string())?
        .map_err(|_| "the preview is not available".to_string())?;
    let root =
        std::env::temp_dir().join(format!("signet-preview-{}", signet_services::platform::secrets::random_token(12)));
    let png_path = root.with_extension("png");
    let outcome = run_pdftoppm(pdf, page, &root).await;
    let png = match outcome {
        Ok(()) => tokio::fs::read(&png_path).await.map_err(|_| "the page could not be rendered".to_string()),
        Err(error) => Err(error),
    };
    let _ = tokio::fs::remove_file(&png_path).await;
    let png = png?;
    if !png.starts_with(b"\x89PNG") {
        return Err("the page could not be rendered".into());
    }
    if png.len() > MAX_PNG_BYTES {
        return Err("the rendered page is too large".into());
    }
    Ok(png)
}

async fn run_pdftoppm(pdf: &[u8], page: usize, root: &std::path::Path) -> Result<(), String> {
    let page = page.to_string();
    let mut child = pdftoppm_command()
        .args(["-png", "-r", DPI, "-f", &page, "-l", &page, "-singlefile", "-q", "-"])
        .arg(root)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| format!("pdftoppm: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("pdftoppm stdin")?;
    let input = pdf.to_vec();
    let writer = tokio::spawn(async move {
        let _ = stdin.write_all(&input).await;
    });
    let status = tokio::time::timeout(RENDER_TIMEOUT, child.wait())
        .await
        .map_err(|_| "rendering took too long".to_string())?
        .map_err(|e| format!("pdftoppm: {e}"))?;
    let _ = writer.await;
    if status.success() { Ok(()) } else { Err("the page could not be rendered".into()) }
}

/// The original document for a signer page's link or frame: inline, sandboxed, not cached.
pub fn inline_pdf(bytes: axum::body::Bytes) -> Response {
    let mut response = (StatusCode::OK, bytes).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/pdf"));
    headers.insert(header::CONTENT_DISPOSITION, HeaderValue::from_static("inline; filename=\"document.pdf\""));
    headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static("sandbox"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// The HTTP answer for one rendered page.
pub async fn page_response(pdf: &[u8], page: usize, pages: usize) -> Response {
    if page == 0 || page > pages.min(MAX_PREVIEW_PAGES) {
        return (StatusCode::NOT_FOUND, "no such page").into_response();
    }
    match render_page(pdf, page).await {
        Ok(png) => {
            let mut response = (StatusCode::OK, png).into_response();
            let headers = response.headers_mut();
            headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("image/png"));
            headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("private, max-age=300"));
            response
        }
        Err(cause) => {
            tracing::warn!(%cause, page, "preview rendering failed");
            (StatusCode::UNPROCESSABLE_ENTITY, "this page cannot be previewed").into_response()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn previews_are_capped() {
        assert_eq!(preview_pages(3), vec![1, 2, 3]);
        assert_eq!(preview_pages(500).len(), MAX_PREVIEW_PAGES);
    }
}
