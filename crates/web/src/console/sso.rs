//! Single sign-on in the browser: `/sso/{providerId}/start` sends the person to their
//! organisation's OpenID Connect provider, keeping the sign-in's state in a cookie of this
//! browser; `/sso/callback` takes the provider's answer and sends the browser on to the
//! application with a one-time code (`grant_type=sso_code`). `/sso/signup/{token}` sends a
//! trial sign-up to the installation's provider it chose, which proves its address. Failures are pages that say what
//! to do; causes that concern the provider or Signet go to the log only. A sign-in that still
//! owes the account's second factor asks for the authenticator code at `/sso/second-factor`
//! (the pending sign-in's token in this browser's cookie and the form alike) before the
//! application gets its code.

use askama::Template;
use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use signet_domain::{Error, ErrorCode, SsoProviderId};
use signet_http::extract::ClientIp;
use signet_services::people::sso;
use signet_services::{Services, platform::secrets};

use crate::page::{html, message};

const COOKIE: &str = "signet_sso";

#[derive(serde::Deserialize)]
pub struct StartQuery {
    return_to: Option<String>,
    state: Option<String>,
    login_hint: Option<String>,
}

fn cookie(services: &Services, value: &str, max_age: u32) -> Option<HeaderValue> {
    // Lax: the provider's answer is a top-level GET from its site, which carries it.
    let secure = if services.config.public_base().starts_with("https://") { "; Secure" } else { "" };
    HeaderValue::from_str(&format!("{COOKIE}={value}; Path=/sso; HttpOnly; SameSite=Lax; Max-Age={max_age}{secure}"))
        .ok()
}

fn redirect(to: &str, set_cookie: Option<HeaderValue>) -> Response {
    let Ok(location) = HeaderValue::from_str(to) else {
        return message(StatusCode::BAD_REQUEST, "Sign-in failed", "The address to return to cannot be used.");
    };
    let mut response = (StatusCode::SEE_OTHER, [(header::LOCATION, location)]).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    if let Some(cookie) = set_cookie {
        headers.insert(header::SET_COOKIE, cookie);
    }
    response
}

/// A refusal as a page: what the person can do, never an internal cause.
fn refusal(error: Error) -> Response {
    match &error {
        Error::Rejected { code, detail } => {
            let status = match code {
                ErrorCode::LinkExpired => StatusCode::GONE,
                ErrorCode::Forbidden => StatusCode::FORBIDDEN,
                ErrorCode::ServiceUnavailable => StatusCode::BAD_GATEWAY,
                _ => StatusCode::BAD_REQUEST,
            };
            message(status, "Sign-in failed", detail)
        }
        Error::Validation(errors) => {
            let text: Vec<String> =
                errors.iter().flat_map(|(f, m)| m.iter().map(move |m| format!("{f} {m}."))).collect();
            message(StatusCode::BAD_REQUEST, "Sign-in failed", &text.join(" "))
        }
        Error::NotFound { .. } => {
            message(StatusCode::NOT_FOUND, "Sign-in failed", "This sign-in provider does not exist.")
        }
        Error::RateLimited { .. } => {
            message(StatusCode::TOO_MANY_REQUESTS, "Sign-in failed", "Too many tries. Wait a minute.")
        }
        Error::Internal(_) => {
            tracing::error!(%error, "single sign-on failed");
            message(
                StatusCode::SERVICE_UNAVAILABLE,
                "Sign-in failed",
                "Signing in is not possible just now. Try again later.",
            )
        }
    }
}

/// Sends the browser to the provider.
pub async fn start(State(services): State<Services>, Path(id): Path<i64>, Query(query): Query<StartQuery>) -> Response {
    let started = sso::start(
        &services,
        SsoProviderId::from(id),
        query.return_to.as_deref(),
        query.state.as_deref(),
        query.login_hint.as_deref(),
    )
    .await;
    match started {
        Ok(started) => redirect(&started.provider_url, cookie(&services, &started.state, 600)),
        Err(error) => refusal(error),
    }
}

/// Sends a trial sign-up to its provider, which proves the address.
pub async fn start_signup(State(services): State<Services>, Path(token): Path<String>) -> Response {
    match sso::start_signup(&services, &token).await {
        Ok(started) => redirect(&started.provider_url, cookie(&services, &started.state, 600)),
        Err(error) => refusal(error),
    }
}

#[derive(serde::Deserialize)]
pub struct CallbackQuery {
    state: Option<String>,
    code: Option<String>,
    error: Option<String>,
}

/// Takes the provider's answer and sends the browser on to the application.
pub async fn callback(
    State(services): State<Services>,
    headers: HeaderMap,
    Query(query): Query<CallbackQuery>,
) -> Response {
    let cookie_state = crate::cookie_value(&headers, COOKIE);
    let answer = sso::Answer {
        state: query.state.as_deref().unwrap_or_default(),
        cookie_state: cookie_state.as_deref(),
        code: query.code.as_deref(),
        error: query.error.as_deref(),
    };
    match sso::finish(&services, &answer).await {
        Ok(sso::Finished::Redirect(to)) => redirect(&to, cookie(&services, "", 0)),
        Ok(sso::Finished::SecondFactor { token }) => second_factor_page(&services, &token, None),
        Ok(sso::Finished::TrialStarted) => message(
            StatusCode::OK,
            "Your trial is ready",
            "Your address is confirmed and your organisation is set up. Sign in with your e-mail address and password.",
        ),
        Err(error) if error.code() == ErrorCode::Conflict => {
            message(StatusCode::CONFLICT, "Account exists", "An account with this address exists: sign in instead.")
        }
        Err(error) => refusal(error),
    }
}

#[derive(Template)]
#[template(path = "sso_second_factor.html")]
struct SecondFactorPage<'a> {
    token: &'a str,
    error: Option<&'a str>,
}

/// Asks for the authenticator code of a sign-in that owes it, keeping its token in this
/// browser's cookie (the form must carry the same, so no other site can post it).
fn second_factor_page(services: &Services, token: &str, error: Option<&str>) -> Response {
    let status = if error.is_some() { StatusCode::BAD_REQUEST } else { StatusCode::OK };
    let body = SecondFactorPage { token, error }.render().unwrap_or_else(|_| "Your authenticator code".into());
    let mut response = html(status, body);
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    if let Some(cookie) = cookie(services, token, 300) {
        headers.insert(header::SET_COOKIE, cookie);
    }
    response
}

#[derive(serde::Deserialize)]
pub struct SecondFactorForm {
    token: String,
    totp: Option<String>,
}

/// Takes the authenticator code of a sign-in that owes it and sends the browser on.
pub async fn second_factor(
    State(services): State<Services>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    Form(form): Form<SecondFactorForm>,
) -> Response {
    let same_browser = crate::cookie_value(&headers, COOKIE).is_some_and(|c| secrets::same_secret(&c, &form.token));
    if !same_browser {
        return refusal(Error::rejected(
            ErrorCode::Forbidden,
            "This sign-in was started in another browser or window. Start again here.",
        ));
    }
    match sso::finish_second_factor(&services, ip, &form.token, form.totp.as_deref().unwrap_or_default()).await {
        Ok(sso::SecondFactorGiven::Redirect(to)) => redirect(&to, cookie(&services, "", 0)),
        Ok(sso::SecondFactorGiven::Wrong) => {
            second_factor_page(&services, &form.token, Some("Wrong or already used code. Try the next one."))
        }
        Err(error) => refusal(error),
    }
}
