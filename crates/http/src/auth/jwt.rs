//! Access tokens: EdDSA-signed JWTs. The key pair lives in the database so every instance
//! signs and verifies with the same key, and the public half is published as a JWKS.

use aws_lc_rs::signature::{Ed25519KeyPair, KeyPair};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};
use signet_domain::{Error, PrincipalId};
use signet_services::Services;
use signet_services::records::SigningKeyRow;

use crate::error::{ApiError, HttpCode};

const PURPOSE: &str = "jwt-access";
const TOKEN_TYPE: &str = "access";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PrincipalKind {
    User,
    Client,
}

impl PrincipalKind {
    pub fn as_str(self) -> &'static str {
        match self {
            PrincipalKind::User => "user",
            PrincipalKind::Client => "client",
        }
    }

    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "user" => Some(PrincipalKind::User),
            "client" => Some(PrincipalKind::Client),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Claims {
    pub iss: String,
    pub aud: String,
    /// `user:ID` or `client:ID`.
    pub sub: String,
    pub tid: i64,
    pub exp: u64,
    pub iat: u64,
    pub nbf: u64,
    pub jti: String,
    /// Token purpose; only access tokens are accepted by the API.
    pub typ: String,
    /// The principal's security stamp when the token was issued.
    pub stamp: String,
}

impl Claims {
    fn subject(&self) -> Result<(PrincipalKind, PrincipalId), ApiError> {
        self.sub
            .split_once(':')
            .and_then(|(kind, id)| Some((PrincipalKind::parse(kind)?, PrincipalId::from(id.parse::<i64>().ok()?))))
            .ok_or_else(|| ApiError::new(HttpCode::InvalidToken, "the token subject is malformed"))
    }

    pub fn principal_id(&self) -> Result<PrincipalId, ApiError> {
        self.subject().map(|(_, id)| id)
    }

    pub fn kind(&self) -> Result<PrincipalKind, ApiError> {
        self.subject().map(|(kind, _)| kind)
    }
}

/// Verified tokens by SHA-256 of their text, so a client's repeated requests skip the signature
/// check. Only claims are cached: the security stamp is still compared on every request.
struct VerifiedCache {
    entries: std::sync::Mutex<std::collections::HashMap<[u8; 32], Claims>>,
}

const VERIFIED_CACHE_LIMIT: usize = 20_000;

impl VerifiedCache {
    fn get(&self, key: &[u8; 32], now: u64) -> Option<Claims> {
        let entries = self.entries.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        entries.get(key).filter(|claims| claims.exp > now).cloned()
    }

    fn put(&self, key: [u8; 32], claims: &Claims) {
        let mut entries = self.entries.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if entries.len() >= VERIFIED_CACHE_LIMIT {
            // Crude but bounded: start over rather than track recency.
            entries.clear();
        }
        entries.insert(key, claims.clone());
    }
}

pub struct JwtKeys {
    verified: VerifiedCache,
    kid: String,
    encoding: EncodingKey,
    decoding: DecodingKey,
    public_x: String,
    issuer: String,
    audience: String,
    ttl_secs: u64,
}

fn unix_now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or_default()
}

impl JwtKeys {
    /// Loads the shared key pair, creating it on the very first start of any instance.
    pub async fn load(services: &Services, issuer: &str, audience: &str, ttl_secs: u64) -> Result<JwtKeys, Error> {
        let candidate = Ed25519KeyPair::generate().map_err(Error::internal)?;
        let pkcs8 = candidate.to_pkcs8().map_err(Error::internal)?;
        let candidate_row = SigningKeyRow {
            kid: signet_services::platform::secrets::random_token(9),
            private_der: pkcs8.as_ref().to_vec(),
            public_raw: candidate.public_key().as_ref().to_vec(),
        };
        let row = signet_services::platform::keys::shared_key(services, PURPOSE, &candidate_row).await?;
        let public_x = URL_SAFE_NO_PAD.encode(&row.public_raw);
        Ok(JwtKeys {
            verified: VerifiedCache { entries: std::sync::Mutex::new(std::collections::HashMap::new()) },
            kid: row.kid,
            encoding: EncodingKey::from_ed_der(&row.private_der),
            decoding: DecodingKey::from_ed_components(&public_x).map_err(Error::internal)?,
            public_x,
            issuer: issuer.to_string(),
            audience: audience.to_string(),
            ttl_secs,
        })
    }

    pub fn ttl_secs(&self) -> u64 {
        self.ttl_secs
    }

    pub fn issue_access(
        &self,
        kind: PrincipalKind,
        principal_id: PrincipalId,
        tenant_id: i64,
        stamp: &str,
    ) -> Result<String, Error> {
        let now = unix_now();
        let claims = Claims {
            iss: self.issuer.clone(),
            aud: self.audience.clone(),
            sub: format!("{}:{principal_id}", kind.as_str()),
            tid: tenant_id,
            exp: now + self.ttl_secs,
            iat: now,
            nbf: now,
            jti: signet_services::platform::secrets::random_token(16),
            typ: TOKEN_TYPE.into(),
            stamp: stamp.to_string(),
        };
        let mut header = Header::new(Algorithm::EdDSA);
        header.kid = Some(self.kid.clone());
        jsonwebtoken::encode(&header, &claims, &self.encoding).map_err(Error::internal)
    }

    /// Verifies signature (EdDSA only, so `alg: none` and HMAC confusion fail), expiry,
    /// issuer, audience and purpose. Header hints such as `jku` or `jwk` are never used.
    pub fn verify_access(&self, token: &str) -> Result<Claims, ApiError> {
        let key: [u8; 32] = aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, token.as_bytes())
            .as_ref()
            .try_into()
            .map_err(|_| ApiError::new(HttpCode::InvalidToken, "the access token is malformed"))?;
        if let Some(claims) = self.verified.get(&key, unix_now()) {
            return Ok(claims);
        }
        let claims = self.verify_signature_and_claims(token)?;
        self.verified.put(key, &claims);
        Ok(claims)
    }

    fn verify_signature_and_claims(&self, token: &str) -> Result<Claims, ApiError> {
        let mut validation = Validation::new(Algorithm::EdDSA);
        validation.set_audience(&[&self.audience]);
        validation.set_issuer(&[&self.issuer]);
        validation.set_required_spec_claims(&["exp", "iat", "nbf", "iss", "aud", "sub"]);
        validation.leeway = 30;
        validation.validate_nbf = true;
        let data = jsonwebtoken::decode::<Claims>(token, &self.decoding, &validation).map_err(|e| {
            use jsonwebtoken::errors::ErrorKind;
            let detail = match e.kind() {
                ErrorKind::ExpiredSignature => "the access token has expired",
                ErrorKind::InvalidAudience => "the access token is for another audience",
                ErrorKind::InvalidIssuer => "the access token is from another issuer",
                ErrorKind::InvalidSignature => "the access token signature is not valid",
                ErrorKind::InvalidAlgorithm => "the access token algorithm is not accepted",
                _ => "the access token is malformed",
            };
            ApiError::new(HttpCode::InvalidToken, detail)
        })?;
        if data.claims.typ != TOKEN_TYPE {
            return Err(ApiError::new(HttpCode::InvalidToken, "this token is not an access token"));
        }
        Ok(data.claims)
    }

    /// The public key as a JSON Web Key Set (RFC 7517, OKP key of RFC 8037).
    pub fn jwks(&self) -> serde_json::Value {
        serde_json::json!({
            "keys": [{
                "kty": "OKP",
                "crv": "Ed25519",
                "x": self.public_x,
                "kid": self.kid,
                "alg": "EdDSA",
                "use": "sig",
            }]
        })
    }
}
