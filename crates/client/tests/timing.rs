//! A rough check (ignored by default, run by hand) that a legacy request with a valid PKCS#1
//! padding and one with an invalid padding take the same time to be refused: both run RSA,
//! HMAC and the AES/JSON step. Not a proof of constant time; a smoke test for the code path.
//! Run: cargo test -p signet-client --test timing -- --ignored --nocapture

use std::time::Instant;

use signet_client::{GatewayCertificate, Profile, seal_request};
use signet_gateway::{DEFAULT_WINDOW, GatewayKey, KeyBits, RawParams, b64_decode_lenient, b64_encode, open_request};
use time::OffsetDateTime;

fn median_micros(mut f: impl FnMut(), rounds: usize) -> f64 {
    let mut times: Vec<f64> = (0..rounds)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[rounds / 2]
}

#[test]
#[ignore = "timing smoke test, run by hand"]
fn padding_failure_costs_the_same_as_a_bad_payload() {
    let key = GatewayKey::generate(KeyBits::Rsa3072, "timing", 1).expect("keygen");
    let cert = GatewayCertificate::from_der(key.certificate_der().expect("der")).expect("cert");
    let sealed = seal_request(&cert, Profile::Legacy, b"{\"a\":1}", OffsetDateTime::now_utc()).expect("seal");
    // Valid padding, payload encrypted under another key: fails at AES/JSON.
    let garbage_p2 = b64_encode(&[0x33u8; 4096]);
    let valid_padding = RawParams { p1: sealed.parameter1.clone(), p2: garbage_p2.clone(), p3: None, profile: None };
    // Invalid padding (random-looking ciphertext): implicit rejection, fails at AES/JSON.
    let mut raw = b64_decode_lenient(&sealed.parameter1).expect("b64");
    raw[5] ^= 0x40;
    let bad_padding = RawParams { p1: b64_encode(&raw), p2: garbage_p2, p3: None, profile: None };
    let now = OffsetDateTime::now_utc();
    let run = |p: &RawParams| assert!(open_request(p, &key, now, DEFAULT_WINDOW).is_err());
    for _ in 0..50 {
        run(&valid_padding);
        run(&bad_padding);
    }
    let a = median_micros(|| run(&valid_padding), 2000);
    let b = median_micros(|| run(&bad_padding), 2000);
    eprintln!(
        "median: valid padding {a:.1} µs, invalid padding {b:.1} µs, difference {:.2}%",
        (a - b).abs() / a * 100.0
    );
    assert!((a - b).abs() / a < 0.05, "medians differ by more than 5%");
}
