//! Minimal blocking HTTP for TSA, OCSP and CRL fetches: timeouts, size caps, and an address
//! policy so a URL taken from a certificate cannot reach internal services (SSRF).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, ToSocketAddrs};
use std::time::Duration;

use ureq::unversioned::resolver::{DefaultResolver, ResolvedSocketAddrs, Resolver};
use ureq::unversioned::transport::{DefaultConnector, NextTimeout};

use crate::{Error, Result};

/// Limits for outbound fetches.
#[derive(Debug, Clone)]
pub struct HttpConfig {
    /// Whole-request timeout.
    pub timeout: Duration,
    /// Maximum response body size.
    pub max_response_bytes: u64,
    /// Allow loopback/private/link-local destinations. Off by default: URLs come from
    /// certificates (AIA, CRL-DP) that an attacker may control. Tests and deployments with an
    /// internal TSA turn it on.
    pub allow_private_addresses: bool,
    /// Trust only these roots (DER) for https instead of the Mozilla set (internal TSA/OCSP).
    pub tls_roots_der: Vec<Vec<u8>>,
}

impl Default for HttpConfig {
    fn default() -> Self {
        HttpConfig {
            timeout: Duration::from_secs(15),
            max_response_bytes: 10 << 20,
            allow_private_addresses: false,
            tls_roots_der: Vec::new(),
        }
    }
}

impl HttpConfig {
    /// Defaults, but private addresses allowed (tests, internal TSA).
    pub fn allow_private() -> Self {
        HttpConfig { allow_private_addresses: true, ..Default::default() }
    }
}

fn agent(cfg: &HttpConfig) -> ureq::Agent {
    use ureq::tls::{Certificate, RootCerts, TlsConfig};
    let mut tls = TlsConfig::builder()
        .unversioned_rustls_crypto_provider(std::sync::Arc::new(rustls::crypto::aws_lc_rs::default_provider()));
    if !cfg.tls_roots_der.is_empty() {
        let roots: Vec<Certificate<'static>> =
            cfg.tls_roots_der.iter().map(|d| Certificate::from_der(d).to_owned()).collect();
        tls = tls.root_certs(RootCerts::new_with_certs(&roots));
    }
    let config = ureq::Agent::config_builder()
        .tls_config(tls.build())
        .timeout_global(Some(cfg.timeout))
        .http_status_as_error(false)
        // A redirect could lead to a private address after our check; refuse them.
        .max_redirects(0)
        .build();
    ureq::Agent::with_parts(
        config,
        DefaultConnector::default(),
        CheckingResolver { allow_private: cfg.allow_private_addresses },
    )
}

/// The client's only name resolver: it resolves once, refuses the request when any resolved
/// address is not public, and hands exactly the checked addresses to the connector. The
/// connection therefore goes to an address that was checked (no DNS-rebinding window between
/// check and connect), while the URL's host name stays in the Host header and the TLS SNI.
/// The address of an operator-configured proxy (`HTTPS_PROXY`, …) is not checked: the proxy
/// resolves the target itself, and [`check_url`] has checked it beforehand.
#[derive(Debug)]
struct CheckingResolver {
    allow_private: bool,
}

impl Resolver for CheckingResolver {
    fn resolve(
        &self,
        uri: &ureq::http::Uri,
        config: &ureq::config::Config,
        timeout: NextTimeout,
    ) -> std::result::Result<ResolvedSocketAddrs, ureq::Error> {
        let addrs = DefaultResolver::default().resolve(uri, config, timeout)?;
        let is_proxy = config.proxy().is_some_and(|p| Some(p.host()) == uri.host());
        if self.allow_private || is_proxy {
            return Ok(addrs);
        }
        if addrs.iter().any(|a| !is_public(a.ip())) {
            // The rule, never the address: where a name resolves inside is not the caller's to learn.
            return Err(ureq::Error::Other(format!("refusing to connect: {NOT_PUBLIC}").into()));
        }
        Ok(addrs)
    }
}

/// POST `body` and return the response body (2xx only).
pub(crate) fn post(url: &str, content_type: &str, body: &[u8], cfg: &HttpConfig) -> Result<Vec<u8>> {
    check_url(url, cfg)?;
    let resp = agent(cfg)
        .post(url)
        .header("Content-Type", content_type)
        .send(body)
        .map_err(|e| Error::Http(format!("POST {url}: {e}")))?;
    read_body(url, resp, cfg)
}

/// GET `url` and return the body (2xx only).
pub(crate) fn get(url: &str, cfg: &HttpConfig) -> Result<Vec<u8>> {
    check_url(url, cfg)?;
    let resp = agent(cfg).get(url).call().map_err(|e| Error::Http(format!("GET {url}: {e}")))?;
    read_body(url, resp, cfg)
}

/// POST `body` with extra headers and answer the HTTP status, whatever it is; the response
/// body is read up to the size cap and dropped (webhook deliveries).
pub(crate) fn post_for_status(url: &str, headers: &[(&str, &str)], body: &[u8], cfg: &HttpConfig) -> Result<u16> {
    check_url(url, cfg)?;
    let mut request = agent(cfg).post(url);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let mut resp = request.send(body).map_err(|e| Error::Http(format!("POST {url}: {e}")))?;
    let status = resp.status().as_u16();
    let _ = resp.body_mut().with_config().limit(cfg.max_response_bytes).read_to_vec();
    Ok(status)
}

/// A request with extra headers (a token exchange with Basic authentication, a bearer-token
/// GET): GET when `body` is `None`, else POST; answers the body (2xx only).
pub(crate) fn request(url: &str, headers: &[(&str, &str)], body: Option<&[u8]>, cfg: &HttpConfig) -> Result<Vec<u8>> {
    let resp = send(url, headers, body, cfg)?;
    read_body(url, resp, cfg)
}

/// As [`request`], but answering the status and the body (up to the size cap) whatever the
/// status: a provider's refusal carries its reasons in the body.
pub(crate) fn exchange(
    url: &str,
    headers: &[(&str, &str)],
    body: Option<&[u8]>,
    cfg: &HttpConfig,
) -> Result<(u16, Vec<u8>)> {
    let mut resp = send(url, headers, body, cfg)?;
    let status = resp.status().as_u16();
    let body = resp
        .body_mut()
        .with_config()
        .limit(cfg.max_response_bytes)
        .read_to_vec()
        .map_err(|e| Error::Http(format!("{url}: reading the answer: {e}")))?;
    Ok((status, body))
}

fn send(
    url: &str,
    headers: &[(&str, &str)],
    body: Option<&[u8]>,
    cfg: &HttpConfig,
) -> Result<ureq::http::Response<ureq::Body>> {
    check_url(url, cfg)?;
    let agent = agent(cfg);
    let resp = match body {
        Some(body) => {
            let mut request = agent.post(url);
            for (name, value) in headers {
                request = request.header(*name, *value);
            }
            request.send(body)
        }
        None => {
            let mut request = agent.get(url);
            for (name, value) in headers {
                request = request.header(*name, *value);
            }
            request.call()
        }
    }
    .map_err(|e| Error::Http(format!("{url}: {e}")))?;
    Ok(resp)
}

fn read_body(url: &str, mut resp: ureq::http::Response<ureq::Body>, cfg: &HttpConfig) -> Result<Vec<u8>> {
    let status = resp.status();
    if !status.is_success() {
        return Err(Error::Http(format!("{url} answered HTTP {}", status.as_u16())));
    }
    resp.body_mut()
        .with_config()
        .limit(cfg.max_response_bytes)
        .read_to_vec()
        .map_err(|e| Error::Http(format!("reading {url}: {e}")))
}

/// Only http(s) URLs, and (unless allowed) only hosts resolving to public addresses. This is
/// the early check (registration, a clear error before any work); the fetch itself resolves
/// once more and connects only to the addresses it checked then ([`CheckingResolver`]).
pub(crate) fn check_url(url: &str, cfg: &HttpConfig) -> Result<()> {
    let rest =
        url.strip_prefix("http://").map(|r| (r, 80u16)).or_else(|| url.strip_prefix("https://").map(|r| (r, 443u16)));
    let Some((rest, default_port)) = rest else {
        return Err(Error::Http(format!("unsupported URL scheme: {url}")));
    };
    if cfg.allow_private_addresses {
        return Ok(());
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let authority = authority.rsplit('@').next().unwrap_or(authority);
    let (host, port) = split_host_port(authority, default_port);
    if host.is_empty() {
        return Err(Error::Http(format!("URL without host: {url}")));
    }
    let addrs =
        (host.as_str(), port).to_socket_addrs().map_err(|e| Error::Http(format!("cannot resolve {host}: {e}")))?;
    for a in addrs {
        if !is_public(a.ip()) {
            return Err(Error::Http(format!("refusing to fetch {url}: {NOT_PUBLIC}")));
        }
    }
    Ok(())
}

/// Why a host is refused: the rule it breaks, not the address it resolved to (which may be
/// an internal one the caller must not learn).
const NOT_PUBLIC: &str =
    "the host is not a public address (outbound requests go only to hosts whose every address is public)";

fn split_host_port(authority: &str, default_port: u16) -> (String, u16) {
    if let Some(rest) = authority.strip_prefix('[') {
        // [v6]:port
        let (h, after) = rest.split_once(']').unwrap_or((rest, ""));
        let port = after.strip_prefix(':').and_then(|p| p.parse().ok()).unwrap_or(default_port);
        return (h.to_string(), port);
    }
    match authority.rsplit_once(':') {
        Some((h, p)) => (h.to_string(), p.parse().unwrap_or(default_port)),
        None => (authority.to_string(), default_port),
    }
}

/// Whether `ip` is an ordinary public unicast address: nothing from the IANA special-purpose
/// registries (RFC 6890 and its updates) except the few ranges that are globally reachable
/// anycast services. IPv6 forms that embed an IPv4 address (IPv4-mapped, IPv4-compatible,
/// NAT64, 6to4) are judged by the embedded address; Teredo and the other tunnelling and
/// translation prefixes are refused.
pub(crate) fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => is_public_v6(v6),
    }
}

fn in_v4(ip: Ipv4Addr, net: [u8; 4], len: u32) -> bool {
    let mask = if len == 0 { 0 } else { u32::MAX << (32 - len) };
    (u32::from(ip) & mask) == (u32::from(Ipv4Addr::from(net)) & mask)
}

fn in_v6(ip: Ipv6Addr, net: [u16; 8], len: u32) -> bool {
    let mask = if len == 0 { 0 } else { u128::MAX << (128 - len) };
    (u128::from(ip) & mask) == (u128::from(Ipv6Addr::from(net)) & mask)
}

/// IPv4 special-purpose ranges that are not globally reachable (IANA IPv4 special-purpose
/// address registry, RFC 6890 and updates), plus multicast and the reserved 240/4.
const V4_SPECIAL: &[([u8; 4], u32)] = &[
    ([0, 0, 0, 0], 8),       // "this network" (RFC 791)
    ([10, 0, 0, 0], 8),      // private (RFC 1918)
    ([100, 64, 0, 0], 10),   // shared address space, CGNAT (RFC 6598)
    ([127, 0, 0, 0], 8),     // loopback
    ([169, 254, 0, 0], 16),  // link local (cloud metadata services)
    ([172, 16, 0, 0], 12),   // private
    ([192, 0, 0, 0], 24),    // IETF protocol assignments (RFC 6890)
    ([192, 0, 2, 0], 24),    // TEST-NET-1 (documentation)
    ([192, 31, 196, 0], 24), // AS112-v4
    ([192, 52, 193, 0], 24), // AMT
    ([192, 88, 99, 0], 24),  // deprecated 6to4 relay anycast (RFC 7526)
    ([192, 168, 0, 0], 16),  // private
    ([192, 175, 48, 0], 24), // direct delegation AS112
    ([198, 18, 0, 0], 15),   // benchmarking (RFC 2544)
    ([198, 51, 100, 0], 24), // TEST-NET-2
    ([203, 0, 113, 0], 24),  // TEST-NET-3
    ([224, 0, 0, 0], 4),     // multicast
    ([240, 0, 0, 0], 4),     // reserved, and 255.255.255.255 broadcast
];

fn is_public_v4(ip: Ipv4Addr) -> bool {
    !V4_SPECIAL.iter().any(|(net, len)| in_v4(ip, *net, *len))
}

/// IPv6 special-purpose ranges that are refused outright.
const V6_SPECIAL: &[([u16; 8], u32)] = &[
    ([0, 0, 0, 0, 0, 0, 0, 0], 128),             // unspecified
    ([0, 0, 0, 0, 0, 0, 0, 1], 128),             // loopback
    ([0x0100, 0, 0, 0, 0, 0, 0, 0], 64),         // discard-only (RFC 6666)
    ([0x2001, 0, 0, 0, 0, 0, 0, 0], 23),         // IETF protocol assignments, incl. Teredo 2001::/32
    ([0x2001, 0x0db8, 0, 0, 0, 0, 0, 0], 32),    // documentation
    ([0x3fff, 0, 0, 0, 0, 0, 0, 0], 20),         // documentation (RFC 9637)
    ([0x5f00, 0, 0, 0, 0, 0, 0, 0], 16),         // segment routing SIDs (RFC 9602)
    ([0xfc00, 0, 0, 0, 0, 0, 0, 0], 7),          // unique local
    ([0xfe80, 0, 0, 0, 0, 0, 0, 0], 10),         // link local
    ([0xfec0, 0, 0, 0, 0, 0, 0, 0], 10),         // site local (deprecated)
    ([0xff00, 0, 0, 0, 0, 0, 0, 0], 8),          // multicast
    ([0x64, 0xff9b, 0x0001, 0, 0, 0, 0, 0], 48), // local-use NAT64 (RFC 8215)
];

fn is_public_v6(ip: Ipv6Addr) -> bool {
    let seg = ip.segments();
    let low_v4 = Ipv4Addr::new((seg[6] >> 8) as u8, seg[6] as u8, (seg[7] >> 8) as u8, seg[7] as u8);
    // IPv4-mapped ::ffff:0:0/96 and IPv4-translated ::ffff:0:0:0/96 (SIIT): the embedded address.
    if in_v6(ip, [0, 0, 0, 0, 0, 0xffff, 0, 0], 96) || in_v6(ip, [0, 0, 0, 0, 0xffff, 0, 0, 0], 96) {
        return is_public_v4(low_v4);
    }
    // The rest of ::/8 (IPv4-compatible, deprecated, and unassigned): an embedded IPv4 address
    // at best, so judge by it; ::/128 and ::1 fall in V4 0/8 here and are refused.
    if in_v6(ip, [0, 0, 0, 0, 0, 0, 0, 0], 96) {
        return is_public_v4(low_v4);
    }
    // Well-known NAT64 prefix 64:ff9b::/96 (RFC 6052): the embedded address.
    if in_v6(ip, [0x64, 0xff9b, 0, 0, 0, 0, 0, 0], 96) {
        return is_public_v4(low_v4);
    }
    // 6to4 2002::/16 (RFC 3056): the IPv4 address in bits 16..48.
    if in_v6(ip, [0x2002, 0, 0, 0, 0, 0, 0, 0], 16) {
        let v4 = Ipv4Addr::new((seg[1] >> 8) as u8, seg[1] as u8, (seg[2] >> 8) as u8, seg[2] as u8);
        return is_public_v4(v4);
    }
    if V6_SPECIAL.iter().any(|(net, len)| in_v6(ip, *net, *len)) {
        return false;
    }
    // Only global unicast 2000::/3 is routed on the Internet; anything else is unassigned.
    in_v6(ip, [0x2000, 0, 0, 0, 0, 0, 0, 0], 3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_addresses_are_refused_by_default() {
        let cfg = HttpConfig::default();
        for url in [
            "http://127.0.0.1:8080/",
            "http://10.1.2.3/x",
            "http://[::1]:80/",
            "http://169.254.169.254/latest",
            "http://user@192.168.0.1/",
            "ftp://example.com/",
            "file:///etc/passwd",
        ] {
            assert!(check_url(url, &cfg).is_err(), "{url}");
        }
        assert!(check_url("http://127.0.0.1:1/", &HttpConfig::allow_private()).is_ok());
        assert!(is_public("8.8.8.8".parse().unwrap_or(IpAddr::from([0, 0, 0, 0]))));
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap_or_else(|_| panic!("bad test address {s}"))
    }

    #[test]
    fn ipv4_special_ranges_are_not_public() {
        for a in [
            "0.0.0.0",
            "0.1.2.3",
            "10.0.0.1",
            "10.255.255.255",
            "100.64.0.1",
            "100.127.255.254",
            "127.0.0.1",
            "127.255.0.1",
            "169.254.169.254",
            "172.16.0.1",
            "172.31.255.255",
            "192.0.0.1",
            "192.0.0.170",
            "192.0.2.1",
            "192.31.196.1",
            "192.52.193.1",
            "192.88.99.1",
            "192.168.1.1",
            "192.175.48.1",
            "198.18.0.1",
            "198.19.255.255",
            "198.51.100.7",
            "203.0.113.9",
            "224.0.0.1",
            "239.255.255.250",
            "240.0.0.1",
            "255.255.255.255",
        ] {
            assert!(!is_public(ip(a)), "{a} must not be public");
        }
    }

    #[test]
    fn ipv4_public_neighbours_are_public() {
        for a in [
            "8.8.8.8",
            "1.1.1.1",
            "11.0.0.1",
            "100.63.255.255",
            "100.128.0.1",
            "126.255.255.255",
            "128.0.0.1",
            "169.253.0.1",
            "172.15.255.255",
            "172.32.0.1",
            "192.0.1.1",
            "192.0.3.1",
            "192.169.0.1",
            "198.17.255.255",
            "198.20.0.1",
            "198.51.101.1",
            "203.0.112.1",
            "223.255.255.254",
        ] {
            assert!(is_public(ip(a)), "{a} must be public");
        }
    }

    #[test]
    fn ipv6_special_ranges_are_not_public() {
        for a in [
            "::",
            "::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "::ffff:169.254.169.254",
            "::ffff:0:10.0.0.1",
            "::127.0.0.1",
            "::10.0.0.1",
            "64:ff9b::127.0.0.1",
            "64:ff9b::a9fe:a9fe",
            "64:ff9b::198.18.0.1",
            "64:ff9b:1::808:808",
            "100::1",
            "2001::1",
            "2001:0:4136:e378:8000:63bf:3fff:fdd2",
            "2001:2::1",
            "2001:10::1",
            "2001:db8::1",
            "2002:7f00:1::1",
            "2002:a00:1::1",
            "2002:c612:1::1",
            "3fff::1",
            "5f00::1",
            "fc00::1",
            "fd12:3456::1",
            "fe80::1",
            "febf::1",
            "fec0::1",
            "ff02::1",
            "ff0e::1",
            "4000::1",
            "8000::1",
        ] {
            assert!(!is_public(ip(a)), "{a} must not be public");
        }
    }

    #[test]
    fn ipv6_public_and_embedded_public_v4_are_public() {
        for a in [
            "2606:4700:4700::1111",
            "2a00:1450:4001::200e",
            "2001:200::1",
            "2001:4860:4860::8888",
            "::ffff:8.8.8.8",
            "64:ff9b::8.8.8.8",
            "2002:808:808::1",
            "2003::1",
        ] {
            assert!(is_public(ip(a)), "{a} must be public");
        }
    }

    /// A receiver that records whether anything connected to it.
    fn listener() -> (std::net::TcpListener, u16) {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap_or_else(|e| panic!("bind: {e}"));
        let port = l.local_addr().map(|a| a.port()).unwrap_or_default();
        (l, port)
    }

    #[test]
    fn the_client_refuses_a_private_address_at_connect_time() {
        // check_url is not called here: the resolver inside the client must refuse on its own.
        let (l, port) = listener();
        l.set_nonblocking(true).unwrap_or_default();
        let cfg = HttpConfig::default();
        let url = format!("http://127.0.0.1:{port}/x");
        let err = agent(&cfg).get(&url).call().err().map(|e| e.to_string()).unwrap_or_default();
        assert!(err.contains("not a public address"), "{err}");
        assert!(l.accept().is_err(), "nothing may connect to the private receiver");
        // With private addresses allowed, the same client connects.
        let (l2, port2) = listener();
        let handle = std::thread::spawn(move || {
            use std::io::{Read, Write};
            if let Ok((mut s, _)) = l2.accept() {
                let mut buf = [0u8; 1024];
                let _ = s.read(&mut buf);
                let _ = s.write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok");
            }
        });
        let body = get(&format!("http://127.0.0.1:{port2}/"), &HttpConfig::allow_private()).unwrap_or_default();
        assert_eq!(body, b"ok");
        let _ = handle.join();
    }
}
