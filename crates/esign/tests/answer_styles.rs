//! ESP answers signed in every style real ESPs sign in, taken by the ASP from the pinned ESP
//! certificate's key only, and every forgery of each still refused.
//!
//! The answers come from a generator written here from public texts, not from Signet's signer
//! nor its test ESP: the eSign 2.1 `EsignResp` (status, ts, txn, resCode, errCode, errMsg,
//! `UserX509Certificate`, `Signatures/DocSignature`), signed with an enveloped XML-DSig whose
//! canonical forms are written out by hand for this one document shape following the W3C
//! Canonical XML 1.0 and Exclusive XML Canonicalization 1.0 recommendations (attributes
//! sorted, empty elements expanded, comments dropped or kept, namespaces rendered where each
//! form says, the `xml:` attributes SignedInfo inherits under inclusive C14N). The document
//! is built so that the forms differ: its root declares a namespace nothing uses and carries
//! `xml:lang`, and SignedInfo holds a comment. xmlsec1 (libxml2's canonicaliser, another
//! implementation) verifies every generated answer, and an answer xmlsec1 signs from an
//! inclusive-C14N template is taken.
//!
//! Styles: C14N 1.0 inclusive and exclusive, each with and without comments; RSA-SHA1 over
//! SHA-1 (C-DAC's answers) and over SHA-256 (C-DAC's sample ASP), RSA-SHA256 and ECDSA-SHA256
//! over SHA-256; with and without KeyInfo; the `ds:` prefix or the default namespace; for
//! inclusive C14N, with the canonicalization transform or with the enveloped transform alone
//! (C-DAC). The signer's CMS inside is made with an RSA or an ECDSA P-256 key in turn.

use std::path::Path;
use std::process::Command;

use aws_lc_rs::rand::SystemRandom;
use aws_lc_rs::signature::{ECDSA_P256_SHA256_FIXED_SIGNING, EcdsaKeyPair, RSA_PKCS1_SHA256, RsaKeyPair};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as B64;
use signet_esign::asp::{self, EspTrust, Expected, Outcome, codes};
use signet_esign::{esp, format_ts};
use signet_sigcrypto::pki::{self, IssueOptions, IssuedCert, KeyAlgo, LocalCa};
use signet_sigcrypto::signer::LocalKeySigner;
use time::{Duration, OffsetDateTime};

const DSIG: &str = "http://www.w3.org/2000/09/xmldsig#";
/// A namespace the answer's root declares and nothing uses: exclusive C14N drops it, inclusive
/// C14N renders it on the root and on SignedInfo.
const EXT: &str = "urn:example:esp-extension";
const ENVELOPED: &str = "http://www.w3.org/2000/09/xmldsig#enveloped-signature";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum C14n {
    Inclusive,
    InclusiveWithComments,
    Exclusive,
    ExclusiveWithComments,
}

impl C14n {
    const ALL: [C14n; 4] = [C14n::Inclusive, C14n::InclusiveWithComments, C14n::Exclusive, C14n::ExclusiveWithComments];

    fn uri(self) -> &'static str {
        match self {
            C14n::Inclusive => "http://www.w3.org/TR/2001/REC-xml-c14n-20010315",
            C14n::InclusiveWithComments => "http://www.w3.org/TR/2001/REC-xml-c14n-20010315#WithComments",
            C14n::Exclusive => "http://www.w3.org/2001/10/xml-exc-c14n#",
            C14n::ExclusiveWithComments => "http://www.w3.org/2001/10/xml-exc-c14n#WithComments",
        }
    }

    fn inclusive(self) -> bool {
        matches!(self, C14n::Inclusive | C14n::InclusiveWithComments)
    }

    fn comments(self) -> bool {
        matches!(self, C14n::InclusiveWithComments | C14n::ExclusiveWithComments)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Method {
    RsaSha1,
    RsaSha256,
    EcdsaSha256,
}

impl Method {
    fn uri(self) -> &'static str {
        match self {
            Method::RsaSha1 => "http://www.w3.org/2000/09/xmldsig#rsa-sha1",
            Method::RsaSha256 => "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
            Method::EcdsaSha256 => "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Digest {
    Sha1,
    Sha256,
}

impl Digest {
    fn uri(self) -> &'static str {
        match self {
            Digest::Sha1 => "http://www.w3.org/2000/09/xmldsig#sha1",
            Digest::Sha256 => "http://www.w3.org/2001/04/xmlenc#sha256",
        }
    }

    fn of(self, data: &[u8]) -> Vec<u8> {
        let algorithm = match self {
            Digest::Sha1 => &aws_lc_rs::digest::SHA1_FOR_LEGACY_USE_ONLY,
            Digest::Sha256 => &aws_lc_rs::digest::SHA256,
        };
        aws_lc_rs::digest::digest(algorithm, data).as_ref().to_vec()
    }
}

/// The signature methods with the digests real ESPs pair them with.
const PAIRS: [(Method, Digest); 4] = [
    (Method::RsaSha1, Digest::Sha1),
    (Method::RsaSha1, Digest::Sha256),
    (Method::RsaSha256, Digest::Sha256),
    (Method::EcdsaSha256, Digest::Sha256),
];

#[derive(Debug, Clone, Copy)]
struct Style {
    c14n: C14n,
    method: Method,
    digest: Digest,
    key_info: bool,
    /// `ds:Signature xmlns:ds=…` rather than `Signature xmlns=…`.
    ds_prefix: bool,
    /// The Reference names its canonicalization; without, only the enveloped transform (the
    /// node-set then becomes octets by inclusive C14N, XML-DSig §4.3.3.2): C-DAC's answers.
    c14n_transform: bool,
}

impl Style {
    fn uses_sha1(&self) -> bool {
        self.method == Method::RsaSha1 || self.digest == Digest::Sha1
    }
}

fn styles() -> Vec<Style> {
    let mut out = Vec::new();
    for c14n in C14n::ALL {
        for (method, digest) in PAIRS {
            for key_info in [false, true] {
                let ds_prefix = out.len() % 2 == 1;
                out.push(Style { c14n, method, digest, key_info, ds_prefix, c14n_transform: true });
                if c14n == C14n::Inclusive {
                    out.push(Style { c14n, method, digest, key_info, ds_prefix, c14n_transform: false });
                }
            }
        }
    }
    out
}

/// A key an ESP signs answers with, and its certificate.
struct EspKey {
    issued: IssuedCert,
    ec: bool,
}

impl EspKey {
    /// The SignatureValue over `data`: PKCS#1 v1.5 with SHA-256 by aws-lc-rs, with SHA-1 by
    /// openssl (aws-lc-rs signs no SHA-1), ECDSA as r‖s (XML-DSig 1.1 §6.4.3).
    fn sign(&self, method: Method, data: &[u8], dir: &Path) -> Vec<u8> {
        match method {
            Method::RsaSha256 => {
                let key = RsaKeyPair::from_pkcs8(&self.issued.key_pkcs8_der).expect("rsa key");
                let mut out = vec![0; key.public_modulus_len()];
                key.sign(&RSA_PKCS1_SHA256, &SystemRandom::new(), data, &mut out).expect("sign");
                out
            }
            Method::EcdsaSha256 => {
                let key = EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &self.issued.key_pkcs8_der)
                    .expect("ec key");
                key.sign(&SystemRandom::new(), data).expect("sign").as_ref().to_vec()
            }
            Method::RsaSha1 => {
                let (key, input) = (dir.join("rsa-sha1.key"), dir.join("rsa-sha1.in"));
                std::fs::write(&key, pki::key_der_to_pem(&self.issued.key_pkcs8_der)).expect("write");
                std::fs::write(&input, data).expect("write");
                let out = Command::new("openssl")
                    .args(["dgst", "-sha1", "-sign"])
                    .arg(&key)
                    .arg(&input)
                    .output()
                    .expect("openssl runs");
                assert!(out.status.success(), "openssl: {}", String::from_utf8_lossy(&out.stderr));
                out.stdout
            }
        }
    }

    fn fits(&self, method: Method) -> bool {
        (method == Method::EcdsaSha256) == self.ec
    }
}

/// Everything an answer says; the signer's CMS comes from `esp::sign_hash` (the CCA CMS the
/// ASP checks), the XML around it and its signature from here.
struct Answer {
    txn: String,
    res_code: String,
    ts: OffsetDateTime,
    user_certificate: Vec<u8>,
    cms: Vec<u8>,
}

/// `<p:name attrs>content</p:name>`; as written by an ESP an empty element is `<p:name/>`,
/// in canonical form never.
fn element(prefix: &str, name: &str, attrs: &str, content: &str, canonical: bool) -> String {
    if content.is_empty() && !canonical {
        format!("<{prefix}{name}{attrs}/>")
    } else {
        format!("<{prefix}{name}{attrs}>{content}</{prefix}{name}>")
    }
}

/// SignedInfo as written (`canonical` false) or in the canonical form `style` gives it in
/// this document (its ancestors being EsignResp and Signature, `apex_open` its start tag).
fn signed_info(style: &Style, digest_b64: &str, canonical: bool) -> String {
    let p = if style.ds_prefix { "ds:" } else { "" };
    let comment = if !canonical || style.c14n.comments() { "<!-- answer of the example ESP -->" } else { "" };
    let mut transforms = element(p, "Transform", &format!(" Algorithm=\"{ENVELOPED}\""), "", canonical);
    if style.c14n_transform {
        transforms.push_str(&element(p, "Transform", &format!(" Algorithm=\"{}\"", style.c14n.uri()), "", canonical));
    }
    let inner = format!(
        "{}{}{comment}<{p}Reference URI=\"\"><{p}Transforms>{transforms}</{p}Transforms>{}<{p}DigestValue>{digest_b64}</{p}DigestValue></{p}Reference>",
        element(p, "CanonicalizationMethod", &format!(" Algorithm=\"{}\"", style.c14n.uri()), "", canonical),
        element(p, "SignatureMethod", &format!(" Algorithm=\"{}\"", style.method.uri()), "", canonical),
        element(p, "DigestMethod", &format!(" Algorithm=\"{}\"", style.digest.uri()), "", canonical),
    );
    // As written, SignedInfo declares nothing. Canonical: the apex renders the namespaces in
    // effect (inclusive: all in scope, the root's unused one included, sorted by prefix with
    // the default first; exclusive: the one its name uses) and, inclusive only, the xml:lang
    // it inherits from the root.
    let open = match (canonical, style.c14n.inclusive(), style.ds_prefix) {
        (false, _, _) => format!("<{p}SignedInfo>"),
        (true, true, false) => format!("<SignedInfo xmlns=\"{DSIG}\" xmlns:ext=\"{EXT}\" xml:lang=\"en\">"),
        (true, true, true) => format!("<ds:SignedInfo xmlns:ds=\"{DSIG}\" xmlns:ext=\"{EXT}\" xml:lang=\"en\">"),
        (true, false, false) => format!("<SignedInfo xmlns=\"{DSIG}\">"),
        (true, false, true) => format!("<ds:SignedInfo xmlns:ds=\"{DSIG}\">"),
    };
    format!("{open}{inner}</{p}SignedInfo>")
}

/// The body between the root's tags, already canonical in both forms (attributes in order,
/// double quotes, no empty elements).
fn body(a: &Answer) -> String {
    format!(
        "\n<UserX509Certificate>{}</UserX509Certificate>\n<Signatures><DocSignature error=\"NA\" id=\"1\" \
         sigHashAlgorithm=\"SHA256\">{}</DocSignature></Signatures>\n",
        B64.encode(&a.user_certificate),
        B64.encode(&a.cms)
    )
}

/// The answer signed in `style` with `key`, KeyInfo (when the style has one) naming `named`.
fn sign_answer(a: &Answer, style: &Style, key: &EspKey, named: &[u8], dir: &Path) -> Vec<u8> {
    let ts = format_ts(a.ts);
    // As an ESP writes it: attributes in its own order, single and double quotes.
    let root_written = format!(
        "<EsignResp txn='{}' xml:lang='en' status=\"1\" xmlns:ext=\"{EXT}\" errCode=\"NA\" errMsg='NA' resCode=\"{}\" ts=\"{ts}\">",
        a.txn, a.res_code
    );
    // Canonical: attributes sorted (no namespace first, then xml:lang), namespaces first;
    // exclusive drops the unused declaration.
    let ns =
        if style.c14n.inclusive() || !style.c14n_transform { format!(" xmlns:ext=\"{EXT}\"") } else { String::new() };
    let root_canonical = format!(
        "<EsignResp{ns} errCode=\"NA\" errMsg=\"NA\" resCode=\"{}\" status=\"1\" ts=\"{ts}\" txn=\"{}\" xml:lang=\"en\">",
        a.res_code, a.txn
    );
    // URI="" drops comments whatever the transform says (XML-DSig §4.4.3.3), and the
    // enveloped transform drops the Signature.
    let document_canonical = format!("{root_canonical}{}</EsignResp>", body(a));
    let digest_b64 = B64.encode(style.digest.of(document_canonical.as_bytes()));
    let signed_info_canonical = signed_info(style, &digest_b64, true);
    let value = key.sign(style.method, signed_info_canonical.as_bytes(), dir);
    let p = if style.ds_prefix { "ds:" } else { "" };
    let open = if style.ds_prefix {
        format!("<ds:Signature xmlns:ds=\"{DSIG}\">")
    } else {
        format!("<Signature xmlns=\"{DSIG}\">")
    };
    let key_info = if style.key_info {
        format!(
            "<{p}KeyInfo><{p}X509Data><{p}X509Certificate>{}</{p}X509Certificate></{p}X509Data></{p}KeyInfo>",
            B64.encode(named)
        )
    } else {
        String::new()
    };
    let signature = format!(
        "{open}{}<{p}SignatureValue>{}</{p}SignatureValue>{key_info}</{p}Signature>",
        signed_info(style, &digest_b64, false),
        B64.encode(value)
    );
    format!("{root_written}{}<!-- signed by the example ESP -->{signature}</EsignResp>", body(a)).into_bytes()
}

struct World {
    /// The CA of the ESP's response-signing certificates (for xmlsec1, which checks the
    /// certificate a KeyInfo carries).
    esp_ca: Vec<u8>,
    esp_rsa: EspKey,
    esp_ec: EspKey,
    attacker_rsa: EspKey,
    attacker_ec: EspKey,
    esign_ca: LocalCa,
    digest: [u8; 32],
}

fn world() -> World {
    let esp_ca = LocalCa::generate_with("Example ESP CA", KeyAlgo::Rsa2048).expect("ca");
    let other_ca = LocalCa::generate_with("Elsewhere CA", KeyAlgo::EcP256).expect("ca");
    let key = |ca: &LocalCa, name: &str, algo: KeyAlgo| EspKey {
        issued: ca.issue_signer(name, algo).expect("issue"),
        ec: algo == KeyAlgo::EcP256,
    };
    World {
        esp_ca: esp_ca.cert_der().to_vec(),
        esp_rsa: key(&esp_ca, "Example ESP response signing", KeyAlgo::Rsa2048),
        esp_ec: key(&esp_ca, "Example ESP response signing (EC)", KeyAlgo::EcP256),
        attacker_rsa: key(&other_ca, "Attacker", KeyAlgo::Rsa2048),
        attacker_ec: key(&other_ca, "Attacker (EC)", KeyAlgo::EcP256),
        esign_ca: LocalCa::generate_with("Test eSign CA", KeyAlgo::EcP256).expect("ca"),
        digest: pki::sha256(b"%PDF-1.7 the agreement's ByteRange"),
    }
}

/// A signed answer for `txn`, the signer's 30-minute certificate with an RSA or P-256 key.
fn answer(w: &World, txn: &str, ec_signer: bool) -> Answer {
    let options = IssueOptions { validity: Some(std::time::Duration::from_secs(30 * 60)), ..IssueOptions::default() };
    let algo = if ec_signer { KeyAlgo::EcP256 } else { KeyAlgo::Rsa2048 };
    let issued = w.esign_ca.issue_signer_with("Asha Verma", algo, &options).expect("signer");
    let signer =
        LocalKeySigner::from_pkcs8(&issued.key_pkcs8_der, &issued.cert_der, vec![w.esign_ca.cert_der().to_vec()])
            .expect("signer");
    let now = OffsetDateTime::now_utc();
    Answer {
        txn: txn.into(),
        res_code: "6c79b872-0f2e-4c2b-9f3a-3d1c1a0e9b10".into(),
        ts: now,
        cms: esp::sign_hash(&signer, &w.digest, now).expect("cms"),
        user_certificate: issued.cert_der,
    }
}

fn trust(esp: &EspKey, w: &World, allow_sha1: bool) -> EspTrust {
    EspTrust {
        esp_certificate: esp.issued.cert_der.clone(),
        esign_cas: vec![w.esign_ca.cert_der().to_vec()],
        allow_sha1,
    }
}

fn expected<'a>(txn: &'a str, digests: &'a [[u8; 32]]) -> Expected<'a> {
    let now = OffsetDateTime::now_utc();
    Expected { txn, digests, sent_at: now - Duration::seconds(30), max_age: Duration::minutes(30), now, raw: false }
}

fn forged(xml: &[u8], trust: &EspTrust, what: &str, style: &Style) {
    match asp::verify_answer(xml, trust) {
        Err(refusal) => assert_eq!(refusal.code, codes::FORGED, "{what} {style:?}: {}", refusal.message),
        Ok(()) => panic!("{what} was taken: {style:?}\n{}", String::from_utf8_lossy(xml)),
    }
}

fn xmlsec1_verifies(dir: &Path, xml: &[u8], cert_der: &[u8], ca_der: &[u8], style: &Style) {
    let (doc, cert, ca) = (dir.join("answer.xml"), dir.join("esp.pem"), dir.join("esp-ca.pem"));
    std::fs::write(&doc, xml).expect("write");
    std::fs::write(&cert, pki::cert_der_to_pem(cert_der)).expect("write");
    std::fs::write(&ca, pki::cert_der_to_pem(ca_der)).expect("write");
    let out = Command::new("xmlsec1")
        .args(["--verify", "--trusted-pem"])
        .arg(&ca)
        .arg("--pubkey-cert-pem")
        .arg(&cert)
        .arg(&doc)
        .output()
        .expect("xmlsec1 runs");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(
        out.status.success() && text.contains("OK"),
        "xmlsec1 refused {style:?}:\n{text}\n{}",
        String::from_utf8_lossy(xml)
    );
}

#[test]
fn answers_in_every_real_style_are_taken_and_every_forgery_of_each_refused() {
    let w = world();
    let dir = tempfile::tempdir().expect("tempdir");
    let digests = [w.digest];
    let all = styles();
    assert_eq!(all.len(), 40);
    for (i, style) in all.iter().enumerate() {
        let (esp, attacker) = if style.method == Method::EcdsaSha256 {
            (&w.esp_ec, &w.attacker_ec)
        } else {
            (&w.esp_rsa, &w.attacker_rsa)
        };
        assert!(esp.fits(style.method) && attacker.fits(style.method));
        let txn = format!("UKC:eSign:5959:{i:04}");
        let a = answer(&w, &txn, i % 2 == 0);
        let genuine = sign_answer(&a, style, esp, &esp.issued.cert_der, dir.path());
        xmlsec1_verifies(dir.path(), &genuine, &esp.issued.cert_der, &w.esp_ca, style);

        // Taken: the XML signature, then the whole answer (the signer's CMS, RSA or P-256).
        let allowing = trust(esp, &w, true);
        asp::verify_answer(&genuine, &allowing).unwrap_or_else(|e| panic!("{style:?} refused: {e}"));
        match asp::check_response(&genuine, &allowing, &expected(&txn, &digests)) {
            Ok(Outcome::Signed(signed)) => assert_eq!(signed.signer_certificate, a.user_certificate),
            other => panic!("{style:?}: {other:?}"),
        }

        // SHA-1 while the ESP's configuration does not allow it; SHA-2 answers are unaffected.
        let strict = trust(esp, &w, false);
        if style.uses_sha1() {
            forged(&genuine, &strict, "SHA-1 while disallowed", style);
        } else {
            asp::verify_answer(&genuine, &strict).unwrap_or_else(|e| panic!("{style:?} refused: {e}"));
        }

        // A byte of the signed content changed (resCode, then the signer's CMS).
        let text = String::from_utf8(genuine.clone()).expect("utf8");
        forged(text.replacen("resCode=\"6c79", "resCode=\"7c79", 1).as_bytes(), &allowing, "changed resCode", style);
        let cms_b64 = B64.encode(&a.cms);
        let last = cms_b64.len() - 8;
        let mut cms_changed = cms_b64.clone();
        cms_changed.replace_range(last..last + 1, if &cms_b64[last..last + 1] == "A" { "B" } else { "A" });
        forged(text.replacen(&cms_b64, &cms_changed, 1).as_bytes(), &allowing, "changed CMS", style);

        // The comment in SignedInfo is signed with the WithComments forms only.
        let recommented = text.replacen("answer of the example ESP", "answer of another ESP", 1);
        if style.c14n.comments() {
            forged(recommented.as_bytes(), &allowing, "changed SignedInfo comment", style);
        } else {
            asp::verify_answer(recommented.as_bytes(), &allowing).unwrap_or_else(|e| panic!("{style:?}: {e}"));
        }

        // Signed by another key: naming the ESP's certificate or, without KeyInfo, nothing.
        let by_attacker = sign_answer(&a, style, attacker, &esp.issued.cert_der, dir.path());
        forged(&by_attacker, &allowing, "signed by another key", style);

        // KeyInfo naming another certificate over the ESP's own signature.
        if style.key_info {
            let renamed = text.replacen(&B64.encode(&esp.issued.cert_der), &B64.encode(&attacker.issued.cert_der), 1);
            forged(renamed.as_bytes(), &allowing, "KeyInfo naming another certificate", style);
            let by_attacker_naming_itself = sign_answer(&a, style, attacker, &attacker.issued.cert_der, dir.path());
            forged(&by_attacker_naming_itself, &allowing, "another key naming itself", style);
        }
    }
}

#[test]
fn a_keyinfo_may_carry_the_esp_certificate_with_its_chain_but_not_another_signer() {
    let w = world();
    let dir = tempfile::tempdir().expect("tempdir");
    let style = Style {
        c14n: C14n::Exclusive,
        method: Method::RsaSha256,
        digest: Digest::Sha256,
        key_info: true,
        ds_prefix: true,
        c14n_transform: true,
    };
    let a = answer(&w, "TXN-CHAIN", true);
    let text =
        String::from_utf8(sign_answer(&a, &style, &w.esp_rsa, &w.esp_rsa.issued.cert_der, dir.path())).expect("utf8");
    let with = |extra: &[u8]| {
        let cert = format!("<ds:X509Certificate>{}</ds:X509Certificate>", B64.encode(&w.esp_rsa.issued.cert_der));
        text.replacen(&cert, &format!("{cert}<ds:X509Certificate>{}</ds:X509Certificate>", B64.encode(extra)), 1)
    };
    let allowing = trust(&w.esp_rsa, &w, true);
    asp::verify_answer(with(w.esign_ca.cert_der()).as_bytes(), &allowing).expect("a CA beside the ESP's certificate");
    forged(with(&w.attacker_ec.issued.cert_der).as_bytes(), &allowing, "another signer beside the ESP's", &style);
}

/// C-DAC's staging answer as xmlsec1 signs it from a template: inclusive C14N 1.0 named only in
/// SignedInfo, the enveloped transform alone, RSA-SHA1 over SHA-1, no KeyInfo; the same with
/// comments, RSA-SHA256 and the certificate in KeyInfo; and exclusive C14N with an
/// InclusiveNamespaces PrefixList (as Java signers write it) naming the root's unused
/// namespace and the default one. Input made by another tool, read by Signet's canonicaliser.
#[test]
fn answers_xmlsec1_signs_are_taken() {
    let w = world();
    let dir = tempfile::tempdir().expect("tempdir");
    let (key, cert) = (dir.path().join("esp.key"), dir.path().join("esp.pem"));
    std::fs::write(&key, pki::key_der_to_pem(&w.esp_rsa.issued.key_pkcs8_der)).expect("write");
    std::fs::write(&cert, pki::cert_der_to_pem(&w.esp_rsa.issued.cert_der)).expect("write");
    let digests = [w.digest];
    let templates = [
        (C14n::Inclusive, Method::RsaSha1, Digest::Sha1, false, false, ""),
        (C14n::InclusiveWithComments, Method::RsaSha256, Digest::Sha256, true, true, ""),
        (C14n::Exclusive, Method::RsaSha256, Digest::Sha256, true, false, "ext #default"),
    ];
    for (n, (c14n, method, digest, transform, key_info, prefix_list)) in templates.into_iter().enumerate() {
        let txn = format!("CDAC-STYLE-{n}");
        let a = answer(&w, &txn, n == 0);
        let prefixes = if prefix_list.is_empty() {
            String::new()
        } else {
            format!("<ec:InclusiveNamespaces xmlns:ec=\"{}\" PrefixList=\"{prefix_list}\"/>", C14n::Exclusive.uri())
        };
        let c14n_transform = if transform {
            format!("<Transform Algorithm=\"{}\">{prefixes}</Transform>", c14n.uri())
        } else {
            String::new()
        };
        let key_info_template = if key_info { "<KeyInfo><X509Data/></KeyInfo>" } else { "" };
        let template = format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<EsignResp xmlns:ext=\"{EXT}\" xml:lang=\"en\" errCode=\"NA\" \
             errMsg=\"NA\" resCode=\"{}\" status=\"1\" ts=\"{}\" txn=\"{txn}\">{}<!-- c -->\
             <Signature xmlns=\"{DSIG}\"><SignedInfo><CanonicalizationMethod Algorithm=\"{}\">{prefixes}</CanonicalizationMethod>\
             <SignatureMethod Algorithm=\"{}\"/><Reference URI=\"\"><Transforms><Transform Algorithm=\"{ENVELOPED}\"/>\
             {c14n_transform}</Transforms><DigestMethod Algorithm=\"{}\"/><DigestValue/></Reference></SignedInfo>\
             <SignatureValue/>{key_info_template}</Signature></EsignResp>\n",
            a.res_code,
            format_ts(a.ts),
            body(&a),
            c14n.uri(),
            method.uri(),
            digest.uri(),
        );
        let (input, output) = (dir.path().join("template.xml"), dir.path().join("signed.xml"));
        std::fs::write(&input, template).expect("write");
        let out = Command::new("xmlsec1")
            .args(["--sign", "--privkey-pem"])
            .arg(format!("{},{}", key.display(), cert.display()))
            .arg("--output")
            .arg(&output)
            .arg(&input)
            .output()
            .expect("xmlsec1 runs");
        assert!(out.status.success(), "xmlsec1 --sign: {}", String::from_utf8_lossy(&out.stderr));
        let signed = std::fs::read(&output).expect("signed");
        let signed_text = String::from_utf8_lossy(&signed).to_string();
        assert_eq!(signed_text.contains("<X509Certificate>"), key_info, "{signed_text}");

        let allowing = trust(&w.esp_rsa, &w, true);
        match asp::check_response(&signed, &allowing, &expected(&txn, &digests)) {
            Ok(Outcome::Signed(_)) => {}
            other => panic!("xmlsec1's {c14n:?} answer: {other:?}\n{signed_text}"),
        }
        let tampered = signed_text.replacen("xml:lang=\"en\"", "xml:lang=\"hi\"", 1);
        let style = Style { c14n, method, digest, key_info, ds_prefix: false, c14n_transform: transform };
        forged(tampered.as_bytes(), &allowing, "xmlsec1's answer with xml:lang changed", &style);
        if method == Method::RsaSha1 {
            forged(&signed, &trust(&w.esp_rsa, &w, false), "xmlsec1's SHA-1 answer while disallowed", &style);
        }
    }
}
