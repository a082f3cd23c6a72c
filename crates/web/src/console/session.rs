//! The console's session: a token family of the API (the same refresh tokens `POST
//! /api/v1/auth/token` issues), held in an HttpOnly cookie with the principal's security
//! stamp. Every request checks that the family's current token is still unspent and
//! unrevoked and that the stamp is still the principal's, so sign-out, "end all sessions",
//! disabling, a role change and a password reset end a console session exactly as they end
//! API tokens, at once and on every instance.
//!
//! Sign-in goes through Signet's own sign-in page (`/account/sign-in`, every login mode of the
//! tenant), which hands `/app/session` a one-time code; a random value in a cookie and in the
//! `state` parameter ties that hand-over to the browser that started it (login CSRF). Forms
//! carry a token derived from the session's secret, which another site cannot read or make.

use axum::extract::{Query, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use signet_http::AppState;
use signet_http::auth::Auth;
use signet_http::auth::jwt::PrincipalKind;
use signet_http::extract::ClientIp;
use signet_services::{people::sessions, people::sso, people::users, platform::secrets};

use super::{Session, page_error};
use crate::text::Text;

const SESSION: &str = "signet_console";
const SIGN_IN_STATE: &str = "signet_console_state";
/// Where a console page sends a person who is not signed in; `/app/session` takes them on.
const HAND_OVER: &str = "/app/session";

/// The session cookie's value: the refresh token and the security stamp it was issued with.
struct SessionCookie {
    refresh_token: String,
    stamp: String,
}

impl SessionCookie {
    fn parse(value: &str) -> Option<SessionCookie> {
        let (refresh_token, stamp) = value.split_once('.')?;
        let sane = |s: &str| {
            !s.is_empty() && s.len() <= 200 && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        };
        (sane(refresh_token) && sane(stamp))
            .then(|| SessionCookie { refresh_token: refresh_token.to_string(), stamp: stamp.to_string() })
    }
}

/// The form token of a session: a digest of its secret under its own label.
fn csrf_token(refresh_token: &str) -> String {
    secrets::hash_token(&format!("signet console csrf\0{refresh_token}"))
}

/// `Secure` when the installation is reached over HTTPS (browsers refuse it on plain HTTP
/// except on localhost, where tests and development run).
fn secure_attribute(state: &AppState) -> &'static str {
    if state.services.config.public_base().starts_with("https://") { "; Secure" } else { "" }
}

fn cookie(state: &AppState, name: &str, value: &str, same_site: &str) -> Option<HeaderValue> {
    let secure = secure_attribute(state);
    HeaderValue::from_str(&format!("{name}={value}; Path=/app; HttpOnly; SameSite={same_site}{secure}")).ok()
}

fn expired_cookie(state: &AppState, name: &str) -> Option<HeaderValue> {
    let secure = secure_attribute(state);
    HeaderValue::from_str(&format!("{name}=; Path=/app; HttpOnly; Max-Age=0; SameSite=Lax{secure}")).ok()
}

/// Checks the session of every console request but the sign-in hand-over: the page gets the
/// [`Session`]; without one a page is sent to sign in, and a form is refused. Forms must carry
/// the session's token and come from this origin.
pub async fn require(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    mut request: Request,
    next: Next,
) -> Response {
    let session = match current(&state, request.headers(), ip).await {
        Ok(Some(session)) => session,
        Ok(None) => return to_sign_in(&state, request.method(), request.uri().path()),
        Err(response) => return response,
    };
    if request.method() != Method::GET && request.method() != Method::HEAD && !same_origin(&state, request.headers()) {
        return page_error(StatusCode::FORBIDDEN, Text::EN.s("session.form_from_another_site"));
    }
    request.extensions_mut().insert(session);
    next.run(request).await
}

/// Whether a form was sent by a page of this origin: `Sec-Fetch-Site` where the browser
/// sends it (every current one does, whatever the referrer policy), else `Origin` (which
/// these pages' `no-referrer` policy makes `null` in some browsers); a request with neither
/// is no browser's and is left to the form-token check.
fn same_origin(state: &AppState, headers: &HeaderMap) -> bool {
    if let Some(site) = headers.get("sec-fetch-site").and_then(|v| v.to_str().ok()) {
        return site == "same-origin" || site == "none";
    }
    match headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) {
        Some("null") | None => true,
        Some(origin) => {
            let host = headers.get(header::HOST).and_then(|v| v.to_str().ok()).unwrap_or_default();
            origin == state.services.config.public_base()
                || origin.split_once("://").is_some_and(|(_, rest)| rest == host)
        }
    }
}

/// The signed-in person, if the request's cookie names a live session of an enabled
/// principal whose stamp has not changed.
async fn current(state: &AppState, headers: &HeaderMap, ip: std::net::IpAddr) -> Result<Option<Session>, Response> {
    let Some(cookie) = crate::cookie_value(headers, SESSION).as_deref().and_then(SessionCookie::parse) else {
        return Ok(None);
    };
    let live = sessions::live(&state.services, &cookie.refresh_token).await;
    let (principal_id, tenant_id) = match live {
        Ok(Some(found)) => found,
        Ok(None) => return Ok(None),
        Err(error) => return Err(super::failure(error)),
    };
    let auth = match Auth::current(state, tenant_id, principal_id, PrincipalKind::User, &cookie.stamp, ip).await {
        Ok(auth) => auth,
        Err(refusal) if refusal.code().status().is_client_error() => return Ok(None),
        Err(_) => {
            return Err(page_error(StatusCode::SERVICE_UNAVAILABLE, Text::EN.s("session.console_unreachable")));
        }
    };
    let name = users::me(&state.services, &auth.caller()).await.ok().and_then(|u| u.name.or(u.email));
    let lang = headers
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .map(crate::text::Lang::from_accept_language)
        .unwrap_or_default();
    Ok(Some(Session {
        auth,
        csrf: csrf_token(&cookie.refresh_token),
        name: name.unwrap_or_default(),
        text: crate::text::Text::new(lang),
        zone: signet_services::people::organisation::zone_of(&state.services, tenant_id).await,
    }))
}

/// A page asked for without a session goes to sign in and comes back to it; a form (whose
/// content would be lost) gets the sign-in page's address to follow.
fn to_sign_in(state: &AppState, method: &Method, path: &str) -> Response {
    let back = if method == Method::GET && path.starts_with("/app") { path } else { "/app" };
    let nonce = secrets::random_token(16);
    let query = serde_urlencoded::to_string([("return_to", HAND_OVER), ("state", &format!("{nonce}~{back}"))])
        .unwrap_or_default();
    let mut response = see_other(&format!("/account/sign-in?{query}"));
    if let Some(value) = cookie(state, SIGN_IN_STATE, &nonce, "Lax") {
        response.headers_mut().append(header::SET_COOKIE, value);
    }
    response
}

pub(crate) fn see_other(to: &str) -> Response {
    let mut response = StatusCode::SEE_OTHER.into_response();
    if let Ok(location) = HeaderValue::from_str(to) {
        response.headers_mut().insert(header::LOCATION, location);
    }
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

#[derive(serde::Deserialize)]
pub struct HandOver {
    code: Option<String>,
    state: Option<String>,
}

/// `/app/session`: the sign-in page's one-time code becomes a console session.
pub async fn start(State(state): State<AppState>, headers: HeaderMap, Query(query): Query<HandOver>) -> Response {
    let (Some(code), Some(returned)) = (query.code.as_deref(), query.state.as_deref()) else {
        return see_other("/app");
    };
    let (nonce, back) = returned.split_once('~').unwrap_or((returned, "/app"));
    let ours = crate::cookie_value(&headers, SIGN_IN_STATE).is_some_and(|c| secrets::same_secret(&c, nonce));
    if !ours {
        return page_error(StatusCode::FORBIDDEN, Text::EN.s("session.sign_in_elsewhere"));
    }
    let back = if back.starts_with("/app") && sso::check_local_return(back).is_ok() { back } else { "/app" };
    let account = match sso::redeem(&state.services, code).await {
        Ok(Some(account)) => account,
        Ok(None) => {
            return page_error(StatusCode::BAD_REQUEST, Text::EN.s("session.sign_in_used"));
        }
        Err(error) => return super::failure(error),
    };
    let refresh = match sessions::open(&state.services, &account).await {
        Ok(refresh) => refresh,
        Err(_) => {
            return page_error(StatusCode::SERVICE_UNAVAILABLE, Text::EN.s("session.sign_in_unavailable"));
        }
    };
    let mut response = see_other(back);
    let value = format!("{}.{}", refresh.token, account.security_stamp);
    for set in [cookie(&state, SESSION, &value, "Lax"), expired_cookie(&state, SIGN_IN_STATE)].into_iter().flatten() {
        response.headers_mut().append(header::SET_COOKIE, set);
    }
    response
}

#[derive(serde::Deserialize)]
pub struct SignOut {
    csrf: String,
}

/// Ends the session (its token family is revoked, so a copy of the cookie is worthless too).
pub async fn end(
    State(state): State<AppState>,
    headers: HeaderMap,
    session: Session,
    axum::Form(form): axum::Form<SignOut>,
) -> Response {
    if let Some(refused) = session.refuses_form(&form.csrf) {
        return refused;
    }
    if let Some(cookie) = crate::cookie_value(&headers, SESSION).as_deref().and_then(SessionCookie::parse)
        && let Err(error) = sessions::revoke(&state.services, &cookie.refresh_token).await
    {
        return super::failure(error);
    }
    let text = Text::EN;
    let mut response = super::message(
        StatusCode::OK,
        text.s("session.signed_out"),
        text.s("session.you_signed_out"),
        Some((text.s("session.sign_in_again"), "/app")),
    );
    if let Some(set) = expired_cookie(&state, SESSION) {
        response.headers_mut().append(header::SET_COOKIE, set);
    }
    response
}

impl Session {
    /// The refusal of a form that does not carry this session's token, if it does not.
    pub fn refuses_form(&self, token: &str) -> Option<Response> {
        (!secrets::same_secret(&self.csrf, token))
            .then(|| page_error(StatusCode::FORBIDDEN, self.text.s("session.form_expired")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_cookie_is_a_token_and_a_stamp_of_plain_characters() {
        assert!(SessionCookie::parse("abc_DEF-1.stamp").is_some());
        for bad in ["", "abc", ".stamp", "abc.", "a b.c", "abc.st;amp", "a.b.c"] {
            assert!(SessionCookie::parse(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn the_form_token_depends_on_the_session() {
        assert_ne!(csrf_token("one"), csrf_token("two"));
        assert_eq!(csrf_token("one"), csrf_token("one"));
        assert_ne!(csrf_token("one"), secrets::hash_token("one"));
    }
}
