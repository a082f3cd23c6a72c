//! Every payload field and rule: spellings, defaults, required fields per file type, the codes.

use proptest::prelude::*;
use serde_json::{Value, json};
use signet_gateway::{
    BoxRect, Document, ErrorCode, FileType, GatewayFailure, ImageKind, PageBox, PageSelection, Payload,
    SignaturePosition, SignatureType, b64_encode, check_signature_image, parse_payload,
};

const PDF: &[u8] = b"%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<</Root 1 0 R>>\n%%EOF\n";

fn pdf_payload() -> Value {
    json!({
        "Filetype": "PDF",
        "File": b64_encode(PDF),
        "ReferenceNumber": "REF-1",
        "Name": "Asha",
        "Authtoken": "tok",
        "SignatureType": "4",
        "SelectPage": "ALL",
        "SignaturePosition": "Top-Left",
        "EnableDrawSignature": true,
        "SUrl": "https://a.example/s",
        "Furl": "https://a.example/f",
        "Curl": "https://a.example/c"
    })
}

fn with(mut base: Value, key: &str, value: Value) -> Value {
    base[key] = value;
    base
}

fn without(mut base: Value, key: &str) -> Value {
    if let Value::Object(m) = &mut base {
        m.remove(key);
    }
    base
}

fn parse(v: &Value) -> Result<Payload, GatewayFailure> {
    parse_payload(v.to_string().as_bytes())
}

fn ok(v: &Value) -> Payload {
    match parse(v) {
        Ok(p) => p,
        Err(f) => panic!("expected valid, got {f}"),
    }
}

fn refused(v: &Value, code: ErrorCode, needle: &str) -> GatewayFailure {
    match parse(v) {
        Ok(_) => panic!("expected {code} mentioning {needle:?}"),
        Err(f) => {
            assert_eq!(f.code, code, "{f}");
            assert!(f.detail.contains(needle), "detail {:?} should mention {needle:?}", f.detail);
            f
        }
    }
}

fn pdf_options(p: &Payload) -> &signet_gateway::PdfOptions {
    match &p.document {
        Document::Pdf { options, .. } => options,
        other => panic!("not a PDF: {other:?}"),
    }
}

#[test]
fn valid_pdf_with_defaults() {
    let p = ok(&pdf_payload());
    assert_eq!(p.file_type, FileType::Pdf);
    assert_eq!(p.reference_number, "REF-1");
    assert_eq!(p.signature_types, vec![SignatureType::ESignature]);
    assert!(!p.store_to_db && p.enable_view_document_link && !p.is_compressed);
    let o = pdf_options(&p);
    assert_eq!(o.pages, PageSelection::All);
    assert_eq!(o.position, SignaturePosition::TopLeft);
    assert!(!o.preview_required && !o.is_cosign && o.esignature.draw);
    assert_eq!(p.urls.success, "https://a.example/s");
}

#[test]
fn keys_are_case_insensitive_like_real_clients() {
    let v = json!({
        "FileType": "pdf", "FILE": b64_encode(PDF), "referencenumber": "R", "NAME": "A", "AuthToken": "t",
        "signaturetype": 4, "selectpage": "first", "signatureposition": "bottom-right", "enabledrawsignature": "True",
        "SURL": "http://x.example/s", "FUrl": "http://x.example/f", "CUrl": "http://x.example/c", "SomethingNew": [1, 2]
    });
    let p = ok(&v);
    assert_eq!(p.authtoken, "t");
    assert_eq!(pdf_options(&p).position, SignaturePosition::BottomRight);
}

#[test]
fn conflicting_spellings_are_refused() {
    let v = with(pdf_payload(), "FUrl", json!("https://other.example/f"));
    refused(&v, ErrorCode::InvalidParameters, "different values");
    // The same value twice is harmless.
    ok(&with(pdf_payload(), "FUrl", json!("https://a.example/f")));
}

#[test]
fn lenient_booleans() {
    for (value, expected) in [
        (json!(true), true),
        (json!("true"), true),
        (json!("TRUE"), true),
        (json!("True"), true),
        (json!(false), false),
        (json!("false"), false),
        (json!("FALSE"), false),
        (json!(1), true),
        (json!("0"), false),
        (json!(""), false),
        (json!(null), false),
    ] {
        let p = ok(&with(pdf_payload(), "Storetodb", value.clone()));
        assert_eq!(p.store_to_db, expected, "{value}");
    }
    refused(&with(pdf_payload(), "Storetodb", json!("yes")), ErrorCode::InvalidParameters, "Storetodb");
    refused(&with(pdf_payload(), "IsCosign", json!([true])), ErrorCode::InvalidParameters, "IsCosign");
    assert!(!ok(&with(pdf_payload(), "EnableViewDocumentLink", json!("False"))).enable_view_document_link);
    for field in ["IsCosign", "PreviewRequired"] {
        let p = ok(&with(pdf_payload(), field, json!("TRUE")));
        let o = pdf_options(&p);
        assert!(if field == "IsCosign" { o.is_cosign } else { o.preview_required });
    }
}

#[test]
fn not_an_object_is_109() {
    for text in ["[1,2]", "\"x\"", "42", "null", "{", "", "not json"] {
        let f = parse_payload(text.as_bytes()).expect_err("refused");
        assert_eq!(f.code, ErrorCode::InvalidRequest, "{text}");
        assert_eq!(f.failure_url, None);
    }
}

#[test]
fn required_fields_of_pdf() {
    for field in [
        "Filetype",
        "File",
        "ReferenceNumber",
        "Name",
        "Authtoken",
        "SignatureType",
        "SelectPage",
        "SignaturePosition",
        "SUrl",
        "Furl",
        "Curl",
    ] {
        refused(&without(pdf_payload(), field), ErrorCode::InvalidParameters, field);
        refused(&with(pdf_payload(), field, json!("  ")), ErrorCode::InvalidParameters, field);
    }
}

#[test]
fn failures_carry_the_return_addresses() {
    let f = refused(&without(pdf_payload(), "Name"), ErrorCode::InvalidParameters, "Name");
    assert_eq!(f.failure_url.as_deref(), Some("https://a.example/f"));
    assert_eq!(f.cancel_url.as_deref(), Some("https://a.example/c"));
    assert_eq!(f.reference_number.as_deref(), Some("REF-1"));
    assert!(f.error_message().starts_with("107: Invalid parameters - "));
    let f = refused(&with(pdf_payload(), "Furl", json!("ftp://x")), ErrorCode::InvalidParameters, "Furl");
    assert_eq!(f.failure_url, None);
}

#[test]
fn reference_number_length() {
    ok(&with(pdf_payload(), "ReferenceNumber", json!("a".repeat(20))));
    ok(&with(pdf_payload(), "ReferenceNumber", json!("é".repeat(20))));
    // A refused number is still echoed, as sent (so the integrator can match the refusal),
    // without control characters and cut at 200 characters.
    let f = refused(&with(pdf_payload(), "ReferenceNumber", json!("a".repeat(21))), ErrorCode::InvalidParameters, "20");
    assert_eq!(f.reference_number, Some("a".repeat(21)));
    let f =
        refused(&with(pdf_payload(), "ReferenceNumber", json!("b".repeat(500))), ErrorCode::InvalidParameters, "20");
    assert_eq!(f.reference_number, Some("b".repeat(200)));
    ok(&with(pdf_payload(), "ReferenceNumber", json!(12345)));
    let f = refused(&with(pdf_payload(), "ReferenceNumber", json!("a\nb")), ErrorCode::InvalidParameters, "control");
    assert_eq!(f.reference_number.as_deref(), Some("ab"));
}

#[test]
fn signature_types() {
    let types = |v: Value| ok(&with(pdf_payload(), "SignatureType", v)).signature_types;
    assert_eq!(types(json!("2,4")), vec![SignatureType::DigitalSignature, SignatureType::ESignature]);
    assert_eq!(types(json!(" 4 , 3 ,4")), vec![SignatureType::ESignature, SignatureType::ESign]);
    assert_eq!(types(json!(2)), vec![SignatureType::DigitalSignature]);
    assert_eq!(types(json!([3, "4"])), vec![SignatureType::ESign, SignatureType::ESignature]);
    for bad in [json!("1"), json!(0), json!("2,5"), json!("x"), json!(","), json!({})] {
        refused(&with(pdf_payload(), "SignatureType", bad), ErrorCode::InvalidParameters, "SignatureType");
    }
}

#[test]
fn esignature_needs_an_option() {
    let v = without(pdf_payload(), "EnableDrawSignature");
    refused(&v, ErrorCode::InvalidParameters, "EnableeSignaturePad");
    for option in ["EnableeSignaturePad", "EnableDrawSignature", "Enablefontsignature", "Enableuploadsignature"] {
        ok(&with(v.clone(), option, json!("true")));
    }
    // Digital signature alone needs none.
    ok(&with(v, "SignatureType", json!("2")));
}

#[test]
fn select_page_variants() {
    let pages = |sel: &str| pdf_options(&ok(&with(pdf_payload(), "SelectPage", json!(sel)))).pages.clone();
    assert_eq!(pages("first"), PageSelection::First);
    assert_eq!(pages("LAST"), PageSelection::Last);
    assert_eq!(pages("Even"), PageSelection::Even);
    assert_eq!(pages("ODD"), PageSelection::Odd);
    refused(&with(pdf_payload(), "SelectPage", json!("MIDDLE")), ErrorCode::InvalidParameters, "SelectPage");
}

#[test]
fn specify_needs_page_numbers() {
    let v = with(pdf_payload(), "SelectPage", json!("SPECIFY"));
    refused(&v, ErrorCode::InvalidParameters, "PageNumber is required when SelectPage is SPECIFY");
    let p = ok(&with(v.clone(), "PageNumber", json!("1, 3,3,10")));
    assert_eq!(pdf_options(&p).pages, PageSelection::Specify(vec![1, 3, 10]));
    let p = ok(&with(v.clone(), "PageNumber", json!(2)));
    assert_eq!(pdf_options(&p).pages, PageSelection::Specify(vec![2]));
    for bad in ["0", "-1", "a", "1.5", ","] {
        refused(&with(v.clone(), "PageNumber", json!(bad)), ErrorCode::InvalidParameters, "PageNumber");
    }
}

#[test]
fn page_level_coordinates() {
    for spelling in ["PAGE LEVEL", "PAGELEVEL", "page_level", "PageLevel"] {
        let v = with(pdf_payload(), "SelectPage", json!(spelling));
        refused(&v, ErrorCode::InvalidParameters, "PagelevelCoordinates");
        let p = ok(&with(v, "PagelevelCoordinates", json!("1,7,10,60,120;6,45.5,20,60,120;")));
        assert_eq!(
            pdf_options(&p).pages,
            PageSelection::PageLevel(vec![
                PageBox { page: 1, rect: BoxRect { left: 7.0, top: 10.0, width: 60.0, height: 120.0 } },
                PageBox { page: 6, rect: BoxRect { left: 45.5, top: 20.0, width: 60.0, height: 120.0 } },
            ])
        );
    }
    let v = with(pdf_payload(), "SelectPage", json!("PAGE LEVEL"));
    for bad in ["1,7,10,60", "0,1,1,1,1", "1,-1,1,1,1", "1,1,1,0,1", "1,a,1,1,1", "1,1,1,1,1,1", "1,NaN,1,1,1"] {
        refused(
            &with(v.clone(), "PagelevelCoordinates", json!(bad)),
            ErrorCode::InvalidParameters,
            "PagelevelCoordinates",
        );
    }
    // With page-level boxes SignaturePosition may be left out.
    ok(&without(with(v, "PagelevelCoordinates", json!("1,1,1,10,10")), "SignaturePosition"));
}

#[test]
fn signature_positions() {
    for (text, expected) in [
        ("Top-Left", SignaturePosition::TopLeft),
        ("Top-Center", SignaturePosition::TopCenter),
        ("Top-Right", SignaturePosition::TopRight),
        ("Middle-Left", SignaturePosition::MiddleLeft),
        ("Middle-Center", SignaturePosition::MiddleCenter),
        ("Middle-Right", SignaturePosition::MiddleRight),
        ("Bottom-Left", SignaturePosition::BottomLeft),
        ("Bottom-Center", SignaturePosition::BottomCenter),
        ("Bottom-Right", SignaturePosition::BottomRight),
        ("bottom-right", SignaturePosition::BottomRight),
    ] {
        let p = ok(&with(pdf_payload(), "SignaturePosition", json!(text)));
        assert_eq!(pdf_options(&p).position, expected);
        assert!(expected.a4_box().is_some());
    }
    assert_eq!(SignaturePosition::BottomRight.a4_box(), Some([425.0, 100.0, 545.0, 160.0]));
    refused(
        &with(pdf_payload(), "SignaturePosition", json!("Left")),
        ErrorCode::InvalidParameters,
        "SignaturePosition",
    );
    let v = with(pdf_payload(), "SignaturePosition", json!("Customize"));
    refused(&v, ErrorCode::InvalidParameters, "CustomizeCoordinates is required");
    let p = ok(&with(v.clone(), "CustomizeCoordinates", json!("10, 20,150,50")));
    let SignaturePosition::Customize(rect) = pdf_options(&p).position else { panic!("customize") };
    assert_eq!(rect, BoxRect { left: 10.0, top: 20.0, width: 150.0, height: 50.0 });
    assert!(rect.fits(595.0, 842.0) && !rect.fits(100.0, 842.0));
    for bad in ["10,20,150", "10,20,0,50", "a,b,c,d", "1,2,3,4,5"] {
        refused(
            &with(v.clone(), "CustomizeCoordinates", json!(bad)),
            ErrorCode::InvalidParameters,
            "CustomizeCoordinates",
        );
    }
}

#[test]
fn return_urls_must_be_http() {
    for field in ["SUrl", "Furl", "Curl"] {
        for bad in [
            "javascript:alert(1)",
            "ftp://a.example/x",
            "/relative",
            "https://",
            "data:text/html,x",
            "https://a b.example",
        ] {
            refused(&with(pdf_payload(), field, json!(bad)), ErrorCode::InvalidParameters, field);
        }
    }
    ok(&with(pdf_payload(), "SUrl", json!("http://localhost:8080/cb?x=1")));
}

#[test]
fn file_must_be_base64_and_pdf() {
    refused(&with(pdf_payload(), "File", json!("%%%not base64%%%")), ErrorCode::InvalidParameters, "base64");
    refused(
        &with(pdf_payload(), "File", json!(b64_encode(b"hello, not a pdf"))),
        ErrorCode::InvalidParameters,
        "not a PDF",
    );
    let mut junk = vec![b' '; 100];
    junk.extend_from_slice(PDF);
    ok(&with(pdf_payload(), "File", json!(b64_encode(&junk))));
    refused(&with(pdf_payload(), "IsCompressed", json!(true)), ErrorCode::InvalidParameters, "7-zip");
}

#[test]
fn xml_and_data() {
    for ft in ["XML", "DATA", "xml", "Data"] {
        let v = json!({
            "Filetype": ft, "File": b64_encode(b"<a/>"), "ReferenceNumber": "R", "Authtoken": "t", "SignatureType": "2,3",
            "SUrl": "https://a.example/s", "Furl": "https://a.example/f", "Curl": "https://a.example/c"
        });
        let p = ok(&v);
        assert!(matches!(p.document, Document::Xml(_) | Document::Data(_)));
        // No PDF fields needed; eSignature is 114 alone or combined.
        for t in ["4", "2,4"] {
            let f = parse(&with(v.clone(), "SignatureType", json!(t))).expect_err("114");
            assert_eq!(f.code, ErrorCode::ESignatureNotApplicable);
            assert_eq!(f.failure_url.as_deref(), Some("https://a.example/f"));
            assert!(f.error_message().starts_with("114: eSignature not applicable for XML and Data signing"));
        }
        refused(&without(v, "File"), ErrorCode::InvalidParameters, "File");
    }
}

fn hash_payload(details: Value) -> Value {
    json!({
        "FileType": "Hash", "Documentdetails": details, "ReferenceNumber": "R", "AuthToken": "t", "SignatureType": "4",
        "SUrl": "https://a.example/s", "FUrl": "https://a.example/f", "CUrl": "https://a.example/c"
    })
}

const H: &str = "0294f3c6a3a5a1d0e4b0f0c3c3b9b7e2a1c2d3e4f5a6b7c8d9e0f1a2b3c4cfcf";

#[test]
fn hash_documentdetails_array_and_string() {
    let arr = json!([{"DocumentName": "Name1", "DocumentURL": "http://d.example/1", "DocumentHash": H}]);
    let p = ok(&hash_payload(arr));
    let Document::Hash(docs) = &p.document else { panic!("hash") };
    assert_eq!(docs[0].name, "Name1");
    assert_eq!(docs[0].hash_hex, H);
    // As the Node sample sends it: a string holding a single-quoted array.
    let s = format!(
        "[{{'DocumentName':'Name1','DocumentURL':'https://d.example/1','DocumentHash':'{}'}}]",
        H.to_uppercase()
    );
    let p = ok(&hash_payload(json!(s)));
    let Document::Hash(docs) = &p.document else { panic!("hash") };
    assert_eq!(docs[0].hash_hex, H, "lower-cased");
    // A real JSON string too, and lower-case keys.
    let s = format!("[{{\"documentname\":\"N\",\"documenturl\":\"https://d.example\",\"documenthash\":\"{H}\"}}]");
    ok(&hash_payload(json!(s)));
}

#[test]
fn hash_rules() {
    let item =
        |name: &str, url: &str, hash: &str| json!({"DocumentName": name, "DocumentURL": url, "DocumentHash": hash});
    let good = item("N", "https://d.example/x", H);
    ok(&hash_payload(json!(vec![good.clone(); 5])));
    refused(&hash_payload(json!(vec![good.clone(); 6])), ErrorCode::InvalidParameters, "more than 5");
    refused(&hash_payload(json!([])), ErrorCode::InvalidParameters, "Documentdetails");
    refused(&without(hash_payload(json!([])), "Documentdetails"), ErrorCode::InvalidParameters, "Documentdetails");
    refused(&hash_payload(json!("not an array")), ErrorCode::InvalidParameters, "Documentdetails");
    refused(&hash_payload(json!(42)), ErrorCode::InvalidParameters, "Documentdetails");
    refused(&hash_payload(json!([item("N", "ftp://d.example", H)])), ErrorCode::InvalidParameters, "DocumentURL");
    refused(
        &hash_payload(json!([item("N", "https://d.example", &H[1..])])),
        ErrorCode::InvalidParameters,
        "DocumentHash",
    );
    refused(
        &hash_payload(json!([item("N", "https://d.example", &H.replace('a', "g"))])),
        ErrorCode::InvalidParameters,
        "DocumentHash",
    );
    refused(&hash_payload(json!([item("", "https://d.example", H)])), ErrorCode::InvalidParameters, "DocumentName");
    refused(&hash_payload(json!([good, 7])), ErrorCode::InvalidParameters, "item 2");
}

#[test]
fn optional_text_fields() {
    let p = ok(&with(with(pdf_payload(), "SignerID", json!("S-1")), "Reason", json!("Approval")));
    assert_eq!(p.signer_id.as_deref(), Some("S-1"));
    assert_eq!(pdf_options(&p).reason.as_deref(), Some("Approval"));
    refused(&with(pdf_payload(), "SignerID", json!({"a": 1})), ErrorCode::InvalidParameters, "SignerID");
}

#[test]
fn error_catalogue() {
    let expected = [
        (104, "Invalid Authtoken"),
        (105, "Not subscribed to this value-added item"),
        (106, "Cancelled by user"),
        (107, "Invalid parameters"),
        (108, "Reference number already used"),
        (109, "Invalid Request"),
        (110, "Signer utility required for token-based signing"),
        (111, "Signer utility required for token-based signing"),
        (112, "Signer utility required for token-based signing"),
        (113, "Update the signer utility"),
        (114, "eSignature not applicable for XML and Data signing"),
        (115, "Only .jpg, .jpeg and .png allowed as signature image"),
        (116, "Signature image must be 100KB to 200KB"),
        (117, "Connect the eSignature pad"),
    ];
    for (code, text) in expected {
        let c = ErrorCode::from_code(code).expect("known code");
        assert_eq!(c.code(), code);
        assert_eq!(c.text(), text);
        assert_eq!(c.error_message(), format!("{code}: {text}"));
    }
    assert_eq!(ErrorCode::from_code(103), None);
    assert_eq!(ErrorCode::from_code(118), None);
}

#[test]
fn signature_images() {
    let png = |len: usize| {
        let mut b = b"\x89PNG\r\n\x1a\n".to_vec();
        b.resize(len, 0);
        b
    };
    let jpg = |len: usize| {
        let mut b = vec![0xFF, 0xD8, 0xFF, 0xE0];
        b.resize(len, 0);
        b
    };
    assert_eq!(check_signature_image(&png(150 * 1024), "sig.PNG"), Ok(ImageKind::Png));
    assert_eq!(check_signature_image(&jpg(100 * 1024), "a.jpg"), Ok(ImageKind::Jpeg));
    assert_eq!(check_signature_image(&jpg(200 * 1024), "a.jpeg"), Ok(ImageKind::Jpeg));
    let code = |r: Result<ImageKind, GatewayFailure>| r.err().map(|f| f.code.code());
    assert_eq!(code(check_signature_image(&jpg(100 * 1024 - 1), "a.jpg")), Some(116));
    assert_eq!(code(check_signature_image(&png(200 * 1024 + 1), "a.png")), Some(116));
    assert_eq!(code(check_signature_image(&png(150 * 1024), "a.jpg")), Some(115), "name and content disagree");
    assert_eq!(code(check_signature_image(&png(150 * 1024), "a.gif")), Some(115));
    assert_eq!(code(check_signature_image(&png(150 * 1024), "png")), Some(115));
    assert_eq!(code(check_signature_image(&vec![0u8; 150 * 1024], "a.png")), Some(115));
    let mut gif = b"GIF89a".to_vec();
    gif.resize(150 * 1024, 0);
    assert_eq!(code(check_signature_image(&gif, "a.png")), Some(115));
    // Type is checked before size: a tiny GIF is 115, not 116.
    assert_eq!(code(check_signature_image(b"GIF89a", "a.gif")), Some(115));
}

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        "[ -~]{0,30}".prop_map(Value::String),
        prop::sample::select(vec![
            "PDF",
            "XML",
            "DATA",
            "Hash",
            "SPECIFY",
            "PAGE LEVEL",
            "Customize",
            "2,4",
            "true",
            "1,1,1,1,1;",
            "https://a.example/x"
        ])
        .prop_map(|s| Value::String(s.to_owned())),
    ];
    leaf.prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(field_name(), inner, 0..8).prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn field_name() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "Filetype",
            "FileType",
            "File",
            "IsCompressed",
            "ReferenceNumber",
            "Name",
            "Authtoken",
            "SignatureType",
            "SelectPage",
            "PageNumber",
            "PagelevelCoordinates",
            "SignaturePosition",
            "CustomizeCoordinates",
            "EnableDrawSignature",
            "Documentdetails",
            "DocumentURL",
            "DocumentHash",
            "DocumentName",
            "SUrl",
            "Furl",
            "FUrl",
            "Curl",
            "Storetodb",
        ])
        .prop_map(str::to_owned),
        "[A-Za-z]{1,12}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// The reader never panics, whatever the JSON, and its failures are 107/109/114.
    #[test]
    fn reader_never_panics_on_json(v in arb_json()) {
        if let Err(f) = parse(&v) {
            prop_assert!(matches!(f.code.code(), 107 | 109 | 114), "{}", f);
        }
    }

    /// Mutations of a valid payload: either valid or a clean 107/114.
    #[test]
    fn reader_never_panics_on_mutations(key in field_name(), value in arb_json()) {
        let v = with(pdf_payload(), &key, value);
        if let Err(f) = parse(&v) {
            prop_assert!(matches!(f.code.code(), 107 | 114), "{}", f);
        }
    }

    /// Arbitrary bytes.
    #[test]
    fn reader_never_panics_on_bytes(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        let _ = parse_payload(&bytes);
    }
}
