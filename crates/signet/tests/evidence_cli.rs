//! `signet evidence verify` on a real pack: a workflow completed on `signet serve`, its pack
//! downloaded and verified (trusting the installation's CA); then one byte changed in each
//! file in turn, a file taken out and one put in: each time verify exits non-zero and names
//! the file. A changed byte is caught twice over: by the archive's CRC-32, and, with the CRC
//! recomputed as someone covering their tracks would, by the manifest's SHA-256.

use std::path::Path;
use std::time::Duration;

use serde_json::Value;
use signet_services::workflows::evidence::zip::{self, ZipWriter};
use signet_testkit::gateway::access_token;
use signet_testkit::process::SignetBin;
use signet_testkit::signet_bin;
use signet_testkit::workflow::sign_one;

const SIGNET: SignetBin = signet_bin!();

/// A completed workflow's evidence pack, fetched from the server at `base`.
async fn completed_pack(base: &str, tenant: &Value) -> Vec<u8> {
    let http = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().expect("client");
    let (id, secret) = (tenant["client_id"].as_str().expect("id"), tenant["client_secret"].as_str().expect("secret"));
    let token = access_token(&http, base, id, secret).await;
    let started = sign_one(&http, base, &token, "Sale deed", "buyer@x.test").await;
    let evidence = format!("{base}/api/v1/workflows/{}/evidence", started["workflowId"]);
    for _ in 0..400 {
        let response = http.get(&evidence).bearer_auth(&token).send().await.expect("evidence");
        if response.status() == 200 {
            return response.bytes().await.expect("zip").to_vec();
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the workflow did not complete");
}

/// `signet evidence verify` on `pack`, trusting the installation's CA: (success, stdout, stderr).
fn verify(dir: &Path, pack: &[u8]) -> (bool, String, String) {
    std::fs::write(dir.join("pack.zip"), pack).expect("write");
    let output = SIGNET.run(&["evidence", "verify", "pack.zip", "--trust", "signet-data/keys/ca.pem"], dir);
    let text = |b: &[u8]| String::from_utf8_lossy(b).to_string();
    (output.status.success(), text(&output.stdout), text(&output.stderr))
}

/// The pack's entries: name, where its bytes start in the archive, how many.
fn entries(pack: &[u8]) -> Vec<(String, usize, usize)> {
    let read = zip::read(pack).expect("a readable pack");
    read.iter().map(|e| (e.name.clone(), e.data.as_ptr() as usize - pack.as_ptr() as usize, e.data.len())).collect()
}

/// Writes the CRC-32 of the entry at `start` into both of its headers, as a forger would.
fn recompute_crc(pack: &mut [u8], name: &str, start: usize, len: usize) {
    let crc = crc32fast::hash(&pack[start..start + len]).to_le_bytes();
    let local = start - 30 - name.len();
    pack[local + 14..local + 18].copy_from_slice(&crc);
    let central = (0..pack.len() - 46)
        .find(|&at| {
            pack[at..at + 4] == [0x50, 0x4b, 0x01, 0x02] && &pack[at + 46..at + 46 + name.len()] == name.as_bytes()
        })
        .expect("the entry's directory record");
    pack[central + 16..central + 20].copy_from_slice(&crc);
}

fn rebuilt(pack: &[u8], leave_out: Option<&str>, add: Option<(&str, &[u8])>) -> Vec<u8> {
    let mut writer = ZipWriter::default();
    for entry in zip::read(pack).expect("read").iter().filter(|e| Some(e.name.as_str()) != leave_out) {
        writer.add(&entry.name, entry.data).expect("add");
    }
    if let Some((name, data)) = add {
        writer.add(name, data).expect("add");
    }
    writer.finish()
}

fn assert_fails_naming(dir: &Path, pack: &[u8], file: &str, case: &str) {
    let (ok, stdout, stderr) = verify(dir, pack);
    assert!(!ok, "{case}: verify passed\n{stdout}");
    assert!(stdout.lines().any(|l| l.starts_with("FAIL") && l.contains(&format!(" {file}: "))), "{case}: {stdout}");
    assert!(stderr.contains(file), "{case}: the error names {file}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{case}: one line: {stderr}");
}

#[test]
fn a_pack_verifies_and_one_changed_byte_in_any_file_fails_naming_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = SIGNET.serve(&[], dir.path(), &[("SIGNET_WORKER_POLL_MS", "100")]);
    let output =
        SIGNET.run(&["tenant", "create", "--name", "Registry", "--admin-email", "clerk@registry.test"], dir.path());
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let tenant: Value = serde_json::from_slice(&output.stdout).expect("json");
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    let pack = runtime.block_on(completed_pack(&server.base, &tenant));

    let (ok, stdout, stderr) = verify(dir.path(), &pack);
    assert!(ok, "{stdout}\n{stderr}");
    let files = entries(&pack);
    assert_eq!(files.len(), 9, "{files:?}");
    for (name, _, _) in &files {
        assert!(stdout.lines().any(|l| l.starts_with("ok") && l.contains(&format!(" {name}: "))), "{name}: {stdout}");
    }
    assert!(stdout.contains("recomputed link by link"), "{stdout}");
    assert!(stdout.contains("recorded in the organisation's audit chain"), "{stdout}");
    assert!(stdout.contains("signature(s) valid"), "{stdout}");

    for (name, start, len) in &files {
        let mut changed = pack.clone();
        changed[start + len / 2] ^= 0x01;
        assert_fails_naming(dir.path(), &changed, name, &format!("{name}, one byte changed"));
        // Past the CRC: the manifest's hashes catch a file, the seal over the manifest catches
        // the manifest (and the seal itself).
        recompute_crc(&mut changed, name, *start, *len);
        assert_fails_naming(dir.path(), &changed, name, &format!("{name}, one byte changed, CRC recomputed"));
    }
    let missing = rebuilt(&pack, Some("audit/anchor.json"), None);
    assert_fails_naming(dir.path(), &missing, "audit/anchor.json", "a file taken out");
    let extra = rebuilt(&pack, None, Some(("documents/9-extra.pdf", b"%PDF-1.7")));
    assert_fails_naming(dir.path(), &extra, "documents/9-extra.pdf", "a file put in");
    let (ok, stdout, stderr) = verify(dir.path(), b"PK\x03\x04 not a pack");
    assert!(!ok && stdout.starts_with("FAIL pack: not a readable evidence pack"), "{stdout}\n{stderr}");
}
