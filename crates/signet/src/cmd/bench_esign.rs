//! `signet bench esign`: Aadhaar eSign transactions per second through Signet's test ESP, beside
//! electronic signatures sealed with the tenant's local key, in one run and one process: a
//! fresh Signet (SQLite) and a test ESP on loopback ports, `--concurrency` clients each doing
//! whole gateway transactions for `--duration` seconds per mode.
//!
//! An eSign transaction: submit the envelope, choose Aadhaar eSign (Signet prepares the PDF
//! and signs the request), the ESP's three pages (request check, Aadhaar number, OTP and
//! consent: the ESP issues a certificate and signs), the answer back to Signet (checked,
//! embedded), the result opened. An electronic one: submit, sign with a typed name, result.
//! The time of each hop is summed, to show where an eSign transaction spends it.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{Context, anyhow, bail};
use clap::Args;
use serde_json::{Value, json};
use signet_client::{
    GatewayCertificate, PageSelection, PayloadBuilder, Profile, ReturnUrls, SignaturePosition, SignatureType,
    open_result, seal_request,
};

#[derive(Args, Debug)]
pub struct BenchEsignArgs {
    /// Transactions in flight at once.
    #[arg(long, default_value_t = 4)]
    pub concurrency: usize,
    /// Seconds per mode.
    #[arg(long, default_value_t = 10)]
    pub duration: u64,
}

pub fn run(args: BenchEsignArgs) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(bench(args))
}

const OTP: &str = "246810";
const AADHAAR: &str = "999941057058";

/// Time spent per hop, summed over all transactions of a mode.
type Hops = Arc<Mutex<HashMap<&'static str, Duration>>>;

struct Bench {
    http: reqwest::Client,
    base: String,
    esp_base: String,
    authtoken: String,
    certificate: GatewayCertificate,
    pdf: Vec<u8>,
    hops: Hops,
}

async fn bench(args: BenchEsignArgs) -> anyhow::Result<()> {
    let dir = tempdir()?;
    let mut esp_options = signet_test_esp::EspOptions::new(dir.join("esp"));
    esp_options.fixed_otp = Some(OTP.into());
    let esp = signet_test_esp::spawn(esp_options, tokio::net::TcpListener::bind("127.0.0.1:0").await?).await?;
    std::fs::write(dir.join("esp.cer"), &esp.esp_certificate_der)?;
    std::fs::write(dir.join("ca.cer"), &esp.ca_certificate_der)?;
    let config = signet_server::Config {
        data_dir: dir.join("signet"),
        listen: "127.0.0.1:0".into(),
        workers: false,
        esign_esp_url: Some(format!("{}/2.1/form/signdoc", esp.base_url)),
        esign_esp_certificate: Some(dir.join("esp.cer")),
        esign_ca_certificates: Some(dir.join("ca.cer")),
        ..signet_server::Config::default()
    };
    let app = signet_server::App::build(config).await?;
    let base = format!("http://{}", app.local_addr()?);
    signet_test_esp::register_asp(&dir.join("esp"), "SIGNET", &app.state.services.keys.asp.cert_der)?;
    let actor = signet_domain::audit::Actor { id: "bench".into(), ip: None };
    let tenant =
        signet_server::provision::create_tenant(&app.store, "Bench Bank", "bench@bank.test", None, &actor).await?;
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(app.run(async move {
        let _ = stopped.await;
    }));

    let http = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build()?;
    let token = access_token(&http, &base, &tenant.client_id, &tenant.client_secret).await?;
    let created: Value = http
        .post(format!("{base}/api/v1/gateway/authtokens"))
        .bearer_auth(&token)
        .json(&json!({"label": "bench"}))
        .send()
        .await?
        .json()
        .await?;
    let authtoken = created["authtoken"].as_str().ok_or_else(|| anyhow!("no authtoken"))?.to_string();
    let der = http.get(format!("{base}/eMsecure/certificate.cer")).send().await?.bytes().await?;
    let bench = Arc::new(Bench {
        http,
        base,
        esp_base: esp.base_url.clone(),
        authtoken,
        certificate: GatewayCertificate::from_der(&der)?,
        pdf: one_page_pdf(),
        hops: Hops::default(),
    });

    println!("signet bench esign: {} clients, {} s per mode, SQLite, one process", args.concurrency, args.duration);
    let electronic = run_mode(&bench, &args, false).await?;
    let electronic_hops = std::mem::take(&mut *bench.hops.lock().map_err(|_| anyhow!("lock"))?);
    let esign = run_mode(&bench, &args, true).await?;
    let esign_hops = std::mem::take(&mut *bench.hops.lock().map_err(|_| anyhow!("lock"))?);
    report("electronic (tenant seal, local key)", electronic, &electronic_hops, args.duration);
    report("Aadhaar eSign (test ESP round trip)", esign, &esign_hops, args.duration);
    if electronic > 0 {
        println!("ratio eSign / electronic: {:.2}", esign as f64 / electronic as f64);
    }
    let _ = stop.send(());
    let _ = server.await;
    esp.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

fn tempdir() -> anyhow::Result<std::path::PathBuf> {
    let dir = std::env::temp_dir().join(format!("signet-bench-esign-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

/// A one-page PDF made here (the bench needs no outside tool).
fn one_page_pdf() -> Vec<u8> {
    let content = "BT /F1 24 Tf 72 720 Td (Loan agreement) Tj ET";
    let objects = [
        "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>"
            .to_string(),
        format!("<< /Length {} >>\nstream\n{content}\nendstream", content.len()),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_string(),
    ];
    let mut out = b"%PDF-1.7\n".to_vec();
    let mut offsets = Vec::new();
    for (i, body) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n{body}\nendobj\n", i + 1).as_bytes());
    }
    let xref = out.len();
    out.extend_from_slice(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes());
    for offset in offsets {
        out.extend_from_slice(format!("{offset:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(
        format!("trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n", objects.len() + 1).as_bytes(),
    );
    out
}

async fn access_token(http: &reqwest::Client, base: &str, id: &str, secret: &str) -> anyhow::Result<String> {
    let body = json!({"grant_type": "client_credentials", "client_id": id, "client_secret": secret});
    let answer: Value = http.post(format!("{base}/api/v1/auth/token")).json(&body).send().await?.json().await?;
    answer["access_token"].as_str().map(str::to_string).ok_or_else(|| anyhow!("no access_token"))
}

async fn run_mode(bench: &Arc<Bench>, args: &BenchEsignArgs, esign: bool) -> anyhow::Result<u64> {
    let deadline = Instant::now() + Duration::from_secs(args.duration);
    let mut workers = Vec::new();
    for worker in 0..args.concurrency {
        let bench = bench.clone();
        workers.push(tokio::spawn(async move {
            let mut done = 0u64;
            while Instant::now() < deadline {
                let reference = format!("{}{worker}-{done}", if esign { "E" } else { "T" });
                transaction(&bench, &reference, esign).await?;
                done += 1;
            }
            Ok::<u64, anyhow::Error>(done)
        }));
    }
    let mut total = 0;
    for worker in workers {
        total += worker.await.context("a bench client stopped")??;
    }
    Ok(total)
}

fn report(label: &str, count: u64, hops: &HashMap<&'static str, Duration>, seconds: u64) {
    println!("{label}: {count} transactions, {:.1}/s", count as f64 / seconds as f64);
    let total: Duration = hops.values().sum();
    let mut sorted: Vec<_> = hops.iter().collect();
    sorted.sort_by(|a, b| b.1.cmp(a.1));
    for (hop, time) in sorted {
        let share = if total.is_zero() { 0.0 } else { time.as_secs_f64() / total.as_secs_f64() * 100.0 };
        let per = if count == 0 { 0.0 } else { time.as_secs_f64() * 1000.0 / count as f64 };
        println!("  {hop:<34} {per:7.2} ms per transaction ({share:4.1}%)");
    }
}

impl Bench {
    async fn timed<T>(
        &self,
        hop: &'static str,
        work: impl std::future::Future<Output = anyhow::Result<T>>,
    ) -> anyhow::Result<T> {
        let started = Instant::now();
        let result = work.await;
        if let Ok(mut hops) = self.hops.lock() {
            *hops.entry(hop).or_default() += started.elapsed();
        }
        result
    }

    async fn post_form(&self, url: &str, fields: &[(String, String)]) -> anyhow::Result<String> {
        let response = self.http.post(url).form(fields).send().await?;
        let status = response.status();
        let body = response.text().await?;
        if !status.is_success() {
            bail!("{url} answered {status}: {}", body.chars().take(300).collect::<String>());
        }
        Ok(body)
    }
}

/// One whole gateway transaction; the result must be a signed PDF.
async fn transaction(bench: &Bench, reference: &str, esign: bool) -> anyhow::Result<()> {
    let urls = ReturnUrls {
        success: "https://erp.example.test/signed".into(),
        failure: "https://erp.example.test/failed".into(),
        cancel: "https://erp.example.test/cancelled".into(),
    };
    let kind = if esign { SignatureType::ESign } else { SignatureType::ESignature };
    let payload = PayloadBuilder::pdf(&bench.pdf, "Asha Verma")
        .reference_number(reference)
        .authtoken(&bench.authtoken)
        .signature_types(&[kind])
        .urls(&urls)
        .pages(&PageSelection::First)
        .position(SignaturePosition::BottomRight)
        .font_signature(true)
        .build()?;
    let sealed = seal_request(&bench.certificate, Profile::Modern, &payload, time::OffsetDateTime::now_utc())?;
    let link = bench
        .timed("submit (Signet)", async {
            let fields: Vec<(String, String)> =
                sealed.form_fields().into_iter().map(|(k, v)| (k.to_string(), v)).collect();
            let response = bench.http.post(format!("{}/eMsecure/V3_0/Index", bench.base)).form(&fields).send().await?;
            let location = response.headers().get("location").and_then(|v| v.to_str().ok()).map(str::to_string);
            location.ok_or_else(|| anyhow!("no signer link (HTTP {})", response.status()))
        })
        .await?;
    let link = format!("{}{link}", bench.base);
    let result = if esign {
        esign_hops(bench, &link).await?
    } else {
        bench
            .timed("typed signature (Signet, local key)", async {
                let fields = [("mode", "typed"), ("typedName", "Asha Verma"), ("font", "plain"), ("consent", "on")]
                    .map(|(k, v)| (k.to_string(), v.to_string()));
                bench.post_form(&format!("{link}/sign"), &fields).await
            })
            .await?
    };
    let (_, fields) = form(&result, "").ok_or_else(|| anyhow!("no result form"))?;
    let value = fields.iter().find(|(k, _)| k == "Returnvalue").map(|(_, v)| v.clone()).unwrap_or_default();
    let signed = open_result(&sealed.session, Profile::Modern, &value).map_err(|e| anyhow!("result: {e}"))?;
    if !signed.starts_with(b"%PDF") {
        bail!("the result is not a PDF");
    }
    Ok(())
}

async fn esign_hops(bench: &Bench, link: &str) -> anyhow::Result<String> {
    let to_esp = bench.timed("prepare + sign request (Signet)", bench.post_form(&format!("{link}/esign"), &[])).await?;
    let (action, fields) = form(&to_esp, "").ok_or_else(|| anyhow!("no form to the ESP"))?;
    let aadhaar_page = bench.timed("request check (ESP)", bench.post_form(&action, &fields)).await?;
    let (_, mut fields) = form(&aadhaar_page, "/2.1/form/otp").ok_or_else(|| anyhow!("no Aadhaar form"))?;
    fields.push(("aadhaar".into(), AADHAAR.into()));
    let otp_page = bench
        .timed("Aadhaar number (ESP)", bench.post_form(&format!("{}/2.1/form/otp", bench.esp_base), &fields))
        .await?;
    let (_, mut fields) = form(&otp_page, "/2.1/form/authenticate").ok_or_else(|| anyhow!("no OTP form"))?;
    fields.push(("otp".into(), OTP.into()));
    fields.push(("consent".into(), "Y".into()));
    let url = format!("{}/2.1/form/authenticate", bench.esp_base);
    let answer = bench.timed("OTP, certificate, signature (ESP)", bench.post_form(&url, &fields)).await?;
    let (action, fields) = form(&answer, "").ok_or_else(|| anyhow!("no answer form"))?;
    bench.timed("answer check + embed (Signet)", bench.post_form(&action, &fields)).await
}

/// The action and hidden fields of the first form whose action ends with `suffix`.
fn form(html: &str, suffix: &str) -> Option<(String, Vec<(String, String)>)> {
    let mut rest = html;
    while let Some(start) = rest.find("<form") {
        let body = &rest[start..];
        let end = body.find("</form>").unwrap_or(body.len());
        let form = &body[..end];
        let action = attribute(form, "action").unwrap_or_default();
        if action.ends_with(suffix) {
            let fields = form
                .split("<input")
                .skip(1)
                .filter(|input| attribute(input, "type").as_deref() == Some("hidden"))
                .filter_map(|input| Some((attribute(input, "name")?, attribute(input, "value").unwrap_or_default())))
                .collect();
            return Some((action, fields));
        }
        rest = &body[end..];
    }
    None
}

fn attribute(tag: &str, name: &str) -> Option<String> {
    let tag = &tag[..tag.find('>').unwrap_or(tag.len())];
    let value = tag.split(&format!(" {name}=\"")).nth(1)?.split('"').next()?;
    Some(unescape(value))
}

/// The escapes HTML templates write: named (`&lt;` …) and numeric (`&#60;`, `&#x3c;`).
fn unescape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        let entity = tail.find(';').filter(|end| *end <= 10).map(|end| (&tail[1..end], end + 1));
        let decoded = entity.and_then(|(name, len)| {
            let c = match name {
                "lt" => Some('<'),
                "gt" => Some('>'),
                "quot" => Some('"'),
                "apos" => Some('\''),
                "amp" => Some('&'),
                _ => name
                    .strip_prefix("#x")
                    .map(|hex| u32::from_str_radix(hex, 16).ok())
                    .unwrap_or_else(|| name.strip_prefix('#').and_then(|dec| dec.parse().ok()))
                    .and_then(char::from_u32),
            };
            c.map(|c| (c, len))
        });
        match decoded {
            Some((c, len)) => {
                out.push(c);
                rest = &tail[len..];
            }
            None => {
                out.push('&');
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    out
}
