//! Stamp duty administration (docs/stamps.md): the stock per state and denomination, the
//! latest certificates with retiring, loading certificates, the low-stock alert, and the
//! article codes of a state (the shipped schedule with the tenant's own changes). Reading
//! needs `read_workflows`, as `GET /api/v1/stamps` does; every change `manage_settings`.

use askama::Template;
use axum::extract::{Multipart, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use signet_domain::access::Permission;
use signet_domain::stamp::{self, MAX_STAMPS_PER_LOAD};
use signet_domain::{Error, FieldErrors, StampId, WorkflowId};
use signet_http::AppState;
use signet_http::extract::ApiPath;
use signet_services::records::StampFilter;
use signet_services::stamps::{self as stamp_service, ArticleInput, LoadItem, StockLevel};

use super::session::see_other;
use super::{FormFields, Frame, Session, failure, page_error, read_multipart, render, shown_again};
use crate::text::{Text, key};

/// Certificates listed on the page (the newest of the chosen state).
const LISTED: i64 = 100;

struct CertificateView {
    id: StampId,
    state: String,
    denomination: i64,
    reference: String,
    status: &'static str,
    workflow: Option<WorkflowId>,
    loaded: String,
    retirable: bool,
    /// Loaded or issued with its PDF, which the page offers to download.
    has_pdf: bool,
}

struct ArticleRow {
    code: String,
    description: String,
    duty: String,
    rule: String,
    origin: &'static str,
}

struct StateOption {
    code: &'static str,
    name: &'static str,
    chosen: bool,
}

#[derive(Template)]
#[template(path = "console/stamps.html")]
struct StampsPage {
    frame: Frame,
    error: Option<String>,
    may_change: bool,
    stock: Vec<StockLevel>,
    threshold: i64,
    alert_emails: String,
    certificates: Vec<CertificateView>,
    total: i64,
    states: Vec<StateOption>,
    chosen_state: String,
    chosen_name: String,
    articles: Vec<ArticleRow>,
    /// The loading form's lines as typed, when it is shown again with a refusal.
    typed_lines: String,
}

#[derive(serde::Deserialize, Default)]
pub struct StampsQuery {
    state: Option<String>,
}

/// The state the page shows: the one asked for when it is a state, else Maharashtra.
fn chosen_state(asked: Option<&str>) -> String {
    asked.and_then(|code| stamp::parse_state_code("state", Some(code)).ok()).unwrap_or_else(|| "MH".to_string())
}

async fn stamps_page(
    state: &AppState,
    session: &Session,
    state_code: &str,
    error: Option<String>,
) -> Result<StampsPage, Error> {
    let caller = session.auth.caller();
    let (stock, settings) = stamp_service::stock(&state.services, &caller, None).await?;
    let threshold = settings.low_stock_threshold;
    let stock = stamp_service::stock_levels(stock, threshold);
    let filter = StampFilter { state_code: Some(state_code.to_string()), ..StampFilter::default() };
    let (rows, total) = stamp_service::inventory(&state.services, &caller, &filter, 0, LISTED).await?;
    let may_change = session.auth.access.allows(Permission::ManageSettings);
    let certificates = rows
        .into_iter()
        .rev()
        .map(|r| CertificateView {
            id: r.id,
            retirable: may_change && r.state == stamp::StampState::Available,
            has_pdf: r.certificate_blob.is_some(),
            state: r.state_code,
            denomination: r.denomination,
            reference: r.reference_no,
            status: r.state.as_str(),
            workflow: r.workflow_id,
            loaded: session.when(r.loaded_at),
        })
        .collect();
    let articles = stamp_service::articles_for(&state.services, &caller, state_code)
        .await?
        .into_iter()
        .map(|v| ArticleRow {
            duty: match v.article.fixed_duty {
                Some(rupees) => format!("₹{rupees} ({})", v.article.duty_kind.as_str()),
                None => v.article.duty_kind.as_str().to_string(),
            },
            code: v.article.article_code,
            description: v.article.description,
            rule: v.article.duty_rule,
            origin: session.text.s(match (v.shipped, v.edited) {
                (true, false) => key("stamps.origin.shipped"),
                (true, true) => key("stamps.origin.shipped_changed"),
                _ => key("stamps.origin.your_own"),
            }),
        })
        .collect();
    let states =
        stamp::STATES.iter().map(|(code, name)| StateOption { code, name, chosen: *code == state_code }).collect();
    Ok(StampsPage {
        frame: session.frame("/app/stamps"),
        error,
        may_change,
        stock,
        threshold,
        alert_emails: settings.alert_emails.join(", "),
        certificates,
        total,
        states,
        chosen_name: stamp::state_name(state_code).unwrap_or_default().to_string(),
        chosen_state: state_code.to_string(),
        articles,
        typed_lines: String::new(),
    })
}

/// `GET /app/stamps?state=MH`.
pub async fn show(State(state): State<AppState>, session: Session, Query(query): Query<StampsQuery>) -> Response {
    if let Some(refused) = session.refuses_without(Permission::ReadWorkflows) {
        return refused;
    }
    match stamps_page(&state, &session, &chosen_state(query.state.as_deref()), None).await {
        Ok(page) => render(StatusCode::OK, &page),
        Err(error) => failure(error),
    }
}

/// After a change: back to the page of `state_code`, or the page again with the refusal the
/// administrator can correct.
async fn answer<T>(state: &AppState, session: &Session, state_code: &str, outcome: Result<T, Error>) -> Response {
    match outcome {
        Ok(_) => see_other(&format!("/app/stamps?state={state_code}")),
        Err(error) => shown_again(error, async |text| stamps_page(state, session, state_code, Some(text)).await).await,
    }
}

/// One certificate per line: `denomination` or `denomination, reference number`.
fn load_items(text: Text, lines: &str) -> Result<Vec<LoadItem>, Error> {
    let lines: Vec<&str> = lines.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    if lines.is_empty() || lines.len() > MAX_STAMPS_PER_LOAD {
        return Err(Error::field("certificates", text.plain("stamps.give_lines", &[("n", &MAX_STAMPS_PER_LOAD)])));
    }
    lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            let (amount, reference) = match line.split_once(',') {
                Some((amount, reference)) => (amount.trim(), Some(reference.trim().to_string())),
                None => (*line, None),
            };
            let denomination = amount.trim_start_matches('₹').trim().parse::<i64>().map_err(|_| {
                Error::field("certificates", text.plain("stamps.line_whole_rupees", &[("n", &(i + 1))]))
            })?;
            Ok(LoadItem { denomination, reference_no: reference.filter(|r| !r.is_empty()), certificate: None })
        })
        .collect()
}

/// The PDFs in the order of the lines they go with: by name when each is named after a line's
/// reference number (`MH-001.pdf` for `500, MH-001`, any case), since browsers may reorder files
/// picked together; else as chosen.
fn in_line_order(items: &[LoadItem], files: Vec<(String, Vec<u8>)>) -> Vec<(String, Vec<u8>)> {
    let stem = |name: &str| {
        let name = name.rsplit(['/', '\\']).next().unwrap_or(name);
        let cut = name.len().saturating_sub(4);
        match name.get(cut..) {
            Some(ext) if ext.eq_ignore_ascii_case(".pdf") => name[..cut].to_lowercase(),
            _ => name.to_lowercase(),
        }
    };
    let by_name: Option<Vec<usize>> = items
        .iter()
        .map(|item| {
            let reference = item.reference_no.as_deref()?.to_lowercase();
            let mut named = files.iter().enumerate().filter(|(_, (name, _))| stem(name) == reference);
            match (named.next(), named.next()) {
                (Some((i, _)), None) => Some(i),
                _ => None,
            }
        })
        .collect();
    match by_name {
        Some(order) if files.len() == items.len() => {
            let mut slots: Vec<Option<(String, Vec<u8>)>> = files.into_iter().map(Some).collect();
            order.into_iter().filter_map(|i| slots.get_mut(i).and_then(Option::take)).collect()
        }
        _ => files,
    }
}

/// The certificate PDFs chosen on the form, one per line in the order of the lines, put with
/// their lines as the API's `certificateFile` (base64), for the service to check as it checks
/// the API's. None chosen: the certificates are loaded without PDFs.
fn attach_certificates(text: Text, items: &mut [LoadItem], files: &[(String, Vec<u8>)]) -> Result<(), Error> {
    if files.is_empty() {
        return Ok(());
    }
    if files.len() != items.len() {
        let count = |key_one: &str, key_other: &str, n: usize| {
            text.plain(if n == 1 { key_one } else { key_other }, &[("n", &n)])
        };
        let lines = count(key("stamps.lines.one"), key("stamps.lines.other"), items.len());
        let pdfs = count(key("stamps.files.one"), key("stamps.files.other"), files.len());
        return Err(Error::field(
            text.s("stamps.field.certificate_pdfs"),
            text.plain("stamps.one_pdf_per_line", &[("lines", &lines), ("files", &pdfs)]),
        ));
    }
    for (item, (_, bytes)) in items.iter_mut().zip(files) {
        item.certificate = Some(STANDARD.encode(bytes));
    }
    Ok(())
}

/// The service's refusals of the API's fields as the form names them: `denomination[2].…` is
/// the third line (and its PDF, by the file's name).
fn as_form_fields(text: Text, error: Error, files: &[(String, Vec<u8>)]) -> Error {
    let Error::Validation(fields) = error else { return error };
    let mut named = FieldErrors::new();
    for (field, messages) in fields {
        let line = field
            .strip_prefix("denomination[")
            .and_then(|rest| rest.split_once(']'))
            .and_then(|(index, rest)| index.parse::<usize>().ok().map(|i| (i, rest)));
        let name = match line {
            Some((i, ".certificateFile")) => match files.get(i) {
                Some((file, _)) => text.plain("stamps.field.line_pdf_file", &[("n", &(i + 1)), ("file", file)]),
                None => text.plain("stamps.field.line_pdf", &[("n", &(i + 1))]),
            },
            Some((i, _)) => text.plain("stamps.field.line", &[("n", &(i + 1))]),
            None if field == "denomination" => "certificates".to_string(),
            None => field,
        };
        named.entry(name).or_default().extend(messages);
    }
    Error::Validation(named)
}

/// `POST /app/stamps/load` (multipart): `state`, `certificates` (lines), `certificate_files`
/// (optional, one PDF per line: by name, else in order), loaded as `POST /api/v1/stamps` through the same
/// service: all or nothing, and a refusal shows the lines again as typed.
pub async fn load(State(state): State<AppState>, session: Session, multipart: Multipart) -> Response {
    if let Some(refused) = session.refuses_without(Permission::ManageSettings) {
        return refused;
    }
    let (fields, files) = match read_multipart(session.text, multipart, "certificate_files", "certificate.pdf").await {
        Ok(form) => form,
        Err(text) => return page_error(StatusCode::BAD_REQUEST, &text),
    };
    if let Some(refused) = session.refuses_form(fields.get("csrf")) {
        return refused;
    }
    let state_code = chosen_state(Some(fields.get("state")));
    let loaded = async {
        let mut items = load_items(session.text, fields.get("certificates"))?;
        let files = in_line_order(&items, files);
        attach_certificates(session.text, &mut items, &files)?;
        stamp_service::load(&state.services, &session.auth.caller(), Some(fields.get("state")), items)
            .await
            .map_err(|error| as_form_fields(session.text, error, &files))
    }
    .await;
    match loaded {
        Ok(_) => see_other(&format!("/app/stamps?state={state_code}")),
        Err(error) => {
            // A browser sends a text area's lines ended by CR LF.
            let typed = fields.all("certificates").next().unwrap_or_default().replace("\r\n", "\n");
            shown_again(error, async |text| {
                let mut page = stamps_page(&state, &session, &state_code, Some(text)).await?;
                page.typed_lines = typed;
                Ok(page)
            })
            .await
        }
    }
}

/// `GET /app/stamps/{id}/certificate`: the certificate's PDF as loaded or issued.
pub async fn certificate(State(state): State<AppState>, session: Session, ApiPath(id): ApiPath<i64>) -> Response {
    if let Some(refused) = session.refuses_without(Permission::ReadWorkflows) {
        return refused;
    }
    match stamp_service::certificate_pdf(&state.services, &session.auth.caller(), StampId::from(id)).await {
        Ok((name, pdf)) => signet_http::files::pdf_response(pdf, &name),
        Err(error) => failure(error),
    }
}

/// `POST /app/stamps/{id}/retire`: the certificate is never taken again.
pub async fn retire(
    State(state): State<AppState>,
    session: Session,
    ApiPath(id): ApiPath<i64>,
    fields: FormFields,
) -> Response {
    if let Some(refused) = session.refuses_change(Permission::ManageSettings, fields.get("csrf")) {
        return refused;
    }
    let state_code = chosen_state(Some(fields.get("state")));
    let retired = stamp_service::retire(&state.services, &session.auth.caller(), StampId::from(id)).await;
    answer(&state, &session, &state_code, retired).await
}

/// `POST /app/stamps/settings`: `threshold`, `emails` (separated by commas or lines).
pub async fn settings(State(state): State<AppState>, session: Session, fields: FormFields) -> Response {
    if let Some(refused) = session.refuses_change(Permission::ManageSettings, fields.get("csrf")) {
        return refused;
    }
    let state_code = chosen_state(Some(fields.get("state")));
    let saved = async {
        let threshold = fields.get("threshold").trim();
        let threshold = if threshold.is_empty() { Ok(0) } else { threshold.parse::<i64>() }
            .map_err(|_| Error::field("lowStockThreshold", session.text.s("stamps.threshold_whole_number")))?;
        let emails: Vec<String> = fields
            .get("emails")
            .split([',', '\n', ';'])
            .map(str::trim)
            .filter(|e| !e.is_empty())
            .take(stamp_service::MAX_ALERT_EMAILS + 1)
            .map(str::to_string)
            .collect();
        stamp_service::set_settings(&state.services, &session.auth.caller(), threshold, emails).await
    }
    .await;
    answer(&state, &session, &state_code, saved).await
}

/// `POST /app/stamps/articles`: the tenant's version of an article of `state`.
pub async fn set_article(State(state): State<AppState>, session: Session, fields: FormFields) -> Response {
    if let Some(refused) = session.refuses_change(Permission::ManageSettings, fields.get("csrf")) {
        return refused;
    }
    let state_code = chosen_state(Some(fields.get("state")));
    let text = |name: &str| Some(fields.get(name).trim().to_string()).filter(|t| !t.is_empty());
    let set = async {
        let fixed_duty = match text("fixed_duty") {
            Some(amount) => Some(
                amount
                    .trim_start_matches('₹')
                    .trim()
                    .parse::<i64>()
                    .map_err(|_| Error::field("fixedDuty", session.text.s("stamps.must_be_whole_rupees")))?,
            ),
            None => None,
        };
        let input = ArticleInput {
            description: text("description"),
            duty_kind: text("duty_kind"),
            fixed_duty,
            duty_rule: text("duty_rule"),
            source: text("source"),
        };
        let code = fields.get("code").trim();
        stamp_service::set_article(&state.services, &session.auth.caller(), &state_code, code, input).await
    }
    .await;
    answer(&state, &session, &state_code, set).await
}

/// `POST /app/stamps/articles/remove`: a shipped article is hidden, the tenant's own removed.
pub async fn remove_article(State(state): State<AppState>, session: Session, fields: FormFields) -> Response {
    if let Some(refused) = session.refuses_change(Permission::ManageSettings, fields.get("csrf")) {
        return refused;
    }
    let state_code = chosen_state(Some(fields.get("state")));
    let removed =
        stamp_service::remove_article(&state.services, &session.auth.caller(), &state_code, fields.get("code")).await;
    answer(&state, &session, &state_code, removed).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn load_lines_take_an_amount_and_an_optional_reference() {
        let items = load_items(Text::EN, "500, MH-001\n\n ₹100 \n1000,").expect("items");
        let read: Vec<(i64, Option<String>)> = items.into_iter().map(|i| (i.denomination, i.reference_no)).collect();
        assert_eq!(read, [(500, Some("MH-001".into())), (100, None), (1000, None)]);
        assert!(load_items(Text::EN, "").is_err());
        assert!(load_items(Text::EN, "five hundred").is_err());
        assert!(load_items(Text::EN, &"1\n".repeat(MAX_STAMPS_PER_LOAD + 1)).is_err());
    }

    #[test]
    fn an_unknown_state_falls_back_to_maharashtra() {
        assert_eq!(chosen_state(Some("KA")), "KA");
        assert_eq!(chosen_state(Some("XX")), "MH");
        assert_eq!(chosen_state(None), "MH");
    }

    #[test]
    fn pdfs_named_after_the_lines_go_with_them_whatever_their_order() {
        let items = load_items(Text::EN, "500, MH-001\n100, MH-002").expect("items");
        let file = |name: &str| (name.to_string(), name.as_bytes().to_vec());
        let names = |files: Vec<(String, Vec<u8>)>| files.into_iter().map(|(n, _)| n).collect::<Vec<_>>();
        assert_eq!(
            names(in_line_order(&items, vec![file("mh-002.PDF"), file("MH-001.pdf")])),
            ["MH-001.pdf", "mh-002.PDF"]
        );
        // Not every line named, a name twice, or a count that is not the lines': as chosen.
        assert_eq!(names(in_line_order(&items, vec![file("b.pdf"), file("MH-001.pdf")])), ["b.pdf", "MH-001.pdf"]);
        assert_eq!(
            names(in_line_order(&items, vec![file("MH-001.pdf"), file("mh-001.pdf")])),
            ["MH-001.pdf", "mh-001.pdf"]
        );
        assert_eq!(names(in_line_order(&items, vec![file("MH-002.pdf")])), ["MH-002.pdf"]);
        let unnamed = load_items(Text::EN, "500\n100, MH-002").expect("items");
        assert_eq!(names(in_line_order(&unnamed, vec![file("MH-002.pdf"), file("a.pdf")])), ["MH-002.pdf", "a.pdf"]);
    }

    #[test]
    fn pdfs_go_with_the_lines_in_order_or_not_at_all() {
        let mut items = load_items(Text::EN, "500, MH-001\n100, MH-002").expect("items");
        let one = [("a.pdf".to_string(), b"%PDF-a".to_vec())];
        let Err(Error::Validation(fields)) = attach_certificates(Text::EN, &mut items, &one) else {
            panic!("one PDF, two lines")
        };
        assert!(fields["certificate PDFs"][0].contains("2 lines, 1 file"), "{fields:?}");
        assert!(items.iter().all(|i| i.certificate.is_none()));
        attach_certificates(Text::EN, &mut items, &[]).expect("no PDFs");
        let two = [("a.pdf".to_string(), b"%PDF-a".to_vec()), ("b.pdf".to_string(), b"%PDF-b".to_vec())];
        attach_certificates(Text::EN, &mut items, &two).expect("two PDFs");
        let attached: Vec<Option<String>> = items.into_iter().map(|i| i.certificate).collect();
        assert_eq!(attached, [Some(STANDARD.encode(b"%PDF-a")), Some(STANDARD.encode(b"%PDF-b"))]);
        let refused = Error::field("denomination[1].certificateFile", "is not a PDF document");
        let Error::Validation(named) = as_form_fields(Text::EN, refused, &two) else { panic!("a validation error") };
        assert_eq!(named.keys().collect::<Vec<_>>(), ["line 2, PDF b.pdf"]);
    }
}
