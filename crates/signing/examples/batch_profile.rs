//! Per-document cost of in-memory PAdES B-B signing on one thread, split by appearance:
//! `cargo run --release -p signet-signing --example batch_profile`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Instant;

use signet_sigcrypto::pki::{KeyAlgo, LocalCa};
use signet_signing::{LocalKeySigner, PdfSignOptions, RawSigner, Visible};

fn one_page_pdf() -> Vec<u8> {
    let objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>",
    ];
    let mut pdf = b"%PDF-1.7\n".to_vec();
    let mut offsets = Vec::new();
    for (i, o) in objects.iter().enumerate() {
        offsets.push(pdf.len());
        pdf.extend_from_slice(format!("{} 0 obj\n{o}\nendobj\n", i + 1).as_bytes());
    }
    let xref = pdf.len();
    pdf.extend_from_slice(b"xref\n0 4\n0000000000 65535 f \n");
    for o in offsets {
        pdf.extend_from_slice(format!("{o:010} 00000 n \n").as_bytes());
    }
    pdf.extend_from_slice(format!("trailer\n<< /Size 4 /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n").as_bytes());
    pdf
}

fn main() {
    let ca = LocalCa::generate_with("CA", KeyAlgo::EcP256).unwrap();
    let ee = ca.issue_signer("Signer", KeyAlgo::Rsa2048).unwrap();
    let signer = LocalKeySigner::from_pkcs8(&ee.key_pkcs8_der, &ee.cert_der, vec![ca.cert_der().to_vec()]).unwrap();
    let pdf = one_page_pdf();
    let n = 400;
    let t = Instant::now();
    for _ in 0..n {
        signer.sign(b"x").unwrap();
    }
    println!("RSA-2048 sign alone:        {:.3} ms", t.elapsed().as_secs_f64() * 1e3 / n as f64);
    let cases = [
        ("invisible", None),
        ("visible, name only", Some(Visible { show_details: false, ..Default::default() })),
        ("visible, name + details", Some(Visible::default())),
    ];
    for (label, visible) in cases {
        let opts = PdfSignOptions { visible, reason: Some("Benchmark".into()), ..Default::default() };
        signet_signing::sign_pdf(&pdf, &signer, &opts).unwrap();
        let t = Instant::now();
        for _ in 0..n {
            signet_signing::sign_pdf(&pdf, &signer, &opts).unwrap();
        }
        println!("sign_pdf {label:24} {:.3} ms", t.elapsed().as_secs_f64() * 1e3 / n as f64);
    }
}
