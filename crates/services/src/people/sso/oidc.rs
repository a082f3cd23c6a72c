//! The relying party's side of OpenID Connect (authorization code flow with PKCE, OpenID
//! Connect Core 1.0 and RFC 7636), without I/O: the discovery document's checks, the
//! authorization request, and the ID token's validation (signature by a key of the provider's
//! JWKS with an asymmetric algorithm, issuer, audience, authorized party, expiry, nonce).

use aws_lc_rs::digest;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::jwk::Jwk;
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde::Deserialize;

/// Why a provider's discovery document or ID token cannot be used. The text is an
/// administrator's field message (discovery) or the log's cause of a failed sign-in, worded
/// as before; the JSON and JWT libraries' errors stay attached.
#[derive(Debug, thiserror::Error)]
pub enum OidcError {
    #[error("its discovery document cannot be read: {0}")]
    DiscoveryUnreadable(#[source] serde_json::Error),
    /// OpenID Connect Discovery §4.3: the document must name the issuer asked for.
    #[error("its discovery document names another issuer ({0})")]
    OtherIssuer(String),
    #[error("its {0} is not an http(s) address")]
    NotHttp(&'static str),
    #[error("it does not offer the authorization code flow")]
    NoCodeFlow,
    #[error("it does not offer PKCE with S256")]
    NoPkce,
    #[error("the ID token cannot be read: {0}")]
    TokenUnreadable(#[source] jsonwebtoken::errors::Error),
    #[error("the ID token is signed with {0:?}, which Signet does not accept")]
    Algorithm(Algorithm),
    #[error("the ID token is not valid: {0}")]
    TokenInvalid(#[source] jsonwebtoken::errors::Error),
    #[error("the ID token was issued to another party (azp)")]
    AnotherParty,
    #[error("the ID token does not carry this sign-in's nonce")]
    Nonce,
    #[error("the ID token's subject is empty or too long")]
    Subject,
    #[error("the provider's JWKS cannot be read: {0}")]
    JwksUnreadable(#[source] serde_json::Error),
    #[error("no key of the provider's JWKS matches the ID token")]
    NoKey,
    #[error("the provider's key cannot be used: {0}")]
    KeyUnusable(#[source] jsonwebtoken::errors::Error),
}

/// What Signet uses of a provider's discovery document (`/.well-known/openid-configuration`).
#[derive(Debug, Clone, Deserialize)]
pub struct Discovery {
    pub issuer: String,
    pub authorization_endpoint: String,
    pub token_endpoint: String,
    pub userinfo_endpoint: Option<String>,
    pub jwks_uri: String,
    #[serde(default)]
    pub response_types_supported: Vec<String>,
    #[serde(default)]
    pub code_challenge_methods_supported: Option<Vec<String>>,
}

/// Where a provider's discovery document is, from its issuer.
pub fn discovery_url(issuer: &str) -> String {
    format!("{}/.well-known/openid-configuration", issuer.trim_end_matches('/'))
}

/// The document as the issuer published it, or why Signet cannot use it.
pub fn check_discovery(issuer: &str, body: &[u8]) -> Result<Discovery, OidcError> {
    let doc: Discovery = serde_json::from_slice(body).map_err(OidcError::DiscoveryUnreadable)?;
    // OpenID Connect Discovery §4.3: the issuer in the document is exactly the one asked for.
    if doc.issuer != issuer {
        return Err(OidcError::OtherIssuer(doc.issuer));
    }
    for (name, url) in [
        ("authorization_endpoint", Some(&doc.authorization_endpoint)),
        ("token_endpoint", Some(&doc.token_endpoint)),
        ("jwks_uri", Some(&doc.jwks_uri)),
        ("userinfo_endpoint", doc.userinfo_endpoint.as_ref()),
    ] {
        if let Some(url) = url
            && !(url.starts_with("https://") || url.starts_with("http://"))
        {
            return Err(OidcError::NotHttp(name));
        }
    }
    if !doc.response_types_supported.is_empty() && !doc.response_types_supported.iter().any(|t| t == "code") {
        return Err(OidcError::NoCodeFlow);
    }
    if let Some(methods) = &doc.code_challenge_methods_supported
        && !methods.iter().any(|m| m == "S256")
    {
        return Err(OidcError::NoPkce);
    }
    Ok(doc)
}

/// RFC 7636 §4.2: BASE64URL(SHA256(verifier)).
pub fn pkce_challenge(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(digest::digest(&digest::SHA256, verifier.as_bytes()))
}

/// What an authorization request carries.
pub struct AuthorizationRequest<'a> {
    pub authorization_endpoint: &'a str,
    pub client_id: &'a str,
    pub redirect_uri: &'a str,
    pub state: &'a str,
    pub nonce: &'a str,
    pub code_verifier: &'a str,
    pub login_hint: Option<&'a str>,
}

/// The provider's address that starts the sign-in.
pub fn authorization_url(request: &AuthorizationRequest<'_>) -> String {
    let challenge = pkce_challenge(request.code_verifier);
    let mut pairs = vec![
        ("response_type", "code"),
        ("client_id", request.client_id),
        ("redirect_uri", request.redirect_uri),
        ("scope", "openid email profile"),
        ("state", request.state),
        ("nonce", request.nonce),
        ("code_challenge", challenge.as_str()),
        ("code_challenge_method", "S256"),
    ];
    if let Some(hint) = request.login_hint {
        pairs.push(("login_hint", hint));
    }
    let query = serde_urlencoded::to_string(&pairs).unwrap_or_default();
    let separator = if request.authorization_endpoint.contains('?') { '&' } else { '?' };
    format!("{}{separator}{query}", request.authorization_endpoint)
}

/// The token endpoint's answer (RFC 6749 §5.1 with OpenID Connect's `id_token`).
#[derive(Debug, Deserialize)]
pub struct TokenAnswer {
    pub id_token: String,
    pub access_token: Option<String>,
}

/// The ID token's claims Signet uses.
#[derive(Debug, Clone, Deserialize)]
pub struct IdClaims {
    pub sub: String,
    pub nonce: Option<String>,
    pub azp: Option<String>,
    #[serde(default, deserialize_with = "audiences")]
    pub aud: Vec<String>,
    pub email: Option<String>,
    #[serde(default, deserialize_with = "loose_bool")]
    pub email_verified: Option<bool>,
    pub name: Option<String>,
    /// How the person signed in at the provider (RFC 8176 method names); none when not said.
    #[serde(default, deserialize_with = "methods")]
    pub amr: Vec<String>,
}

/// The userinfo endpoint's answer (the claims a code flow's ID token may leave out).
#[derive(Debug, Deserialize)]
pub struct UserInfo {
    pub sub: String,
    pub email: Option<String>,
    #[serde(default, deserialize_with = "loose_bool")]
    pub email_verified: Option<bool>,
}

/// `amr` as an array of strings; anything else says nothing (no method is assumed).
fn methods<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    let value = serde_json::Value::deserialize(d)?;
    Ok(value.as_array().map(|a| a.iter().filter_map(|m| m.as_str().map(str::to_string)).collect()).unwrap_or_default())
}

fn audiences<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Aud {
        One(String),
        Many(Vec<String>),
    }
    Ok(match Aud::deserialize(d)? {
        Aud::One(one) => vec![one],
        Aud::Many(many) => many,
    })
}

/// Some providers send `email_verified` as the string "true".
fn loose_bool<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
    Ok(match serde_json::Value::deserialize(d)? {
        serde_json::Value::Bool(b) => Some(b),
        serde_json::Value::String(s) => Some(s == "true"),
        _ => None,
    })
}

/// Only signatures: no `none`, and no HMAC (a client secret is not a key Signet would trust
/// for identities, and a JWKS `oct` key must never verify anything).
const ALGORITHMS: [Algorithm; 9] = [
    Algorithm::RS256,
    Algorithm::RS384,
    Algorithm::RS512,
    Algorithm::PS256,
    Algorithm::PS384,
    Algorithm::PS512,
    Algorithm::ES256,
    Algorithm::ES384,
    Algorithm::EdDSA,
];

/// Validates an ID token against the provider's JWKS (the document's bytes) and the sign-in's
/// nonce; answers its claims.
pub fn verify_id_token(
    token: &str,
    jwks: &[u8],
    issuer: &str,
    client_id: &str,
    nonce: &str,
) -> Result<IdClaims, OidcError> {
    let header = jsonwebtoken::decode_header(token).map_err(OidcError::TokenUnreadable)?;
    if !ALGORITHMS.contains(&header.alg) {
        return Err(OidcError::Algorithm(header.alg));
    }
    let key = signing_key(jwks, header.kid.as_deref(), header.alg)?;
    let mut validation = Validation::new(header.alg);
    validation.set_issuer(&[issuer]);
    validation.set_audience(&[client_id]);
    validation.set_required_spec_claims(&["exp", "iat", "iss", "aud", "sub"]);
    validation.leeway = 60;
    let data = jsonwebtoken::decode::<IdClaims>(token, &key, &validation).map_err(OidcError::TokenInvalid)?;
    let claims = data.claims;
    // Core §3.1.3.7: with several audiences, the authorized party must be this client.
    if (claims.aud.len() > 1 || claims.azp.is_some()) && claims.azp.as_deref() != Some(client_id) {
        return Err(OidcError::AnotherParty);
    }
    if claims.nonce.as_deref() != Some(nonce) {
        return Err(OidcError::Nonce);
    }
    if claims.sub.is_empty() || claims.sub.len() > 255 {
        return Err(OidcError::Subject);
    }
    Ok(claims)
}

/// The JWKS key the token names (`kid`), or the only key usable with its algorithm.
fn signing_key(jwks: &[u8], kid: Option<&str>, alg: Algorithm) -> Result<DecodingKey, OidcError> {
    #[derive(Deserialize)]
    struct RawSet {
        keys: Vec<serde_json::Value>,
    }
    let set: RawSet = serde_json::from_slice(jwks).map_err(OidcError::JwksUnreadable)?;
    // Keys Signet cannot use (other types, encryption keys) are skipped, not fatal.
    let keys: Vec<(Option<String>, Jwk)> = set
        .keys
        .into_iter()
        .filter(|k| k.get("use").and_then(|u| u.as_str()).is_none_or(|u| u == "sig"))
        .filter_map(|k| {
            let kid = k.get("kid").and_then(|v| v.as_str()).map(str::to_string);
            serde_json::from_value::<Jwk>(k).ok().map(|jwk| (kid, jwk))
        })
        .filter(|(_, jwk)| fits(jwk, alg))
        .collect();
    let chosen = match kid {
        Some(kid) => keys.iter().find(|(k, _)| k.as_deref() == Some(kid)),
        None if keys.len() == 1 => keys.first(),
        None => None,
    };
    let (_, jwk) = chosen.ok_or(OidcError::NoKey)?;
    DecodingKey::from_jwk(jwk).map_err(OidcError::KeyUnusable)
}

/// Whether a JWK can verify `alg`: its key type matches, and its own `alg`, when it names one.
fn fits(jwk: &Jwk, alg: Algorithm) -> bool {
    use jsonwebtoken::jwk::AlgorithmParameters as Params;
    let kind = matches!(
        (&jwk.algorithm, alg),
        (Params::RSA(_), Algorithm::RS256 | Algorithm::RS384 | Algorithm::RS512)
            | (Params::RSA(_), Algorithm::PS256 | Algorithm::PS384 | Algorithm::PS512)
            | (Params::EllipticCurve(_), Algorithm::ES256 | Algorithm::ES384)
            | (Params::OctetKeyPair(_), Algorithm::EdDSA)
    );
    kind && jwk.common.key_algorithm.is_none_or(|named| named == jsonwebtoken::jwk::KeyAlgorithm::from(alg))
}

#[cfg(test)]
mod tests {
    use super::*;
    use aws_lc_rs::signature::{Ed25519KeyPair, KeyPair};
    use jsonwebtoken::{EncodingKey, Header};
    use serde_json::json;

    #[test]
    fn the_pkce_challenge_is_rfc_7636s_example() {
        assert_eq!(
            pkce_challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        );
    }

    #[test]
    fn a_discovery_document_must_name_its_own_issuer_and_offer_code_and_s256() {
        let doc = |issuer: &str, extra: serde_json::Value| {
            let mut d = json!({"issuer": issuer, "authorization_endpoint": "https://idp/auth",
                "token_endpoint": "https://idp/token", "jwks_uri": "https://idp/jwks"});
            if let (Some(d), Some(extra)) = (d.as_object_mut(), extra.as_object()) {
                d.extend(extra.clone());
            }
            d.to_string().into_bytes()
        };
        assert!(check_discovery("https://idp", &doc("https://idp", json!({}))).is_ok());
        assert!(check_discovery("https://idp", &doc("https://evil", json!({}))).is_err());
        let only_implicit = json!({"response_types_supported": ["id_token"]});
        assert!(check_discovery("https://idp", &doc("https://idp", only_implicit)).is_err());
        let plain_pkce = json!({"code_challenge_methods_supported": ["plain"]});
        assert!(check_discovery("https://idp", &doc("https://idp", plain_pkce)).is_err());
        let javascript = json!({"token_endpoint": "javascript:alert(1)"});
        assert!(check_discovery("https://idp", &doc("https://idp", javascript)).is_err());
        assert!(check_discovery("https://idp", b"<html>").is_err());
    }

    #[test]
    fn the_authorization_url_carries_state_nonce_and_the_s256_challenge() {
        let url = authorization_url(&AuthorizationRequest {
            authorization_endpoint: "https://idp/auth?tenant=x",
            client_id: "signet",
            redirect_uri: "https://signet.example/sso/callback",
            state: "st",
            nonce: "no",
            code_verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk",
            login_hint: Some("a+b@bank.example"),
        });
        assert!(url.starts_with("https://idp/auth?tenant=x&response_type=code&client_id=signet&"), "{url}");
        assert!(url.contains("redirect_uri=https%3A%2F%2Fsignet.example%2Fsso%2Fcallback"), "{url}");
        assert!(url.contains("code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256"));
        assert!(
            url.contains("login_hint=a%2Bb%40bank.example") && url.contains("nonce=no") && url.contains("state=st")
        );
    }

    struct Idp {
        key: EncodingKey,
        jwks: Vec<u8>,
    }

    fn idp() -> Idp {
        let pkcs8 = Ed25519KeyPair::generate_pkcs8(&aws_lc_rs::rand::SystemRandom::new()).expect("key");
        let pair = Ed25519KeyPair::from_pkcs8(pkcs8.as_ref()).expect("pair");
        let x = URL_SAFE_NO_PAD.encode(pair.public_key().as_ref());
        let jwks = json!({"keys": [
            {"kty": "oct", "k": "c2VjcmV0", "kid": "hmac"},
            {"kty": "OKP", "crv": "Ed25519", "x": x, "kid": "k1", "use": "sig"},
        ]});
        Idp { key: EncodingKey::from_ed_der(pkcs8.as_ref()), jwks: jwks.to_string().into_bytes() }
    }

    fn token(idp: &Idp, claims: serde_json::Value, kid: Option<&str>) -> String {
        let mut header = Header::new(Algorithm::EdDSA);
        header.kid = kid.map(str::to_string);
        jsonwebtoken::encode(&header, &claims, &idp.key).expect("sign")
    }

    fn claims() -> serde_json::Value {
        let now = signet_domain::now_millis() / 1000;
        json!({"iss": "https://idp", "aud": "signet", "sub": "u1", "iat": now, "exp": now + 300,
               "nonce": "n1", "email": "a@bank.example", "email_verified": true})
    }

    fn with(mut base: serde_json::Value, key: &str, value: serde_json::Value) -> serde_json::Value {
        base[key] = value;
        base
    }

    #[test]
    fn a_good_id_token_is_accepted_and_every_bad_claim_refused() {
        let idp = idp();
        let check = |claims: serde_json::Value| {
            verify_id_token(&token(&idp, claims, Some("k1")), &idp.jwks, "https://idp", "signet", "n1")
        };
        let ok = check(claims()).expect("valid");
        assert_eq!(
            (ok.sub.as_str(), ok.email.as_deref(), ok.email_verified),
            ("u1", Some("a@bank.example"), Some(true))
        );
        let now = signet_domain::now_millis() / 1000;
        assert!(check(with(claims(), "iss", json!("https://evil"))).is_err());
        assert!(check(with(claims(), "aud", json!("other"))).is_err());
        assert!(check(with(claims(), "exp", json!(now - 3600))).is_err());
        assert!(check(with(claims(), "nonce", json!("replayed"))).is_err());
        assert!(check(with(claims(), "aud", json!(["signet", "other"]))).is_err(), "several audiences need azp");
        assert!(check(with(with(claims(), "aud", json!(["signet", "other"])), "azp", json!("signet"))).is_ok());
        assert!(check(with(claims(), "sub", json!(""))).is_err());
    }

    #[test]
    fn only_a_key_of_the_jwks_with_an_asymmetric_algorithm_verifies() {
        let idp = idp();
        let good = token(&idp, claims(), Some("k1"));
        let other = self::idp();
        assert!(verify_id_token(&good, &other.jwks, "https://idp", "signet", "n1").is_err(), "another provider's key");
        assert!(verify_id_token(&good, &idp.jwks, "https://idp", "signet", "n1").is_ok());
        // An HMAC token "signed" with the JWKS's oct key is refused before any key is used.
        let hmac = jsonwebtoken::encode(
            &Header { kid: Some("hmac".into()), ..Header::new(Algorithm::HS256) },
            &claims(),
            &EncodingKey::from_secret(b"secret"),
        )
        .expect("sign");
        assert!(verify_id_token(&hmac, &idp.jwks, "https://idp", "signet", "n1").is_err());
        // A token without kid needs exactly one usable key: the oct key is not one.
        assert!(verify_id_token(&token(&idp, claims(), None), &idp.jwks, "https://idp", "signet", "n1").is_ok());
        let unsigned =
            format!("{}.{}.", URL_SAFE_NO_PAD.encode(br#"{"alg":"none"}"#), good.split('.').nth(1).unwrap_or(""));
        assert!(verify_id_token(&unsigned, &idp.jwks, "https://idp", "signet", "n1").is_err());
    }
}
