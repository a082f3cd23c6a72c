//! The gateway payload: every field of the PDF, XML/DATA and Hash tables, read leniently as
//! DESIGN §2 says (case-insensitive keys, lenient booleans, `Documentdetails` as an array or a
//! string holding one), with the spec's rules and error codes.

use serde_json::{Map, Value};

use crate::archive::{PayloadLimits, decompress_7z};
use crate::cipher::b64_decode_lenient;
use crate::{ErrorCode, GatewayFailure};

/// Longest ReferenceNumber, in characters.
pub const MAX_REFERENCE_LEN: usize = 20;
/// Most characters of a refused `ReferenceNumber` echoed back (see `Reader::echoed_reference`).
const MAX_ECHOED_REFERENCE: usize = 200;
/// Most `Documentdetails` items.
pub const MAX_DOCUMENTS: usize = 5;

/// The file type of a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FileType {
    /// A PDF document.
    Pdf,
    /// An XML document.
    Xml,
    /// Arbitrary data (text).
    Data,
    /// Up to five SHA-256 hashes of documents the signer sees by URL.
    Hash,
}

impl FileType {
    /// The value as sent: PDF, XML, DATA, Hash.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pdf => "PDF",
            Self::Xml => "XML",
            Self::Data => "DATA",
            Self::Hash => "Hash",
        }
    }

    fn parse(text: &str) -> Option<Self> {
        match text.trim().to_ascii_uppercase().as_str() {
            "PDF" => Some(Self::Pdf),
            "XML" => Some(Self::Xml),
            "DATA" => Some(Self::Data),
            "HASH" => Some(Self::Hash),
            _ => None,
        }
    }
}

/// A signature option of `SignatureType`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SignatureType {
    /// 2: digital signature with a crypto token.
    DigitalSignature,
    /// 3: eSign (Aadhaar).
    ESign,
    /// 4: eSignature (drawn, typed, uploaded image or signature pad).
    ESignature,
}

impl SignatureType {
    /// The number as sent.
    pub fn code(self) -> u8 {
        match self {
            Self::DigitalSignature => 2,
            Self::ESign => 3,
            Self::ESignature => 4,
        }
    }

    fn from_code(code: i64) -> Option<Self> {
        match code {
            2 => Some(Self::DigitalSignature),
            3 => Some(Self::ESign),
            4 => Some(Self::ESignature),
            _ => None,
        }
    }

    /// The comma-separated field value for a list of types ("2,4").
    pub fn join(types: &[SignatureType]) -> String {
        types.iter().map(|t| t.code().to_string()).collect::<Vec<_>>().join(",")
    }
}

/// A box `left,top,width,height` in PDF points from the page's top-left corner.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoxRect {
    /// Distance from the left edge.
    pub left: f64,
    /// Distance from the top edge.
    pub top: f64,
    /// Width (> 0).
    pub width: f64,
    /// Height (> 0).
    pub height: f64,
}

impl BoxRect {
    /// Whether the box lies inside a page of this size (points); the server checks it against
    /// the document's real page boxes.
    pub fn fits(&self, page_width: f64, page_height: f64) -> bool {
        self.left + self.width <= page_width && self.top + self.height <= page_height
    }

    /// The field value "l,t,w,h".
    pub fn to_param(&self) -> String {
        format!("{},{},{},{}", self.left, self.top, self.width, self.height)
    }
}

/// A page-level box: `<page>,<left>,<top>,<width>,<height>`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PageBox {
    /// 1-based page number.
    pub page: u32,
    /// The box on that page.
    pub rect: BoxRect,
}

/// `SelectPage` with its dependent field.
#[derive(Debug, Clone, PartialEq)]
pub enum PageSelection {
    /// Every page.
    All,
    /// The first page.
    First,
    /// The last page.
    Last,
    /// Even pages.
    Even,
    /// Odd pages.
    Odd,
    /// The pages of `PageNumber` (1-based, in the given order, without repeats).
    Specify(Vec<u32>),
    /// The boxes of `PagelevelCoordinates` (each with its own page; `SignaturePosition` unused).
    PageLevel(Vec<PageBox>),
}

impl PageSelection {
    /// The `SelectPage` value.
    pub fn select_page_param(&self) -> &'static str {
        match self {
            Self::All => "ALL",
            Self::First => "FIRST",
            Self::Last => "LAST",
            Self::Even => "EVEN",
            Self::Odd => "ODD",
            Self::Specify(_) => "SPECIFY",
            Self::PageLevel(_) => "PAGE LEVEL",
        }
    }
}

/// `SignaturePosition`: a named default box (DESIGN §2) or `Customize` with its coordinates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SignaturePosition {
    /// Top-Left.
    TopLeft,
    /// Top-Center.
    TopCenter,
    /// Top-Right.
    TopRight,
    /// Middle-Left.
    MiddleLeft,
    /// Middle-Center.
    MiddleCenter,
    /// Middle-Right.
    MiddleRight,
    /// Bottom-Left.
    BottomLeft,
    /// Bottom-Center.
    BottomCenter,
    /// Bottom-Right.
    BottomRight,
    /// Customize with `CustomizeCoordinates`.
    Customize(BoxRect),
}

const NAMED_POSITIONS: [(&str, SignaturePosition, [f64; 4]); 9] = [
    ("TOP-LEFT", SignaturePosition::TopLeft, [25.0, 725.0, 145.0, 785.0]),
    ("TOP-CENTER", SignaturePosition::TopCenter, [225.0, 725.0, 345.0, 785.0]),
    ("TOP-RIGHT", SignaturePosition::TopRight, [425.0, 725.0, 545.0, 785.0]),
    ("MIDDLE-LEFT", SignaturePosition::MiddleLeft, [25.0, 425.0, 145.0, 485.0]),
    ("MIDDLE-CENTER", SignaturePosition::MiddleCenter, [225.0, 425.0, 345.0, 485.0]),
    ("MIDDLE-RIGHT", SignaturePosition::MiddleRight, [425.0, 425.0, 545.0, 485.0]),
    ("BOTTOM-LEFT", SignaturePosition::BottomLeft, [25.0, 100.0, 145.0, 160.0]),
    ("BOTTOM-CENTER", SignaturePosition::BottomCenter, [225.0, 100.0, 345.0, 160.0]),
    ("BOTTOM-RIGHT", SignaturePosition::BottomRight, [425.0, 100.0, 545.0, 160.0]),
];

impl SignaturePosition {
    /// The `SignaturePosition` value (Customize for a custom box).
    pub fn param(&self) -> &'static str {
        match self {
            Self::TopLeft => "Top-Left",
            Self::TopCenter => "Top-Center",
            Self::TopRight => "Top-Right",
            Self::MiddleLeft => "Middle-Left",
            Self::MiddleCenter => "Middle-Center",
            Self::MiddleRight => "Middle-Right",
            Self::BottomLeft => "Bottom-Left",
            Self::BottomCenter => "Bottom-Center",
            Self::BottomRight => "Bottom-Right",
            Self::Customize(_) => "Customize",
        }
    }

    /// The default box on an A4 page (llx, lly, urx, ury in points, DESIGN §2); `None` for
    /// Customize, whose box is top-left based (see [`BoxRect`]).
    pub fn a4_box(&self) -> Option<[f64; 4]> {
        NAMED_POSITIONS.iter().find(|(_, p, _)| p == self).map(|(_, _, b)| *b)
    }

    fn parse_named(text: &str) -> Option<Self> {
        // "Top-Left", "TopLeft", "top left", "Top_Left", "Top-Centre" all name the same box.
        let norm: String = text
            .trim()
            .to_ascii_uppercase()
            .replace("CENTRE", "CENTER")
            .chars()
            .filter(|c| c.is_ascii_alphabetic())
            .collect();
        NAMED_POSITIONS.iter().find(|(n, _, _)| n.replace('-', "") == norm).map(|(_, p, _)| *p)
    }
}

/// The electronic-signature options (all default false).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ESignatureOptions {
    /// `EnableeSignaturePad`.
    pub signature_pad: bool,
    /// `EnableDrawSignature`.
    pub draw: bool,
    /// `Enablefontsignature`.
    pub font: bool,
    /// `Enableuploadsignature`.
    pub upload: bool,
}

impl ESignatureOptions {
    /// Whether any option is on.
    pub fn any(&self) -> bool {
        self.signature_pad || self.draw || self.font || self.upload
    }
}

/// The PDF-only fields.
#[derive(Debug, Clone, PartialEq)]
pub struct PdfOptions {
    /// `Name`: the signatory shown with the signature.
    pub name: String,
    /// `SelectPage` with `PageNumber` / `PagelevelCoordinates`.
    pub pages: PageSelection,
    /// `SignaturePosition` with `CustomizeCoordinates`.
    pub position: SignaturePosition,
    /// `PreviewRequired` (default false).
    pub preview_required: bool,
    /// The eSignature options.
    pub esignature: ESignatureOptions,
    /// `IsCosign` (default false: this is the final signature).
    pub is_cosign: bool,
    /// `Reason`, when sent (real clients do).
    pub reason: Option<String>,
}

/// One `Documentdetails` item of a Hash request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocumentDetail {
    /// `DocumentName`.
    pub name: String,
    /// `DocumentURL` (http or https).
    pub url: String,
    /// `DocumentHash`: SHA-256 as 64 hex characters (lower-cased here).
    pub hash_hex: String,
}

/// SUrl, Furl and Curl.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReturnUrls {
    /// `SUrl`: receives the result on success.
    pub success: String,
    /// `Furl`: receives errors.
    pub failure: String,
    /// `Curl`: receives a cancellation (106).
    pub cancel: String,
}

/// What the file type carries.
#[derive(Debug, Clone, PartialEq)]
pub enum Document {
    /// A PDF (decoded, decompressed, starts with `%PDF-` within its first 1024 bytes).
    Pdf {
        /// The PDF bytes.
        bytes: Vec<u8>,
        /// The PDF-only fields.
        options: PdfOptions,
    },
    /// An XML document (decoded, decompressed).
    Xml(Vec<u8>),
    /// Data (decoded, decompressed).
    Data(Vec<u8>),
    /// 1-5 document hashes.
    Hash(Vec<DocumentDetail>),
}

/// A validated payload.
#[derive(Debug, Clone, PartialEq)]
pub struct Payload {
    /// `Filetype`.
    pub file_type: FileType,
    /// The document, per file type.
    pub document: Document,
    /// `IsCompressed` as sent.
    pub is_compressed: bool,
    /// `ReferenceNumber` (1-20 characters; uniqueness is the server's check, 108).
    pub reference_number: String,
    /// `Authtoken` (validity is the server's check, 104).
    pub authtoken: String,
    /// `SignatureType`, without repeats, in the order sent.
    pub signature_types: Vec<SignatureType>,
    /// `SignerID`.
    pub signer_id: Option<String>,
    /// `Storetodb` (default false).
    pub store_to_db: bool,
    /// `EnableViewDocumentLink` (default true).
    pub enable_view_document_link: bool,
    /// SUrl, Furl, Curl.
    pub urls: ReturnUrls,
    /// `Timestamp`, when sent (the modern profile checks it when opening).
    pub timestamp: Option<String>,
}

impl Payload {
    /// Whether the request enables the given signature type.
    pub fn has_type(&self, t: SignatureType) -> bool {
        self.signature_types.contains(&t)
    }
}

/// What the server needs before the expensive part of a payload (decoding, decompressing and
/// checking `File`): the `Authtoken` to look up, and where to send a refusal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PayloadHead {
    /// `Authtoken` as sent (None when missing or not text).
    pub authtoken: Option<String>,
    /// `Furl`, `Curl` and `ReferenceNumber`, when they can be read.
    pub failure_url: Option<String>,
    pub cancel_url: Option<String>,
    pub reference_number: Option<String>,
}

impl PayloadHead {
    /// A refusal carrying the return addresses (when known).
    pub fn failure(&self, code: ErrorCode, detail: impl Into<String>) -> GatewayFailure {
        let mut failure = GatewayFailure::new(code, detail);
        failure.failure_url = self.failure_url.clone();
        failure.cancel_url = self.cancel_url.clone();
        failure.reference_number = self.reference_number.clone();
        failure
    }
}

/// A decrypted payload parsed once into its JSON object, read from there by every step of a
/// submission: the head before authentication, the full read after it, and the copy kept for
/// the signer page.
pub struct PayloadObject {
    object: Map<String, Value>,
}

impl PayloadObject {
    /// 109 when the payload is not a JSON object.
    pub fn parse(json: &[u8]) -> Result<Self, GatewayFailure> {
        match serde_json::from_slice::<Value>(json) {
            Ok(Value::Object(object)) => Ok(Self { object }),
            _ => Err(GatewayFailure::new(ErrorCode::InvalidRequest, "")),
        }
    }

    /// Only the head: no field is decoded or decompressed.
    pub fn head(&self) -> PayloadHead {
        let reader = Reader::new(&self.object);
        PayloadHead {
            authtoken: reader.optional_str("Authtoken").ok().flatten(),
            failure_url: reader.url("Furl").ok().flatten(),
            cancel_url: reader.url("Curl").ok().flatten(),
            reference_number: reader.echoed_reference(),
        }
    }

    /// Every field, checked; the `Authtoken` is required. 107 naming the field for a missing,
    /// empty or invalid parameter; 114 for eSignature with XML/DATA. The failure carries
    /// Furl/Curl/ReferenceNumber when they could be read.
    pub fn read(&self, limits: &PayloadLimits) -> Result<Payload, GatewayFailure> {
        read_object(&self.object, limits, Authtoken::Required)
    }

    /// The payload as kept for the signer page: the same JSON without its `Authtoken`, which
    /// is checked once at submission and then has no further use (a stored copy would only be
    /// a credential at rest).
    pub fn without_authtoken(&self) -> Vec<u8> {
        let kept: Map<String, Value> = self
            .object
            .iter()
            .filter(|(key, _)| !key.eq_ignore_ascii_case("Authtoken"))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        // A map of JSON values always serialises.
        serde_json::to_vec(&Value::Object(kept)).unwrap_or_default()
    }
}

/// Reads only the head of a decrypted payload: no field is decoded or decompressed. 109 when
/// the payload is not a JSON object.
pub fn read_head(json: &[u8]) -> Result<PayloadHead, GatewayFailure> {
    Ok(PayloadObject::parse(json)?.head())
}

/// The payload as kept for the signer page (see [`PayloadObject::without_authtoken`]). 109
/// when the payload is not a JSON object.
pub fn without_authtoken(json: &[u8]) -> Result<Vec<u8>, GatewayFailure> {
    Ok(PayloadObject::parse(json)?.without_authtoken())
}

/// Reads a payload kept by [`without_authtoken`] (the `Authtoken` is then empty).
pub fn parse_kept_payload(json: &[u8], limits: &PayloadLimits) -> Result<Payload, GatewayFailure> {
    read_object(&PayloadObject::parse(json)?.object, limits, Authtoken::Absent)
}

/// Whether the payload being read still carries its `Authtoken`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Authtoken {
    Required,
    Absent,
}

/// Longest `Name` (the signatory shown with the signature).
pub const MAX_NAME_CHARS: usize = 100;
/// Longest `Reason` (shown as the signer's declaration).
pub const MAX_REASON_CHARS: usize = 200;

/// Reads a decrypted payload with the default limits.
pub fn parse_payload(json: &[u8]) -> Result<Payload, GatewayFailure> {
    parse_payload_with(json, &PayloadLimits::default())
}

/// Reads a decrypted payload. 109 when it is not a JSON object; otherwise as
/// [`PayloadObject::read`].
pub fn parse_payload_with(json: &[u8], limits: &PayloadLimits) -> Result<Payload, GatewayFailure> {
    PayloadObject::parse(json)?.read(limits)
}

fn read_object(
    object: &Map<String, Value>,
    limits: &PayloadLimits,
    authtoken: Authtoken,
) -> Result<Payload, GatewayFailure> {
    let reader = Reader::new(object);
    read(&reader, limits, authtoken).map_err(|mut f| {
        f.failure_url = reader.url("Furl").ok().flatten();
        f.cancel_url = reader.url("Curl").ok().flatten();
        f.reference_number = reader.echoed_reference();
        f
    })
}

fn read(r: &Reader<'_>, limits: &PayloadLimits, authtoken: Authtoken) -> Result<Payload, GatewayFailure> {
    r.check_duplicates()?;
    let file_type = r.file_type()?;
    let reference_number = r.reference_number()?;
    let authtoken = match authtoken {
        Authtoken::Required => r.required_str("Authtoken")?,
        Authtoken::Absent => String::new(),
    };
    let signature_types = r.signature_types()?;
    if matches!(file_type, FileType::Xml | FileType::Data) && signature_types.contains(&SignatureType::ESignature) {
        return Err(GatewayFailure::new(ErrorCode::ESignatureNotApplicable, "SignatureType 4 with Filetype XML/DATA"));
    }
    let urls = ReturnUrls {
        success: r.required_url("SUrl")?,
        failure: r.required_url("Furl")?,
        cancel: r.required_url("Curl")?,
    };
    let is_compressed = r.boolean("IsCompressed", false)?;
    let document = match file_type {
        FileType::Pdf => {
            let bytes = r.file(is_compressed, limits)?;
            check_pdf(&bytes)?;
            Document::Pdf { bytes, options: r.pdf_options(&signature_types)? }
        }
        FileType::Xml => Document::Xml(r.file(is_compressed, limits)?),
        FileType::Data => Document::Data(r.file(is_compressed, limits)?),
        FileType::Hash => Document::Hash(r.document_details()?),
    };
    Ok(Payload {
        file_type,
        document,
        is_compressed,
        reference_number,
        authtoken,
        signature_types,
        signer_id: r.optional_str("SignerID")?,
        store_to_db: r.boolean("Storetodb", false)?,
        enable_view_document_link: r.boolean("EnableViewDocumentLink", true)?,
        urls,
        timestamp: r.optional_str("Timestamp")?,
    })
}

fn invalid(detail: impl Into<String>) -> GatewayFailure {
    GatewayFailure::new(ErrorCode::InvalidParameters, detail)
}

/// Finds a key case-insensitively (exact spelling first).
pub(crate) fn find_key<'a>(object: &'a Map<String, Value>, name: &str) -> Option<&'a Value> {
    object.get(name).or_else(|| object.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v))
}

/// A case-insensitive view of the payload object.
struct Reader<'a> {
    object: &'a Map<String, Value>,
}

impl<'a> Reader<'a> {
    fn new(object: &'a Map<String, Value>) -> Self {
        Self { object }
    }

    /// Two spellings of one key with different values ("Furl" and "FUrl") are ambiguous: refuse
    /// rather than guess which one the integrator meant.
    fn check_duplicates(&self) -> Result<(), GatewayFailure> {
        let mut seen: std::collections::HashMap<String, (&str, &Value)> = std::collections::HashMap::new();
        for (k, v) in self.object {
            if let Some((first, other)) = seen.insert(k.to_ascii_lowercase(), (k, v))
                && other != v
            {
                return Err(invalid(format!("{first} and {k} are the same field with different values")));
            }
        }
        Ok(())
    }

    fn get(&self, name: &str) -> Option<&'a Value> {
        find_key(self.object, name)
    }

    /// A field as text: strings trimmed, numbers and booleans as written; null or empty is None.
    fn optional_str(&self, name: &str) -> Result<Option<String>, GatewayFailure> {
        match self.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.trim().to_owned()).filter(|s| !s.is_empty())),
            Some(Value::Number(n)) => Ok(Some(n.to_string())),
            Some(Value::Bool(b)) => Ok(Some(b.to_string())),
            Some(_) => Err(invalid(format!("{name} must be a string"))),
        }
    }

    /// Text the signature shows as the signer's own words: bounded, one line, printable.
    fn bounded_text(&self, name: &str, max_chars: usize) -> Result<Option<String>, GatewayFailure> {
        let Some(text) = self.optional_str(name)? else { return Ok(None) };
        if text.chars().count() > max_chars {
            return Err(invalid(format!("{name} is longer than {max_chars} characters")));
        }
        if text.chars().any(char::is_control) {
            return Err(invalid(format!("{name} contains control characters")));
        }
        Ok(Some(text))
    }

    fn required_str(&self, name: &str) -> Result<String, GatewayFailure> {
        self.optional_str(name)?.ok_or_else(|| invalid(format!("{name} is required")))
    }

    /// true/false, "true"/"false" in any case, 1/0 and "1"/"0"; absent, null or "" is the default.
    fn boolean(&self, name: &str, default: bool) -> Result<bool, GatewayFailure> {
        let bad = || invalid(format!("{name} must be true or false"));
        match self.get(name) {
            None | Some(Value::Null) => Ok(default),
            Some(Value::Bool(b)) => Ok(*b),
            Some(Value::Number(n)) => match n.as_i64() {
                Some(0) => Ok(false),
                Some(1) => Ok(true),
                _ => Err(bad()),
            },
            Some(Value::String(s)) => match s.trim().to_ascii_lowercase().as_str() {
                "" => Ok(default),
                "true" | "1" => Ok(true),
                "false" | "0" => Ok(false),
                _ => Err(bad()),
            },
            Some(_) => Err(bad()),
        }
    }

    fn file_type(&self) -> Result<FileType, GatewayFailure> {
        let text = self.required_str("Filetype")?;
        FileType::parse(&text).ok_or_else(|| invalid(format!("Filetype must be PDF, XML, DATA or Hash, not {text:?}")))
    }

    fn reference_number(&self) -> Result<String, GatewayFailure> {
        let text = self.required_str("ReferenceNumber")?;
        if text.chars().count() > MAX_REFERENCE_LEN {
            return Err(invalid(format!("ReferenceNumber is longer than {MAX_REFERENCE_LEN} characters")));
        }
        if text.chars().any(char::is_control) {
            return Err(invalid("ReferenceNumber contains control characters"));
        }
        Ok(text)
    }

    /// `ReferenceNumber` as a refusal echoes it (`Referencenumber`): the checked value, or,
    /// when the number is what is refused (too long, control characters), the text as sent
    /// without its control characters and cut at [`MAX_ECHOED_REFERENCE`], so that the
    /// integrator can still match the refusal to its request.
    fn echoed_reference(&self) -> Option<String> {
        self.reference_number().ok().or_else(|| {
            let sent = self.optional_str("ReferenceNumber").ok().flatten()?;
            let cleaned: String = sent.chars().filter(|c| !c.is_control()).take(MAX_ECHOED_REFERENCE).collect();
            (!cleaned.is_empty()).then_some(cleaned)
        })
    }

    fn signature_types(&self) -> Result<Vec<SignatureType>, GatewayFailure> {
        let items: Vec<String> = match self.get("SignatureType") {
            Some(Value::Array(values)) => values.iter().map(value_text).collect(),
            Some(_) => self.required_str("SignatureType")?.split(',').map(|s| s.trim().to_owned()).collect(),
            None => return Err(invalid("SignatureType is required")),
        };
        let mut types = Vec::new();
        for item in items.iter().filter(|s| !s.is_empty()) {
            let t = item
                .parse::<i64>()
                .ok()
                .and_then(SignatureType::from_code)
                .ok_or_else(|| invalid(format!("SignatureType {item:?} is not 2, 3 or 4")))?;
            if !types.contains(&t) {
                types.push(t);
            }
        }
        if types.is_empty() {
            return Err(invalid("SignatureType is required"));
        }
        Ok(types)
    }

    /// An optional absolute http(s) URL.
    fn url(&self, name: &str) -> Result<Option<String>, GatewayFailure> {
        match self.optional_str(name)? {
            None => Ok(None),
            Some(u) if is_http_url(&u) => Ok(Some(u)),
            Some(_) => Err(invalid(format!("{name} must be an absolute http or https URL"))),
        }
    }

    fn required_url(&self, name: &str) -> Result<String, GatewayFailure> {
        self.url(name)?.ok_or_else(|| invalid(format!("{name} is required")))
    }

    fn file(&self, compressed: bool, limits: &PayloadLimits) -> Result<Vec<u8>, GatewayFailure> {
        let text = self.required_str("File")?;
        // base64 is 4/3 of the bytes: refuse an oversized field before decoding it.
        if text.len() as u64 / 4 * 3 > limits.max_file_bytes + 3 {
            return Err(invalid(format!("File is larger than {} bytes", limits.max_file_bytes)));
        }
        let bytes = b64_decode_lenient(&text).ok_or_else(|| invalid("File is not base64"))?;
        if bytes.is_empty() {
            return Err(invalid("File is empty"));
        }
        if compressed { decompress_7z(&bytes, limits) } else { Ok(bytes) }
    }

    fn pdf_options(&self, types: &[SignatureType]) -> Result<PdfOptions, GatewayFailure> {
        let esignature = ESignatureOptions {
            signature_pad: self.boolean("EnableeSignaturePad", false)?,
            draw: self.boolean("EnableDrawSignature", false)?,
            font: self.boolean("Enablefontsignature", false)?,
            upload: self.boolean("Enableuploadsignature", false)?,
        };
        if types.contains(&SignatureType::ESignature) && !esignature.any() {
            return Err(invalid(
                "SignatureType 4 needs one of EnableeSignaturePad, EnableDrawSignature, Enablefontsignature, Enableuploadsignature",
            ));
        }
        let pages = self.page_selection()?;
        // With page-level boxes the position is given per page; SignaturePosition may be absent.
        let position = match (&pages, self.optional_str("SignaturePosition")?) {
            (PageSelection::PageLevel(_), None) => SignaturePosition::BottomRight,
            _ => self.signature_position()?,
        };
        Ok(PdfOptions {
            name: self.bounded_text("Name", MAX_NAME_CHARS)?.ok_or_else(|| invalid("Name is required"))?,
            pages,
            position,
            preview_required: self.boolean("PreviewRequired", false)?,
            esignature,
            is_cosign: self.boolean("IsCosign", false)?,
            reason: self.bounded_text("Reason", MAX_REASON_CHARS)?,
        })
    }

    fn page_selection(&self) -> Result<PageSelection, GatewayFailure> {
        let text = self.required_str("SelectPage")?;
        let norm: String = text.to_ascii_uppercase().chars().filter(|c| c.is_ascii_alphabetic()).collect();
        match norm.as_str() {
            "ALL" => Ok(PageSelection::All),
            "FIRST" => Ok(PageSelection::First),
            "LAST" => Ok(PageSelection::Last),
            "EVEN" => Ok(PageSelection::Even),
            "ODD" => Ok(PageSelection::Odd),
            "SPECIFY" => Ok(PageSelection::Specify(self.page_numbers()?)),
            "PAGELEVEL" => Ok(PageSelection::PageLevel(self.page_level_boxes()?)),
            _ => Err(invalid(format!(
                "SelectPage must be ALL, FIRST, LAST, EVEN, ODD, SPECIFY or PAGE LEVEL, not {text:?}"
            ))),
        }
    }

    fn page_numbers(&self) -> Result<Vec<u32>, GatewayFailure> {
        let items: Vec<String> = match self.get("PageNumber") {
            Some(Value::Array(values)) => values.iter().map(value_text).collect(),
            _ => self
                .optional_str("PageNumber")?
                .ok_or_else(|| invalid("PageNumber is required when SelectPage is SPECIFY"))?
                .split(',')
                .map(|s| s.trim().to_owned())
                .collect(),
        };
        let mut pages = Vec::new();
        for item in items.iter().filter(|s| !s.is_empty()) {
            let page = parse_page(item).ok_or_else(|| invalid(format!("PageNumber {item:?} is not a page number")))?;
            if !pages.contains(&page) {
                pages.push(page);
            }
        }
        if pages.is_empty() {
            return Err(invalid("PageNumber is required when SelectPage is SPECIFY"));
        }
        Ok(pages)
    }

    fn page_level_boxes(&self) -> Result<Vec<PageBox>, GatewayFailure> {
        let text = self
            .optional_str("PagelevelCoordinates")?
            .ok_or_else(|| invalid("PagelevelCoordinates is required when SelectPage is PAGE LEVEL"))?;
        let mut boxes = Vec::new();
        for entry in text.split(';').map(str::trim).filter(|e| !e.is_empty()) {
            boxes.push(parse_page_box(entry).ok_or_else(|| {
                invalid(format!("PagelevelCoordinates entry {entry:?} is not <page>,<left>,<top>,<width>,<height>"))
            })?);
        }
        if boxes.is_empty() {
            return Err(invalid("PagelevelCoordinates is required when SelectPage is PAGE LEVEL"));
        }
        Ok(boxes)
    }

    fn signature_position(&self) -> Result<SignaturePosition, GatewayFailure> {
        let text = self.required_str("SignaturePosition")?;
        if text.trim().eq_ignore_ascii_case("customize") || text.trim().eq_ignore_ascii_case("customise") {
            let coords = self
                .optional_str("CustomizeCoordinates")?
                .ok_or_else(|| invalid("CustomizeCoordinates is required when SignaturePosition is Customize"))?;
            let rect = parse_rect(&coords).ok_or_else(|| {
                invalid(format!("CustomizeCoordinates {coords:?} is not <left>,<top>,<width>,<height>"))
            })?;
            return Ok(SignaturePosition::Customize(rect));
        }
        SignaturePosition::parse_named(&text).ok_or_else(|| {
            invalid(format!(
                "SignaturePosition must be Top-Left, Top-Center, Top-Right, Middle-Left, Middle-Center, Middle-Right, \
                 Bottom-Left, Bottom-Center, Bottom-Right or Customize, not {text:?}"
            ))
        })
    }

    fn document_details(&self) -> Result<Vec<DocumentDetail>, GatewayFailure> {
        let items = match self.get("Documentdetails") {
            Some(Value::Array(items)) => items.clone(),
            Some(Value::String(s)) => parse_details_string(s)?,
            None | Some(Value::Null) => return Err(invalid("Documentdetails is required for Filetype Hash")),
            Some(_) => return Err(invalid("Documentdetails must be a JSON array")),
        };
        if items.is_empty() {
            return Err(invalid("Documentdetails is required for Filetype Hash"));
        }
        if items.len() > MAX_DOCUMENTS {
            return Err(invalid(format!("Documentdetails has more than {MAX_DOCUMENTS} items")));
        }
        items.iter().enumerate().map(|(i, item)| document_detail(i + 1, item)).collect()
    }
}

fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.trim().to_owned(),
        other => other.to_string(),
    }
}

/// `Documentdetails` sent as a string: real clients send a single-quoted pseudo-JSON array.
fn parse_details_string(text: &str) -> Result<Vec<Value>, GatewayFailure> {
    let bad = || invalid("Documentdetails is not a JSON array");
    let parsed =
        serde_json::from_str::<Value>(text).or_else(|_| serde_json::from_str::<Value>(&text.replace('\'', "\"")));
    match parsed {
        Ok(Value::Array(items)) => Ok(items),
        _ => Err(bad()),
    }
}

fn document_detail(index: usize, item: &Value) -> Result<DocumentDetail, GatewayFailure> {
    let Value::Object(map) = item else {
        return Err(invalid(format!("Documentdetails item {index} is not an object")));
    };
    let r = Reader::new(map);
    let field = |name: &str| {
        r.optional_str(name)
            .ok()
            .flatten()
            .ok_or_else(|| invalid(format!("Documentdetails item {index}: {name} is required")))
    };
    let name = field("DocumentName")?;
    let url = field("DocumentURL")?;
    if !is_http_url(&url) {
        return Err(invalid(format!("Documentdetails item {index}: DocumentURL must be an http or https URL")));
    }
    let hash = field("DocumentHash")?;
    if hash.len() != 64 || !hash.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(invalid(format!("Documentdetails item {index}: DocumentHash must be 64 hex characters (SHA-256)")));
    }
    Ok(DocumentDetail { name, url, hash_hex: hash.to_ascii_lowercase() })
}

fn parse_page(text: &str) -> Option<u32> {
    text.trim().parse::<u32>().ok().filter(|p| *p >= 1)
}

fn parse_coordinate(text: &str) -> Option<f64> {
    text.trim().parse::<f64>().ok().filter(|v| v.is_finite() && *v >= 0.0 && *v <= 100_000.0)
}

fn parse_rect(text: &str) -> Option<BoxRect> {
    let parts: Vec<f64> = text.split(',').map(parse_coordinate).collect::<Option<_>>()?;
    match parts.as_slice() {
        [left, top, width, height] if *width > 0.0 && *height > 0.0 => {
            Some(BoxRect { left: *left, top: *top, width: *width, height: *height })
        }
        _ => None,
    }
}

fn parse_page_box(entry: &str) -> Option<PageBox> {
    let (page, rect) = entry.split_once(',')?;
    Some(PageBox { page: parse_page(page)?, rect: parse_rect(rect)? })
}

/// An absolute http(s) URL with a host and no characters that break out of an attribute or a
/// header. (The server still decides which hosts it will post to.)
pub fn is_http_url(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    let rest = match lower.strip_prefix("https://").or_else(|| lower.strip_prefix("http://")) {
        Some(rest) => rest,
        None => return false,
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host_port = authority.rsplit('@').next().unwrap_or("");
    let host = if let Some(v6) = host_port.strip_prefix('[') {
        // [v6]:port
        match v6.split_once(']') {
            Some((h, port)) if port.is_empty() || is_port(port.strip_prefix(':').unwrap_or("x")) => h,
            _ => return false,
        }
    } else {
        match host_port.split_once(':') {
            Some((h, port)) if is_port(port) => h,
            Some(_) => return false,
            None => host_port,
        }
    };
    !host.is_empty()
        && !text.chars().any(|c| c.is_whitespace() || c.is_control() || matches!(c, '"' | '<' | '>' | '\\' | '`'))
}

fn is_port(text: &str) -> bool {
    !text.is_empty() && text.len() <= 5 && text.bytes().all(|b| b.is_ascii_digit())
}

/// A PDF starts with `%PDF-` within its first 1024 bytes (readers tolerate leading junk).
fn check_pdf(bytes: &[u8]) -> Result<(), GatewayFailure> {
    let head = &bytes[..bytes.len().min(1024)];
    if head.windows(5).any(|w| w == b"%PDF-") { Ok(()) } else { Err(invalid("File is not a PDF (no %PDF- header)")) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls() {
        for ok in ["https://a.example/x?y=1", "http://localhost:8080/cb", "HTTPS://A.EXAMPLE", "http://[::1]:80/"] {
            assert!(is_http_url(ok), "{ok}");
        }
        for bad in [
            "ftp://a",
            "javascript:alert(1)",
            "/relative",
            "https://",
            "https:///x",
            "https://a b",
            "http://a\"x",
            "https://:80/",
        ] {
            assert!(!is_http_url(bad), "{bad}");
        }
    }

    #[test]
    fn positions_spellings() {
        assert_eq!(SignaturePosition::parse_named("Top-Left"), Some(SignaturePosition::TopLeft));
        assert_eq!(SignaturePosition::parse_named("bottom center"), Some(SignaturePosition::BottomCenter));
        assert_eq!(SignaturePosition::parse_named("MiddleCentre"), Some(SignaturePosition::MiddleCenter));
        assert_eq!(SignaturePosition::parse_named("Centre"), None);
    }
}
