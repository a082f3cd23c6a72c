//! A participant's copy of a completed workflow: `/sign/w/{signatoryId}/{secret}/copy` lists
//! the signed documents and the completion certificate, `/copy/{n}` downloads one. The signer
//! link itself leads here once everyone has signed (instead of "nothing to sign").

use askama::Template;
use axum::extract::State;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;
use signet_api::extract::ApiPath;
use signet_services::Services;
use signet_services::workflows::copies::{self, Copy};

use super::PageError;

/// One file as the page lists it.
struct Listed {
    index: usize,
    name: String,
    size: String,
}

#[derive(Template)]
#[template(path = "workflow_copy.html")]
struct CopyPage {
    workflow_name: String,
    signer_name: String,
    until: String,
    base: String,
    files: Vec<Listed>,
}

/// A size as people read it.
fn readable_size(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 20 => format!("{:.1} MB", b as f64 / f64::from(1 << 20)),
        b if b >= 1 << 10 => format!("{} KB", b.div_ceil(1 << 10)),
        b => format!("{b} bytes"),
    }
}

fn day(millis: i64) -> String {
    time::OffsetDateTime::from_unix_timestamp(millis / 1000)
        .ok()
        .and_then(|t| t.format(time::macros::format_description!("[day] [month repr:short] [year]")).ok())
        .unwrap_or_default()
}

async fn open(state: &Services, id: i64, secret: &str) -> Result<Copy, PageError> {
    Ok(copies::open_copy(state, id.into(), secret).await?)
}

/// `GET /sign/w/{signatoryId}/{secret}/copy`: the participant's copy.
pub async fn show(
    State(state): State<Services>,
    ApiPath((id, secret)): ApiPath<(i64, String)>,
) -> Result<Response, PageError> {
    let copy = open(&state, id, &secret).await?;
    let page = CopyPage {
        workflow_name: copy.workflow.name.clone(),
        signer_name: copy.signatory.name.clone(),
        until: day(copy.until),
        base: format!("/sign/w/{id}/{secret}"),
        files: copy
            .files
            .iter()
            .enumerate()
            .map(|(index, f)| Listed { index, name: f.name.clone(), size: readable_size(f.size) })
            .collect(),
    };
    let body = page.render().unwrap_or_else(|_| "Your copy".into());
    let mut response = crate::account::html(StatusCode::OK, body);
    // The page names the signer and the documents: not for shared caches.
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

/// `GET /sign/w/{signatoryId}/{secret}/copy/{n}`: one file of the copy, as a download.
pub async fn file(
    State(state): State<Services>,
    ApiPath((id, secret, index)): ApiPath<(i64, String, usize)>,
) -> Result<Response, PageError> {
    let copy = open(&state, id, &secret).await?;
    let (name, bytes) = copies::copy_file(&state, &copy, index).await?;
    let mut response = signet_api::routes::documents::download_response(bytes, &name, "application/pdf");
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_people_say_them() {
        assert_eq!(readable_size(900), "900 bytes");
        assert_eq!(readable_size(1500), "2 KB");
        assert_eq!(readable_size(3 << 20), "3.0 MB");
    }
}
