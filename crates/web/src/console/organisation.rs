//! The organisation's own settings (managing settings): its time zone, in which the console,
//! the signer pages, the e-mails, the completion certificates and the signatures' appearances
//! write every time, the zone named. India Standard Time unless an administrator chooses another.

use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use signet_domain::access::Permission;
use signet_domain::{Error, Zone, now_millis};
use signet_http::AppState;
use signet_services::people::organisation;

use super::{FormFields, Frame, Session, render, shown_again};

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
    notice: Option<&'static str>,
    error: Option<String>,
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
        notice: None,
        error: None,
    }
}

/// `GET /app/organisation`.
pub async fn show(session: Session) -> Response {
    if let Some(refused) = session.refuses_without(Permission::ManageSettings) {
        return refused;
    }
    render(StatusCode::OK, &organisation_page(&session, session.zone))
}

/// `POST /app/organisation`: the time zone chosen.
pub async fn save(State(state): State<AppState>, session: Session, fields: FormFields) -> Response {
    if let Some(refused) = session.refuses_change(Permission::ManageSettings, fields.get("csrf")) {
        return refused;
    }
    match organisation::set_time_zone(&state.services, &session.auth.caller(), fields.get("time_zone")).await {
        Ok(zone) => {
            let mut page = organisation_page(&session, zone);
            page.notice = Some(session.text.s("organisation.saved"));
            render(StatusCode::OK, &page)
        }
        Err(error) => refused(&session, error).await,
    }
}

/// The page again, with a refusal the person can correct.
async fn refused(session: &Session, error: Error) -> Response {
    shown_again(error, async |text| {
        let mut page = organisation_page(session, session.zone);
        page.error = Some(text);
        Ok::<_, Error>(page)
    })
    .await
}
