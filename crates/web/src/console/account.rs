//! The page behind a set-password link (`/account/password?token=…`, e-mailed when an
//! administrator creates a user or asks for a new link): a form that sets the password once.
//! The token is the page's credential and its CSRF defence; it is neither logged (only paths
//! are) nor sent on (no-referrer). Works without JavaScript.

use askama::Template;
use axum::Form;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use signet_domain::{Error, ErrorCode};
use signet_services::Services;

use crate::page::{html, message};

#[derive(Template)]
#[template(path = "account_password.html")]
struct PasswordPage<'a> {
    token: &'a str,
    error: Option<String>,
}

fn form(status: StatusCode, token: &str, error: Option<String>) -> Response {
    let body = PasswordPage { token, error }.render().unwrap_or_else(|_| "Set your password".into());
    html(status, body)
}

const EXPIRED: &str = "This link has expired or was already used. Ask your administrator to send a new one.";

#[derive(serde::Deserialize)]
pub struct LinkQuery {
    token: Option<String>,
}

/// The form, for a link that still works.
pub async fn show(State(state): State<Services>, Query(query): Query<LinkQuery>) -> Response {
    let token = query.token.unwrap_or_default();
    let live = matches!(signet_services::people::users::password_link_live(&state, &token).await, Ok(true));
    if !live {
        return message(StatusCode::GONE, "Link expired", EXPIRED);
    }
    form(StatusCode::OK, &token, None)
}

#[derive(serde::Deserialize)]
pub struct PasswordForm {
    token: String,
    password: String,
    repeat: String,
}

/// Sets the password; a refused one shows the form again with what to change.
pub async fn submit(State(state): State<Services>, Form(input): Form<PasswordForm>) -> Response {
    if input.password != input.repeat {
        return form(StatusCode::BAD_REQUEST, &input.token, Some("The two passwords differ.".into()));
    }
    match signet_services::people::users::set_password(&state, &input.token, &input.password).await {
        Ok(()) => message(
            StatusCode::OK,
            "Password set",
            "Your password is set. Sign in with your e-mail address and this password.",
        ),
        Err(Error::Validation(errors)) => {
            let text: Vec<String> = errors.values().flatten().map(|m| format!("The password {m}.")).collect();
            form(StatusCode::BAD_REQUEST, &input.token, Some(text.join(" ")))
        }
        Err(error) if error.code() == ErrorCode::LinkExpired => message(StatusCode::GONE, "Link expired", EXPIRED),
        Err(error) => {
            tracing::error!(%error, "setting a password failed");
            message(
                StatusCode::SERVICE_UNAVAILABLE,
                "Try again",
                "The password could not be set just now. Try again later.",
            )
        }
    }
}

#[derive(Template)]
#[template(path = "account_verify.html")]
struct VerifyPage<'a> {
    token: &'a str,
}

/// The link of a trial sign-up shows a button: a mail scanner's GET starts nothing.
pub async fn confirm_page(Query(query): Query<LinkQuery>) -> Response {
    let token = query.token.unwrap_or_default();
    if token.is_empty() || token.len() > 200 {
        return message(StatusCode::GONE, "Link expired", EXPIRED_SIGNUP);
    }
    html(StatusCode::OK, VerifyPage { token: &token }.render().unwrap_or_else(|_| "Start your trial".into()))
}

#[derive(serde::Deserialize)]
pub struct VerifyForm {
    token: String,
}

/// Verifies the address and starts the trial.
pub async fn verify(State(state): State<Services>, Form(input): Form<VerifyForm>) -> Response {
    match signet_services::people::trial::verify(&state, input.token.trim()).await {
        Ok(_) => message(
            StatusCode::OK,
            "Your trial is ready",
            "Your address is confirmed and your organisation is set up. Sign in with your e-mail address and password.",
        ),
        Err(error) if error.code() == ErrorCode::LinkExpired => {
            message(StatusCode::GONE, "Link expired", EXPIRED_SIGNUP)
        }
        Err(error) if error.code() == ErrorCode::Conflict => {
            message(StatusCode::CONFLICT, "Account exists", "An account with this address exists: sign in instead.")
        }
        Err(error) => {
            tracing::error!(%error, "starting a trial failed");
            message(
                StatusCode::SERVICE_UNAVAILABLE,
                "Try again",
                "The trial could not be started just now. Try again later.",
            )
        }
    }
}

const EXPIRED_SIGNUP: &str = "This link has expired or was already used. Sign up again to get a new one.";
