//! The organisation's own settings (managing settings): its time zone, in which the console,
//! the signer pages, the e-mails, the completion certificates and the signatures' appearances
//! write every time, the zone named (India Standard Time unless an administrator chooses
//! another); and the origins of its own applications that may show its signer pages in a
//! frame, with their accent colour (embedded signing, docs/embedding.md; the logo is set
//! through the API and kept here).

use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use signet_domain::access::Permission;
use signet_domain::{Error, Zone, now_millis};
use signet_http::AppState;
use signet_services::integrations::embedding::{self, EmbeddingInput};
use signet_services::people::organisation;

use super::{FormFields, Frame, Session, render, shown_again};
use crate::text::key;

/// One zone the form offers.
struct ZoneChoice {
    iana: &'static str,
    label: String,
    chosen: bool,
}

#[derive(Template)]
#[template(path = "console/organisation.html")]
struct OrganisationPage {
    frame: Frame,
    zones: Vec<ZoneChoice>,
    /// Now, as the console writes it in the organisation's zone.
    now: String,
    /// The origins allowed to embed, one a line, and the accent colour (`#rrggbb` or empty).
    origins: String,
    accent: String,
    has_logo: bool,
    notice: Option<&'static str>,
    error: Option<String>,
}

/// The page with the organisation's embedding settings as they are now.
async fn with_embedding(state: &AppState, session: &Session, zone: Zone) -> Result<OrganisationPage, Error> {
    let (set, logo) = embedding::settings(&state.services, &session.auth.caller()).await?;
    let mut page = organisation_page(session, zone);
    page.origins = set.origins.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n");
    page.accent = set.accent.map(|accent| accent.css()).unwrap_or_default();
    page.has_logo = logo.is_some();
    Ok(page)
}

fn organisation_page(session: &Session, zone: Zone) -> OrganisationPage {
    let zones = Zone::ALL
        .into_iter()
        .map(|z| ZoneChoice {
            iana: z.iana(),
            label: format!("{} ({}, {})", z.iana(), z.abbreviation(), z.offset_label()),
            chosen: z == zone,
        })
        .collect();
    OrganisationPage {
        frame: session.frame("/app/organisation"),
        zones,
        now: zone.format_in(session.text.lang(), now_millis()),
        origins: String::new(),
        accent: String::new(),
        has_logo: false,
        notice: None,
        error: None,
    }
}

/// `GET /app/organisation`.
pub async fn show(State(state): State<AppState>, session: Session) -> Response {
    if let Some(refused) = session.refuses_without(Permission::ManageSettings) {
        return refused;
    }
    match with_embedding(&state, &session, session.zone).await {
        Ok(page) => render(StatusCode::OK, &page),
        Err(error) => refused(&state, &session, error).await,
    }
}

/// `POST /app/organisation`: the time zone chosen.
pub async fn save(State(state): State<AppState>, session: Session, fields: FormFields) -> Response {
    if let Some(refused) = session.refuses_change(Permission::ManageSettings, fields.get("csrf")) {
        return refused;
    }
    let saved = organisation::set_time_zone(&state.services, &session.auth.caller(), fields.get("time_zone")).await;
    match saved {
        Ok(zone) => saved_page(&state, &session, zone, key("organisation.saved")).await,
        Err(error) => refused(&state, &session, error).await,
    }
}

/// `POST /app/organisation/embedding`: the origins that may embed the signer pages (one a
/// line) and their accent colour; the logo set through the API is kept.
pub async fn save_embedding(State(state): State<AppState>, session: Session, fields: FormFields) -> Response {
    if let Some(refused) = session.refuses_change(Permission::ManageSettings, fields.get("csrf")) {
        return refused;
    }
    let caller = session.auth.caller();
    let saved = async {
        let (_, logo) = embedding::settings(&state.services, &caller).await?;
        let origins =
            fields.get("origins").lines().map(str::trim).filter(|l| !l.is_empty()).map(String::from).collect();
        let accent = Some(fields.get("accent").to_string()).filter(|accent| !accent.is_empty());
        let input = EmbeddingInput { origins, accent, logo: logo.map(|logo| logo.bytes) };
        embedding::set_settings(&state.services, &caller, input).await
    };
    match saved.await {
        Ok(_) => saved_page(&state, &session, session.zone, key("organisation.embedding_saved")).await,
        Err(error) => refused(&state, &session, error).await,
    }
}

/// The page as saved, with the notice `said` (a catalogue key).
async fn saved_page(state: &AppState, session: &Session, zone: Zone, said: &'static str) -> Response {
    match with_embedding(state, session, zone).await {
        Ok(mut page) => {
            page.notice = Some(session.text.s(said));
            render(StatusCode::OK, &page)
        }
        Err(error) => refused(state, session, error).await,
    }
}

/// The page again, with a refusal the person can correct.
async fn refused(state: &AppState, session: &Session, error: Error) -> Response {
    shown_again(error, async |text| {
        let mut page = with_embedding(state, session, session.zone)
            .await
            .unwrap_or_else(|_| organisation_page(session, session.zone));
        page.error = Some(text);
        Ok::<_, Error>(page)
    })
    .await
}
