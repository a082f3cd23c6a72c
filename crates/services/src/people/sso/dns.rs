//! The TXT records of a name, asked of one DNS resolver over UDP (RFC 1035): all that proving
//! a domain needs, so no resolver library. The resolver is the operator's
//! (`sso_dns_resolver`, else the first `nameserver` of `/etc/resolv.conf`); the name asked is a
//! checked domain name under `_signet-challenge.`, so nothing a tenant types picks where Signet
//! sends packets, and the answer is only ever compared with the expected value.

use std::net::SocketAddr;
use std::time::Duration;

use aws_lc_rs::rand;

const TXT: u16 = 16;
const CLASS_IN: u16 = 1;
/// How long one try waits for the resolver, and how many tries.
const TRY_TIMEOUT: Duration = Duration::from_secs(3);
const TRIES: usize = 2;

/// Why the records could not be read (as the person proving the domain may read it).
#[derive(Debug, PartialEq, Eq)]
pub struct LookupFailed(pub String);

/// The resolver to ask: the configured one, else the system's first.
pub fn resolver(configured: Option<&str>) -> Result<SocketAddr, LookupFailed> {
    if let Some(configured) = configured.filter(|c| !c.is_empty()) {
        return configured
            .parse::<SocketAddr>()
            .or_else(|_| configured.parse::<std::net::IpAddr>().map(|ip| SocketAddr::new(ip, 53)))
            .map_err(|_| LookupFailed(format!("the configured DNS resolver {configured} is no ip:port")));
    }
    let conf = std::fs::read_to_string("/etc/resolv.conf").unwrap_or_default();
    conf.lines()
        .filter_map(|l| l.trim().strip_prefix("nameserver"))
        .find_map(|ip| ip.trim().parse::<std::net::IpAddr>().ok())
        .map(|ip| SocketAddr::new(ip, 53))
        .ok_or_else(|| LookupFailed("no DNS resolver is configured".into()))
}

/// The TXT records of `name` (each record's strings joined), none when the name has none.
pub async fn txt_records(resolver: SocketAddr, name: &str) -> Result<Vec<String>, LookupFailed> {
    let id = random_id();
    let query = query(id, name).ok_or_else(|| LookupFailed(format!("{name} is no DNS name")))?;
    let bind: SocketAddr = if resolver.is_ipv4() { ([0, 0, 0, 0], 0).into() } else { ([0u16; 8], 0).into() };
    let socket = tokio::net::UdpSocket::bind(bind).await.map_err(|e| LookupFailed(format!("DNS socket: {e}")))?;
    socket.connect(resolver).await.map_err(|e| LookupFailed(format!("DNS resolver {resolver}: {e}")))?;
    let mut buffer = vec![0u8; 4096];
    for _ in 0..TRIES {
        socket.send(&query).await.map_err(|e| LookupFailed(format!("DNS resolver {resolver}: {e}")))?;
        // Answers to other ids (late answers of an earlier try, forgeries) are skipped.
        let deadline = tokio::time::Instant::now() + TRY_TIMEOUT;
        while let Ok(Ok(len)) = tokio::time::timeout_at(deadline, socket.recv(&mut buffer)).await {
            if let Some(answer) = parse_answer(id, &buffer[..len]) {
                return answer;
            }
        }
    }
    Err(LookupFailed(format!("the DNS resolver {resolver} did not answer")))
}

fn random_id() -> u16 {
    let mut bytes = [0u8; 2];
    // As for secrets::random_token: a failing system RNG is not recoverable.
    #[allow(clippy::expect_used)]
    rand::fill(&mut bytes).expect("system random number generator failed");
    u16::from_be_bytes(bytes)
}

/// A recursive query for the TXT records of `name`; `None` for a name DNS cannot carry.
fn query(id: u16, name: &str) -> Option<Vec<u8>> {
    let mut packet = Vec::with_capacity(name.len() + 18);
    packet.extend_from_slice(&id.to_be_bytes());
    packet.extend_from_slice(&[0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0]); // RD; one question
    for label in name.trim_end_matches('.').split('.') {
        if label.is_empty() || label.len() > 63 {
            return None;
        }
        packet.push(label.len() as u8);
        packet.extend_from_slice(label.as_bytes());
    }
    packet.push(0);
    packet.extend_from_slice(&TXT.to_be_bytes());
    packet.extend_from_slice(&CLASS_IN.to_be_bytes());
    (packet.len() <= 512).then_some(packet)
}

/// The answer to query `id`: `None` when the packet is no answer to it, else its TXT records
/// or why it has none to give.
fn parse_answer(id: u16, packet: &[u8]) -> Option<Result<Vec<String>, LookupFailed>> {
    let mut reader = Reader { packet, at: 0 };
    let (answer_id, flags) = (reader.u16()?, reader.u16()?);
    let (questions, answers) = (reader.u16()?, reader.u16()?);
    reader.skip(4)?; // authority and additional counts
    if answer_id != id || flags & 0x8000 == 0 {
        return None;
    }
    if flags & 0x0200 != 0 {
        return Some(Err(LookupFailed("the DNS answer was truncated (too many TXT records)".into())));
    }
    match flags & 0x000f {
        0 => {}
        3 => return Some(Ok(Vec::new())), // NXDOMAIN: the name has no records
        rcode => return Some(Err(LookupFailed(format!("the DNS resolver refused the question (rcode {rcode})")))),
    }
    for _ in 0..questions {
        reader.skip_name()?;
        reader.skip(4)?;
    }
    let mut records = Vec::new();
    for _ in 0..answers {
        reader.skip_name()?;
        let (kind, class) = (reader.u16()?, reader.u16()?);
        reader.skip(4)?; // TTL
        let length = usize::from(reader.u16()?);
        let data = reader.take(length)?;
        if kind == TXT && class == CLASS_IN {
            records.push(txt_text(data)?);
        }
    }
    Some(Ok(records))
}

/// A TXT record's character-strings, joined (RFC 7208 §3.3 reads long values so).
fn txt_text(mut data: &[u8]) -> Option<String> {
    let mut text = Vec::new();
    while let Some((&length, rest)) = data.split_first() {
        let length = usize::from(length);
        text.extend_from_slice(rest.get(..length)?);
        data = &rest[length..];
    }
    Some(String::from_utf8_lossy(&text).into_owned())
}

struct Reader<'a> {
    packet: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let taken = self.packet.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(taken)
    }

    fn skip(&mut self, n: usize) -> Option<()> {
        self.take(n).map(|_| ())
    }

    fn u16(&mut self) -> Option<u16> {
        self.take(2).map(|b| u16::from_be_bytes([b[0], b[1]]))
    }

    /// Skips a name: labels up to the root, or up to a compression pointer (two bytes).
    fn skip_name(&mut self) -> Option<()> {
        loop {
            let length = *self.take(1)?.first()?;
            match length {
                0 => return Some(()),
                l if l & 0xc0 == 0xc0 => return self.skip(1),
                l if l < 64 => self.skip(usize::from(l))?,
                _ => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An answer to `query` with `records` as TXT records (the name compressed to the question).
    fn answer(query: &[u8], rcode: u8, records: &[&[&str]]) -> Vec<u8> {
        let mut packet = query[..2].to_vec();
        packet.extend_from_slice(&[0x81, 0x80 | rcode, 0, 1, 0, records.len() as u8, 0, 0, 0, 0]);
        packet.extend_from_slice(&query[12..]);
        for strings in records {
            let data: Vec<u8> = strings.iter().flat_map(|s| [&[s.len() as u8][..], s.as_bytes()].concat()).collect();
            packet.extend_from_slice(&[0xc0, 12, 0, 16, 0, 1, 0, 0, 0, 60]);
            packet.extend_from_slice(&(data.len() as u16).to_be_bytes());
            packet.extend_from_slice(&data);
        }
        packet
    }

    #[test]
    fn txt_answers_are_read_and_strangers_skipped() {
        let q = query(7, "_signet-challenge.bank.example").expect("query");
        assert_eq!(&q[12..35], b"\x11_signet-challenge\x04bank");
        let records = parse_answer(7, &answer(&q, 0, &[&["signet-domain-proof=", "abc"], &["v=spf1 -all"]]));
        assert_eq!(records, Some(Ok(vec!["signet-domain-proof=abc".to_string(), "v=spf1 -all".to_string()])));
        assert_eq!(parse_answer(8, &answer(&q, 0, &[&["x"]])), None, "another query's answer");
        assert_eq!(parse_answer(7, &q), None, "a question is no answer");
        assert_eq!(parse_answer(7, &answer(&q, 3, &[])), Some(Ok(Vec::new())), "NXDOMAIN");
        assert!(matches!(parse_answer(7, &answer(&q, 2, &[])), Some(Err(_))), "SERVFAIL");
        let cut = answer(&q, 0, &[&["signet-domain-proof=abc"]]);
        assert_eq!(parse_answer(7, &cut[..cut.len() - 3]), None, "a cut packet");
        assert_eq!(query(1, "a..b"), None);
        assert_eq!(query(1, &format!("{}.example", "a".repeat(64))), None);
    }

    #[test]
    fn the_resolver_is_the_configured_one() {
        assert_eq!(resolver(Some("127.0.0.1:5353")), Ok("127.0.0.1:5353".parse().expect("addr")));
        assert_eq!(resolver(Some("10.0.0.2")), Ok("10.0.0.2:53".parse().expect("addr")));
        assert!(resolver(Some("dns.example")).is_err());
    }
}
