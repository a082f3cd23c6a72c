//! XML-DSig / XAdES output verified by xmlsec1; our C14N compared with lxml's exclusive C14N.
mod common;
use common::*;

use signet_sigcrypto::pki::KeyAlgo;
use signet_sigcrypto::signer::LocalKeySigner;
use signet_sigcrypto::verify::{TrustStore, VerifyOptions};
use signet_sigcrypto::xml;
use signet_sigcrypto::xmldsig::{self, XmlSignOptions};

/// Documents that exercise C14N: namespaces, default ns, prefixes, CDATA, entities,
/// attributes with <>&", CRLF, comments, whitespace, PIs, BOM, self-closing root.
fn corpus() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("simple", b"<Invoice><Total currency=\"EUR\">12.50</Total></Invoice>".to_vec()),
        ("decl_and_ws", b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<a>\n  <b>text</b>\n\t<c  x = 'y' />\n</a>\n".to_vec()),
        ("default_ns", b"<inv:Invoice xmlns:inv=\"urn:example:invoice\" xmlns=\"urn:default\" xmlns:unused=\"urn:unused\"><Line no=\"1\"><inv:Amount>5</inv:Amount></Line><x xmlns=\"\"/></inv:Invoice>".to_vec()),
        ("prefixed_attrs", b"<r xmlns:a=\"urn:a\" xmlns:b=\"urn:b\"><e b:z=\"1\" a:y=\"2\" x=\"3\" xml:lang=\"en\"/></r>".to_vec()),
        ("cdata_entities", b"<r><t><![CDATA[<not & markup>]]></t><u>&lt;&amp;&gt;&quot;&apos;&#x20AC;&#65;</u></r>".to_vec()),
        ("attr_escapes", b"<r a=\"&lt;&gt;&amp;&quot;'\" b='\"' c=\"line&#10;break&#9;tab&#13;cr\"/>".to_vec()),
        ("crlf", b"<r>\r\n<a>one\r\ntwo\rthree</a>\r\n</r>\r\n".to_vec()),
        ("comments_pis", b"<?xml version=\"1.0\"?>\n<?xml-stylesheet href=\"s.xsl\" type=\"text/xsl\"?>\n<!-- head --><r><!-- inner --><?app data?><a/></r><!-- tail -->\n".to_vec()),
        ("bom_unicode", "\u{feff}<r><n\u{e4}me>Gr\u{fc}\u{df}e \u{928}\u{92e}\u{938}\u{94d}\u{924}\u{947}</n\u{e4}me></r>".as_bytes().to_vec()),
        ("self_closing_root", b"<root attr=\"v\"/>".to_vec()),
        ("nested_redeclare", b"<a:r xmlns:a=\"urn:1\"><a:s xmlns:a=\"urn:2\"><a:t/></a:s><a:u/></a:r>".to_vec()),
    ]
}

fn signer(pki: &Pki) -> LocalKeySigner {
    LocalKeySigner::from_pkcs8(&pki.signer.key_pkcs8_der, &pki.signer.cert_der, vec![pki.ca.cert_der().to_vec()])
        .expect("signer")
}

fn xmlsec_verify(pki: &Pki, file: &str, xades: bool) -> (bool, String) {
    let mut args = vec!["--verify", "--trusted-pem", "ca.pem"];
    if xades {
        args.extend(["--id-attr:Id", "http://uri.etsi.org/01903/v1.3.2#:SignedProperties"]);
    }
    args.push(file);
    let o = run(pki.dir.path(), "xmlsec1", &args);
    let t = text(&o);
    (o.status.success() && t.contains("OK"), t)
}

#[test]
fn enveloped_signatures_verify_in_xmlsec1() -> TestResult {
    for algo in [KeyAlgo::Rsa2048, KeyAlgo::EcP256] {
        let pki = Pki::new(algo);
        let s = signer(&pki);
        let trust = TrustStore::from_pem(pki.ca.cert_pem().as_bytes())?;
        for (name, doc) in corpus() {
            let signed = xmldsig::sign_enveloped(&doc, &s, &XmlSignOptions::default())?;
            let file = format!("{name}.xml");
            pki.write(&file, &signed);
            let (ok, out) = xmlsec_verify(&pki, &file, false);
            assert!(ok, "{algo:?} {name}: {out}\n{}", String::from_utf8_lossy(&signed));
            assert!(out.contains("SignedInfo References (ok/all): 1/1"), "{out}");
            let rep = xmldsig::verify_enveloped(&signed, &trust, &VerifyOptions::default())?;
            assert!(rep.valid, "{name}: {rep:#?}");
            // The original bytes are kept outside the inserted Signature.
            if !doc.ends_with(b"/>") {
                let start = signed.windows(13).position(|w| w == b"<ds:Signature").unwrap_or(0);
                let end_tag = b"</ds:Signature>";
                let end = signed.windows(end_tag.len()).position(|w| w == end_tag).unwrap_or(0) + end_tag.len();
                let mut rest = signed[..start].to_vec();
                rest.extend_from_slice(&signed[end..]);
                assert_eq!(rest, doc, "{name}");
            }
        }
    }
    Ok(())
}

#[test]
fn xades_bes_verifies_in_xmlsec1() -> TestResult {
    let pki = Pki::new(KeyAlgo::Rsa2048);
    let s = signer(&pki);
    let trust = TrustStore::from_pem(pki.ca.cert_pem().as_bytes())?;
    for (name, doc) in corpus() {
        let signed = xmldsig::sign_enveloped(&doc, &s, &XmlSignOptions::xades())?;
        let file = format!("xades_{name}.xml");
        pki.write(&file, &signed);
        let (ok, out) = xmlsec_verify(&pki, &file, true);
        assert!(ok, "{name}: {out}\n{}", String::from_utf8_lossy(&signed));
        assert!(out.contains("SignedInfo References (ok/all): 2/2"), "{out}");
        let rep = xmldsig::verify_enveloped(&signed, &trust, &VerifyOptions::default())?;
        assert!(rep.valid && rep.signatures[0].xades && rep.signatures[0].signing_time.is_some(), "{rep:#?}");
    }
    Ok(())
}

#[test]
fn tampering_is_detected_by_xmlsec1_and_us() -> TestResult {
    let pki = Pki::new(KeyAlgo::Rsa2048);
    let s = signer(&pki);
    let trust = TrustStore::from_pem(pki.ca.cert_pem().as_bytes())?;
    let signed = xmldsig::sign_enveloped(b"<Invoice><Total>12.50</Total></Invoice>", &s, &XmlSignOptions::xades())?;
    let text = String::from_utf8(signed)?;
    let cases = [
        ("content", text.replace("12.50", "99.99")),
        ("signing_time", {
            let i = text.find("<xades:SigningTime>").unwrap_or(0) + "<xades:SigningTime>".len();
            let mut t = text.clone();
            t.replace_range(i..i + 4, "1999");
            t
        }),
    ];
    for (what, bad) in cases {
        let file = format!("bad_{what}.xml");
        pki.write(&file, &bad);
        let (ok, out) = xmlsec_verify(&pki, &file, true);
        assert!(!ok, "xmlsec1 accepted tampered {what}: {out}");
        let rep = xmldsig::verify_enveloped(bad.as_bytes(), &trust, &VerifyOptions::default())?;
        assert!(!rep.valid, "we accepted tampered {what}");
    }
    // A second enveloped signature would break the first: refused.
    assert!(xmldsig::sign_enveloped(text.as_bytes(), &s, &XmlSignOptions::default()).is_err());
    // Untrusted signer.
    let rep = xmldsig::verify_enveloped(text.as_bytes(), &TrustStore::empty(), &VerifyOptions::default())?;
    assert!(!rep.valid && rep.signatures[0].intact);
    Ok(())
}

#[test]
fn xmlsec1_signatures_verify_here() -> TestResult {
    for (algo, method) in [
        (KeyAlgo::Rsa2048, "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"),
        (KeyAlgo::EcP256, "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256"),
    ] {
        let pki = Pki::new(algo);
        let tmpl = format!(
            "<doc xmlns:p=\"urn:p\"><p:item>v</p:item><Signature xmlns=\"http://www.w3.org/2000/09/xmldsig#\"><SignedInfo>\
<CanonicalizationMethod Algorithm=\"http://www.w3.org/2001/10/xml-exc-c14n#\"/>\
<SignatureMethod Algorithm=\"{method}\"/>\
<Reference URI=\"\"><Transforms><Transform Algorithm=\"http://www.w3.org/2000/09/xmldsig#enveloped-signature\"/>\
<Transform Algorithm=\"http://www.w3.org/2001/10/xml-exc-c14n#\"/></Transforms>\
<DigestMethod Algorithm=\"http://www.w3.org/2001/04/xmlenc#sha256\"/><DigestValue/></Reference></SignedInfo>\
<SignatureValue/><KeyInfo><X509Data/></KeyInfo></Signature></doc>"
        );
        pki.write("tmpl.xml", tmpl);
        let o = run(
            pki.dir.path(),
            "xmlsec1",
            &["--sign", "--privkey-pem", "signer.key,signer.pem", "--output", "out.xml", "tmpl.xml"],
        );
        assert!(o.status.success(), "{}", text(&o));
        let signed = std::fs::read(pki.path("out.xml"))?;
        let trust = TrustStore::from_pem(pki.ca.cert_pem().as_bytes())?;
        let rep = xmldsig::verify_enveloped(&signed, &trust, &VerifyOptions::default())?;
        assert!(rep.valid, "{algo:?} {rep:#?}\n{}", String::from_utf8_lossy(&signed));
    }
    Ok(())
}

#[test]
fn c14n_matches_lxml_exclusive() -> TestResult {
    let dir = tempfile::tempdir()?;
    let script = "import sys\nfrom lxml import etree\n\
p=etree.XMLParser(remove_comments=False, resolve_entities=False)\n\
t=etree.parse(sys.argv[1], p)\n\
sys.stdout.buffer.write(etree.tostring(t, method='c14n', exclusive=True, with_comments=False))\n";
    for (name, doc) in corpus() {
        let f = dir.path().join(format!("{name}.xml"));
        std::fs::write(&f, &doc)?;
        let o = std::process::Command::new("python3").args(["-c", script]).arg(&f).output()?;
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let ours = xml::canonicalize(&doc)?;
        assert_eq!(ours, String::from_utf8(o.stdout)?, "{name}");
    }
    Ok(())
}

/// Inclusive C14N 1.0 of whole documents, with and without comments, against libxml2's (through
/// lxml): every in-scope namespace rendered where it is not yet in effect, unused ones included,
/// `xmlns=""` only where a default was in effect.
#[test]
fn c14n_matches_lxml_inclusive() -> TestResult {
    let dir = tempfile::tempdir()?;
    let script = "import sys\nfrom lxml import etree\n\
p=etree.XMLParser(remove_comments=False, resolve_entities=False)\n\
t=etree.parse(sys.argv[1], p)\n\
sys.stdout.buffer.write(etree.tostring(t, method='c14n', exclusive=False, with_comments=sys.argv[2]=='1'))\n";
    let mut docs = corpus();
    docs.push((
        "inherited_ns",
        b"<r xmlns=\"urn:d\" xmlns:p=\"urn:p\" xml:lang=\"hi\"><!-- c --><s xmlns:q=\"urn:q\"><t xmlns=\"\" xmlns:p=\"urn:p\"/></s></r>".to_vec(),
    ));
    for (name, doc) in docs {
        let f = dir.path().join(format!("{name}.xml"));
        std::fs::write(&f, &doc)?;
        for with_comments in [false, true] {
            let flag = if with_comments { "1" } else { "0" };
            let o = std::process::Command::new("python3").args(["-c", script]).arg(&f).arg(flag).output()?;
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            let ours = xml::canonicalize_inclusive(&doc, with_comments)?;
            assert_eq!(ours, String::from_utf8(o.stdout)?, "{name} (comments: {with_comments})");
        }
    }
    Ok(())
}

#[test]
fn bad_xml_is_an_error() {
    let pki = Pki::new(KeyAlgo::EcP256);
    let s = signer(&pki);
    for bad in [
        &b""[..],
        b"<a>",
        b"<a></b>",
        b"not xml",
        b"<a/><b/>",
        b"<!DOCTYPE a [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><a>&x;</a>",
        b"\xff\xfe<\x00a\x00/\x00>\x00",
        b"<a x='1' x='2'/>",
        b"<p:a/>",
    ] {
        assert!(
            xmldsig::sign_enveloped(bad, &s, &XmlSignOptions::default()).is_err(),
            "{}",
            String::from_utf8_lossy(bad)
        );
        assert!(xmldsig::verify_enveloped(bad, &TrustStore::empty(), &VerifyOptions::default()).is_err());
    }
    assert!(xmldsig::verify_enveloped(b"<a/>", &TrustStore::empty(), &VerifyOptions::default()).is_err());
}

/// A deferred signature as Aadhaar eSign makes it for XML: the hash of the SignedInfo goes out,
/// a raw RSA signature and the certificate come back.
#[test]
fn deferred_rsa_signatures_verify_in_xmlsec1_and_refuse_a_foreign_signature() -> TestResult {
    use aws_lc_rs::digest::{Digest, SHA256};
    use aws_lc_rs::signature::{RSA_PKCS1_SHA256, RsaKeyPair};
    let pki = Pki::new(KeyAlgo::Rsa2048);
    let key = RsaKeyPair::from_pkcs8(&pki.signer.key_pkcs8_der).map_err(|_| "key")?;
    let chain = vec![pki.ca.cert_der().to_vec()];
    let sign_hash = |hash: &[u8; 32]| -> Vec<u8> {
        let digest = Digest::import_less_safe(hash, &SHA256).expect("digest");
        let mut out = vec![0; key.public_modulus_len()];
        key.sign_digest(&RSA_PKCS1_SHA256, &digest, &mut out).expect("sign");
        out
    };
    let trust = TrustStore::from_pem(pki.ca.cert_pem().as_bytes())?;
    for (name, doc) in corpus() {
        // Plain (the certificate comes with the signature) and XAdES-BES (known beforehand).
        for xades in [false, true] {
            let prepared = if xades {
                xmldsig::prepare_enveloped_rsa_xades(&doc, &pki.signer.cert_der)?
            } else {
                xmldsig::prepare_enveloped_rsa(&doc)?
            };
            let signature = sign_hash(&prepared.signed_info_sha256);
            let signed = xmldsig::complete_enveloped_rsa(&doc, &prepared, &signature, &pki.signer.cert_der, &chain)?;
            let file = format!("deferred-{name}-{xades}.xml");
            pki.write(&file, &signed);
            let (ok, out) = xmlsec_verify(&pki, &file, xades);
            assert!(ok, "{name}: {out}");
            let rep = xmldsig::verify_enveloped(&signed, &trust, &VerifyOptions::default())?;
            assert!(rep.valid && rep.signatures[0].xades == xades, "{name}: {rep:#?}");
        }
    }

    // A signature over something else, or with another key, is refused.
    let doc = corpus().remove(0).1;
    let prepared = xmldsig::prepare_enveloped_rsa(&doc)?;
    let wrong = sign_hash(&[7u8; 32]);
    assert!(xmldsig::complete_enveloped_rsa(&doc, &prepared, &wrong, &pki.signer.cert_der, &chain).is_err());
    let other = Pki::new(KeyAlgo::Rsa2048);
    let right = sign_hash(&prepared.signed_info_sha256);
    assert!(xmldsig::complete_enveloped_rsa(&doc, &prepared, &right, &other.signer.cert_der, &chain).is_err());
    Ok(())
}
