//! Fuzz opening a gateway request envelope (`Parameter1..3`, `Profile`) with a fixed test key
//! (fuzz/keys/gateway-test-key.pk8, test use only), then reading the payload it carries.
//!
//! The first byte picks a mode:
//! * 0: everything from the input: `Profile`, `Parameter1`, `Parameter2`, `Parameter3` as text
//!   (base64 decoding, length checks, RSA unwrap of garbage);
//! * 1/2: legacy/modern profile with a correctly wrapped fixed session key and the rest of the
//!   input as the plaintext JSON payload, sealed with the profile's cipher (so the fuzzer
//!   reaches JSON, `Timestamp` and payload checks), with or without a correct Parameter3;
//! * 3/4: legacy/modern with a correctly wrapped key and the rest as the raw ciphertext
//!   (padding, GCM tag, length handling of the decryption).
//! Also the client side: `open_result` / `open_hash_result` on the input as a Returnvalue.
//! Any input must give Ok or a readable Err, never a panic.
#![no_main]

use std::sync::OnceLock;

use aws_lc_rs::rsa::{OAEP_SHA256_MGF1SHA256, OaepPublicEncryptingKey, Pkcs1PublicEncryptingKey, PublicEncryptingKey};
use libfuzzer_sys::fuzz_target;
use signet_gateway::{
    DEFAULT_WINDOW, GatewayKey, Profile, RawParams, SessionKey, b64_encode, open_hash_result, open_request,
    open_result, parse_payload, sha256,
};
use time::OffsetDateTime;

struct Fixture {
    key: GatewayKey,
    session: SessionKey,
    /// The session key wrapped with PKCS#1 v1.5 (legacy) and OAEP (modern), base64.
    p1_legacy: String,
    p1_modern: String,
    now: OffsetDateTime,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let key = GatewayKey::from_pkcs8_der(include_bytes!("../keys/gateway-test-key.pk8")).expect("test key");
        let session = SessionKey::from_bytes([7u8; 32]);
        let public = || PublicEncryptingKey::from_der(key.public_key_der()).expect("public key");
        let pkcs1 = Pkcs1PublicEncryptingKey::new(public()).expect("pkcs1");
        let mut out = vec![0u8; pkcs1.ciphertext_size()];
        let p1_legacy = b64_encode(pkcs1.encrypt(session.as_bytes(), &mut out).expect("wrap"));
        let oaep = OaepPublicEncryptingKey::new(public()).expect("oaep");
        let mut out = vec![0u8; oaep.ciphertext_size()];
        let p1_modern =
            b64_encode(oaep.encrypt(&OAEP_SHA256_MGF1SHA256, session.as_bytes(), &mut out, None).expect("wrap"));
        // The seeds' modern payloads carry "Timestamp": "2026-01-01T00:00:00Z".
        let now = OffsetDateTime::from_unix_timestamp(1_767_225_600).expect("time");
        Fixture { key, session, p1_legacy, p1_modern, now }
    })
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn open_and_read(f: &Fixture, params: &RawParams) {
    if let Ok(opened) = open_request(params, &f.key, f.now, DEFAULT_WINDOW) {
        let _ = parse_payload(&opened.payload_json);
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else { return };
    let f = fixture();
    match mode % 5 {
        0 => {
            // Profile \0 Parameter1 \0 Parameter2 [\0 Parameter3]
            let mut parts = rest.splitn(4, |b| *b == 0);
            let profile = parts.next().map(text).filter(|s| !s.is_empty());
            let p1 = parts.next().map(text).unwrap_or_default();
            let p2 = parts.next().map(text).unwrap_or_default();
            let p3 = parts.next().map(text);
            open_and_read(f, &RawParams { p1, p2, p3, profile });
        }
        m @ (1 | 2) => {
            let (profile, p1) = if m == 1 {
                (Profile::Legacy, &f.p1_legacy)
            } else {
                (Profile::Modern, &f.p1_modern)
            };
            let body = f.session.encrypt(profile, rest).expect("encrypt");
            let p3 = (rest.len() % 2 == 0)
                .then(|| b64_encode(&f.session.encrypt(profile, &sha256(rest)).expect("encrypt hash")));
            let params = RawParams { p1: p1.clone(), p2: b64_encode(&body), p3, profile: profile.param().map(Into::into) };
            open_and_read(f, &params);
        }
        m => {
            let (profile, p1) = if m == 3 {
                (Profile::Legacy, &f.p1_legacy)
            } else {
                (Profile::Modern, &f.p1_modern)
            };
            let params = RawParams { p1: p1.clone(), p2: b64_encode(rest), p3: None, profile: profile.param().map(Into::into) };
            open_and_read(f, &params);
        }
    }
    // The client side reads the gateway's Returnvalue.
    let returnvalue = text(rest);
    let profile = if mode & 0x80 == 0 { Profile::Legacy } else { Profile::Modern };
    let _ = open_result(&f.session, profile, &returnvalue);
    let _ = open_hash_result(&f.session, profile, &returnvalue);
});
