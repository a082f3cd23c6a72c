//! Minimal blocking HTTP for TSA, OCSP and CRL fetches: timeouts, size caps, and an address
//! policy so a URL taken from a certificate cannot reach internal services (SSRF).

use std::net::{IpAddr, ToSocketAddrs};
use std::time::Duration;

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
    ureq::Agent::config_builder()
        .tls_config(tls.build())
        .timeout_global(Some(cfg.timeout))
        .http_status_as_error(false)
        // A redirect could lead to a private address after our check; refuse them.
        .max_redirects(0)
        .build()
        .into()
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

/// Only http(s) URLs, and (unless allowed) only hosts resolving to public addresses.
/// Note: resolution happens again inside the client, so this does not stop DNS rebinding;
/// deployments that need that should route through an egress proxy.
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
            return Err(Error::Http(format!("refusing to fetch {url}: {} is not a public address", a.ip())));
        }
    }
    Ok(())
}

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

fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            let o = v4.octets();
            !(v4.is_loopback()
                || v4.is_private()
                || v4.is_link_local()
                || v4.is_unspecified()
                || v4.is_broadcast()
                || v4.is_documentation()
                || o[0] == 0
                || (o[0] == 100 && (o[1] & 0xc0) == 64) // CGNAT 100.64/10
                || o[0] >= 224)
        }
        IpAddr::V6(v6) => {
            let seg = v6.segments();
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_public(IpAddr::V4(v4));
            }
            !(v6.is_loopback()
                || v6.is_unspecified()
                || (seg[0] & 0xfe00) == 0xfc00 // unique local
                || (seg[0] & 0xffc0) == 0xfe80 // link local
                || (seg[0] & 0xff00) == 0xff00) // multicast
        }
    }
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
}
