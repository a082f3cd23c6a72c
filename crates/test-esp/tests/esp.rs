//! The test ESP over real HTTP, driven by an ASP built on `signet_esign` and a "browser" that
//! reads the pages' forms: the signing flow end to end, every failure the signer or the ASP
//! can cause, hostile posts, and the revocation endpoints checked with openssl.

mod common;
use common::*;

use std::process::Command;

use signet_esign::asp::Outcome;
use signet_esign::esp::codes;
use signet_sigcrypto::pki;
use signet_sigcrypto::revocation::{self, RevocationStatus};

#[tokio::test]
async fn a_signer_signs_and_the_asp_accepts_the_answer() {
    let esp = start(|_| {}).await;
    // Registered while the ESP runs: the registry is read on each request.
    let asp = Asp::new("SIGNET-ASP");
    asp.register(esp.dir.path());
    let browser = Browser::new(&esp.running);
    let digests = digests(2);
    let mut request = asp.request("TXN-HAPPY-1", &digests);
    request.hashes[0].doc_info = "Loan <agreement> & \"terms\"".into();

    let aadhaar = browser.send_request(&asp.sign(&request), "TXN-HAPPY-1").await;
    assert_eq!(aadhaar.status, 200, "{}", aadhaar.html);
    assert!(aadhaar.html.contains("SIGNET-ASP"));
    assert!(!aadhaar.html.contains("<agreement>"), "docInfo is escaped");
    assert!(unescape(&aadhaar.html).contains("Loan <agreement> & \"terms\""), "{}", aadhaar.html);
    assert!(aadhaar.html.contains("Loan agreement part 2"));
    assert!(aadhaar.csp.contains("form-action 'self'"), "{}", aadhaar.csp);
    let form = aadhaar.form("/2.1/form/otp");
    assert_eq!(form.input("aadhaar").map(|(kind, _)| kind), Some("text"));
    assert_eq!(form.buttons, ["Send OTP"]);
    let esp_txn = form.field("espTxn").expect("espTxn").to_string();
    let cancel = aadhaar.form("/2.1/form/cancel");
    assert_eq!(cancel.field("espTxn"), Some(esp_txn.as_str()));
    assert_eq!(cancel.buttons, ["Cancel"]);

    // The VID works as well as the Aadhaar number.
    let otp = browser.submit(&form, &[("aadhaar", ASHA_VID)]).await;
    assert!(otp.html.contains("******3210"), "masked mobile:\n{}", otp.html);
    let sign = otp.form("/2.1/form/authenticate");
    assert_eq!(sign.input("consent"), Some(("checkbox", "Y")));
    assert_eq!(sign.input("otp").map(|(kind, _)| kind), Some("text"));
    assert_eq!(sign.buttons, ["Sign"]);
    assert!(otp.has_form("/2.1/form/cancel"));

    let answer = browser.submit(&sign, &[("otp", FIXED_OTP), ("consent", "Y")]).await;
    assert_eq!(answer.status, 200, "{}", answer.html);
    let to_asp = answer.form(RESPONSE_URL);
    assert_eq!(to_asp.buttons, ["Continue"], "works without JavaScript");
    assert!(answer.html.contains("<script src=\"/static/autosubmit.js\"></script>"));
    assert!(answer.csp.contains("form-action https://asp.example.test"), "{}", answer.csp);
    let (xml, esp_txn_id) = answer.answer();
    assert_eq!(esp_txn_id, esp_txn);
    let Outcome::Signed(signed) = check(&esp.running, &xml, "TXN-HAPPY-1", &digests) else {
        panic!("a signature was expected");
    };
    assert_eq!(signed.signer_name.as_deref(), Some("Asha Verma"));
    assert_eq!(signed.signatures.len(), 2);
    assert_eq!(signed.res_code, esp_txn);
    check_signer_certificate(&esp, &signed.signer_certificate).await;

    // The transaction is over: the same page posted again finds nothing.
    let again = browser.submit(&sign, &[("otp", FIXED_OTP), ("consent", "Y")]).await;
    assert_eq!(again.status, 404);
    assert!(!again.has_form(RESPONSE_URL));

    let script = browser.get("/static/autosubmit.js").await.text().await.expect("script");
    assert!(script.contains("getElementById(\"esp-answer\").submit()"));
    assert!(answer.html.contains("id=\"esp-answer\""));
}

/// The signer certificate: 30 minutes, CN and C=IN, the ESP's CRL/OCSP/caIssuers URLs, and
/// the ESP's OCSP responder vouches for it (checked by sigcrypto and openssl).
async fn check_signer_certificate(esp: &Esp, cert_der: &[u8]) {
    let base = &esp.running.base_url;
    let cert = pki::parse_cert(cert_der).expect("certificate");
    let validity = &cert.tbs_certificate.validity;
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).expect("clock").as_secs();
    let not_after = validity.not_after.to_unix_duration().as_secs();
    assert!(not_after > now + 29 * 60 && not_after <= now + 30 * 60 + 5, "a 30-minute certificate");
    assert_eq!(revocation::ocsp_url(cert_der), Some(format!("{base}/ocsp")));
    assert_eq!(revocation::crl_urls(cert_der), vec![format!("{base}/crl")]);
    assert_eq!(revocation::ca_issuers_urls(cert_der), vec![format!("{base}/ca.cer")]);

    let dir = tempfile::tempdir().expect("tempdir");
    let write = |name: &str, bytes: &[u8]| std::fs::write(dir.path().join(name), bytes).expect("write");
    let ca = reqwest::get(format!("{base}/ca.cer")).await.expect("ca").bytes().await.expect("ca");
    assert_eq!(&ca[..], &esp.running.ca_certificate_der[..]);
    let esp_cer = reqwest::get(format!("{base}/esp.cer")).await.expect("esp").bytes().await.expect("esp");
    assert_eq!(&esp_cer[..], &esp.running.esp_certificate_der[..]);
    write("ca.pem", pki::cert_der_to_pem(&ca).as_bytes());
    write("cert.pem", pki::cert_der_to_pem(cert_der).as_bytes());
    let subject = openssl(dir.path(), &["x509", "-in", "cert.pem", "-noout", "-subject", "-dates"]);
    assert!(subject.contains("CN = Asha Verma") && subject.contains("C = IN"), "{subject}");

    let request = revocation::build_ocsp_request(cert_der, &ca).expect("OCSP request");
    let response = reqwest::Client::new()
        .post(format!("{base}/ocsp"))
        .header("content-type", "application/ocsp-request")
        .body(request)
        .send()
        .await
        .expect("ocsp");
    assert_eq!(response.headers()["content-type"], "application/ocsp-response");
    let answer = response.bytes().await.expect("ocsp body");
    let info = revocation::check_ocsp_response(&answer, cert_der, &ca).expect("a valid OCSP answer");
    assert_eq!(info.status, RevocationStatus::Good);
    write("resp.der", &answer);
    let checked = openssl(
        dir.path(),
        &["ocsp", "-respin", "resp.der", "-issuer", "ca.pem", "-cert", "cert.pem", "-CAfile", "ca.pem", "-resp_text"],
    );
    assert!(checked.contains("Response verify OK") && checked.contains("cert.pem: good"), "{checked}");

    let crl = reqwest::get(format!("{base}/crl")).await.expect("crl").bytes().await.expect("crl");
    write("crl.der", &crl);
    let text =
        openssl(dir.path(), &["crl", "-inform", "DER", "-in", "crl.der", "-noout", "-text", "-CAfile", "ca.pem"]);
    assert!(text.contains("Certificate Revocation List") && text.contains("No Revoked Certificates"), "{text}");
    assert!(text.contains("verify OK"), "{text}");
    assert_eq!(revocation::check_crl(&crl, cert_der, &ca).expect("CRL").status, RevocationStatus::Good);
}

fn openssl(dir: &std::path::Path, args: &[&str]) -> String {
    let out = Command::new("openssl").args(args).current_dir(dir).output().expect("openssl runs");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "openssl {args:?}:\n{text}");
    text
}

#[tokio::test]
async fn random_otps_are_shown_in_the_outbox() {
    let esp = start(|options| options.fixed_otp = None).await;
    let asp = Asp::new("OUTBOX-ASP");
    asp.register(esp.dir.path());
    let browser = Browser::new(&esp.running);
    let digests = digests(1);
    let otp_page = up_to_otp(&browser, &asp, "TXN-OUTBOX", &digests).await;
    let esp_txn = otp_page.form("/2.1/form/authenticate").field("espTxn").expect("espTxn").to_string();

    let outbox: serde_json::Value = browser.get("/outbox.json").await.json().await.expect("outbox json");
    let newest = &outbox[0];
    assert_eq!(newest["esp_txn"], esp_txn.as_str());
    assert_eq!(newest["mobile"], "******3210");
    let otp = newest["otp"].as_str().expect("otp").to_string();
    assert!(otp.len() == 6 && otp.bytes().all(|b| b.is_ascii_digit()), "{otp}");
    let html = browser.get("/outbox").await.text().await.expect("outbox");
    assert!(html.contains(&otp) && html.contains("Asha Verma"));

    let answer = browser.submit(&otp_page.form("/2.1/form/authenticate"), &[("otp", &otp), ("consent", "Y")]).await;
    let (xml, _) = answer.answer();
    assert!(matches!(check(&esp.running, &xml, "TXN-OUTBOX", &digests), Outcome::Signed(_)));
}

#[tokio::test]
async fn a_wrong_otp_can_be_retried_until_the_limit() {
    let esp = start(|_| {}).await;
    let asp = Asp::new("RETRY-ASP");
    asp.register(esp.dir.path());
    let browser = Browser::new(&esp.running);
    let digests = digests(1);

    // Wrong, then right.
    let otp = up_to_otp(&browser, &asp, "TXN-RETRY-1", &digests).await;
    let wrong = browser.submit(&otp.form("/2.1/form/authenticate"), &[("otp", "000000"), ("consent", "Y")]).await;
    let error = wrong.error().expect("an error is shown");
    assert!(error.contains(codes::WRONG_OTP) && error.contains("2 attempts left"), "{error}");
    // Missing consent: shown again, no attempt used.
    let no_consent = browser.submit(&wrong.form("/2.1/form/authenticate"), &[("otp", FIXED_OTP)]).await;
    assert!(no_consent.error().expect("error").contains("consent"), "{}", no_consent.html);
    let right =
        browser.submit(&no_consent.form("/2.1/form/authenticate"), &[("otp", FIXED_OTP), ("consent", "Y")]).await;
    let (xml, _) = right.answer();
    assert!(matches!(check(&esp.running, &xml, "TXN-RETRY-1", &digests), Outcome::Signed(_)));

    // Wrong three times: ESP-914 goes back to the ASP.
    let mut page = up_to_otp(&browser, &asp, "TXN-RETRY-2", &digests).await;
    for left in [2, 1] {
        page = browser.submit(&page.form("/2.1/form/authenticate"), &[("otp", "999999"), ("consent", "Y")]).await;
        assert!(page.error().expect("error").contains(&format!("{left} attempt")), "{}", page.html);
    }
    let last = browser.submit(&page.form("/2.1/form/authenticate"), &[("otp", "999999"), ("consent", "Y")]).await;
    assert_eq!(refusal(&esp.running, &last, "TXN-RETRY-2", &digests), codes::OTP_ATTEMPTS);
}

#[tokio::test]
async fn an_expired_otp_fails_the_transaction() {
    let esp = start(|options| options.otp_ttl = std::time::Duration::from_millis(300)).await;
    let asp = Asp::new("SLOW-ASP");
    asp.register(esp.dir.path());
    let browser = Browser::new(&esp.running);
    let digests = digests(1);
    let otp = up_to_otp(&browser, &asp, "TXN-SLOW", &digests).await;
    tokio::time::sleep(std::time::Duration::from_millis(600)).await;
    let late = browser.submit(&otp.form("/2.1/form/authenticate"), &[("otp", FIXED_OTP), ("consent", "Y")]).await;
    assert_eq!(refusal(&esp.running, &late, "TXN-SLOW", &digests), codes::OTP_EXPIRED);
}

#[tokio::test]
async fn a_transaction_ends_with_its_request_window() {
    let esp = start(|options| options.request_window = std::time::Duration::from_secs(2)).await;
    let asp = Asp::new("WINDOW-ASP");
    asp.register(esp.dir.path());
    let browser = Browser::new(&esp.running);
    let digests = digests(1);
    let aadhaar = browser.send_request(&asp.sign(&asp.request("TXN-WINDOW", &digests)), "TXN-WINDOW").await;
    tokio::time::sleep(std::time::Duration::from_millis(3100)).await;
    let late = browser.submit(&aadhaar.form("/2.1/form/otp"), &[("aadhaar", ASHA_AADHAAR)]).await;
    assert_eq!(refusal(&esp.running, &late, "TXN-WINDOW", &digests), codes::TRANSACTION_EXPIRED);
}

#[tokio::test]
async fn the_signer_can_cancel_and_retry_an_unknown_number() {
    let esp = start(|_| {}).await;
    let asp = Asp::new("CANCEL-ASP");
    asp.register(esp.dir.path());
    let browser = Browser::new(&esp.running);
    let digests = digests(1);

    let aadhaar = browser.send_request(&asp.sign(&asp.request("TXN-CANCEL-1", &digests)), "TXN-CANCEL-1").await;
    let cancelled = browser.submit(&aadhaar.form("/2.1/form/cancel"), &[]).await;
    assert_eq!(refusal(&esp.running, &cancelled, "TXN-CANCEL-1", &digests), codes::CANCELLED);

    // Unknown identity: shown on the page, with the code; another try works; cancel from the
    // OTP page too.
    let aadhaar = browser.send_request(&asp.sign(&asp.request("TXN-CANCEL-2", &digests)), "TXN-CANCEL-2").await;
    let unknown = browser.submit(&aadhaar.form("/2.1/form/otp"), &[("aadhaar", "1234 5678 9012")]).await;
    let error = unknown.error().expect("error shown");
    assert!(error.contains(codes::UNKNOWN_IDENTITY), "{error}");
    assert_eq!(unknown.form("/2.1/form/otp").input("aadhaar"), Some(("text", "1234 5678 9012")));
    let not_a_number = browser.submit(&unknown.form("/2.1/form/otp"), &[("aadhaar", "12345")]).await;
    assert!(not_a_number.error().expect("error").contains(codes::UNKNOWN_IDENTITY));
    let otp = browser.submit(&not_a_number.form("/2.1/form/otp"), &[("aadhaar", ASHA_AADHAAR)]).await;
    let cancelled = browser.submit(&otp.form("/2.1/form/cancel"), &[]).await;
    assert_eq!(refusal(&esp.running, &cancelled, "TXN-CANCEL-2", &digests), codes::CANCELLED);
}

#[tokio::test]
async fn requests_that_cannot_be_authenticated_get_an_error_page_and_no_answer() {
    let esp = start(|_| {}).await;
    let asp = Asp::new("REAL-ASP");
    asp.register(esp.dir.path());
    let browser = Browser::new(&esp.running);
    let digests = digests(1);

    // Signed by someone else under the registered id.
    let impostor = Asp { id: "REAL-ASP".into(), ..Asp::new("IMPOSTOR") };
    let forged = browser.send_request(&impostor.sign(&impostor.request("TXN-F1", &digests)), "TXN-F1").await;
    assert_eq!(forged.status, 400);
    assert!(forged.error().expect("error").contains(codes::ASP_SIGNATURE), "{}", forged.html);
    assert!(!forged.has_form(RESPONSE_URL) && !forged.html.contains("eSignResponse"));

    // Altered after signing.
    let tampered = asp.sign(&asp.request("TXN-F2", &digests)).replace("TXN-F2", "TXN-F3");
    let altered = browser.send_request(&tampered, "TXN-F3").await;
    assert_eq!(altered.status, 400);
    assert!(altered.error().expect("error").contains(codes::ASP_SIGNATURE));

    // Not registered.
    let stranger = Asp::new("STRANGER-ASP");
    let unknown = browser.send_request(&stranger.sign(&stranger.request("TXN-F4", &digests)), "TXN-F4").await;
    assert_eq!(unknown.status, 400);
    assert!(unknown.error().expect("error").contains(codes::UNKNOWN_ASP));
    assert!(!unknown.html.contains("eSignResponse"));

    // Signed, but the answer could only go to a non-http address.
    let mut script_url = asp.request("TXN-F5", &digests);
    script_url.response_url = "javascript:alert(1)".into();
    let refused = browser.send_request(&asp.sign(&script_url), "TXN-F5").await;
    assert_eq!(refused.status, 400);
    assert!(refused.error().expect("error").contains(codes::RESPONSE_URL));
}

#[tokio::test]
async fn later_refusals_are_answered_to_the_asp() {
    let esp = start(|_| {}).await;
    let asp = Asp::new("LATE-ASP");
    asp.register(esp.dir.path());
    let browser = Browser::new(&esp.running);
    let digests = digests(1);

    let mut old = asp.request("TXN-OLD", &digests);
    old.ts -= time::Duration::hours(1);
    let answer = browser.send_request(&asp.sign(&old), "TXN-OLD").await;
    assert_eq!(refusal(&esp.running, &answer, "TXN-OLD", &digests), codes::TIMESTAMP);

    let mut version = asp.request("TXN-VER", &digests);
    version.ver = "3.2".into();
    let answer = browser.send_request(&asp.sign(&version), "TXN-VER").await;
    assert_eq!(refusal(&esp.running, &answer, "TXN-VER", &digests), codes::VERSION);
}

#[tokio::test]
async fn a_txn_is_accepted_once_even_across_a_restart() {
    let dir = tempfile::tempdir().expect("tempdir");
    let asp = Asp::new("REPLAY-ASP");
    asp.register(dir.path());
    let digests = digests(1);
    let signed = asp.sign(&asp.request("TXN-REPLAY", &digests));

    let first = start_with(options(dir.path())).await;
    let browser = Browser::new(&first);
    assert!(browser.send_request(&signed, "TXN-REPLAY").await.has_form("/2.1/form/otp"));
    let replayed = browser.send_request(&signed, "TXN-REPLAY").await;
    assert_eq!(refusal(&first, &replayed, "TXN-REPLAY", &digests), codes::REPLAYED_TXN);
    // Another ASP may use the same txn.
    let other = Asp::new("OTHER-ASP");
    other.register(dir.path());
    let theirs = browser.send_request(&other.sign(&other.request("TXN-REPLAY", &digests)), "TXN-REPLAY").await;
    assert!(theirs.has_form("/2.1/form/otp"), "{}", theirs.html);
    let esp_certificate = first.esp_certificate_der.clone();
    first.stop().await;

    let second = start_with(options(dir.path())).await;
    assert_eq!(second.esp_certificate_der, esp_certificate, "the keys are kept");
    let browser = Browser::new(&second);
    let replayed = browser.send_request(&signed, "TXN-REPLAY").await;
    assert_eq!(refusal(&second, &replayed, "TXN-REPLAY", &digests), codes::REPLAYED_TXN);
    let fresh = browser.send_request(&asp.sign(&asp.request("TXN-FRESH", &digests)), "TXN-FRESH").await;
    assert!(fresh.has_form("/2.1/form/otp"));
}

#[tokio::test]
async fn hostile_posts_get_clear_error_pages_never_a_500() {
    let esp = start(|_| {}).await;
    let browser = Browser::new(&esp.running);
    let http = &browser.http;
    let base = &esp.running.base_url;

    let huge = "A".repeat(2 << 20);
    let oversized = page(
        http.post(format!("{base}/2.1/form/signdoc"))
            .form(&[("eSignRequest", huge.as_str())])
            .send()
            .await
            .expect("post"),
    )
    .await;
    assert_eq!(oversized.status, 413);
    assert!(oversized.error().expect("error").contains("larger than"));

    for xml in
        ["<Esign", "not xml at all", "<!DOCTYPE x [<!ENTITY a 'b'>]><Esign/>", "<Other/>", "<Esign ver=\"2.1\"/>"]
    {
        let refused = browser.send_request(xml, "T").await;
        assert_eq!(refused.status, 400, "{xml}: {}", refused.html);
        assert!(refused.error().expect("error").contains("ESP-9"), "{xml}: {}", refused.html);
    }
    let no_field = browser.post("/2.1/form/signdoc", &[("aspTxnID", "T")]).await;
    assert_eq!(no_field.status, 400);
    assert!(no_field.error().expect("error").contains("eSignRequest"));
    let many: Vec<(String, String)> = (0..100).map(|i| (format!("f{i}"), "x".into())).collect();
    let too_many = page(http.post(format!("{base}/2.1/form/signdoc")).form(&many).send().await.expect("post")).await;
    assert_eq!(too_many.status, 400);
    let binary = page(
        http.post(format!("{base}/2.1/form/otp"))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(vec![0xff, 0xfe, 0x00, b'=', 0x80])
            .send()
            .await
            .expect("post"),
    )
    .await;
    assert!(binary.status == 400, "{}", binary.status);

    for path in ["/2.1/form/otp", "/2.1/form/authenticate", "/2.1/form/cancel"] {
        let unknown = browser.post(path, &[("espTxn", "0123456789abcdef"), ("aadhaar", ASHA_AADHAAR)]).await;
        assert_eq!(unknown.status, 404, "{path}");
        assert!(unknown.error().is_some());
        let long = "x".repeat(500);
        let refused = browser.post(path, &[("espTxn", long.as_str())]).await;
        assert_eq!(refused.status, 400, "{path}");
        let missing = browser.post(path, &[]).await;
        assert_eq!(missing.status, 400, "{path}");
    }
    assert_eq!(browser.get("/nowhere").await.status(), 404);
    assert_eq!(browser.get("/healthz").await.text().await.expect("ok"), "ok");

    // OCSP garbage: a malformedRequest answer.
    let ocsp = http.post(format!("{base}/ocsp")).body("garbage").send().await.expect("ocsp");
    assert_eq!(ocsp.status(), 200);
    assert_eq!(&ocsp.bytes().await.expect("body")[..], &[0x30, 0x03, 0x0a, 0x01, 0x01]);
}

#[tokio::test]
async fn an_ekyc_id_in_the_request_is_filled_in() {
    let esp = start(|_| {}).await;
    let asp = Asp::new("PREFILL-ASP");
    asp.register(esp.dir.path());
    let browser = Browser::new(&esp.running);
    let mut request = asp.request("TXN-PREFILL", &digests(1));
    request.ekyc_id = ASHA_VID.into();
    request.ekyc_id_type = "V".into();
    let aadhaar = browser.send_request(&asp.sign(&request), "TXN-PREFILL").await;
    assert_eq!(aadhaar.form("/2.1/form/otp").input("aadhaar"), Some(("text", ASHA_VID)));
}

/// The server-to-server first step: the ASP's server posts the request and gets a signed
/// acceptance (`status="2"`, `resCode`); the browser continues with `txnref`. Replays,
/// strangers and garbage are refused without a page to sign on.
#[tokio::test]
async fn the_server_to_server_flow_accepts_once_and_continues_with_txnref() {
    use base64::Engine;
    use signet_esign::{EsignResponse, ResponseStatus};
    let esp = start(|_| {}).await;
    let asp = Asp::new("SERVER-ASP");
    asp.register(esp.dir.path());
    let browser = Browser::new(&esp.running);
    let digests = digests(1);
    let http = reqwest::Client::new();
    let post_xml = |xml: String| {
        let url = format!("{}/2.1/signdoc", esp.running.base_url);
        let http = http.clone();
        async move { http.post(url).header("content-type", "application/xml").body(xml).send().await.expect("post") }
    };

    let accepted = post_xml(asp.sign(&asp.request("TXN-S1", &digests))).await;
    assert_eq!(accepted.status(), 200);
    let xml = accepted.bytes().await.expect("body");
    signet_esign::verify_document(&xml, &esp.running.esp_certificate_der, "forged").expect("signed by the ESP");
    let answer = EsignResponse::parse(&xml).expect("EsignResp");
    assert_eq!((answer.status, answer.txn.as_str()), (ResponseStatus::Pending, "TXN-S1"));

    // The browser continues on the Aadhaar page; a txnref for another txn finds nothing.
    let reference = |txn: &str| base64::engine::general_purpose::STANDARD.encode(format!("{txn}|{}", answer.res_code));
    let page = browser.post("/2.1/authRequest", &[("txnref", &reference("TXN-S1"))]).await;
    assert_eq!(page.status, 200);
    assert!(page.has_form("/2.1/form/otp"), "{}", page.html);
    let wrong = browser.post("/2.1/authRequest", &[("txnref", &reference("TXN-OTHER"))]).await;
    assert_eq!(wrong.status, 404);
    for garbage in ["", "%%%", "bm90IGEgcmVmZXJlbmNl"] {
        let refused = browser.post("/2.1/authRequest", &[("txnref", garbage)]).await;
        assert!(refused.status == 400 || refused.status == 404, "{garbage}: {}", refused.status);
    }

    // The same txn again: refused in a signed answer (ESP-906).
    let replayed = post_xml(asp.sign(&asp.request("TXN-S1", &digests))).await.bytes().await.expect("body");
    let replayed = EsignResponse::parse(&replayed).expect("EsignResp");
    assert_eq!(replayed.err_code.as_deref(), Some(codes::REPLAYED_TXN));

    // A stranger or garbage: HTTP 400, no signed answer.
    let stranger = Asp::new("STRANGER");
    let refused = post_xml(stranger.sign(&stranger.request("TXN-S2", &digests))).await;
    assert_eq!(refused.status(), 400);
    let refused = post_xml("<Esign".into()).await;
    assert_eq!(refused.status(), 400);
}
