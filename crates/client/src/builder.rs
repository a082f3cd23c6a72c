//! A typed builder for the gateway payload, writing the spec's field names.

use serde_json::{Map, Value, json};
use signet_gateway::{
    DocumentDetail, FileType, PageSelection, ReturnUrls, SignaturePosition, SignatureType, b64_encode, parse_payload,
};

use crate::ClientError;

/// Builds a payload; [`PayloadBuilder::build`] checks it with the gateway's rules.
#[derive(Debug, Clone)]
pub struct PayloadBuilder {
    map: Map<String, Value>,
}

impl PayloadBuilder {
    fn new(file_type: FileType) -> Self {
        let mut map = Map::new();
        map.insert("Filetype".into(), json!(file_type.as_str()));
        Self { map }
    }

    fn with_file(file_type: FileType, file: &[u8]) -> Self {
        Self::new(file_type).set("File", json!(b64_encode(file))).set("IsCompressed", json!(false))
    }

    /// A PDF request for the signatory `name` (defaults: SelectPage FIRST, Bottom-Right).
    pub fn pdf(file: &[u8], name: &str) -> Self {
        Self::with_file(FileType::Pdf, file)
            .set("Name", json!(name))
            .pages(&PageSelection::First)
            .position(SignaturePosition::BottomRight)
    }

    /// An XML request.
    pub fn xml(file: &[u8]) -> Self {
        Self::with_file(FileType::Xml, file)
    }

    /// A DATA (text) request.
    pub fn data(file: &[u8]) -> Self {
        Self::with_file(FileType::Data, file)
    }

    /// A Hash request for 1-5 documents.
    pub fn hash(documents: &[DocumentDetail]) -> Self {
        let items: Vec<Value> = documents
            .iter()
            .map(|d| json!({"DocumentName": d.name, "DocumentURL": d.url, "DocumentHash": d.hash_hex}))
            .collect();
        Self::new(FileType::Hash).set("Documentdetails", Value::Array(items))
    }

    /// Sets any field (for fields this builder has no method for).
    pub fn set(mut self, key: &str, value: Value) -> Self {
        // Replace any other spelling of the same key, which the gateway would find ambiguous.
        self.map.retain(|k, _| !k.eq_ignore_ascii_case(key));
        self.map.insert(key.to_owned(), value);
        self
    }

    /// Replaces `File` with a 7-zip archive of the document and sets `IsCompressed`.
    pub fn compressed_file(self, archive_7z: &[u8]) -> Self {
        self.set("File", json!(b64_encode(archive_7z))).set("IsCompressed", json!(true))
    }

    /// `ReferenceNumber` (at most 20 characters, never reused).
    pub fn reference_number(self, reference: &str) -> Self {
        self.set("ReferenceNumber", json!(reference))
    }

    /// `Authtoken`.
    pub fn authtoken(self, token: &str) -> Self {
        self.set("Authtoken", json!(token))
    }

    /// `SignatureType`, e.g. `[SignatureType::ESignature]`.
    pub fn signature_types(self, types: &[SignatureType]) -> Self {
        self.set("SignatureType", json!(SignatureType::join(types)))
    }

    /// `SignerID`.
    pub fn signer_id(self, id: &str) -> Self {
        self.set("SignerID", json!(id))
    }

    /// `SUrl`, `Furl`, `Curl`.
    pub fn urls(self, urls: &ReturnUrls) -> Self {
        self.set("SUrl", json!(urls.success)).set("Furl", json!(urls.failure)).set("Curl", json!(urls.cancel))
    }

    /// `Storetodb`.
    pub fn store_to_db(self, on: bool) -> Self {
        self.set("Storetodb", json!(on))
    }

    /// `EnableViewDocumentLink` (default true at the gateway).
    pub fn view_document_link(self, on: bool) -> Self {
        self.set("EnableViewDocumentLink", json!(on))
    }

    /// `SelectPage` with `PageNumber` / `PagelevelCoordinates`.
    pub fn pages(mut self, pages: &PageSelection) -> Self {
        self.map
            .retain(|k, _| !k.eq_ignore_ascii_case("PageNumber") && !k.eq_ignore_ascii_case("PagelevelCoordinates"));
        let this = self.set("SelectPage", json!(pages.select_page_param()));
        match pages {
            PageSelection::Specify(list) => {
                let text = list.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
                this.set("PageNumber", json!(text))
            }
            PageSelection::PageLevel(boxes) => {
                let text =
                    boxes.iter().map(|b| format!("{},{}", b.page, b.rect.to_param())).collect::<Vec<_>>().join(";");
                this.set("PagelevelCoordinates", json!(text))
            }
            _ => this,
        }
    }

    /// `SignaturePosition` (with `CustomizeCoordinates` for Customize).
    pub fn position(mut self, position: SignaturePosition) -> Self {
        self.map.retain(|k, _| !k.eq_ignore_ascii_case("CustomizeCoordinates"));
        let this = self.set("SignaturePosition", json!(position.param()));
        match position {
            SignaturePosition::Customize(rect) => this.set("CustomizeCoordinates", json!(rect.to_param())),
            _ => this,
        }
    }

    /// `PreviewRequired`.
    pub fn preview(self, on: bool) -> Self {
        self.set("PreviewRequired", json!(on))
    }

    /// `EnableDrawSignature`.
    pub fn draw_signature(self, on: bool) -> Self {
        self.set("EnableDrawSignature", json!(on))
    }

    /// `Enablefontsignature`.
    pub fn font_signature(self, on: bool) -> Self {
        self.set("Enablefontsignature", json!(on))
    }

    /// `Enableuploadsignature`.
    pub fn upload_signature(self, on: bool) -> Self {
        self.set("Enableuploadsignature", json!(on))
    }

    /// `EnableeSignaturePad`.
    pub fn signature_pad(self, on: bool) -> Self {
        self.set("EnableeSignaturePad", json!(on))
    }

    /// `IsCosign`: true when more signatories follow.
    pub fn cosign(self, on: bool) -> Self {
        self.set("IsCosign", json!(on))
    }

    /// `Reason`.
    pub fn reason(self, reason: &str) -> Self {
        self.set("Reason", json!(reason))
    }

    /// The JSON object as built, unchecked.
    pub fn to_value(&self) -> Value {
        Value::Object(self.map.clone())
    }

    /// The UTF-8 JSON, after the same checks the gateway makes (so a 107/114 shows up here,
    /// not after the browser round trip).
    pub fn build(&self) -> Result<Vec<u8>, ClientError> {
        let json = serde_json::to_vec(&self.map).map_err(|_| ClientError::NotAnObject)?;
        parse_payload(&json)?;
        Ok(json)
    }
}
