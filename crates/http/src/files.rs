//! File responses both faces send: a PDF or another file to download, a small export streamed
//! straight back, a finished export job's file and a bulk job's report. One place decides how a
//! file name reaches `Content-Disposition`, so the API and the console name downloads alike.

use axum::body::{Body, Bytes};
use axum::http::header::{self, CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use signet_services::bulk;
use signet_services::exports::{ExportFile, ExportStream};

use crate::AppState;

/// Items read per page of a bulk job's report.
const REPORT_PAGE: i64 = 500;

/// A PDF to download under `file_name` (reduced to characters a header can carry).
pub fn pdf_response(bytes: Bytes, file_name: &str) -> Response {
    download_response(bytes, file_name, "application/pdf")
}

/// A file of `content_type` to download under `file_name`, reduced to characters a header
/// can carry (the console's attachments too).
pub fn download_response(bytes: Bytes, file_name: &str, content_type: &'static str) -> Response {
    let mut response = (StatusCode::OK, bytes).into_response();
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    let safe: String =
        file_name.chars().filter(|c| c.is_ascii_graphic() && *c != '"' && *c != '\\' || *c == ' ').collect();
    if let Ok(value) = HeaderValue::from_str(&format!("attachment; filename=\"{safe}\"")) {
        headers.insert(CONTENT_DISPOSITION, value);
    }
    response
}

fn attachment(file_name: &str) -> String {
    format!("attachment; filename=\"{}\"", file_name.replace(['"', '\\'], ""))
}

/// The file, page by page: each page is read only once the previous one was sent.
fn streamed(stream: Box<ExportStream>) -> Body {
    let chunks = futures_util::stream::unfold(Some(stream), |stream| async move {
        let mut stream = stream?;
        match stream.next_chunk().await {
            Ok(Some(chunk)) => Some((Ok::<_, std::io::Error>(chunk), Some(stream))),
            Ok(None) => None,
            // The status line is sent: cutting the body short is how the client learns.
            Err(error) => {
                tracing::error!(%error, "an export stream failed");
                Some((Err(std::io::Error::other(error.to_string())), None))
            }
        }
    });
    Body::from_stream(chunks)
}

/// A small export streamed straight back as a download (the console's too).
pub fn stream_response(stream: Box<ExportStream>, file_name: &str) -> Response {
    let content_type = stream.spec().format.content_type();
    let headers =
        [(header::CONTENT_TYPE, content_type.to_string()), (header::CONTENT_DISPOSITION, attachment(file_name))];
    (headers, streamed(stream)).into_response()
}

/// A finished export job's file as a download (the console's too).
pub fn file_response(file: ExportFile) -> Response {
    let headers = [
        (header::CONTENT_TYPE, file.content_type.to_string()),
        (header::CONTENT_DISPOSITION, attachment(&file.file_name)),
        (header::CONTENT_LENGTH, file.size.to_string()),
    ];
    (headers, Body::from_stream(file.stream)).into_response()
}

/// A job's report as a CSV download, read page by page, so that a large job's report is never
/// held whole in memory (the console's download too).
pub fn report_response(state: AppState, job: signet_services::records::BulkJobRow) -> Response {
    let disposition = format!("attachment; filename=\"{}-report.csv\"", job.public_id.replace(['"', '\\'], ""));
    let stream = futures_util::stream::unfold((state, job, Some(0_i64)), |(state, job, after)| async move {
        let after = after?;
        let chunk = match bulk::report_page(&state.services, &job, after, REPORT_PAGE).await {
            Ok(items) if items.is_empty() => return None,
            Ok(items) => {
                let next = items.last().map(|i| i.item_no);
                let text: String = items.iter().map(bulk::report_line).collect();
                return Some((Ok::<_, std::io::Error>(text), (state, job, next)));
            }
            Err(error) => Err(std::io::Error::other(error.to_string())),
        };
        Some((chunk, (state, job, None)))
    });
    let header_line = futures_util::stream::once(async { Ok::<_, std::io::Error>(bulk::REPORT_HEADER.to_string()) });
    let body = Body::from_stream(futures_util::StreamExt::chain(header_line, stream));
    ([(header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()), (header::CONTENT_DISPOSITION, disposition)], body)
        .into_response()
}
