//! Aadhaar eSign (SignatureType 3) end to end: an integrator's envelope, the signer page, the
//! signed request carried to Signet's test ESP, its pages (Aadhaar number, OTP, consent), the
//! answer carried back and embedded; the signed PDF validated by pdfsig and pyHanko trusting
//! the ESP's test CA, the hash signatures by openssl. Every hop is a form with a button: the
//! test walks them without JavaScript, as a browser without scripts would.
//! Replayed, forged and foreign answers are refused with nothing embedded. A signer asked for a
//! code by SMS reaches the ESP only after typing it.

use std::collections::HashMap;

use signet_client::{
    DocumentDetail, PageSelection, PayloadBuilder, Profile, SealedRequest, SignaturePosition, SignatureType,
    open_result,
};
use signet_store::Backend;
use signet_test_esp::{EspOptions, RunningEsp};
use signet_testkit::gateway::{Integrator, erp_urls};
use signet_testkit::on_both_backends;
use signet_testkit::pdf::one_page;
use signet_testkit::pki::TestTsa;
use signet_testkit::problem::{posted_fields, unescape};
use signet_testkit::server::{TestApp, spawn_with};
use signet_testkit::validators::{cert_pem, pdfsig, pyhanko_validates};

use crate::support::{dss_vouches_for, pdf_signers, within_a_minute};

on_both_backends!(
    a_pdf_signed_with_aadhaar_esign_validates_in_pdfsig_and_pyhanko,
    hashes_signed_with_aadhaar_esign_verify_in_openssl,
    data_signed_with_aadhaar_esign_verifies_in_openssl,
    xml_signed_with_aadhaar_esign_verifies_in_xmlsec1,
    the_signer_cancelling_at_the_esp_reaches_curl_with_106,
    replayed_and_forged_answers_are_refused_and_embed_nothing,
    answers_signed_with_another_key_naming_the_esp_certificate_are_refused_and_use_up_nothing,
    a_workflow_mixing_aadhaar_esign_and_electronic_signatures_keeps_every_signature_valid,
    aadhaar_signatories_need_a_configured_esp,
    an_esp_refusal_reaches_furl_with_its_code,
    the_server_to_server_flow_signs_too,
    co_signing_with_aadhaar_esign_keeps_the_earlier_signature_valid,
    an_aadhaar_signer_asked_for_a_code_goes_to_the_esp_only_after_typing_it,
    an_aadhaar_signature_in_a_workflow_is_long_term_within_a_minute_from_an_ocsp_ca,
    an_aadhaar_signature_in_a_workflow_is_long_term_within_a_minute_from_a_crl_only_ca,
    cdac_style_answers_are_taken_and_a_cdac_cancel_reaches_curl_with_106,
    a_workflow_signer_cancelling_at_a_real_esp_may_sign_again,
    a_refused_answer_then_giving_up_reaches_furl_and_the_status_says_why,
    an_expired_transaction_after_a_refused_answer_says_why,
    the_signers_auth_mode_choice_reaches_the_esp_request,
    each_named_profiles_cancel_reaches_curl_with_106,
    a_workflow_signer_chooses_the_auth_mode_and_learns_why_an_answer_was_refused,
);

/// The test identity the ESP creates in its identities file (see signet-test-esp).
const AADHAAR: &str = "999941057058";
const OTP: &str = "123456";

struct Setup {
    app: TestApp,
    esp: RunningEsp,
    who: Integrator,
    /// The integrating organisation's API access token.
    token: String,
    _tsa: Option<TestTsa>,
    _dir: tempfile::TempDir,
}

async fn setup(backend: Backend, with_tsa: bool) -> Setup {
    setup_with(backend, with_tsa, false).await
}

/// With `server_flow`, Signet posts the request to the ESP itself (eSign 3.x) and sends the
/// browser on with `txnref`.
async fn setup_with(backend: Backend, with_tsa: bool, server_flow: bool) -> Setup {
    setup_adjusted(backend, with_tsa, server_flow, |_| {}, |_| {}).await
}

/// As [`setup_with`], with `adjust_esp` changing the ESP's options (a CRL-only CA) and
/// `adjust` the server's configuration last (an SMS provider).
async fn setup_adjusted(
    backend: Backend,
    with_tsa: bool,
    server_flow: bool,
    adjust_esp: impl FnOnce(&mut EspOptions),
    adjust: impl FnOnce(&mut signet_server::Config),
) -> Setup {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut options = EspOptions::new(dir.path().join("esp"));
    options.fixed_otp = Some(OTP.into());
    adjust_esp(&mut options);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let esp = signet_test_esp::spawn(options, listener).await.expect("test ESP");
    let esp_cert = dir.path().join("esp.cer");
    let ca_cert = dir.path().join("esign-ca.pem");
    std::fs::write(&esp_cert, &esp.esp_certificate_der).expect("write");
    std::fs::write(&ca_cert, cert_pem(&esp.ca_certificate_der)).expect("write");
    let tsa = with_tsa.then(TestTsa::start);
    let (esp_url, tsa_url) = (format!("{}/2.1/form/signdoc", esp.base_url), tsa.as_ref().map(|t| t.url.clone()));
    let (esp_url, auth_url) = if server_flow {
        (format!("{}/2.1/signdoc", esp.base_url), Some(format!("{}/2.1/authRequest", esp.base_url)))
    } else {
        (esp_url, None)
    };
    let app = spawn_with(backend, |config| {
        config.esign_esp_url = Some(esp_url);
        if auth_url.is_some() {
            config.esign_flow = Some("server".into());
            config.esign_esp_auth_url = auth_url;
        }
        config.esign_esp_certificate = Some(esp_cert);
        config.esign_ca_certificates = Some(ca_cert);
        config.tsa_url = tsa_url;
        config.outbound_allow_private = true;
        adjust(config);
    })
    .await;
    // Registration as an operator does it: the ASP certificate Signet serves, given to the ESP.
    let asp_cert = app.client.get(app.url("/esign/asp.cer")).send().await.expect("asp.cer");
    assert_eq!(asp_cert.headers()["content-type"], "application/pkix-cert");
    let asp_cert = asp_cert.bytes().await.expect("body");
    signet_test_esp::register_asp(&dir.path().join("esp"), "SIGNET", &asp_cert).expect("register");
    let tenant = app.tenant("Acme Bank").await;
    let token = app.token(&tenant).await;
    let who = Integrator::setup(&app.base(), &token).await;
    Setup { app, esp, who, token, _tsa: tsa, _dir: dir }
}

fn pdf_payload(s: &Setup, reference: &str) -> PayloadBuilder {
    PayloadBuilder::pdf(&one_page("Loan agreement"), "Asha Verma")
        .reference_number(reference)
        .authtoken(&s.who.authtoken)
        .signature_types(&[SignatureType::ESign])
        .urls(&erp_urls())
        .pages(&PageSelection::First)
        .position(SignaturePosition::BottomRight)
}

/// Submits the envelope and returns the signer page's address.
async fn signer_link(s: &Setup, payload: &PayloadBuilder) -> (String, SealedRequest) {
    let sealed = s.who.seal(Profile::Modern, &payload.build().expect("payload"));
    let response = s.who.submit(&s.app.base(), &sealed).await;
    assert_eq!(response.status(), 303, "{:?}", response.text().await);
    (response.headers()["location"].to_str().expect("location").to_string(), sealed)
}

/// Posts a form's fields to its action and returns the page that comes back.
async fn post(client: &reqwest::Client, action: &str, fields: &HashMap<String, String>) -> String {
    let response = client.post(action).form(fields).send().await.expect("post");
    response.text().await.expect("html")
}

/// The hidden fields of the form whose action ends with `action_suffix`, with extra fields.
fn form(html: &str, action_suffix: &str, extra: &[(&str, &str)]) -> (String, HashMap<String, String>) {
    let start =
        html.find(&format!("{action_suffix}\"")).unwrap_or_else(|| panic!("no form to {action_suffix}:\n{html}"));
    let form_start = html[..start].rfind("<form").expect("form");
    let form_end = html[start..].find("</form>").map(|i| start + i).unwrap_or(html.len());
    let form_html = &html[form_start..form_end];
    let action = form_html.split("action=\"").nth(1).and_then(|r| r.split('"').next()).expect("action");
    let mut fields = HashMap::new();
    for input in form_html.split("<input").skip(1) {
        let attr =
            |name: &str| input.split(&format!("{name}=\"")).nth(1).and_then(|r| r.split('"').next()).map(unescape);
        if attr("type").as_deref() == Some("hidden")
            && let (Some(name), Some(value)) = (attr("name"), attr("value"))
        {
            fields.insert(name, value);
        }
    }
    for (k, v) in extra {
        fields.insert(k.to_string(), v.to_string());
    }
    (unescape(action), fields)
}

/// From the signer page to the ESP's answer page: Aadhaar eSign chosen, the request carried
/// to the ESP, the Aadhaar number and the OTP given with consent.
async fn through_the_esp(s: &Setup, link: &str) -> String {
    through_the_esp_as(s, &s.app.url(link), AADHAAR).await
}

/// The same from an absolute signer link, for the identity with this Aadhaar number.
async fn through_the_esp_as(s: &Setup, link: &str, aadhaar: &str) -> String {
    let client = &s.app.client;
    let page = client.get(link).send().await.expect("page").text().await.expect("html");
    assert!(page.contains("Sign with Aadhaar eSign"), "{page}");
    let to_esp = client.post(format!("{link}/esign")).send().await.expect("esign").text().await.expect("html");
    let (action, fields) = posted_fields(&to_esp);
    assert!(action.starts_with(&s.esp.base_url), "{to_esp}");
    if action.ends_with("/2.1/form/signdoc") {
        assert!(fields["eSignRequest"].starts_with("<Esign "), "{to_esp}");
    } else {
        assert!(action.ends_with("/2.1/authRequest") && fields.contains_key("txnref"), "{to_esp}");
    }
    let aadhaar_page = post(client, &action, &fields).await;
    let (action, fields) = form(&aadhaar_page, "/2.1/form/otp", &[("aadhaar", aadhaar)]);
    let otp_page = post(client, &absolute(s, &action), &fields).await;
    let (action, fields) = form(&otp_page, "/2.1/form/authenticate", &[("otp", OTP), ("consent", "Y")]);
    post(client, &absolute(s, &action), &fields).await
}

fn absolute(s: &Setup, action: &str) -> String {
    if action.starts_with("http") { action.to_string() } else { format!("{}{action}", s.esp.base_url) }
}

/// Carries the ESP's answer page back to Signet and returns the post for the integrator.
async fn back_to_signet(s: &Setup, answer_page: &str) -> (String, HashMap<String, String>) {
    let (action, fields) = posted_fields(answer_page);
    assert_eq!(action, s.app.url("/esign/response"), "{answer_page}");
    let result = post(&s.app.client, &action, &fields).await;
    let posted = posted_fields(&result);
    assert!(!posted.0.is_empty(), "no post-back from Signet:\n{result}");
    posted
}

async fn a_pdf_signed_with_aadhaar_esign_validates_in_pdfsig_and_pyhanko(backend: Backend) {
    let s = setup(backend, true).await;
    let (link, sealed) = signer_link(&s, &pdf_payload(&s, "ESIGN-PDF-1")).await;
    let answer = through_the_esp(&s, &link).await;
    let (action, fields) = back_to_signet(&s, &answer).await;
    assert_eq!(action, "https://erp.example.test/signed", "{fields:?}");
    let signed = open_result(&sealed.session, Profile::Modern, &fields["Returnvalue"]).expect("Returnvalue");
    // The ESP's CMS is no PAdES baseline: the transaction says what the signature is (a PDF
    // CMS signature, made long-term), not "PAdES-B-LT".
    let number = &fields["Transactionnumber"];
    let status = s.app.get(&format!("/api/v1/gateway/transactions/{number}"), &s.token).await;
    let status: serde_json::Value = status.json().await.expect("json");
    assert_eq!(status["signatureLevel"], "PKCS7-LT", "{status}");

    let report = pdfsig(&signed);
    assert!(report.contains("Signature is Valid"), "{report}");
    assert!(report.contains("adbe.pkcs7.detached"), "{report}");
    assert!(report.contains("Asha Verma"), "the signer's own certificate: {report}");
    assert!(!report.contains("sealed by Signet"), "Aadhaar eSign is the signer's signature, not a seal: {report}");
    let tsa_root = s._tsa.as_ref().map(|t| t.root_pem.as_bytes().to_vec()).unwrap_or_default();
    let esign_root = cert_pem(&s.esp.ca_certificate_der);
    pyhanko_validates(&signed, &[&esign_root, &tsa_root]);

    // Long-term validation from what the document carries: the ESP (its CRL and OCSP) and the
    // TSA are stopped first.
    assert!(signed.windows(4).any(|w| w == b"/DSS"), "B-LT: the chain and revocation data are in the document");
    let Setup { esp, _tsa: tsa, .. } = s;
    drop(esp);
    drop(tsa);
    adesverify_long_term(&signed, &[&esign_root, &tsa_root]);
}

/// `pyhanko sign adesverify` at the present time: the signature must reach a long-term level
/// with nothing fetched (the servers are gone).
fn adesverify_long_term(pdf: &[u8], roots_pem: &[&[u8]]) {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("signed.pdf");
    std::fs::write(&path, pdf).expect("write");
    let mut command = std::process::Command::new("pyhanko");
    command.args(["sign", "adesverify"]);
    for (i, root) in roots_pem.iter().enumerate() {
        let root_path = dir.path().join(format!("root{i}.pem"));
        std::fs::write(&root_path, root).expect("write");
        command.arg("--trust").arg(root_path);
    }
    let now = time::OffsetDateTime::now_utc().format(&time::format_description::well_known::Rfc3339).expect("time");
    let output = command
        .args(["--trust-replace", "--pretty-print", "--validation-time", &now])
        .arg(&path)
        .output()
        .expect("pyhanko");
    let out = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "adesverify:\n{out}");
    assert!(!out.contains("INVALID") && !out.contains("INDETERMINATE"), "adesverify:\n{out}");
    assert!(out.contains("judged VALID"), "adesverify:\n{out}");
}

async fn hashes_signed_with_aadhaar_esign_verify_in_openssl(backend: Backend) {
    let s = setup(backend, false).await;
    let documents: Vec<DocumentDetail> = ["Sanction letter", "Key fact statement"]
        .iter()
        .map(|name| DocumentDetail {
            name: name.to_string(),
            url: format!("https://erp.example.test/{}", name.replace(' ', "-")),
            hash_hex: hex::encode(signet_sigcrypto::pki::sha256(name.as_bytes())),
        })
        .collect();
    let payload = PayloadBuilder::hash(&documents)
        .reference_number("ESIGN-HASH-1")
        .authtoken(&s.who.authtoken)
        .signature_types(&[SignatureType::ESign])
        .urls(&erp_urls());
    let (link, sealed) = signer_link(&s, &payload).await;
    let answer = through_the_esp(&s, &link).await;
    let (action, fields) = back_to_signet(&s, &answer).await;
    assert_eq!(action, "https://erp.example.test/signed", "{fields:?}");
    let json = open_result(&sealed.session, Profile::Modern, &fields["Returnvalue"]).expect("Returnvalue");
    let signatures: Vec<serde_json::Value> = serde_json::from_slice(&json).expect("hash signatures");
    assert_eq!(signatures.len(), 2);
    for (document, signature) in documents.iter().zip(&signatures) {
        assert_eq!(signature["DocumentHash"], document.hash_hex);
        let cms = base64_decode(signature["Signature"].as_str().expect("signature"));
        // The CMS signs the hash: openssl verifies it over the document whose hash was sent.
        openssl_verifies(&cms, document.name.as_bytes(), &s.esp.ca_certificate_der);
    }
}

async fn data_signed_with_aadhaar_esign_verifies_in_openssl(backend: Backend) {
    let s = setup(backend, false).await;
    let text = b"I, Asha Verma, accept the terms of loan 42.\n";
    let payload = PayloadBuilder::data(text)
        .reference_number("ESIGN-DATA-1")
        .authtoken(&s.who.authtoken)
        .signature_types(&[SignatureType::ESign])
        .urls(&erp_urls());
    let (link, sealed) = signer_link(&s, &payload).await;
    let page = s.app.client.get(s.app.url(&link)).send().await.expect("page").text().await.expect("html");
    assert!(page.contains("I, Asha Verma, accept the terms of loan 42."), "the signer sees the text: {page}");
    let answer = through_the_esp(&s, &link).await;
    let (action, fields) = back_to_signet(&s, &answer).await;
    assert_eq!(action, "https://erp.example.test/signed", "{fields:?}");
    let cms = open_result(&sealed.session, Profile::Modern, &fields["Returnvalue"]).expect("Returnvalue");
    openssl_verifies(&cms, text, &s.esp.ca_certificate_der);
}

async fn xml_signed_with_aadhaar_esign_verifies_in_xmlsec1(backend: Backend) {
    // With a TSA: the 30-minute certificate's signature comes back long-term (XAdES B-LT).
    let s = setup(backend, true).await;
    let xml = b"<?xml version=\"1.0\"?>\n<Sanction xmlns=\"urn:example:loan\"><Amount currency=\"INR\">500000</Amount></Sanction>\n";
    let payload = PayloadBuilder::xml(xml)
        .reference_number("ESIGN-XML-1")
        .authtoken(&s.who.authtoken)
        .signature_types(&[SignatureType::ESign])
        .urls(&erp_urls());
    let (link, sealed) = signer_link(&s, &payload).await;
    let page = s.app.client.get(s.app.url(&link)).send().await.expect("page").text().await.expect("html");
    assert!(page.contains("500000"), "the signer sees the XML: {page}");
    let answer = through_the_esp(&s, &link).await;
    let (action, fields) = back_to_signet(&s, &answer).await;
    assert_eq!(action, "https://erp.example.test/signed", "{fields:?}");
    let signed = open_result(&sealed.session, Profile::Modern, &fields["Returnvalue"]).expect("Returnvalue");
    let dir = tempfile::tempdir().expect("tempdir");
    let (doc, ca) = (dir.path().join("signed.xml"), dir.path().join("ca.pem"));
    std::fs::write(&doc, &signed).expect("write");
    std::fs::write(&ca, cert_pem(&s.esp.ca_certificate_der)).expect("write");
    let out = std::process::Command::new("xmlsec1")
        .arg("--verify")
        .arg("--trusted-pem")
        .arg(&ca)
        .arg(&doc)
        .output()
        .expect("xmlsec1");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success() && text.contains("OK"), "xmlsec1:\n{text}\n{}", String::from_utf8_lossy(&signed));
    let text = String::from_utf8_lossy(&signed);
    assert!(text.contains("<Amount currency=\"INR\">500000</Amount>"));
    for property in ["SignatureTimeStamp", "CertificateValues", "EncapsulatedOCSPValue"] {
        assert!(text.contains(&format!("<xades:{property}")), "{property} in\n{text}");
    }
}

/// `openssl cms -verify` of a detached CMS over `content`, trusting `ca_der`.
fn openssl_verifies(cms: &[u8], content: &[u8], ca_der: &[u8]) {
    let dir = tempfile::tempdir().expect("tempdir");
    let (cms_path, content_path, ca) =
        (dir.path().join("sig.p7s"), dir.path().join("content.bin"), dir.path().join("ca.pem"));
    std::fs::write(&cms_path, cms).expect("write");
    std::fs::write(&content_path, content).expect("write");
    std::fs::write(&ca, cert_pem(ca_der)).expect("write");
    let out = std::process::Command::new("openssl")
        .args(["cms", "-verify", "-inform", "DER", "-binary", "-purpose", "any", "-in"])
        .arg(&cms_path)
        .arg("-content")
        .arg(&content_path)
        .arg("-CAfile")
        .arg(&ca)
        .args(["-out", "/dev/null"])
        .output()
        .expect("openssl");
    let text = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success() && text.contains("Verification successful"), "{text}");
}

fn base64_decode(text: &str) -> Vec<u8> {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.decode(text).expect("base64")
}

async fn the_signer_cancelling_at_the_esp_reaches_curl_with_106(backend: Backend) {
    let s = setup(backend, false).await;
    let (link, _) = signer_link(&s, &pdf_payload(&s, "ESIGN-CANCEL")).await;
    let client = &s.app.client;
    let to_esp =
        client.post(s.app.url(&format!("{link}/esign"))).send().await.expect("esign").text().await.expect("html");
    let (action, fields) = posted_fields(&to_esp);
    let aadhaar_page = post(client, &action, &fields).await;
    let (action, fields) = form(&aadhaar_page, "/2.1/form/cancel", &[]);
    let answer = post(client, &absolute(&s, &action), &fields).await;
    let (action, fields) = back_to_signet(&s, &answer).await;
    assert_eq!(action, "https://erp.example.test/cancelled", "{fields:?}");
    assert!(fields["ErrorMessage"].starts_with("106"), "{fields:?}");
}

async fn replayed_and_forged_answers_are_refused_and_embed_nothing(backend: Backend) {
    let s = setup(backend, false).await;
    let (link, _) = signer_link(&s, &pdf_payload(&s, "ESIGN-REPLAY")).await;
    let answer = through_the_esp(&s, &link).await;
    let (action, fields) = posted_fields(&answer);

    // Altered on the way (another resCode): refused, and the genuine answer still counts.
    let mut forged = fields.clone();
    let response = forged.get_mut("eSignResponse").expect("eSignResponse");
    *response = response.replacen("resCode=\"", "resCode=\"X", 1);
    let refused = s.app.client.post(&action).form(&forged).send().await.expect("post");
    assert_eq!(refused.status(), 400);
    let body = refused.text().await.expect("html");
    assert!(body.contains("could not be accepted"), "{body}");

    // The genuine answer, then the same again: taken once.
    let (to, _) = posted_fields(&post(&s.app.client, &action, &fields).await);
    assert_eq!(to, "https://erp.example.test/signed");
    let again = s.app.client.post(&action).form(&fields).send().await.expect("post");
    assert_eq!(again.status(), 400);
    assert!(again.text().await.expect("html").contains("already received"));

    // Both refusals are on record; the transaction was signed once.
    let txn = fields["eSignResponse"].split("txn=\"").nth(1).and_then(|t| t.split('"').next()).expect("txn");
    let id = txn.split('-').next().expect("id");
    let row = s.app.store.esign_transaction(id).await.expect("read").expect("row");
    assert_eq!((row.state.as_str(), row.refused_answers), ("signed", 2), "{row:?}");
    assert_eq!(row.last_refusal.as_deref(), Some("esign_replayed"));

    // Garbage and answers without a transaction of this service.
    for body in [&[("eSignResponse", "<EsignResp")][..], &[("eSignResponse", "not xml")], &[("other", "x")]] {
        let response = s.app.client.post(&action).form(body).send().await.expect("post");
        assert_eq!(response.status(), 400, "{body:?}");
    }
}

/// `answer` without its enveloped signature, changed by `change`, signed by `signer` (its
/// own certificate in KeyInfo) and given a decoy `X509Certificate` holding `decoy` inside the
/// signature, where the enveloped transform leaves it outside the signed content.
fn resigned_with_decoy(
    answer: &str,
    change: impl Fn(String) -> String,
    signer: &signet_sigcrypto::signer::LocalKeySigner,
    decoy: &[u8],
) -> String {
    use signet_sigcrypto::xmldsig::{XmlSignOptions, sign_enveloped};
    let start = answer.find("<ds:Signature").expect("the ESP's signature");
    let end = answer.find("</ds:Signature>").expect("its end") + "</ds:Signature>".len();
    let unsigned = change(format!("{}{}", &answer[..start], &answer[end..]));
    let options = XmlSignOptions { xades: false, signing_time: None, include_chain: false };
    let signed = String::from_utf8(sign_enveloped(unsigned.as_bytes(), signer, &options).expect("sign")).expect("utf8");
    let decoy = format!("<ds:Object><ds:X509Certificate>{}</ds:X509Certificate></ds:Object>", base64_encode(decoy));
    signed.replacen("</ds:Signature>", &format!("{decoy}</ds:Signature>"), 1)
}

/// Issue 30 item 6: answers signed with an attacker's key (its certificate in KeyInfo) that
/// carry the pinned ESP certificate in a decoy element outside the signed content, a "signed"
/// one and a "cancelled" one, are refused and do not use up the transaction: the genuine
/// answer afterwards still completes it.
async fn answers_signed_with_another_key_naming_the_esp_certificate_are_refused_and_use_up_nothing(backend: Backend) {
    let s = setup(backend, false).await;
    let (link, _) = signer_link(&s, &pdf_payload(&s, "ESIGN-DECOY")).await;
    let answer = through_the_esp(&s, &link).await;
    let (action, fields) = posted_fields(&answer);
    let genuine = fields["eSignResponse"].clone();
    let attacker = signet_sigcrypto::pki::self_signed_rsa("Example ESP", 2048).expect("key");
    let attacker =
        signet_sigcrypto::signer::LocalKeySigner::from_pkcs8(&attacker.key_pkcs8_der, &attacker.cert_der, vec![])
            .expect("signer");
    let esp_certificate = &s.esp.esp_certificate_der;
    let signed_elsewhere = |xml: String| xml.replacen("resCode=\"", "resCode=\"X", 1);
    let cancelled =
        |xml: String| {
            xml.replacen("status=\"1\"", "status=\"0\"", 1)
                .replacen("errCode=\"NA\"", "errCode=\"ESP-920\"", 1)
                .replacen("errMsg=\"NA\"", "errMsg=\"the signer cancelled\"", 1)
        };
    let forgeries = [
        resigned_with_decoy(&genuine, signed_elsewhere, &attacker, esp_certificate),
        resigned_with_decoy(&genuine, cancelled, &attacker, esp_certificate),
    ];
    for forged in forgeries {
        let mut posted = fields.clone();
        posted.insert("eSignResponse".into(), forged);
        let refused = s.app.client.post(&action).form(&posted).send().await.expect("post");
        assert_eq!(refused.status(), 400);
        let body = refused.text().await.expect("html");
        assert!(body.contains("could not be accepted"), "{body}");
    }

    // The genuine answer still completes the transaction.
    let (to, _) = posted_fields(&post(&s.app.client, &action, &fields).await);
    assert_eq!(to, "https://erp.example.test/signed");
    let txn = genuine.split("txn=\"").nth(1).and_then(|t| t.split('"').next()).expect("txn");
    let id = txn.split('-').next().expect("id");
    let row = s.app.store.esign_transaction(id).await.expect("read").expect("row");
    assert_eq!((row.state.as_str(), row.refused_answers), ("signed", 2), "{row:?}");
    assert_eq!(row.last_refusal.as_deref(), Some("esign_forged"));
}

async fn a_workflow_mixing_aadhaar_esign_and_electronic_signatures_keeps_every_signature_valid(backend: Backend) {
    use serde_json::{Value, json};
    let s = setup(backend, false).await;
    let tenant = s.app.tenant("Northwind Lending").await;
    let token = s.app.token(&tenant).await;
    let pdf = signet_testkit::pdf::reportlab_pdf(&[signet_testkit::pdf::Page::text("Home loan agreement")]);
    let upload = json!({"documentName": "Home loan.pdf", "fileData": base64_encode(&pdf)});
    let uploaded: Value = s.app.post("/api/v1/documents", &token, upload).await.json().await.expect("json");
    let people = [
        ("asha@borrower.test", "Asha Verma", "aadhaar_esign", 1),
        ("ravi@guarantor.test", "Ravi Kumar", "electronic", 2),
        ("meera@lender.test", "Meera Iyer", "3", 3),
    ];
    let signatories: Vec<Value> = people
        .iter()
        .map(|(email, name, mode, order)| {
            json!({"subscriberId": 0, "emailId": email, "name": name, "signingOrder": order, "modeOfSignature": mode})
        })
        .collect();
    let body = json!({"templateId": 0, "workflowName": "Home loan 77", "documentIds": [uploaded["documentId"]],
        "signatories": signatories});
    let response = s.app.post("/api/v1/workflows", &token, body).await;
    assert_eq!(response.status(), 201);
    let initiated: Value = response.json().await.expect("json");
    let url_of = |email: &str| -> String {
        let urls = initiated["signingUrls"].as_array().expect("signingUrls");
        let found = urls.iter().find(|u| u["emailId"] == email).and_then(|u| u["url"].as_str());
        found.expect("url").to_string()
    };

    // Asha signs with Aadhaar eSign; the electronic form is not offered to her, nor taken.
    let page = s.app.client.get(url_of("asha@borrower.test")).send().await.expect("page").text().await.expect("html");
    assert!(!page.contains("typedName"), "an Aadhaar signer gets no electronic form");
    let typed = s
        .app
        .client
        .post(format!("{}/sign", url_of("asha@borrower.test")))
        .form(&[("mode", "typed"), ("typedName", "Asha"), ("consent", "on")])
        .send()
        .await
        .expect("sign");
    assert_eq!(typed.status(), 400, "an electronic signature is refused for an Aadhaar signer");
    let answer = through_the_esp_as(&s, &url_of("asha@borrower.test"), "999941057058").await;
    let (action, fields) = posted_fields(&answer);
    let done = post(&s.app.client, &action, &fields).await;
    assert!(done.contains("Signed with Aadhaar eSign"), "{done}");

    // Ravi signs electronically, Meera with Aadhaar eSign.
    let typed = s
        .app
        .client
        .post(format!("{}/sign", url_of("ravi@guarantor.test")))
        .form(&[("mode", "typed"), ("typedName", "Ravi Kumar"), ("font", "plain"), ("consent", "on")])
        .send()
        .await
        .expect("sign");
    assert_eq!(typed.status(), 200);
    let answer = through_the_esp_as(&s, &url_of("meera@lender.test"), "999922223333").await;
    let (action, fields) = posted_fields(&answer);
    let done = post(&s.app.client, &action, &fields).await;
    assert!(done.contains("Everyone has signed"), "{done}");

    let workflow_id = initiated["workflowId"].as_i64().expect("workflowId");
    let download = s.app.post("/api/v1/documents/download", &token, json!({"workflowid": workflow_id})).await;
    assert_eq!(download.status(), 200);
    let signed = download.bytes().await.expect("pdf").to_vec();
    let report = pdfsig(&signed);
    assert_eq!(report.matches("Signature is Valid").count(), 3, "{report}");
    for name in ["Asha Verma", "Northwind Lending (sealed by Signet)", "Meera Iyer"] {
        assert!(report.contains(name), "{name} in {report}");
    }
    let platform_ca = cert_pem(&s.app.state.services.keys.ca.cert_der);
    pyhanko_validates(&signed, &[&platform_ca, &cert_pem(&s.esp.ca_certificate_der)]);
}

fn base64_encode(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

async fn aadhaar_signatories_need_a_configured_esp(backend: Backend) {
    use serde_json::{Value, json};
    let app = signet_testkit::server::spawn(backend).await;
    let tenant = app.tenant("Northwind Lending").await;
    let token = app.token(&tenant).await;
    let upload = json!({"documentName": "a.pdf", "fileData": base64_encode(&one_page("Agreement"))});
    let uploaded: Value = app.post("/api/v1/documents", &token, upload).await.json().await.expect("json");
    for (mode, message) in [("aadhaar_esign", "not configured"), ("fax", "must be")] {
        let body = json!({"templateId": 0, "workflowName": "W", "documentIds": [uploaded["documentId"]],
            "signatories": [{"subscriberId": 0, "emailId": "a@b.test", "signingOrder": 1, "modeOfSignature": mode}]});
        let problem = signet_testkit::problem::expect_problem(
            app.post("/api/v1/workflows", &token, body).await,
            400,
            "validation_failed",
        )
        .await;
        let text = problem["errors"]["signatories[0].modeOfSignature"].to_string();
        assert!(text.contains(message), "{mode}: {problem}");
    }
    let listed: Value = app.get("/api/v1/workflows", &token).await.json().await.expect("json");
    assert!(!listed.to_string().contains("\"W\""), "nothing was created: {listed}");
}

async fn an_esp_refusal_reaches_furl_with_its_code(backend: Backend) {
    let s = setup(backend, false).await;
    let (link, _) = signer_link(&s, &pdf_payload(&s, "ESIGN-OTP")).await;
    let client = &s.app.client;
    let to_esp =
        client.post(s.app.url(&format!("{link}/esign"))).send().await.expect("esign").text().await.expect("html");
    let (action, fields) = posted_fields(&to_esp);
    let aadhaar_page = post(client, &action, &fields).await;
    let (action, fields) = form(&aadhaar_page, "/2.1/form/otp", &[("aadhaar", AADHAAR)]);
    let mut page = post(client, &absolute(&s, &action), &fields).await;
    // Three wrong OTPs: the ESP gives up (ESP-914) and says so to Signet.
    for _ in 0..3 {
        let (action, fields) = form(&page, "/2.1/form/authenticate", &[("otp", "000000"), ("consent", "Y")]);
        page = post(client, &absolute(&s, &action), &fields).await;
    }
    let (action, fields) = back_to_signet(&s, &page).await;
    assert_eq!(action, "https://erp.example.test/failed", "{fields:?}");
    let message = &fields["ErrorMessage"];
    assert!(message.starts_with("107") && message.contains("ESP-914"), "{message}");
}

async fn the_server_to_server_flow_signs_too(backend: Backend) {
    let s = setup_with(backend, false, true).await;
    let (link, sealed) = signer_link(&s, &pdf_payload(&s, "ESIGN-3X")).await;
    let answer = through_the_esp(&s, &link).await;
    let (action, fields) = back_to_signet(&s, &answer).await;
    assert_eq!(action, "https://erp.example.test/signed", "{fields:?}");
    let signed = open_result(&sealed.session, Profile::Modern, &fields["Returnvalue"]).expect("Returnvalue");
    let report = pdfsig(&signed);
    assert!(report.contains("Signature is Valid") && report.contains("Asha Verma"), "{report}");
}

async fn co_signing_with_aadhaar_esign_keeps_the_earlier_signature_valid(backend: Backend) {
    let s = setup(backend, false).await;
    // First an electronic co-signature (the gateway's type 4), then Aadhaar eSign on its result.
    let first =
        pdf_payload(&s, "COSIGN-1").signature_types(&[SignatureType::ESignature]).font_signature(true).cosign(true);
    let (link, sealed) = signer_link(&s, &first).await;
    let typed = s
        .app
        .client
        .post(s.app.url(&format!("{link}/sign")))
        .form(&[("mode", "typed"), ("typedName", "Ravi Kumar"), ("font", "plain"), ("consent", "on")])
        .send()
        .await
        .expect("sign");
    let (_, fields) = posted_fields(&typed.text().await.expect("html"));
    let once = open_result(&sealed.session, Profile::Modern, &fields["Returnvalue"]).expect("Returnvalue");

    let second = PayloadBuilder::pdf(&once, "Asha Verma")
        .reference_number("COSIGN-2")
        .authtoken(&s.who.authtoken)
        .signature_types(&[SignatureType::ESign])
        .urls(&erp_urls())
        .pages(&PageSelection::First)
        .position(SignaturePosition::TopRight);
    let (link, sealed) = signer_link(&s, &second).await;
    let answer = through_the_esp(&s, &link).await;
    let (action, fields) = back_to_signet(&s, &answer).await;
    assert_eq!(action, "https://erp.example.test/signed", "{fields:?}");
    let twice = open_result(&sealed.session, Profile::Modern, &fields["Returnvalue"]).expect("Returnvalue");
    assert!(twice.starts_with(&once), "an incremental update");
    let report = pdfsig(&twice);
    assert_eq!(report.matches("Signature is Valid").count(), 2, "{report}");
    assert!(report.contains("Asha Verma") && report.contains("Acme Bank (sealed by Signet)"), "{report}");
}

/// An Aadhaar eSign signer asked for a code by SMS (`otpBySms`, issue 37, item 8): choosing
/// eSign before typing the code is refused on the page, in the signer's words, and nothing
/// goes to the ESP; after the code, the signature is made at the ESP as for anyone.
async fn an_aadhaar_signer_asked_for_a_code_goes_to_the_esp_only_after_typing_it(backend: Backend) {
    use serde_json::{Value, json};
    let sms = signet_testkit::sms::SmsDouble::start().await;
    let s = setup_adjusted(backend, false, false, |_| {}, |config| sms.configure(config)).await;
    let tenant = s.app.tenant("Northwind Lending").await;
    let token = s.app.token(&tenant).await;
    let pdf = signet_testkit::pdf::reportlab_pdf(&[signet_testkit::pdf::Page::text("Gold loan agreement")]);
    let upload = json!({"documentName": "Gold loan.pdf", "fileData": base64_encode(&pdf)});
    let uploaded: Value = s.app.post("/api/v1/documents", &token, upload).await.json().await.expect("json");
    let signatory = json!({"subscriberId": 0, "emailId": "asha@borrower.test", "name": "Asha Verma",
        "signingOrder": 1, "modeOfSignature": "aadhaar_esign", "mobileNo": "98765 43210", "otpBySms": true});
    let body = json!({"templateId": 0, "workflowName": "Gold loan 12", "documentIds": [uploaded["documentId"]],
        "signatories": [signatory]});
    let response = s.app.post("/api/v1/workflows", &token, body).await;
    assert_eq!(response.status(), 201);
    let initiated: Value = response.json().await.expect("json");
    let link = initiated["signingUrls"][0]["url"].as_str().expect("url").to_string();

    let refused = s.app.client.post(format!("{link}/esign")).send().await.expect("esign");
    let status = refused.status().as_u16();
    let page = unescape(&refused.text().await.expect("html"));
    assert!(page.contains("Please confirm your phone with the code we send by SMS before you sign"), "{page}");
    assert!(!page.contains(&s.esp.base_url), "nothing goes to the ESP before the code ({status}): {page}");

    let sent = s.app.client.post(format!("{link}/otp/send")).send().await.expect("send").text().await.expect("html");
    assert!(unescape(&sent).contains("We sent a code to your phone ••••3210"), "{sent}");
    let code = sms.last_code();
    let verify = s.app.client.post(format!("{link}/otp/verify")).form(&[("code", code.as_str())]).send().await;
    let verified = unescape(&verify.expect("verify").text().await.expect("html"));
    assert!(verified.contains("Your phone is confirmed"), "{verified}");

    let answer = through_the_esp_as(&s, &link, AADHAAR).await;
    let (action, fields) = posted_fields(&answer);
    let done = post(&s.app.client, &action, &fields).await;
    assert!(done.contains("Signed with Aadhaar eSign"), "{done}");
}

/// Issue 33, item 1: an Aadhaar eSign signature in a workflow (a 30-minute certificate from the
/// ESP's CA, which answers OCSP and publishes a CRL, as C-DAC's does) has its chain and
/// revocation data in the document within a minute of the signature, before anyone else
/// signs; pyHanko's AdES validation then passes with the ESP and the TSA stopped.
async fn an_aadhaar_signature_in_a_workflow_is_long_term_within_a_minute_from_an_ocsp_ca(backend: Backend) {
    aadhaar_signature_is_long_term_within_a_minute(backend, EspCa::Ocsp).await
}

/// The same from an ESP whose certificates name only its CRL (many Indian CAs publish no OCSP),
/// whose host is down when the signer's answer comes back: the signature is kept, the workflow
/// says the data is pending, and it is added once the host is back.
async fn an_aadhaar_signature_in_a_workflow_is_long_term_within_a_minute_from_a_crl_only_ca(backend: Backend) {
    aadhaar_signature_is_long_term_within_a_minute(backend, EspCa::CrlOnlyDownAtFirst).await
}

/// How the ESP's CA answers relying parties.
#[derive(Clone, Copy, PartialEq, Eq)]
enum EspCa {
    /// OCSP and a CRL, at the ESP, up all along.
    Ocsp,
    /// A CRL only, on a host of its own that is down until the signature is made.
    CrlOnlyDownAtFirst,
}

async fn aadhaar_signature_is_long_term_within_a_minute(backend: Backend, ca: EspCa) {
    use serde_json::{Value, json};
    let ca_host = std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port");
    let adjust_esp = |esp: &mut EspOptions| {
        if ca == EspCa::CrlOnlyDownAtFirst {
            esp.crl_only = true;
            esp.public_url = Some(format!("http://{ca_host}"));
        }
    };
    let workers = |config: &mut signet_server::Config| {
        config.workers = true;
        config.worker_poll_ms = 50;
        config.job_retry_base_ms = 100;
    };
    let s = setup_adjusted(backend, true, false, adjust_esp, workers).await;
    let token = s.app.token(&s.app.tenant("Northwind Lending").await).await;
    let pdf = one_page("Home loan agreement");
    let upload = json!({"documentName": "Home loan.pdf", "fileData": base64_encode(&pdf)});
    let uploaded: Value = s.app.post("/api/v1/documents", &token, upload).await.json().await.expect("json");
    let body = json!({"templateId": 0, "workflowName": "Home loan 78", "documentIds": [uploaded["documentId"]],
        "signatories": [
            {"subscriberId": 0, "emailId": "asha@borrower.test", "name": "Asha Verma", "signingOrder": 1, "modeOfSignature": "aadhaar_esign"},
            {"subscriberId": 0, "emailId": "ravi@guarantor.test", "name": "Ravi Kumar", "signingOrder": 2}]});
    let initiated: Value = s.app.post("/api/v1/workflows", &token, body).await.json().await.expect("json");
    let asha = initiated["signingUrls"][0]["url"].as_str().expect("url");
    let answer = through_the_esp_as(&s, asha, AADHAAR).await;
    let (action, fields) = posted_fields(&answer);
    let done = post(&s.app.client, &action, &fields).await;
    assert!(done.contains("Signed with Aadhaar eSign"), "the signature is kept, whatever its CA's host: {done}");

    let workflow_id = initiated["workflowId"].as_i64().expect("workflowId");
    if ca == EspCa::CrlOnlyDownAtFirst {
        let seen = within_a_minute(&s.app, &token, workflow_id, "document.long_term_pending", 1).await;
        assert!(!seen.iter().any(|a| a == "document.long_term"), "nothing added without the CRL: {seen:?}");
        forward_to(ca_host, s.esp.base_url.clone()).await;
    }
    let seen = within_a_minute(&s.app, &token, workflow_id, "document.long_term", 1).await;
    let has = |action: &str| seen.iter().any(|a| a == action);
    let pending_said = ca == EspCa::CrlOnlyDownAtFirst;
    assert!(has("document.long_term") && has("document.long_term_pending") == pending_said, "{seen:?}");
    let download = s.app.post("/api/v1/documents/download", &token, json!({"workflowid": workflow_id})).await;
    let signed = download.bytes().await.expect("pdf").to_vec();
    let signer = pdf_signers(&signed).remove(0);
    let names_ocsp = signet_sigcrypto::revocation::ocsp_url(&signer).is_some();
    assert_eq!(names_ocsp, ca == EspCa::Ocsp, "the ESP's certificate names an OCSP responder unless CRL-only");
    assert!(dss_vouches_for(&signed, &signer, &s.esp.ca_certificate_der), "the ESP CA's answer is in the DSS");

    let tsa_root = s._tsa.as_ref().map(|t| t.root_pem.as_bytes().to_vec()).expect("a TSA");
    let esign_root = cert_pem(&s.esp.ca_certificate_der);
    let Setup { esp, _tsa: tsa, .. } = s;
    drop((esp, tsa));
    adesverify_long_term(&signed, &[&esign_root, &tsa_root]);
}

/// The CA's host comes up at `address`: what is asked of it (the CRL, the CA certificate) is
/// fetched from the ESP at `esp`.
async fn forward_to(address: std::net::SocketAddr, esp: String) {
    use axum::http::{StatusCode, Uri, header};
    let forward = move |uri: Uri| {
        let esp = esp.clone();
        async move {
            let Ok(answer) = reqwest::get(format!("{esp}{uri}")).await else {
                return (StatusCode::BAD_GATEWAY, [(header::CONTENT_TYPE, String::new())], Vec::new());
            };
            let status = StatusCode::from_u16(answer.status().as_u16()).unwrap_or(StatusCode::BAD_GATEWAY);
            let kind = answer.headers().get(header::CONTENT_TYPE.as_str()).and_then(|v| v.to_str().ok());
            let kind = kind.unwrap_or_default().to_string();
            (status, [(header::CONTENT_TYPE, kind)], answer.bytes().await.map(|b| b.to_vec()).unwrap_or_default())
        }
    };
    let listener = tokio::net::TcpListener::bind(address).await.expect("the CA's host address");
    tokio::spawn(async move { axum::serve(listener, axum::Router::new().fallback(forward)).await });
}

/// An ESP that signs its answers as C-DAC's staging does: inclusive C14N 1.0 named only in
/// SignedInfo, the enveloped transform alone, RSA-SHA1 over a SHA-1 digest, no KeyInfo. The
/// gateway pins this ESP's certificate; the answers are the test ESP's, re-signed by xmlsec1
/// (another implementation) with the C-DAC ESP's key from a template.
struct CdacEsp {
    s: Setup,
    keys: tempfile::TempDir,
}

async fn cdac_esp(backend: Backend) -> CdacEsp {
    cdac_esp_with(backend, "cdac").await
}

/// As [`cdac_esp`], the gateway configured with `profile`; SHA-1 answers allowed explicitly
/// (the answers are re-signed C-DAC style whatever the profile).
async fn cdac_esp_with(backend: Backend, profile: &'static str) -> CdacEsp {
    let keys = tempfile::tempdir().expect("tempdir");
    let cdac = signet_sigcrypto::pki::self_signed_rsa("C-DAC eSign response signing (test)", 2048).expect("key");
    std::fs::write(keys.path().join("cdac.key"), signet_sigcrypto::pki::key_der_to_pem(&cdac.key_pkcs8_der))
        .expect("write");
    let pinned = keys.path().join("cdac.cer");
    std::fs::write(&pinned, &cdac.cert_der).expect("write");
    let s = setup_adjusted(
        backend,
        false,
        false,
        |_| {},
        move |config| {
            config.esign_esp_certificate = Some(pinned);
            config.esign_esp_profile = profile.into();
            config.esign_esp_allow_sha1 = Some(true);
        },
    )
    .await;
    CdacEsp { s, keys }
}

impl CdacEsp {
    /// The test ESP's `answer` without its signature, changed by `change`, signed C-DAC style.
    fn resigned(&self, answer: &str, change: &dyn Fn(String) -> String) -> String {
        let start = answer.find("<ds:Signature").expect("the ESP's signature");
        let end = answer.find("</ds:Signature>").expect("its end") + "</ds:Signature>".len();
        let unsigned = change(format!("{}{}", &answer[..start], &answer[end..]));
        let template = "<Signature xmlns=\"http://www.w3.org/2000/09/xmldsig#\"><SignedInfo>\
<CanonicalizationMethod Algorithm=\"http://www.w3.org/TR/2001/REC-xml-c14n-20010315\"/>\
<SignatureMethod Algorithm=\"http://www.w3.org/2000/09/xmldsig#rsa-sha1\"/><Reference URI=\"\"><Transforms>\
<Transform Algorithm=\"http://www.w3.org/2000/09/xmldsig#enveloped-signature\"/></Transforms>\
<DigestMethod Algorithm=\"http://www.w3.org/2000/09/xmldsig#sha1\"/><DigestValue/></Reference></SignedInfo>\
<SignatureValue/></Signature></EsignResp>";
        let unsigned = unsigned.replacen("</EsignResp>", template, 1);
        let (input, output) = (self.keys.path().join("answer.xml"), self.keys.path().join("signed.xml"));
        std::fs::write(&input, unsigned).expect("write");
        let out = std::process::Command::new("xmlsec1")
            .args(["--sign", "--privkey-pem"])
            .arg(self.keys.path().join("cdac.key"))
            .arg("--output")
            .arg(&output)
            .arg(&input)
            .output()
            .expect("xmlsec1");
        assert!(out.status.success(), "xmlsec1 --sign: {}", String::from_utf8_lossy(&out.stderr));
        let signed = std::fs::read_to_string(&output).expect("signed");
        assert!(signed.contains("rsa-sha1") && !signed.contains("KeyInfo"), "{signed}");
        signed
    }

    /// The answer's fields with the answer re-signed C-DAC style after `change`.
    fn fields(&self, fields: &HashMap<String, String>, change: &dyn Fn(String) -> String) -> HashMap<String, String> {
        let mut out = fields.clone();
        out.insert("eSignResponse".into(), self.resigned(&fields["eSignResponse"], change));
        out
    }
}

/// A refusal as a real ESP words it: no signature, `status="0"`, its code and message.
fn refused_by_esp(xml: String, code: &str, message: &str) -> String {
    let without = |xml: String, open: &str, close: &str| match (xml.find(open), xml.find(close)) {
        (Some(a), Some(b)) => format!("{}{}", &xml[..a], &xml[b + close.len()..]),
        _ => xml,
    };
    let xml = without(xml, "<Signatures>", "</Signatures>");
    let xml = without(xml, "<UserX509Certificate>", "</UserX509Certificate>");
    xml.replacen("status=\"1\"", "status=\"0\"", 1)
        .replacen("errCode=\"NA\"", &format!("errCode=\"{code}\""), 1)
        .replacen("errMsg=\"NA\"", &format!("errMsg=\"{message}\""), 1)
}

/// Through the gateway: a signed answer completes the PDF (labelled `adbe.pkcs7.detached`, the
/// ESP's CMS carrying signingTime); a cancel with C-DAC's own code (ESP-944, "User terminated
/// eKYC process") reaches CUrl as 106, a page expiry (ESP-946) FUrl as 107 with its code.
async fn cdac_style_answers_are_taken_and_a_cdac_cancel_reaches_curl_with_106(backend: Backend) {
    let cdac = cdac_esp(backend).await;
    let s = &cdac.s;

    // The test ESP's own answer is signed with a key the gateway does not pin: refused.
    let (link, sealed) = signer_link(s, &pdf_payload(s, "ESIGN-CDAC-1")).await;
    let answer = through_the_esp(s, &link).await;
    let (action, fields) = posted_fields(&answer);
    let refused = s.app.client.post(&action).form(&fields).send().await.expect("post");
    assert_eq!(refused.status(), 400);
    // Re-signed C-DAC style with the pinned key: taken, the PDF signed.
    let (to, result) = posted_fields(&post(&s.app.client, &action, &cdac.fields(&fields, &|xml| xml)).await);
    assert_eq!(to, "https://erp.example.test/signed", "{result:?}");
    let signed = open_result(&sealed.session, Profile::Modern, &result["Returnvalue"]).expect("Returnvalue");
    let report = pdfsig(&signed);
    assert!(report.contains("Signature is Valid") && report.contains("Asha Verma"), "{report}");
    assert!(report.contains("adbe.pkcs7.detached"), "the ESP's CMS has signingTime: {report}");
    pyhanko_validates(&signed, &[&cert_pem(&s.esp.ca_certificate_der)]);

    // The signer cancels at the ESP: C-DAC's code, C-DAC's signature style, 106 at CUrl.
    let (link, _) = signer_link(s, &pdf_payload(s, "ESIGN-CDAC-2")).await;
    let (action, fields) = posted_fields(&through_the_esp(s, &link).await);
    let cancel = |xml: String| refused_by_esp(xml, "ESP-944", "User terminated eKYC process");
    let (to, result) = posted_fields(&post(&s.app.client, &action, &cdac.fields(&fields, &cancel)).await);
    assert_eq!(to, "https://erp.example.test/cancelled", "{result:?}");
    assert!(result["ErrorMessage"].starts_with("106"), "{result:?}");

    // The ESP's page expired: a failure, not a cancel.
    let (link, _) = signer_link(s, &pdf_payload(s, "ESIGN-CDAC-3")).await;
    let (action, fields) = posted_fields(&through_the_esp(s, &link).await);
    let expired = |xml: String| refused_by_esp(xml, "ESP-946", "User interface page expired");
    let (to, result) = posted_fields(&post(&s.app.client, &action, &cdac.fields(&fields, &expired)).await);
    assert_eq!(to, "https://erp.example.test/failed", "{result:?}");
    let message = &result["ErrorMessage"];
    assert!(message.starts_with("107") && message.contains("ESP-946"), "{message}");
}

/// In a workflow: the signer's cancel at a real ESP (ESP-945, after the OTP was sent) leaves
/// them free to sign again, and their next answer, C-DAC style, signs the document.
async fn a_workflow_signer_cancelling_at_a_real_esp_may_sign_again(backend: Backend) {
    use serde_json::{Value, json};
    let cdac = cdac_esp(backend).await;
    let s = &cdac.s;
    let tenant = s.app.tenant("Northwind Lending").await;
    let token = s.app.token(&tenant).await;
    let pdf = signet_testkit::pdf::reportlab_pdf(&[signet_testkit::pdf::Page::text("Home loan agreement")]);
    let upload = json!({"documentName": "Home loan.pdf", "fileData": base64_encode(&pdf)});
    let uploaded: Value = s.app.post("/api/v1/documents", &token, upload).await.json().await.expect("json");
    let signatory = json!({"subscriberId": 0, "emailId": "asha@borrower.test", "name": "Asha Verma",
        "signingOrder": 1, "modeOfSignature": "aadhaar_esign"});
    let body = json!({"templateId": 0, "workflowName": "Home loan 78", "documentIds": [uploaded["documentId"]],
        "signatories": [signatory]});
    let response = s.app.post("/api/v1/workflows", &token, body).await;
    assert_eq!(response.status(), 201);
    let initiated: Value = response.json().await.expect("json");
    let url = initiated["signingUrls"][0]["url"].as_str().expect("url").to_string();

    let (action, fields) = posted_fields(&through_the_esp_as(s, &url, AADHAAR).await);
    let cancel = |xml: String| refused_by_esp(xml, "ESP-945", "User terminated eKYC process after OTP Generation");
    let page = post(&s.app.client, &action, &cdac.fields(&fields, &cancel)).await;
    assert!(page.contains("You cancelled at the eSign service"), "{page}");

    let (action, fields) = posted_fields(&through_the_esp_as(s, &url, AADHAAR).await);
    let done = post(&s.app.client, &action, &cdac.fields(&fields, &|xml| xml)).await;
    assert!(done.contains("Everyone has signed"), "{done}");
}

/// The transaction's status as the integrator queries it.
async fn status_of(s: &Setup, number: &str, reference: &str) -> serde_json::Value {
    let url = s.app.url(&format!(
        "/api/TransactionStatusRequest?Authtoken={}&Transactionnumber={number}&Referencenumber={reference}",
        s.who.authtoken
    ));
    s.app.client.get(url).send().await.expect("status").json().await.expect("json")
}

/// The gateway transaction number of a signer link (`/sign/g/<number>/<secret>`).
fn number_of(link: &str) -> String {
    link.trim_start_matches("/sign/g/").split('/').next().expect("number").to_string()
}

/// The answer's `txn` (`<id>-<secret>`).
fn txn_of(fields: &HashMap<String, String>) -> String {
    let answer = &fields["eSignResponse"];
    answer.split("txn=\"").nth(1).and_then(|t| t.split('"').next()).expect("txn").to_string()
}

/// Issue 39 item 4: an answer that carries the transaction's secret but is refused (altered
/// after the ESP signed it) shows the signer why, with "try again" (the same document to the
/// ESP in a new request) and "give up"; giving up ends the transaction at FUrl with 107 naming `esign_forged`, and the
/// status query says the same. An answer without the secret changes nothing, and neither do
/// a retry or a give-up without it.
async fn a_refused_answer_then_giving_up_reaches_furl_and_the_status_says_why(backend: Backend) {
    let s = setup(backend, false).await;
    let (link, _) = signer_link(&s, &pdf_payload(&s, "ESIGN-GIVE-UP")).await;
    let number = number_of(&link);
    let answer = through_the_esp(&s, &link).await;
    let (action, fields) = posted_fields(&answer);
    let txn = txn_of(&fields);
    let id = txn.split('-').next().expect("id").to_string();

    // Another secret in the txn: unknown, nothing recorded, nothing offered.
    let mut foreign = fields.clone();
    let secret = txn.split('-').nth(1).expect("secret");
    let other_secret: String = secret.chars().map(|c| if c == '0' { '1' } else { '0' }).collect();
    let other_txn = format!("{id}-{other_secret}");
    *foreign.get_mut("eSignResponse").expect("answer") = fields["eSignResponse"].replace(&txn, &other_txn);
    let unknown = s.app.client.post(&action).form(&foreign).send().await.expect("post");
    assert_eq!(unknown.status(), 400);
    let body = unknown.text().await.expect("html");
    assert!(body.contains("does not belong") && !body.contains("esign-give-up"), "{body}");
    for path in ["/esign/give-up", "/esign/retry"] {
        let response = s.app.client.post(s.app.url(path)).form(&[("txn", other_txn.as_str())]).send().await;
        assert_eq!(response.expect("post").status(), 400, "{path}");
    }
    let row = s.app.store.esign_transaction(&id).await.expect("read").expect("row");
    assert_eq!((row.state.as_str(), row.refused_answers), ("sent", 0), "{row:?}");
    assert_eq!(status_of(&s, &number, "ESIGN-GIVE-UP").await["Value"]["Status"], "Initiated");

    // Altered after signing, the secret intact: refused, and the signer is offered both ways.
    let mut forged = fields.clone();
    let response = forged.get_mut("eSignResponse").expect("eSignResponse");
    *response = response.replacen("resCode=\"", "resCode=\"X", 1);
    let refused = s.app.client.post(&action).form(&forged).send().await.expect("post");
    assert_eq!(refused.status(), 400);
    let page = refused.text().await.expect("html");
    assert!(page.contains("esign_forged") && page.contains("not signed by the eSign service"), "{page}");
    let (retry, retry_fields) = form(&page, "/esign/retry", &[]);
    assert_eq!(retry_fields["txn"], txn);
    // Try again: the same document to the ESP in a new request (a new txn); the signer link is
    // not revealed to whoever holds the txn. The first request is closed: its genuine answer
    // no longer counts.
    let to_esp = post(&s.app.client, &s.app.url(&retry), &retry_fields).await;
    let (esp_action, esp_fields) = posted_fields(&to_esp);
    assert!(esp_action.ends_with("/2.1/form/signdoc") && !to_esp.contains(&link), "{to_esp}");
    assert!(esp_fields["eSignRequest"].starts_with("<Esign ") && esp_fields["aspTxnID"] != txn, "{esp_fields:?}");
    let first = s.app.store.esign_transaction(&id).await.expect("read").expect("row");
    assert_eq!((first.state.as_str(), first.outcome.as_deref()), ("failed", Some("esign_forged")), "{first:?}");
    assert_eq!(s.app.client.post(&action).form(&fields).send().await.expect("post").status(), 400);
    let again = s.app.client.post(s.app.url(&retry)).form(&retry_fields).send().await.expect("retry");
    assert_eq!(again.status(), 400, "a request is retried once");

    // At the ESP again; this answer too is altered after signing, and refused.
    let client = &s.app.client;
    let aadhaar_page = post(client, &esp_action, &esp_fields).await;
    let (next, next_fields) = form(&aadhaar_page, "/2.1/form/otp", &[("aadhaar", AADHAAR)]);
    let otp_page = post(client, &absolute(&s, &next), &next_fields).await;
    let (next, next_fields) = form(&otp_page, "/2.1/form/authenticate", &[("otp", OTP), ("consent", "Y")]);
    let (action, fields) = posted_fields(&post(client, &absolute(&s, &next), &next_fields).await);
    let txn = txn_of(&fields);
    let id = txn.split('-').next().expect("id").to_string();
    let mut forged = fields.clone();
    let response = forged.get_mut("eSignResponse").expect("eSignResponse");
    *response = response.replacen("resCode=\"", "resCode=\"X", 1);
    let page = client.post(&action).form(&forged).send().await.expect("post").text().await.expect("html");
    assert!(page.contains("esign_forged"), "{page}");

    // Give up: 107 at FUrl naming the refusal, and the status query says why.
    let (give_up, give_up_fields) = form(&page, "/esign/give-up", &[]);
    let (to, result) = posted_fields(&post(&s.app.client, &s.app.url(&give_up), &give_up_fields).await);
    assert_eq!(to, "https://erp.example.test/failed", "{result:?}");
    let message = &result["ErrorMessage"];
    assert!(message.starts_with("107") && message.contains("esign_forged"), "{message}");
    let status = status_of(&s, &number, "ESIGN-GIVE-UP").await;
    assert_eq!(status["Value"]["Status"], "Failed", "{status}");
    assert_eq!(status["Value"]["ErrorMessage"].as_str(), Some(message.as_str()), "{status}");
    let row = s.app.store.esign_transaction(&id).await.expect("read").expect("row");
    assert_eq!((row.state.as_str(), row.outcome.as_deref()), ("failed", Some("esign_forged")), "{row:?}");

    // The genuine answer now finds the request ended; giving up twice changes nothing.
    let late = s.app.client.post(&action).form(&fields).send().await.expect("post");
    assert_eq!(late.status(), 400);
    let twice = s.app.client.post(s.app.url(&give_up)).form(&give_up_fields).send().await.expect("post");
    assert_eq!(twice.status(), 400);
    assert_eq!(status_of(&s, &number, "ESIGN-GIVE-UP").await["Value"]["ErrorMessage"].as_str(), Some(message.as_str()));
}

/// Issue 39 item 4: a signer whose answer was refused and who never comes back: when the
/// transaction's time runs out, it expires with the refusal's code, which the status query
/// shows; a transaction without a refused answer expires as before.
async fn an_expired_transaction_after_a_refused_answer_says_why(backend: Backend) {
    let s = setup(backend, false).await;
    let (link, _) = signer_link(&s, &pdf_payload(&s, "ESIGN-TTL-1")).await;
    let (quiet, _) = signer_link(&s, &pdf_payload(&s, "ESIGN-TTL-2")).await;
    let answer = through_the_esp(&s, &link).await;
    let (action, mut fields) = posted_fields(&answer);
    let response = fields.get_mut("eSignResponse").expect("eSignResponse");
    *response = response.replacen("resCode=\"", "resCode=\"X", 1);
    assert_eq!(s.app.client.post(&action).form(&fields).send().await.expect("post").status(), 400);

    s.app.store.execute_for_tests("UPDATE gateway_transactions SET expires_at = 1").await.expect("age");
    signet_server::workers::gateway_housekeeping(&s.app.store, &s.app.state.services.blob).await.expect("housekeeping");
    let status = status_of(&s, &number_of(&link), "ESIGN-TTL-1").await;
    assert_eq!(status["Value"]["Status"], "Expired", "{status}");
    let message = status["Value"]["ErrorMessage"].as_str().expect("message");
    assert!(message.starts_with("Transaction expired") && message.contains("esign_forged"), "{message}");
    let status = status_of(&s, &number_of(&quiet), "ESIGN-TTL-2").await;
    assert_eq!(status["Value"]["ErrorMessage"], "Transaction expired", "{status}");
    // The signer who comes back is sent to FUrl with that failure (the integrator could learn
    // it no other way), each time they come back.
    for _ in 0..2 {
        let page = s.app.client.get(s.app.url(&link)).send().await.expect("page").text().await.expect("html");
        let (to, result) = posted_fields(&page);
        assert_eq!(to, "https://erp.example.test/failed", "{page}");
        assert_eq!(result["ErrorMessage"], format!("107: Invalid parameters - {message}"), "{result:?}");
        assert_eq!(result["Referencenumber"], "ESIGN-TTL-1", "{result:?}");
    }
    // One past its time that housekeeping has not reached yet is expired as its signer comes.
    let (late, _) = signer_link(&s, &pdf_payload(&s, "ESIGN-TTL-3")).await;
    s.app
        .store
        .execute_for_tests("UPDATE gateway_transactions SET expires_at = 1 WHERE reference_number = 'ESIGN-TTL-3'")
        .await
        .expect("age");
    let page = s.app.client.post(s.app.url(&format!("{late}/sign"))).send().await.expect("sign");
    let (to, result) = posted_fields(&page.text().await.expect("html"));
    assert_eq!(to, "https://erp.example.test/failed");
    assert_eq!(result["ErrorMessage"], "107: Invalid parameters - Transaction expired", "{result:?}");
    let status = status_of(&s, &number_of(&late), "ESIGN-TTL-3").await;
    assert_eq!(status["Value"]["Status"], "Expired", "{status}");
    // A wrong secret learns nothing.
    let wrong = format!("/sign/g/{}/not-the-secret", number_of(&link));
    let wrong = s.app.client.get(s.app.url(&wrong)).send().await.expect("page");
    assert_eq!(wrong.status(), 404);
}

/// Issue 39 item 2: with a profile offering several `AuthMode`s (C-DAC's: OTP, fingerprint,
/// iris), the signer page offers the choice and the request carries the one chosen; a mode the
/// profile does not offer is refused before anything is sent; an explicit `esign_auth_modes`
/// wins over the profile.
async fn the_signers_auth_mode_choice_reaches_the_esp_request(backend: Backend) {
    let s = setup_adjusted(backend, false, false, |_| {}, |config| config.esign_esp_profile = "cdac".into()).await;
    let (link, _) = signer_link(&s, &pdf_payload(&s, "ESIGN-MODE-1")).await;
    let page = s.app.client.get(s.app.url(&link)).send().await.expect("page").text().await.expect("html");
    for mode in ["otp", "fingerprint", "iris"] {
        assert!(page.contains(&format!("name=\"authMode\" value=\"{mode}\"")), "{mode}: {page}");
    }
    assert!(!page.contains("value=\"face\""), "{page}");
    let start = |mode: &'static str| {
        let url = s.app.url(&format!("{link}/esign"));
        let client = s.app.client.clone();
        async move { client.post(url).form(&[("authMode", mode)]).send().await.expect("esign").text().await.expect("html") }
    };
    for (mode, code) in [("fingerprint", "2"), ("iris", "3"), ("otp", "1")] {
        let to_esp = start(mode).await;
        let (_, fields) = posted_fields(&to_esp);
        assert!(fields["eSignRequest"].contains(&format!("AuthMode=\"{code}\"")), "{mode}: {to_esp}");
    }
    let refused = start("face").await;
    assert!(refused.contains("could not be accepted") && !refused.contains("eSignRequest"), "{refused}");

    // The default profile offers OTP alone: no choice shown, OTP sent; an explicit list wins.
    let s = setup_adjusted(backend, false, false, |_| {}, |config| config.esign_auth_modes = Some("iris".into())).await;
    let (link, _) = signer_link(&s, &pdf_payload(&s, "ESIGN-MODE-2")).await;
    let page = s.app.client.get(s.app.url(&link)).send().await.expect("page").text().await.expect("html");
    assert!(!page.contains("name=\"authMode\""), "{page}");
    let to_esp = s.app.client.post(s.app.url(&format!("{link}/esign"))).send().await.expect("esign");
    let (_, fields) = posted_fields(&to_esp.text().await.expect("html"));
    assert!(fields["eSignRequest"].contains("AuthMode=\"3\""), "{fields:?}");
}

/// Issue 39 item 2: under each named provider's profile, that provider's cancel codes reach
/// CUrl as 106, and its authentication failure FUrl as 107 with its code.
async fn each_named_profiles_cancel_reaches_curl_with_106(backend: Backend) {
    for profile in ["emudhra", "protean"] {
        let cdac = cdac_esp_with(backend, profile).await;
        let s = &cdac.s;
        for (n, code) in ["ESP-944", "ESP-945"].into_iter().enumerate() {
            let reference = format!("CANCEL-{}-{n}", &profile[..3]);
            let (link, _) = signer_link(s, &pdf_payload(s, &reference)).await;
            let (action, fields) = posted_fields(&through_the_esp(s, &link).await);
            let cancel = |xml: String| refused_by_esp(xml, code, "User terminated eKYC process");
            let (to, result) = posted_fields(&post(&s.app.client, &action, &cdac.fields(&fields, &cancel)).await);
            assert_eq!(to, "https://erp.example.test/cancelled", "{profile} {code}: {result:?}");
            assert!(result["ErrorMessage"].starts_with("106"), "{profile} {code}: {result:?}");
        }
        let (link, _) = signer_link(s, &pdf_payload(s, &format!("OTP-{}", &profile[..3]))).await;
        let (action, fields) = posted_fields(&through_the_esp(s, &link).await);
        let otp = |xml: String| refused_by_esp(xml, "ESP-415", "Invalid OTP retry attempts exhausted");
        let (to, result) = posted_fields(&post(&s.app.client, &action, &cdac.fields(&fields, &otp)).await);
        assert_eq!(to, "https://erp.example.test/failed", "{profile}: {result:?}");
        assert!(result["ErrorMessage"].starts_with("107") && result["ErrorMessage"].contains("ESP-415"), "{result:?}");
    }
}

/// Workflows (issue 39 items 2 and 4): under C-DAC's profile the Aadhaar signatory's page
/// offers the `AuthMode`s and the request carries the one chosen; an answer refused though it
/// carries the secret tells the signer why in words (no give-up: the workflow is the sender's),
/// and leaves them free to sign again from their link.
async fn a_workflow_signer_chooses_the_auth_mode_and_learns_why_an_answer_was_refused(backend: Backend) {
    use serde_json::{Value, json};
    let s = setup_adjusted(backend, false, false, |_| {}, |config| config.esign_esp_profile = "cdac".into()).await;
    let tenant = s.app.tenant("Northwind Lending").await;
    let token = s.app.token(&tenant).await;
    let pdf = signet_testkit::pdf::reportlab_pdf(&[signet_testkit::pdf::Page::text("Car loan agreement")]);
    let upload = json!({"documentName": "Car loan.pdf", "fileData": base64_encode(&pdf)});
    let uploaded: Value = s.app.post("/api/v1/documents", &token, upload).await.json().await.expect("json");
    let signatory = json!({"subscriberId": 0, "emailId": "asha@borrower.test", "name": "Asha Verma",
        "signingOrder": 1, "modeOfSignature": "aadhaar_esign"});
    let body = json!({"templateId": 0, "workflowName": "Car loan 12", "documentIds": [uploaded["documentId"]],
        "signatories": [signatory]});
    let response = s.app.post("/api/v1/workflows", &token, body).await;
    assert_eq!(response.status(), 201);
    let initiated: Value = response.json().await.expect("json");
    let url = initiated["signingUrls"][0]["url"].as_str().expect("url").to_string();

    let page = s.app.client.get(&url).send().await.expect("page").text().await.expect("html");
    assert!(page.contains("name=\"authMode\" value=\"iris\""), "{page}");
    let to_esp = s.app.client.post(format!("{url}/esign")).form(&[("authMode", "iris")]).send().await.expect("esign");
    let (_, fields) = posted_fields(&to_esp.text().await.expect("html"));
    assert!(fields["eSignRequest"].contains("AuthMode=\"3\""), "{fields:?}");

    // OTP (the default) through the test ESP, the answer altered after signing: refused, why.
    let (action, mut fields) = posted_fields(&through_the_esp_as(&s, &url, AADHAAR).await);
    let response = fields.get_mut("eSignResponse").expect("eSignResponse");
    *response = response.replacen("resCode=\"", "resCode=\"X", 1);
    let refused = s.app.client.post(&action).form(&fields).send().await.expect("post");
    assert_eq!(refused.status(), 400);
    let said = refused.text().await.expect("html");
    assert!(said.contains("esign_forged") && said.contains("not signed by the eSign service"), "{said}");
    assert!(!said.contains("esign-give-up"), "{said}");
    // Their link still offers Aadhaar eSign.
    let again = s.app.client.get(&url).send().await.expect("page").text().await.expect("html");
    assert!(again.contains("Sign with Aadhaar eSign"), "{again}");
}
