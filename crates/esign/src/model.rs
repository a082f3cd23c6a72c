//! The request and response of the CCA eSign API 2.1, as values.

use time::{OffsetDateTime, PrimitiveDateTime, UtcOffset};

use crate::EsignError;

/// The API version Signet speaks.
pub const VERSION: &str = "2.1";
/// Most `InputHash` elements in one request.
pub const MAX_HASHES: usize = 5;
/// Longest `txn` (ESPs refuse 50 characters and more).
pub const MAX_TXN_CHARS: usize = 49;

/// How the signer proves who they are at the ESP (`AuthMode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum AuthMode {
    /// 1: a one-time password sent to the mobile number registered with Aadhaar.
    Otp,
    /// 2: fingerprint.
    Fingerprint,
    /// 3: iris.
    Iris,
    /// 4: face.
    Face,
}

impl AuthMode {
    pub fn code(self) -> &'static str {
        match self {
            Self::Otp => "1",
            Self::Fingerprint => "2",
            Self::Iris => "3",
            Self::Face => "4",
        }
    }

    /// The name settings and forms use: `otp`, `fingerprint`, `iris`, `face`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Otp => "otp",
            Self::Fingerprint => "fingerprint",
            Self::Iris => "iris",
            Self::Face => "face",
        }
    }

    /// Reads [`Self::name`] (case and surrounding spaces ignored).
    pub fn from_name(name: &str) -> Option<Self> {
        let name = name.trim().to_ascii_lowercase();
        [Self::Otp, Self::Fingerprint, Self::Iris, Self::Face].into_iter().find(|mode| mode.name() == name)
    }

    pub fn from_code(code: &str) -> Option<Self> {
        match code.trim() {
            "1" => Some(Self::Otp),
            "2" => Some(Self::Fingerprint),
            "3" => Some(Self::Iris),
            "4" => Some(Self::Face),
            _ => None,
        }
    }
}

/// One document hash to sign (`<InputHash id hashAlgorithm="SHA256" docInfo>hex</InputHash>`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct InputHash {
    /// 1-based, unique in the request; the response's `DocSignature id` refers to it.
    pub id: u32,
    pub sha256: [u8; 32],
    /// What the signer is shown about the document (at most 50 characters are sent).
    pub doc_info: String,
}

/// `<Esign …>`: what an ASP asks an ESP to sign.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct EsignRequest {
    pub ver: String,
    /// The request time (sent as Indian Standard Time, `yyyy-MM-ddTHH:mm:ss`).
    pub ts: OffsetDateTime,
    /// The ASP's transaction id, unique per ASP.
    pub txn: String,
    pub asp_id: String,
    pub auth_mode: AuthMode,
    /// `pkcs7` (a CMS per hash).
    pub response_sig_type: String,
    /// Where the ESP posts the response (the browser carries it as `eSignResponse`).
    pub response_url: String,
    /// The signer's Aadhaar number or VID when the ASP knows it (`ekycId`), else empty.
    pub ekyc_id: String,
    /// `A` (Aadhaar) or `V` (VID).
    pub ekyc_id_type: String,
    pub hashes: Vec<InputHash>,
}

/// `status` of a response.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ResponseStatus {
    /// 0: the ESP refused or the signer did not complete; `errCode` says why.
    Failure,
    /// 1: signed.
    Success,
    /// 2: accepted, waiting for the signer (the server-to-server first step of 3.x).
    Pending,
}

impl ResponseStatus {
    pub fn code(self) -> &'static str {
        match self {
            Self::Failure => "0",
            Self::Success => "1",
            Self::Pending => "2",
        }
    }

    pub fn from_code(code: &str) -> Option<Self> {
        match code.trim() {
            "0" => Some(Self::Failure),
            "1" => Some(Self::Success),
            "2" => Some(Self::Pending),
            _ => None,
        }
    }
}

/// One `DocSignature`: the CMS over the `InputHash` with the same id, or its error.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DocSignature {
    pub id: u32,
    pub cms_der: Vec<u8>,
    /// `error` attribute; `None` for "NA".
    pub error: Option<String>,
}

/// `<EsignResp …>`: the ESP's answer.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct EsignResponse {
    pub status: ResponseStatus,
    pub ts: OffsetDateTime,
    /// The ASP's `txn` this answers.
    pub txn: String,
    /// The ESP's own reference for the transaction.
    pub res_code: String,
    /// `errCode`/`errMsg`; `None` for "NA".
    pub err_code: Option<String>,
    pub err_msg: Option<String>,
    /// The signer certificate the ESP issued (DER).
    pub user_certificate: Option<Vec<u8>>,
    pub signatures: Vec<DocSignature>,
}

const IST: UtcOffset = match UtcOffset::from_hms(5, 30, 0) {
    Ok(offset) => offset,
    Err(_) => UtcOffset::UTC,
};

/// `ts` as the API writes it: Indian Standard Time, `yyyy-MM-ddTHH:mm:ss`, no zone.
pub fn format_ts(t: OffsetDateTime) -> String {
    let t = t.to_offset(IST);
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}",
        t.year(),
        u8::from(t.month()),
        t.day(),
        t.hour(),
        t.minute(),
        t.second()
    )
}

/// Reads `ts` (Indian Standard Time, fractional seconds allowed, a zone allowed).
pub fn parse_ts(text: &str) -> Result<OffsetDateTime, EsignError> {
    let text = text.trim();
    let bad = || EsignError::new("ESP-901", format!("ts is not a yyyy-MM-ddTHH:mm:ss time: {text:?}"));
    if let Ok(t) = OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339) {
        return Ok(t);
    }
    let (whole, fraction) = match text.split_once('.') {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (text, None),
    };
    let format = time::macros::format_description!("[year]-[month]-[day]T[hour]:[minute]:[second]");
    let base = PrimitiveDateTime::parse(whole, format).map_err(|_| bad())?;
    let millis = match fraction {
        Some(f) if !f.is_empty() && f.len() <= 9 && f.bytes().all(|b| b.is_ascii_digit()) => {
            let padded = format!("{f:0<9}");
            padded.parse::<i64>().map_err(|_| bad())? / 1_000_000
        }
        Some(_) => return Err(bad()),
        None => 0,
    };
    Ok(base.assume_offset(IST) + time::Duration::milliseconds(millis))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_indian_standard_time() {
        let t = time::macros::datetime!(2022-03-30 10:27:13 UTC);
        assert_eq!(format_ts(t), "2022-03-30T15:57:13");
        assert_eq!(parse_ts("2022-03-30T15:57:13").ok(), Some(t));
        assert_eq!(parse_ts("2022-03-30T15:57:13.320").ok(), Some(t + time::Duration::milliseconds(320)));
        assert!(parse_ts("30/03/2022").is_err());
        assert!(parse_ts("2022-03-30T15:57:13.x").is_err());
    }

    #[test]
    fn codes_round_trip() {
        for mode in [AuthMode::Otp, AuthMode::Fingerprint, AuthMode::Iris, AuthMode::Face] {
            assert_eq!(AuthMode::from_code(mode.code()), Some(mode));
        }
        assert_eq!(ResponseStatus::from_code("1"), Some(ResponseStatus::Success));
        assert_eq!(AuthMode::from_code("9"), None);
    }
}
