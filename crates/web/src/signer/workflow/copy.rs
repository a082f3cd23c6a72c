//! A participant's copy of a completed workflow: `/sign/w/{signatoryId}/{secret}/copy` lists
//! the signed documents and the completion certificate, `/copy/{n}` downloads one. The signer
//! link itself leads here once everyone has signed (instead of "nothing to sign").

use askama::Template;
use axum::Extension;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::Response;
use signet_domain::Lang;
use signet_http::extract::ApiPath;
use signet_services::Services;
use signet_services::integrations::embedding::Frame;
use signet_services::workflows::copies::{self, Copy};

use super::{PageError, page_lang};
use crate::text::Text;

/// One file as the page lists it.
struct Listed {
    index: usize,
    name: String,
    size: String,
}

#[derive(Template)]
#[template(path = "workflow_copy.html")]
struct CopyPage {
    text: Text,
    /// The address the language switch leads to.
    switch_to: String,
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

/// The copy of signatory `id`, or the page saying why not in the language of the request
/// (the workflow is not known then).
async fn open(state: &Services, id: i64, secret: &str, uri: &Uri, headers: &HeaderMap) -> Result<Copy, PageError> {
    copies::open_copy(state, id.into(), secret)
        .await
        .map_err(|closed| PageError::closed(closed, Text::new(page_lang(uri, headers, None))))
}

/// The link's secret and the page's base address: the path's, or, in an embedded frame, the
/// frame's (whose path carries its token instead, see [`super::embed`]).
fn secret_and_base(id: i64, in_path: String, frame: Option<&Frame>) -> (String, String) {
    match frame.filter(|frame| frame.signatory_id.get() == id) {
        Some(frame) => (frame.secret.clone(), format!("/embed/w/{id}/{}", frame.renewed)),
        None => {
            let base = format!("/sign/w/{id}/{in_path}");
            (in_path, base)
        }
    }
}

/// `GET /sign/w/{signatoryId}/{secret}/copy`: the participant's copy.
pub async fn show(
    State(state): State<Services>,
    ApiPath((id, in_path)): ApiPath<(i64, String)>,
    frame: Option<Extension<Frame>>,
    uri: Uri,
    headers: HeaderMap,
) -> Result<Response, PageError> {
    let (secret, base) = secret_and_base(id, in_path, frame.as_deref());
    let copy = open(&state, id, &secret, &uri, &headers).await?;
    let lang: Lang = page_lang(&uri, &headers, copy.workflow.signer_lang());
    // The last moment of the copy, in the organisation's zone with the zone named.
    let zone = signet_services::people::organisation::zone_of(&state, copy.workflow.tenant_id).await;
    let page = CopyPage {
        text: Text::new(lang),
        switch_to: format!("{base}/copy"),
        workflow_name: copy.workflow.name.clone(),
        signer_name: copy.signatory.name.clone(),
        until: zone.format_in(lang, copy.until),
        base,
        files: copy
            .files
            .iter()
            .enumerate()
            .map(|(index, f)| Listed { index, name: f.name.clone(), size: readable_size(f.size) })
            .collect(),
    };
    let body = page.render().unwrap_or_else(|_| copy.workflow.name.clone());
    let mut response = crate::page::html(StatusCode::OK, body);
    // The page names the signer and the documents: not for shared caches.
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

/// `GET /sign/w/{signatoryId}/{secret}/copy/{n}`: one file of the copy, as a download.
pub async fn file(
    State(state): State<Services>,
    ApiPath((id, in_path, index)): ApiPath<(i64, String, usize)>,
    frame: Option<Extension<Frame>>,
    uri: Uri,
    headers: HeaderMap,
) -> Result<Response, PageError> {
    let (secret, _) = secret_and_base(id, in_path, frame.as_deref());
    let copy = open(&state, id, &secret, &uri, &headers).await?;
    let text = Text::new(page_lang(&uri, &headers, copy.workflow.signer_lang()));
    let (name, bytes) =
        copies::copy_file(&state, &copy, index).await.map_err(|closed| PageError::closed(closed, text))?;
    let mut response = signet_http::files::download_response(bytes, &name, "application/pdf");
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
