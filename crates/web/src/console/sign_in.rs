//! Signet's own sign-in page (`/account/sign-in?return_to=/path&state=…`), for applications
//! served by Signet itself: the person gives their address, then signs in with a password
//! (and authenticator code), a code e-mailed to them, or their organisation's single sign-on;
//! the browser goes on to `return_to` with a one-time code for `grant_type=sso_code`. Works
//! without JavaScript. A cookie and a hidden field carry the same random value (SameSite
//! Strict), so no other site can post a sign-in into someone's browser (login CSRF). Every
//! refusal reads the same whether the address has an account or not.

use askama::Template;
use axum::Form;
use axum::Router;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use signet_domain::Error;
use signet_http::AppState;
use signet_http::extract::ClientIp;
use signet_services::people::login::{self, PasswordSignIn};
use signet_services::records::PrincipalCredentials;
use signet_services::{Services, people::sso, platform::secrets};

use crate::page::{html, message};

const COOKIE: &str = "signet_signin";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    Email,
    Methods,
    Code,
}

#[derive(Template)]
#[template(path = "account_sign_in.html")]
struct SignInPage<'a> {
    step: Step,
    csrf: &'a str,
    return_to: &'a str,
    state: &'a str,
    email: &'a str,
    sso_url: Option<String>,
    sso_name: String,
    error: Option<String>,
    notice: Option<String>,
}

/// What every step carries along.
struct Context<'a> {
    csrf: &'a str,
    return_to: &'a str,
    state: &'a str,
    email: &'a str,
}

/// A step's page; [`render`] fills in what every step carries.
fn page(step: Step) -> SignInPage<'static> {
    SignInPage {
        step,
        csrf: "",
        return_to: "",
        state: "",
        email: "",
        sso_url: None,
        sso_name: String::new(),
        error: None,
        notice: None,
    }
}

fn render<'a>(status: StatusCode, mut view: SignInPage<'a>, context: &Context<'a>, csrf_cookie: bool) -> Response {
    view.csrf = context.csrf;
    view.return_to = context.return_to;
    view.state = context.state;
    view.email = context.email;
    let mut response = html(status, view.render().unwrap_or_else(|_| "Sign in".into()));
    let headers = response.headers_mut();
    if csrf_cookie
        && let Ok(cookie) = HeaderValue::from_str(&format!(
            "{COOKIE}={}; Path=/account/sign-in; HttpOnly; SameSite=Strict",
            context.csrf
        ))
    {
        headers.insert(header::SET_COOKIE, cookie);
    }
    response
}

#[derive(serde::Deserialize)]
pub struct Start {
    return_to: Option<String>,
    state: Option<String>,
}

fn bad_return(error: &Error) -> Response {
    let text = match error {
        Error::Validation(errors) => errors.values().flatten().next().cloned().unwrap_or_default(),
        _ => String::new(),
    };
    message(StatusCode::BAD_REQUEST, "Sign-in", &format!("The address to return to (return_to) {text}."))
}

/// The application's own state, handed back as it came; `None` when it cannot be.
fn client_state(state: Option<&str>) -> Option<&str> {
    let state = state.unwrap_or_default();
    (state.len() <= 500 && !state.chars().any(char::is_control)).then_some(state)
}

fn bad_state() -> Response {
    message(StatusCode::BAD_REQUEST, "Sign-in", "The application's state is too long or has control characters.")
}

/// The first step: the address.
pub async fn show(Query(query): Query<Start>) -> Response {
    let return_to = query.return_to.unwrap_or_default();
    if return_to.is_empty() {
        // Bookmarked, or reached after signing out: the console, which asks for a sign-in
        // that returns to it.
        return see_other("/app");
    }
    if let Err(error) = sso::check_local_return(&return_to) {
        return bad_return(&error);
    }
    let Some(state) = client_state(query.state.as_deref()).map(str::to_string) else { return bad_state() };
    let csrf = secrets::random_token(24);
    let context = Context { csrf: &csrf, return_to: &return_to, state: &state, email: "" };
    render(StatusCode::OK, page(Step::Email), &context, true)
}

#[derive(serde::Deserialize)]
pub struct Submitted {
    csrf: String,
    return_to: String,
    state: Option<String>,
    action: String,
    email: Option<String>,
    password: Option<String>,
    totp: Option<String>,
    code: Option<String>,
}

/// One step of the sign-in, as the form's `action` names it.
pub async fn submit(
    State(services): State<Services>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    Form(input): Form<Submitted>,
) -> Response {
    // The API's doors and this page count one address against the same allowance.
    if let Err(Error::RateLimited { retry_after_secs }) = services.doors.auth.check(ip) {
        return too_many(retry_after_secs);
    }
    let same_browser = crate::cookie_value(&headers, COOKIE).is_some_and(|c| secrets::same_secret(&c, &input.csrf));
    if !same_browser {
        return message(
            StatusCode::FORBIDDEN,
            "Sign-in",
            "This form expired or came from another site. Open the sign-in page again.",
        );
    }
    if let Err(error) = sso::check_local_return(&input.return_to) {
        return bad_return(&error);
    }
    let Some(state) = client_state(input.state.as_deref()) else { return bad_state() };
    let email = input.email.as_deref().unwrap_or_default().trim();
    let context = Context { csrf: &input.csrf, return_to: &input.return_to, state, email };
    if email.len() > 254 || !signet_domain::workflow::is_valid_email(email) {
        let mut view = page(Step::Email);
        view.error = Some("Enter a valid e-mail address.".into());
        return render(StatusCode::BAD_REQUEST, view, &context, false);
    }
    let outcome = match input.action.as_str() {
        "continue" => return methods(&services, &context, None, None).await,
        "password" => password(&services, ip, &context, &input).await,
        "send-code" => return send_code(&services, ip, &context).await,
        "code" => code(&services, ip, &context, input.code.as_deref().unwrap_or_default()).await,
        _ => return message(StatusCode::BAD_REQUEST, "Sign-in", "Unknown step. Open the sign-in page again."),
    };
    match outcome {
        Ok(Signed::In(account)) => match sso::hand_over(&services, &account, context.return_to, Some(state)).await {
            Ok(to) => see_other(&to),
            Err(error) => failure(error),
        },
        Ok(Signed::Again(view)) => render(StatusCode::BAD_REQUEST, *view, &context, false),
        Err(Error::RateLimited { retry_after_secs }) => {
            let mut view = page(Step::Methods);
            view.error = Some(format!("Too many tries. Wait {retry_after_secs} seconds and try again."));
            let mut response = render(StatusCode::TOO_MANY_REQUESTS, view, &context, false);
            response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(retry_after_secs));
            response
        }
        Err(error) => failure(error),
    }
}

enum Signed {
    In(PrincipalCredentials),
    /// The step again, with what went wrong.
    Again(Box<SignInPage<'static>>),
}

fn failure(error: Error) -> Response {
    tracing::error!(%error, "signing in failed");
    message(StatusCode::SERVICE_UNAVAILABLE, "Sign-in", "Signing in is not possible just now. Try again later.")
}

/// The refusal of an address that used up its share (the same whatever account it names).
fn too_many(retry_after_secs: u64) -> Response {
    let text = format!("Too many tries from your network. Wait {retry_after_secs} seconds and try again.");
    let mut response = message(StatusCode::TOO_MANY_REQUESTS, "Sign-in", &text);
    response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(retry_after_secs));
    response
}

fn see_other(to: &str) -> Response {
    match HeaderValue::from_str(to) {
        Ok(location) => {
            let mut response = (StatusCode::SEE_OTHER, [(header::LOCATION, location)]).into_response();
            response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
            response
        }
        Err(_) => message(StatusCode::BAD_REQUEST, "Sign-in", "The address to return to cannot be used."),
    }
}

/// The ways this address may sign in: the same for every address of a domain.
async fn methods(
    services: &Services,
    context: &Context<'_>,
    error: Option<String>,
    notice: Option<String>,
) -> Response {
    let options = match login::login_options(services, context.email).await {
        Ok(options) => options,
        Err(error) => return failure(error),
    };
    let mut view = page(Step::Methods);
    if let Some(provider) = options.provider {
        let query = serde_urlencoded::to_string([
            ("return_to", context.return_to),
            ("state", context.state),
            ("login_hint", context.email),
        ])
        .unwrap_or_default();
        view.sso_url = Some(format!("{}?{query}", sso::start_url(services, provider.id)));
        view.sso_name = provider.display_name;
    }
    let status = if error.is_some() { StatusCode::BAD_REQUEST } else { StatusCode::OK };
    (view.error, view.notice) = (error, notice);
    render(status, view, context, false)
}

async fn password(
    services: &Services,
    ip: std::net::IpAddr,
    context: &Context<'_>,
    input: &Submitted,
) -> Result<Signed, Error> {
    let password = input.password.as_deref().unwrap_or_default();
    let totp = input.totp.as_deref().filter(|t| !t.is_empty());
    let again = |text: &str| {
        let mut view = page(Step::Methods);
        view.error = Some(text.to_string());
        Ok(Signed::Again(Box::new(view)))
    };
    match login::sign_in_with_password(services, ip, context.email, password, totp).await? {
        PasswordSignIn::Accepted(account) => Ok(Signed::In(account)),
        // One refusal whatever was wrong, so that it never confirms the password.
        PasswordSignIn::Refused => {
            again("Wrong e-mail address or password, or the code of your authenticator app is missing or wrong.")
        }
    }
}

async fn send_code(services: &Services, ip: std::net::IpAddr, context: &Context<'_>) -> Response {
    match login::check_account(services, ip, context.email).await {
        Ok(()) => {}
        Err(Error::RateLimited { retry_after_secs }) => return too_many(retry_after_secs),
        Err(error) => return failure(error),
    }
    let mut view = page(Step::Code);
    view.notice = Some(
        "If this address has an account that signs in with e-mailed codes, a code is on its way. It works once, for 10 minutes."
            .into(),
    );
    render(StatusCode::OK, view, context, false)
}

async fn code(services: &Services, ip: std::net::IpAddr, context: &Context<'_>, code: &str) -> Result<Signed, Error> {
    match login::sign_in_with_code(services, ip, context.email, code).await? {
        Some(account) => Ok(Signed::In(account)),
        None => {
            let mut view = page(Step::Code);
            view.error = Some("Wrong or expired code. Ask for a new one if it is older than 10 minutes.".into());
            Ok(Signed::Again(Box::new(view)))
        }
    }
}

/// The pages that come before a session: the front door, the sign-in page, single sign-on and
/// the set-password link. None reads a session; each ends in a one-time code `/app/session`
/// takes, or sends the person there.
pub(super) fn routes() -> Router<AppState> {
    use super::{account, session, sso};
    Router::new()
        // The front door: people who type the address or a bookmark land in the console,
        // which asks them to sign in first.
        .route("/", get(|| async { session::see_other("/app") }))
        .route("/app/", get(|| async { session::see_other("/app") }))
        .route("/account/password", get(account::show).post(account::submit))
        .route("/account/verify", get(account::confirm_page).post(account::verify))
        .route("/account/sign-in", get(show).post(submit))
        .route("/sso/{provider}/start", get(sso::start))
        .route("/sso/signup/{token}", get(sso::start_signup))
        .route(signet_services::people::sso::CALLBACK_PATH, get(sso::callback))
        .route("/sso/second-factor", post(sso::second_factor))
}
