//! `signet gateway-client`: the client SDK (`signet-client`) for the shell — seal a request,
//! open a result, drive a whole transaction as a browser would, and a hidden load generator
//! used by `scripts/bench-gateway.sh`.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, anyhow, bail};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use clap::{Args, Subcommand, ValueEnum};
use serde_json::{Value, json};
use signet_client::{
    FormScript, GatewayCertificate, Profile, SealedRequest, SessionKey, open_hash_result, open_result, seal_request,
};

/// The gateway path segment the CLI talks to (the server's default).
const INDEX_PATH: &str = "/eMsecure/V3_0/Index";
const CERT_PATH: &str = "/eMsecure/certificate.cer";

#[derive(Subcommand)]
pub enum GatewayClientCommand {
    /// Encrypt a payload: prints the form fields as JSON, keeps the session key in --session-out.
    Seal(SealArgs),
    /// Decrypt a Returnvalue with a saved session.
    Open(OpenArgs),
    /// Drive a whole transaction (submit, typed signature with consent, decrypt the result).
    Submit(SubmitArgs),
    /// Load generator for scripts/bench-gateway.sh.
    #[command(hide = true)]
    Load(LoadArgs),
}

#[derive(Clone, Copy, ValueEnum)]
pub enum ProfileArg {
    Legacy,
    Modern,
}

impl ProfileArg {
    fn profile(self) -> Profile {
        match self {
            Self::Legacy => Profile::Legacy,
            Self::Modern => Profile::Modern,
        }
    }
}

#[derive(Args)]
pub struct SealArgs {
    /// The gateway certificate (DER .cer or PEM).
    #[arg(long)]
    cert: PathBuf,
    /// The payload JSON object.
    #[arg(long)]
    payload: PathBuf,
    #[arg(long, value_enum, default_value = "modern")]
    profile: ProfileArg,
    /// Write an auto-submitting HTML form posting to --gateway-url.
    #[arg(long, requires = "gateway_url")]
    out_form: Option<PathBuf>,
    /// The gateway's Index URL, e.g. https://host/eMsecure/V3_0/Index.
    #[arg(long)]
    gateway_url: Option<String>,
    /// Where to keep the session key and profile (needed to open the result).
    #[arg(long)]
    session_out: Option<PathBuf>,
}

#[derive(Args)]
pub struct OpenArgs {
    /// The session file written by `seal --session-out`.
    #[arg(long)]
    session: PathBuf,
    /// The Returnvalue, or @FILE to read it from a file.
    #[arg(long)]
    returnvalue: String,
    /// The result of a Hash request: write the JSON array of hash signatures.
    #[arg(long)]
    hash: bool,
    #[arg(short, long)]
    out: PathBuf,
}

#[derive(Args)]
pub struct SubmitArgs {
    /// The gateway base URL, e.g. http://127.0.0.1:8080.
    #[arg(long)]
    url: String,
    /// The gateway certificate; fetched from the gateway when omitted.
    #[arg(long)]
    cert: Option<PathBuf>,
    #[arg(long)]
    payload: PathBuf,
    #[arg(long, value_enum, default_value = "modern")]
    profile: ProfileArg,
    /// Sign with this typed name (the signer consents).
    #[arg(long)]
    sign_typed: String,
    #[arg(short, long)]
    out: PathBuf,
}

#[derive(Args)]
pub struct LoadArgs {
    #[arg(long)]
    url: String,
    #[arg(long)]
    cert: Option<PathBuf>,
    /// A payload template; each request gets its own ReferenceNumber.
    #[arg(long)]
    payload: PathBuf,
    #[arg(long, value_enum, default_value = "modern")]
    profile: ProfileArg,
    #[arg(long, default_value_t = 32)]
    concurrency: usize,
    /// Seconds of measurement.
    #[arg(long, default_value_t = 10)]
    duration: u64,
    /// Envelopes sealed before timing (the run stops early when they are used up).
    #[arg(long, default_value_t = 4000)]
    envelopes: usize,
    /// Whole transactions (typed signature and result) instead of submission + page.
    #[arg(long)]
    full: bool,
    /// Meanwhile, this many clients flood the gateway with envelopes that carry a 7-zip bomb
    /// and a bogus Authtoken (as an attacker without an account would).
    #[arg(long, default_value_t = 0)]
    flood: usize,
    /// The local address the flood comes from (another address than the measured clients;
    /// any 127.x.y.z works on Linux loopback).
    #[arg(long, default_value = "127.0.0.2")]
    flood_from: std::net::IpAddr,
    /// Each measured client from its own loopback address (127.0.1.N), as signers' browsers
    /// come from their own addresses (the gateway bounds submissions per address).
    #[arg(long)]
    spread_addresses: bool,
}

pub fn run(command: GatewayClientCommand) -> anyhow::Result<()> {
    match command {
        GatewayClientCommand::Seal(args) => seal(args),
        GatewayClientCommand::Open(args) => open(args),
        GatewayClientCommand::Submit(args) => super::runtime()?.block_on(submit(args)),
        GatewayClientCommand::Load(args) => super::runtime()?.block_on(load(args)),
    }
}

fn read(path: &Path) -> anyhow::Result<Vec<u8>> {
    std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))
}

fn write(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    std::fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))
}

fn certificate(path: &Path) -> anyhow::Result<GatewayCertificate> {
    GatewayCertificate::from_der_or_pem(&read(path)?).map_err(|e| anyhow!("{}: {e}", path.display()))
}

fn seal_payload(cert: &GatewayCertificate, profile: Profile, payload: &[u8]) -> anyhow::Result<SealedRequest> {
    seal_request(cert, profile, payload, time::OffsetDateTime::now_utc()).map_err(|e| anyhow!("{e}"))
}

fn profile_name(profile: Profile) -> &'static str {
    match profile {
        Profile::Legacy => "legacy",
        Profile::Modern => "modern",
    }
}

fn seal(args: SealArgs) -> anyhow::Result<()> {
    let cert = certificate(&args.cert)?;
    let sealed = seal_payload(&cert, args.profile.profile(), &read(&args.payload)?)?;
    if let (Some(path), Some(url)) = (&args.out_form, &args.gateway_url) {
        write(path, sealed.render_form(url, &FormScript::Inline).as_bytes())?;
    }
    if let Some(path) = &args.session_out {
        let session = json!({
            "profile": profile_name(sealed.profile),
            "session_key": STANDARD.encode(sealed.session.as_bytes()),
        });
        write(path, serde_json::to_string_pretty(&session)?.as_bytes())?;
    }
    let fields: serde_json::Map<String, Value> =
        sealed.form_fields().into_iter().map(|(k, v)| (k.to_owned(), Value::String(v))).collect();
    println!("{}", serde_json::to_string_pretty(&fields)?);
    Ok(())
}

/// Reads a session file back: the key must be 32 bytes, the profile one of the two names.
fn load_session(path: &Path) -> anyhow::Result<(SessionKey, Profile)> {
    let value: Value = serde_json::from_slice(&read(path)?).with_context(|| format!("{}: not JSON", path.display()))?;
    let profile = match value["profile"].as_str() {
        Some("legacy") => Profile::Legacy,
        Some("modern") => Profile::Modern,
        _ => bail!("{}: profile must be \"legacy\" or \"modern\"", path.display()),
    };
    let key = value["session_key"]
        .as_str()
        .and_then(|k| STANDARD.decode(k).ok())
        .and_then(|k| SessionKey::from_slice(&k))
        .ok_or_else(|| anyhow!("{}: session_key must be 32 bytes in base64", path.display()))?;
    Ok((key, profile))
}

fn open(args: OpenArgs) -> anyhow::Result<()> {
    let (key, profile) = load_session(&args.session)?;
    let returnvalue = match args.returnvalue.strip_prefix('@') {
        Some(file) => String::from_utf8(read(Path::new(file))?).context("the Returnvalue file is not text")?,
        None => args.returnvalue.clone(),
    };
    let bytes = if args.hash {
        let signatures = open_hash_result(&key, profile, returnvalue.trim()).map_err(|e| anyhow!("{e}"))?;
        let list: Vec<Value> = signatures
            .iter()
            .map(
                |s| json!({"DocumentName": s.document_name, "DocumentHash": s.document_hash, "Signature": s.signature}),
            )
            .collect();
        serde_json::to_vec_pretty(&list)?
    } else {
        open_result(&key, profile, returnvalue.trim()).map_err(|e| anyhow!("{e}"))?
    };
    write(&args.out, &bytes)
}

/// A client that does not follow redirects: the 303 to the signer page is read by hand.
/// A client bound to loopback address 127.0.1.(n % 250 + 1).
fn client_from(n: usize) -> anyhow::Result<reqwest::Client> {
    let address = std::net::IpAddr::from([127, 0, 1, (n % 250 + 1) as u8]);
    Ok(reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(120))
        .local_address(address)
        .build()?)
}

fn http_client() -> anyhow::Result<reqwest::Client> {
    Ok(reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(120))
        .pool_max_idle_per_host(256)
        .build()?)
}

async fn gateway_certificate(
    http: &reqwest::Client,
    base: &str,
    path: Option<&Path>,
) -> anyhow::Result<GatewayCertificate> {
    if let Some(path) = path {
        return certificate(path);
    }
    let response = http.get(format!("{base}{CERT_PATH}")).send().await?.error_for_status()?;
    GatewayCertificate::from_der_or_pem(&response.bytes().await?).map_err(|e| anyhow!("{e}"))
}

/// POSTs the envelope; returns the signer page path from the 303, or the gateway's error.
async fn post_index(http: &reqwest::Client, base: &str, sealed: &SealedRequest) -> anyhow::Result<String> {
    let response = http.post(format!("{base}{INDEX_PATH}")).form(&sealed.form_fields()).send().await?;
    let status = response.status();
    if status.as_u16() == 303 {
        let location = response.headers().get("location").and_then(|l| l.to_str().ok()).map(str::to_owned);
        return location.ok_or_else(|| anyhow!("the gateway answered 303 without a Location"));
    }
    let body = response.text().await.unwrap_or_default();
    // Failures with a known return address come as a post-back page; 109 as an HTML 400 page.
    let fields = posted_fields(&body);
    if let Some(message) = fields.iter().find(|(k, _)| k == "ErrorMessage").map(|(_, v)| v.clone()) {
        bail!("{message}");
    }
    bail!("the gateway answered {status}: {}", error_text(&body))
}

/// The readable part of an HTML error page: its text with tags removed, on one line.
fn error_text(html: &str) -> String {
    let mut text = String::new();
    let mut in_tag = false;
    for c in html.split("<body").nth(1).unwrap_or(html).chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    text.split_whitespace().collect::<Vec<_>>().join(" ").chars().take(200).collect()
}

fn absolute(base: &str, link: &str) -> String {
    if link.starts_with("http://") || link.starts_with("https://") { link.to_owned() } else { format!("{base}{link}") }
}

/// Signs on the signer page as a browser without JavaScript would; returns the post-back fields.
async fn sign_typed(http: &reqwest::Client, page: &str, name: &str) -> anyhow::Result<Vec<(String, String)>> {
    let response = http
        .post(format!("{page}/sign"))
        .header("user-agent", "signet-gateway-client")
        .form(&[("mode", "typed"), ("typedName", name), ("consent", "on")])
        .send()
        .await?;
    let html = response.text().await?;
    let fields = posted_fields(&html);
    if fields.iter().all(|(k, _)| k != "ReturnStatus") {
        bail!("the signer page did not return a result: {}", error_text(&html));
    }
    Ok(fields)
}

/// The hidden inputs of a post-back page, HTML entities undone.
fn posted_fields(html: &str) -> Vec<(String, String)> {
    let attr = |input: &str, name: &str| {
        input.split(&format!("{name}=\"")).nth(1).and_then(|r| r.split('"').next()).unwrap_or_default().to_owned()
    };
    html.split("<input type=\"hidden\" ")
        .skip(1)
        .map(|input| (attr(input, "name"), unescape(&attr(input, "value"))))
        .collect()
}

fn unescape(value: &str) -> String {
    value
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&#43;", "+")
        .replace("&#x2B;", "+")
        .replace("&amp;", "&")
}

fn field<'a>(fields: &'a [(String, String)], name: &str) -> &'a str {
    fields.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str()).unwrap_or_default()
}

async fn submit(args: SubmitArgs) -> anyhow::Result<()> {
    let http = http_client()?;
    let base = args.url.trim_end_matches('/').to_owned();
    let cert = gateway_certificate(&http, &base, args.cert.as_deref()).await?;
    let sealed = seal_payload(&cert, args.profile.profile(), &read(&args.payload)?)?;
    let link = post_index(&http, &base, &sealed).await?;
    let fields = sign_typed(&http, &absolute(&base, &link), &args.sign_typed).await?;
    if field(&fields, "ReturnStatus") != "Success" {
        // ErrorMessage is already "<code>: <text>".
        bail!("{}", field(&fields, "ErrorMessage"));
    }
    let signed =
        open_result(&sealed.session, sealed.profile, field(&fields, "Returnvalue")).map_err(|e| anyhow!("{e}"))?;
    write(&args.out, &signed)?;
    eprintln!(
        "signed: Transactionnumber {} Referencenumber {}",
        field(&fields, "Transactionnumber"),
        field(&fields, "Referencenumber")
    );
    Ok(())
}

/// Seals `count` envelopes from the template, each with its own ReferenceNumber (≤ 20 chars:
/// "B" + 9 digits of the start time + 'L'/'M' + 9 digits of the index).
fn preseal(
    template: &Value,
    cert: &GatewayCertificate,
    profile: Profile,
    count: usize,
) -> anyhow::Result<Vec<SealedRequest>> {
    let Value::Object(map) = template else { bail!("the payload must be a JSON object") };
    // Random per run: two runs in the same second must not reuse references (error 108).
    let run: String =
        signet_server::secrets::random_token(9).chars().filter(char::is_ascii_alphanumeric).take(8).collect();
    let tag = if profile == Profile::Legacy { 'L' } else { 'M' };
    (0..count)
        .map(|i| {
            let mut payload = map.clone();
            payload.retain(|k, _| !k.eq_ignore_ascii_case("ReferenceNumber"));
            payload.insert("ReferenceNumber".into(), Value::String(format!("B{run:0>8}{tag}{i:09}")));
            seal_payload(cert, profile, &serde_json::to_vec(&payload)?)
        })
        .collect()
}

struct Counters {
    done: AtomicU64,
    failed: AtomicU64,
    next: AtomicUsize,
}

/// One request of the load: submission and page (or the whole transaction with `full`).
async fn one(http: &reqwest::Client, base: &str, sealed: &SealedRequest, full: bool) -> anyhow::Result<()> {
    let page = absolute(base, &post_index(http, base, sealed).await?);
    if full {
        let fields = sign_typed(http, &page, "Load Test").await?;
        if field(&fields, "ReturnStatus") != "Success" {
            bail!("{}", field(&fields, "ErrorMessage"));
        }
        open_result(&sealed.session, sealed.profile, field(&fields, "Returnvalue")).map_err(|e| anyhow!("{e}"))?;
    } else {
        let response = http.get(&page).send().await?;
        if !response.status().is_success() {
            bail!("signer page answered {}", response.status());
        }
        response.bytes().await?;
    }
    Ok(())
}

async fn load(args: LoadArgs) -> anyhow::Result<()> {
    let http = http_client()?;
    let base = args.url.trim_end_matches('/').to_owned();
    let cert = gateway_certificate(&http, &base, args.cert.as_deref()).await?;
    let template: Value = serde_json::from_slice(&read(&args.payload)?).context("the payload is not JSON")?;
    // Sealed before the clock starts: client-side RSA and AES must not count.
    let envelopes = Arc::new(preseal(&template, &cert, args.profile.profile(), args.envelopes)?);
    let counters = Arc::new(Counters { done: AtomicU64::new(0), failed: AtomicU64::new(0), next: AtomicUsize::new(0) });
    let first_error = Arc::new(std::sync::Mutex::new(None::<String>));
    let start = Instant::now();
    let deadline = start + Duration::from_secs(args.duration);
    let mut tasks = Vec::new();
    for client in 0..args.concurrency.max(1) {
        let http = if args.spread_addresses { client_from(client)? } else { http.clone() };
        let (base, envelopes, counters, first_error) =
            (base.clone(), envelopes.clone(), counters.clone(), first_error.clone());
        tasks.push(tokio::spawn(async move {
            while Instant::now() < deadline {
                let Some(sealed) = envelopes.get(counters.next.fetch_add(1, Ordering::Relaxed)) else { break };
                match one(&http, &base, sealed, args.full).await {
                    Ok(()) => counters.done.fetch_add(1, Ordering::Relaxed),
                    Err(e) => {
                        if let Ok(mut slot) = first_error.lock() {
                            slot.get_or_insert_with(|| e.to_string());
                        }
                        counters.failed.fetch_add(1, Ordering::Relaxed)
                    }
                };
            }
        }));
    }
    let flooded = Arc::new(AtomicU64::new(0));
    let flooders = flood(&args, &base, &cert, &template, deadline, flooded.clone())?;
    for task in tasks.into_iter().chain(flooders) {
        task.await?;
    }
    let elapsed = start.elapsed().as_secs_f64();
    let done = counters.done.load(Ordering::Relaxed);
    let report = json!({
        "profile": profile_name(args.profile.profile()),
        "mode": if args.full { "transaction" } else { "submission" },
        "concurrency": args.concurrency,
        "seconds": (elapsed * 100.0).round() / 100.0,
        "ok": done,
        "failed": counters.failed.load(Ordering::Relaxed),
        "per_second": ((done as f64 / elapsed) * 10.0).round() / 10.0,
        "exhausted": counters.next.load(Ordering::Relaxed) >= envelopes.len(),
        "first_error": first_error.lock().ok().and_then(|e| e.clone()),
        "flood_clients": args.flood,
        "flood_per_second": ((flooded.load(Ordering::Relaxed) as f64 / elapsed) * 10.0).round() / 10.0,
    });
    println!("{report}");
    Ok(())
}

/// 4 MB of zeros in a 7-zip archive of a few hundred bytes: far beyond any ratio limit.
fn seven_zip_bomb() -> anyhow::Result<Vec<u8>> {
    let zeros = vec![0u8; 4 * 1024 * 1024];
    let mut writer = sevenz_rust2::ArchiveWriter::new(std::io::Cursor::new(Vec::new()))?;
    writer.push_archive_entry(sevenz_rust2::ArchiveEntry::new_file("loan.pdf"), Some(zeros.as_slice()))?;
    Ok(writer.finish()?.into_inner())
}

/// Starts `args.flood` clients that post bomb-carrying envelopes with bogus Authtokens from
/// `args.flood_from` until `deadline`, counting the answers in `answered`.
fn flood(
    args: &LoadArgs,
    base: &str,
    cert: &GatewayCertificate,
    template: &Value,
    deadline: Instant,
    answered: Arc<AtomicU64>,
) -> anyhow::Result<Vec<tokio::task::JoinHandle<()>>> {
    if args.flood == 0 {
        return Ok(Vec::new());
    }
    let Value::Object(map) = template else { bail!("the payload must be a JSON object") };
    let bomb = STANDARD.encode(seven_zip_bomb()?);
    let mut payload = map.clone();
    payload.retain(|k, _| !["authtoken", "file", "iscompressed"].contains(&k.to_ascii_lowercase().as_str()));
    payload.insert("File".into(), Value::String(bomb));
    payload.insert("IsCompressed".into(), Value::Bool(true));
    // Sealed and form-encoded once: the flood's own cost per request is a copy of the bytes
    // (an attacker's machine pays for the encoding, not the one this benchmark runs on).
    let envelopes: Vec<bytes::Bytes> = (0..64)
        .map(|i| {
            let mut payload = payload.clone();
            payload.insert("Authtoken".into(), Value::String(format!("bogus-{i}")));
            let sealed: SealedRequest = seal_payload(cert, args.profile.profile(), &serde_json::to_vec(&payload)?)?;
            Ok(bytes::Bytes::from(serde_urlencoded::to_string(sealed.form_fields())?))
        })
        .collect::<anyhow::Result<_>>()?;
    let envelopes = Arc::new(envelopes);
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(120))
        .local_address(args.flood_from)
        .build()?;
    Ok((0..args.flood)
        .map(|client| {
            let (http, base, envelopes, answered) =
                (http.clone(), base.to_owned(), envelopes.clone(), answered.clone());
            tokio::spawn(async move {
                let mut i = client;
                while Instant::now() < deadline {
                    let body = envelopes[i % envelopes.len()].clone();
                    let sent = http
                        .post(format!("{base}{INDEX_PATH}"))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .body(body)
                        .send()
                        .await;
                    if let Ok(response) = sent {
                        let _ = response.bytes().await;
                        answered.fetch_add(1, Ordering::Relaxed);
                    }
                    i += 1;
                }
            })
        })
        .collect())
}
