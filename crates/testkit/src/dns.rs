//! A DNS resolver for the single sign-on tests: Signet proves a tenant's e-mail domain by its
//! TXT record (`sso_dns_resolver` points Signet here), and [`prove_domain`] proves one as an
//! administrator would, over HTTP.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};

use crate::server::TestApp;

/// A DNS resolver for the tests: answers TXT questions (over UDP) with what the test published.
pub struct Dns {
    pub addr: std::net::SocketAddr,
    records: Arc<Mutex<HashMap<String, Vec<String>>>>,
}

impl Dns {
    pub async fn start() -> Dns {
        let socket = tokio::net::UdpSocket::bind("127.0.0.1:0").await.expect("bind");
        let addr = socket.local_addr().expect("address");
        let records: Arc<Mutex<HashMap<String, Vec<String>>>> = Arc::default();
        let served = Arc::clone(&records);
        tokio::spawn(async move {
            let mut buffer = [0u8; 512];
            while let Ok((len, from)) = socket.recv_from(&mut buffer).await {
                if let Some(answer) = txt_answer(&buffer[..len], &served) {
                    let _ = socket.send_to(&answer, from).await;
                }
            }
        });
        Dns { addr, records }
    }

    /// Publishes a TXT record at `name` (next to those there).
    pub fn publish(&self, name: &str, value: &str) {
        self.records.lock().expect("records").entry(name.to_lowercase()).or_default().push(value.to_string());
    }
}

/// The answer to a DNS question: the TXT records published at its name (RFC 1035 §4.1).
fn txt_answer(query: &[u8], records: &Mutex<HashMap<String, Vec<String>>>) -> Option<Vec<u8>> {
    let mut at = 12;
    let mut labels = Vec::new();
    loop {
        let len = usize::from(*query.get(at)?);
        at += 1;
        if len == 0 {
            break;
        }
        labels.push(String::from_utf8_lossy(query.get(at..at + len)?).to_lowercase());
        at += len;
    }
    let question = query.get(12..at + 4)?;
    let values = records.lock().ok()?.get(&labels.join(".")).cloned().unwrap_or_default();
    let mut answer = query.get(..2)?.to_vec();
    answer.extend_from_slice(&[0x81, 0x80, 0, 1, 0, values.len() as u8, 0, 0, 0, 0]);
    answer.extend_from_slice(question);
    for value in values {
        answer.extend_from_slice(&[0xc0, 12, 0, 16, 0, 1, 0, 0, 0, 60]);
        answer.extend_from_slice(&(value.len() as u16 + 1).to_be_bytes());
        answer.push(value.len() as u8);
        answer.extend_from_slice(value.as_bytes());
    }
    Some(answer)
}

/// Proves `domain` for the tenant of `token`: starts the proof, publishes its TXT record and
/// has Signet check it.
pub async fn prove_domain(app: &TestApp, dns: &Dns, token: &str, domain: &str) {
    let path = format!("/api/v1/sso-providers/domain-proofs/{domain}");
    let started = app.put(&path, token, json!(null)).await;
    assert_eq!(started.status(), 200);
    let proof: Value = started.json().await.expect("json");
    assert_eq!(proof["status"], "pending", "{proof}");
    dns.publish(proof["recordName"].as_str().expect("recordName"), proof["recordValue"].as_str().expect("recordValue"));
    let checked = app.post(&format!("{path}/check"), token, json!(null)).await;
    assert_eq!(checked.status(), 200);
    let checked: Value = checked.json().await.expect("json");
    assert_eq!(checked["status"], "proven", "{checked}");
}
