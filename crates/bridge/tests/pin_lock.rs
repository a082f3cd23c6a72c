//! A token that locks after too many wrong PINs, as USB tokens do. SoftHSM2 never locks, so
//! the bridge loads the PIN lock shim (`common/pin_lock_shim.c`, built here with `cc`) in
//! front of it: the shim counts SoftHSM2's CKR_PIN_INCORRECT answers in a file, reports the
//! count through the token's user PIN flags, and answers CKR_PIN_LOCKED to every login once
//! the count reaches the limit.

mod common;

use std::process::Output;

use common::{ORIGIN, PIN, bridge_on, certificates, json_of, serve, token};
use serde_json::{Value, json};
use signet_sigcrypto::pki;

const TRIES: u32 = 3;
const WRONG: &str = "000000";

/// A refusal of `signet-bridge sign`: exit 1, nothing on stdout, one line on stderr.
fn refusal(output: &Output) -> String {
    let stderr = String::from_utf8_lossy(&output.stderr).trim().to_string();
    assert!(!output.status.success(), "{stderr}");
    assert!(output.stdout.is_empty(), "nothing is signed: {}", String::from_utf8_lossy(&output.stdout));
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    stderr
}

#[test]
fn the_command_warns_of_the_last_try_then_reports_the_token_locked_even_for_the_right_pin() {
    let t = token();
    let lock = t.pin_lock(TRIES);
    let key_id = certificates(&t).remove(0)["keyId"].as_str().expect("keyId").to_string();
    let digest = hex::encode(pki::sha256(b"x"));
    // Every attempt is a bridge process of its own: the count is the token's, not a process's.
    let sign = |pin: &str| {
        let args = ["sign", "--module", &lock.module, "--token", &t.serial, "--key-id", &key_id, "--digest", &digest];
        bridge_on(&lock, &args, Some(pin))
    };

    // A right PIN after a wrong one signs, and the token forgets the wrong one.
    let low = "signet-bridge: the PIN is wrong; too many wrong PINs lock the token";
    assert_eq!(refusal(&sign(WRONG)), low);
    assert_eq!(json_of(&sign(PIN)).as_array().map(Vec::len), Some(1));

    assert_eq!(refusal(&sign(WRONG)), low);
    assert_eq!(refusal(&sign(WRONG)), "signet-bridge: the PIN is wrong; the next wrong PIN locks the token");
    let locked = "signet-bridge: the token is locked after too many wrong PINs: unlock it with the token's own \
                  tool (SO PIN or PUK) or ask your certificate provider";
    assert_eq!(refusal(&sign(WRONG)), locked, "the wrong PIN that locks the token says so");
    assert_eq!(refusal(&sign(PIN)), locked, "a locked token refuses the right PIN too");

    // Locked for signing only: its certificates are still listed (no login needed).
    let listed = json_of(&bridge_on(&lock, &["certificates", "--module", &lock.module, "--token", &t.serial], None));
    assert_eq!(listed.as_array().map(Vec::len), Some(2), "{listed}");
}

#[tokio::test]
async fn the_service_answers_wrong_pin_with_the_tries_then_423_locked_and_signs_nothing() {
    let t = token();
    let lock = t.pin_lock(TRIES);
    let (s, _) = serve(&t, &lock);
    let listed: Value = s
        .client
        .get(format!("{}/tokens/{}/certificates", s.url, t.serial))
        .header("origin", ORIGIN)
        .send()
        .await
        .expect("certificates")
        .json()
        .await
        .expect("json");
    let key_id = listed["certificates"][0]["keyId"].as_str().expect("keyId").to_string();
    let digests = [hex::encode(pki::sha256(b"x")), hex::encode(pki::sha256(b"y"))];
    let sign = |pin: &str| {
        let request = s
            .client
            .post(format!("{}/tokens/{}/sign", s.url, t.serial))
            .header("origin", ORIGIN)
            .json(&json!({"keyId": key_id, "pin": pin, "digests": digests}));
        async move {
            let response = request.send().await.expect("sign");
            let status = response.status().as_u16();
            (status, response.json::<Value>().await.expect("json"))
        }
    };

    let (status, body) = sign(WRONG).await;
    assert_eq!((status, &body["error"], &body["pinTries"]), (401, &json!("wrong_pin"), &json!("low")), "{body}");
    let (status, body) = sign(WRONG).await;
    assert_eq!((status, &body["error"], &body["pinTries"]), (401, &json!("wrong_pin"), &json!("final")), "{body}");
    for pin in [WRONG, PIN] {
        let (status, body) = sign(pin).await;
        assert_eq!((status, &body["error"]), (423, &json!("locked")), "{pin}: {body}");
        assert!(body["message"].as_str().is_some_and(|m| m.contains("the token is locked")), "{body}");
        assert!(body.get("signatures").is_none() && body.get("pinTries").is_none(), "{body}");
    }
}
