#!/usr/bin/env python3
"""Builds the verification corpus (issue 32): PDF files signed and then updated by tools other
than Signet, as attackers and honest co-signers make them, each judged by pyHanko too.

    python3 make_corpus.py OUT_DIR

writes OUT_DIR/<name>.pdf for every case, OUT_DIR/ca.der (the one trust anchor) and
OUT_DIR/manifest.json: [{"name", "class", "honest", "made_by", "what", "pyhanko"}].

Who makes what:
- base documents: reportlab (a two-page loan agreement with a form field) and a hand-written
  raw PDF writer below (documents an attacker prepares with hidden alternatives for the shadow
  attacks);
- signatures, certifications, time-stamps, DSS updates: pyHanko (its signer, its DummyTimeStamper
  as a TSA, its LTV updater);
- form fills, comments, metadata saves: pypdf (incremental writer) and pyHanko;
- attacks: pypdf, pyHanko's incremental writer and raw byte edits, following the published
  classes (Mladenov et al. 2019: USF, ISA, SWA; Mainka et al. 2021: shadow hide / replace /
  hide-and-replace; Mainka et al. 2021: EAA, SSA; structural ambiguity).

Everything is deterministic except key material, times and signature values.
"""

import datetime
import io
import json
import logging
import re
import sys
import time
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from pyhanko.keys import load_cert_from_pemder, load_private_key_from_pemder
from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
from pyhanko.pdf_utils import generic
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign import fields, signers
from pyhanko.sign.fields import MDPPerm, SigFieldSpec
from pyhanko.sign.timestamps import DummyTimeStamper
from pyhanko.sign.validation import add_validation_info, validate_pdf_signature, validate_pdf_timestamp
from pyhanko_certvalidator import ValidationContext
from pyhanko_certvalidator.registry import SimpleCertificateStore

import pypdf
from pypdf.annotations import FreeText, Highlight, Rectangle, Text
from pypdf.generic import NameObject, NumberObject

logging.disable(logging.CRITICAL)  # pyHanko logs every refused diff; the verdicts are enough
OUT = Path(sys.argv[1])
OUT.mkdir(parents=True, exist_ok=True)
NOW = datetime.datetime.now(datetime.timezone.utc)

# ---------------------------------------------------------------------------------------------
# A small PKI: one root, two RSA signers, one EC signer, one TSA.


def _name(cn):
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn), x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Corpus Bank")])


def _issue(subject_key, cn, issuer_key, issuer_cert, ca=False, tsa=False):
    b = (
        x509.CertificateBuilder()
        .subject_name(_name(cn))
        .issuer_name(issuer_cert.subject if issuer_cert else _name(cn))
        .public_key(subject_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(NOW - datetime.timedelta(days=30))
        .not_valid_after(NOW + datetime.timedelta(days=365))
        .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(subject_key.public_key()), critical=False)
    )
    if issuer_cert is not None:
        b = b.add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer_key.public_key()), critical=False)
    if ca:
        usage = dict(digital_signature=False, content_commitment=False, key_cert_sign=True, crl_sign=True)
    else:
        usage = dict(digital_signature=True, content_commitment=not tsa, key_cert_sign=False, crl_sign=False)
    b = b.add_extension(
        x509.KeyUsage(key_encipherment=False, data_encipherment=False, key_agreement=False, encipher_only=False, decipher_only=False, **usage),
        critical=True,
    )
    if tsa:
        b = b.add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.TIME_STAMPING]), critical=True)
    return b.sign(issuer_key, hashes.SHA256())


def _write_key(key, name):
    path = OUT / f"{name}.key.pem"
    path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    return path


def _write_cert(cert, name):
    path = OUT / f"{name}.cert.pem"
    path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return path


ca_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
ca_cert = _issue(ca_key, "Corpus Root CA", ca_key, None, ca=True)
(OUT / "ca.der").write_bytes(ca_cert.public_bytes(serialization.Encoding.DER))
ca_pem = _write_cert(ca_cert, "ca")


def _signer(cn, key, prefer_pss=False):
    cert = _issue(key, cn, ca_key, ca_cert)
    slug = cn.lower().replace(" ", "-")
    return signers.SimpleSigner.load(str(_write_key(key, slug)), str(_write_cert(cert, slug)), ca_chain_files=(str(ca_pem),), prefer_pss=prefer_pss), cert


def _rsa():
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


BORROWER, borrower_cert = _signer("Asha Rao", _rsa())
LENDER, lender_cert = _signer("Vikram Shah", _rsa())
WITNESS, _ = _signer("Meera Iyer", ec.generate_private_key(ec.SECP256R1()))
PSS_SIGNER, _ = _signer("Ravi Kumar", _rsa(), prefer_pss=True)
_tsa_key = _rsa()
_tsa_cert = _issue(_tsa_key, "Corpus TSA", ca_key, ca_cert, tsa=True)
TSA = DummyTimeStamper(
    tsa_cert=load_cert_from_pemder(str(_write_cert(_tsa_cert, "tsa"))),
    tsa_key=load_private_key_from_pemder(str(_write_key(_tsa_key, "tsa")), None),
    certs_to_embed=SimpleCertificateStore.from_certs([load_cert_from_pemder(str(ca_pem))]),
)
_crl = (
    x509.CertificateRevocationListBuilder()
    .issuer_name(ca_cert.subject)
    .last_update(NOW - datetime.timedelta(minutes=5))
    .next_update(NOW + datetime.timedelta(days=7))
    .sign(ca_key, hashes.SHA256())
)
CRL_DER = _crl.public_bytes(serialization.Encoding.DER)


def validation_context(with_crl=False):
    root = load_cert_from_pemder(str(ca_pem))
    if with_crl:
        return ValidationContext(trust_roots=[root], crls=[CRL_DER], allow_fetching=False, revocation_mode="hard-fail")
    return ValidationContext(trust_roots=[root], allow_fetching=False, revocation_mode="soft-fail")


# ---------------------------------------------------------------------------------------------
# Base documents.


def reportlab_contract(pages=2, compress=False):
    """A loan agreement: text on every page, an image-free layout, a text field "Nominee" in the
    empty lower half of page 1, and a document information dictionary."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4, pageCompression=1 if compress else 0)
    c.setTitle("Loan agreement")
    c.setAuthor("Corpus Bank")
    for p in range(pages):
        c.setFont("Helvetica-Bold", 16)
        c.drawString(72, 770, "Loan agreement" if p == 0 else f"Schedule {p}")
        c.setFont("Helvetica", 11)
        lines = [
            "Lender: Corpus Bank Ltd, Mumbai.",
            "Borrower: Asha Rao.",
            "Principal: INR 1,00,000 (one lakh rupees).",
            "Interest: 9.5% a year, repaid in 12 equal monthly instalments.",
            "The borrower may repay early without penalty.",
        ]
        for i, line in enumerate(lines):
            c.drawString(72, 730 - 18 * i, line)
        if p == 0:
            c.drawString(72, 420, "Nominee:")
            c.acroForm.textfield(name="Nominee", x=140, y=410, width=200, height=22, borderWidth=1, fontSize=11, value="")
        c.showPage()
    c.save()
    return buf.getvalue()


def stream(data, extra=b""):
    return b"<< /Length %d %s >>\nstream\n" % (len(data), extra) + data + b"\nendstream"


def raw_pdf(objects, root=1, info=None):
    """A classic-xref PDF from {number: body}."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = {}
    for n in sorted(objects):
        offsets[n] = len(out)
        out += b"%d 0 obj\n" % n + objects[n] + b"\nendobj\n"
    size = max(objects) + 1
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % size
    for n in range(1, size):
        out += (b"%010d 00000 n \n" % offsets[n]) if n in offsets else b"0000000000 00001 f \n"
    trailer = b"/Size %d /Root %d 0 R" % (size, root)
    if info:
        trailer += b" /Info %d 0 R" % info
    out += b"trailer\n<< " + trailer + b" >>\nstartxref\n%d\n%%%%EOF\n" % xref
    return bytes(out)


def text_ops(lines, y=730):
    ops = b"BT /F1 11 Tf 72 %d Td 18 TL\n" % y
    for line in lines:
        ops += b"(" + line.encode() + b") Tj T*\n"
    return ops + b"ET\n"


TRUE_TERMS = ["Principal: INR 1,00,000.", "Interest: 9.5% a year.", "Term: 12 months."]
FALSE_TERMS = ["Principal: INR 9,00,000.", "Interest: 36% a year.", "Term: 120 months."]
WHITE_BOX = b"q 1 1 1 rg 60 660 400 90 re f Q\n"


def shadow_base():
    """An attacker's document: the page shows the true terms; it also holds, unused or covered,
    what the attacker will reveal later:
      5  the page's content: true terms         9  a white box over the false terms' place
      6  the false terms (drawn, but covered)   10 an unused stream holding the false terms
      7  an alternate page with the false terms 11 an alternate catalog and 12 its page tree
    The page's /Contents is [6 9 5]: false terms, then a white box, then the true terms."""
    objs = {
        1: b"<< /Type /Catalog /Pages 2 0 R >>",
        2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents [6 0 R 9 0 R 5 0 R] >>",
        4: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        5: stream(text_ops(TRUE_TERMS)),
        6: stream(text_ops(FALSE_TERMS)),
        7: b"<< /Type /Page /Parent 12 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 10 0 R >>",
        8: b"<< /Title (Loan agreement) /Producer (corpus raw writer) >>",
        9: stream(WHITE_BOX),
        10: stream(text_ops(FALSE_TERMS)),
        11: b"<< /Type /Catalog /Pages 12 0 R >>",
        12: b"<< /Type /Pages /Kids [7 0 R] /Count 1 >>",
    }
    return raw_pdf(objs, root=1, info=8)


# ---------------------------------------------------------------------------------------------
# Signing with pyHanko.


def sign(pdf, signer=BORROWER, field="Signature1", certify=None, box=None, timestamper=None, md="sha256", existing=False, stamp=True):
    w = IncrementalPdfFileWriter(io.BytesIO(pdf), strict=False)
    meta = signers.PdfSignatureMetadata(
        field_name=field,
        md_algorithm=md,
        certify=certify is not None,
        docmdp_permissions=certify or MDPPerm.FILL_FORMS,
        reason="I agree to the terms",
    )
    spec = None if existing else SigFieldSpec(field, box=box, on_page=0) if box else SigFieldSpec(field)
    pdf_signer = signers.PdfSigner(meta, signer=signer, timestamper=timestamper, new_field_spec=spec)
    return pdf_signer.sign_pdf(w, existing_fields_only=existing).getvalue()


def add_empty_signature_field(pdf, name, box):
    w = IncrementalPdfFileWriter(io.BytesIO(pdf), strict=False)
    fields.append_signature_field(w, SigFieldSpec(name, box=box, on_page=0))
    out = io.BytesIO()
    w.write(out)
    return out.getvalue()


def add_dss(pdf):
    """pyHanko's LTV update: certificates and the CA's CRL in a DSS, in a new revision."""
    r = PdfFileReader(io.BytesIO(pdf), strict=False)
    out = add_validation_info(r.embedded_signatures[-1], validation_context(with_crl=True), skip_timestamp=True)
    return out.getvalue()


def document_timestamp(pdf):
    w = IncrementalPdfFileWriter(io.BytesIO(pdf), strict=False)
    return signers.PdfTimeStamper(TSA).timestamp_pdf(w, "sha256").getvalue()


# ---------------------------------------------------------------------------------------------
# Later revisions with pypdf.


def pypdf_update(pdf, change):
    w = pypdf.PdfWriter(io.BytesIO(pdf), incremental=True)
    change(w)
    out = io.BytesIO()
    w.write(out)
    return out.getvalue()


def fill_nominee(value):
    def change(w):
        w.set_need_appearances_writer(False)
        w.update_page_form_field_values(w.pages[0], {"Nominee": value}, auto_regenerate=False)

    return change


def annotate(annotation):
    return lambda w: w.add_annotation(page_number=0, annotation=annotation)


def set_title(title):
    return lambda w: w.add_metadata({"/Title": title})


def set_xmp(w):
    xmp = (
        b'<?xpacket begin="\xef\xbb\xbf" id="W5M0MpCehiHzreSzNTczkc9d"?>'
        b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
        b'<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title><rdf:Alt>'
        b'<rdf:li xml:lang="x-default">Loan agreement (filed)</rdf:li></rdf:Alt></dc:title></rdf:Description>'
        b'</rdf:RDF></x:xmpmeta><?xpacket end="w"?>'
    )
    w.xmp_metadata = pypdf.xmp.XmpInformation.create() if False else None
    meta = pypdf.generic.DecodedStreamObject()
    meta.set_data(xmp)
    meta.update({NameObject("/Type"): NameObject("/Metadata"), NameObject("/Subtype"): NameObject("/XML")})
    w._root_object[NameObject("/Metadata")] = w._add_object(meta)


# ---------------------------------------------------------------------------------------------
# Raw incremental updates.


def last_startxref(pdf):
    return int(re.findall(rb"startxref\s+(\d+)", pdf)[-1])


def trailer_of(pdf):
    r = pypdf.PdfReader(io.BytesIO(pdf))
    t = r.trailer
    root = t.raw_get("/Root").idnum
    info = t.raw_get("/Info").idnum if "/Info" in t else None
    return root, int(t["/Size"]), info


def object_number_of(pdf, pattern):
    """The number of the last object whose body matches `pattern`."""
    found = re.findall(rb"(\d+) 0 obj\s*(?:(?!endobj).)*?" + pattern, pdf, re.S)
    return int(found[-1])


def append_update(pdf, objects, root=None, free=(), xref=True, prev=True, startxref=None):
    """Append a revision redefining `objects` ({number: body}) and freeing `free`."""
    root0, size, info = trailer_of(pdf)
    out = bytearray(pdf if pdf.endswith(b"\n") else pdf + b"\n")
    offsets = {}
    for n in sorted(objects):
        offsets[n] = len(out)
        out += b"%d 0 obj\n" % n + objects[n] + b"\nendobj\n"
    if not xref:
        return bytes(out)
    size = max([size, *[n + 1 for n in objects]])
    at = len(out)
    out += b"xref\n"
    for n in sorted([*objects, *free]):
        entry = b"%010d 00000 n \n" % offsets[n] if n in objects else b"0000000000 00001 f \n"
        out += b"%d 1\n" % n + entry
    trailer = b"/Size %d /Root %d 0 R" % (size, root or root0)
    if info:
        trailer += b" /Info %d 0 R" % info
    if prev:
        trailer += b" /Prev %d" % last_startxref(pdf)
    out += b"trailer\n<< " + trailer + b" >>\nstartxref\n%d\n%%%%EOF\n" % (at if startxref is None else startxref)
    return bytes(out)


def xref_only_update(pdf, pointing):
    """A revision with no bodies: its xref points object numbers at bodies already in the file
    ({number: offset}). Nothing new is written, so nothing new is signed or unsigned."""
    root0, size, info = trailer_of(pdf)
    out = bytearray(pdf)
    at = len(out)
    out += b"xref\n"
    for n in sorted(pointing):
        out += b"%d 1\n%010d 00000 n \n" % (n, pointing[n])
    trailer = b"/Size %d /Root %d 0 R /Prev %d" % (size, root0, last_startxref(pdf))
    if info:
        trailer += b" /Info %d 0 R" % info
    out += b"trailer\n<< " + trailer + b" >>\nstartxref\n%d\n%%%%EOF\n" % at
    return bytes(out)


def offset_of(pdf, number):
    return [m.start() for m in re.finditer(rb"(?<![0-9])%d 0 obj" % number, pdf)][0]


def first_page_number(pdf):
    return pypdf.PdfReader(io.BytesIO(pdf)).pages[0].indirect_reference.idnum


def page_body(pdf, contents):
    """The first page's dictionary with /Contents replaced."""
    body = re.search(rb"%d 0 obj\s*(.*?)\s*endobj" % first_page_number(pdf), pdf, re.S).group(1)
    return re.sub(rb"/Contents\s*(\[[^\]]*\]|\d+ 0 R)", b"/Contents " + contents, body)


def signature_dict(pdf):
    """(number, body) of the last signature dictionary."""
    n = object_number_of(pdf, rb"/ByteRange")
    body = re.search(rb"(?<![0-9])%d 0 obj\s*(.*?)\s*endobj" % n, pdf, re.S).group(1)
    return n, body


def content_number(pdf):
    body = re.search(rb"%d 0 obj\s*(.*?)\s*endobj" % first_page_number(pdf), pdf, re.S).group(1)
    return int(re.search(rb"/Contents\s*\[?\s*(\d+) 0 R", body).group(1))


def rewrite_content(pdf, old, new):
    """Change text in an uncompressed content stream in place, keeping the length."""
    assert len(old) == len(new)
    assert old in pdf
    return pdf.replace(old, new, 1)


def byte_range(pdf):
    return [int(x) for x in re.findall(rb"/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]", pdf)[-1]]


# ---------------------------------------------------------------------------------------------
# The cases.

cases = []


def case(name, cls, honest, made_by, what, pdf):
    cases.append(dict(name=name, cls=cls, honest=honest, made_by=made_by, what=what, pdf=pdf))


base = reportlab_contract()
approved = sign(base)
certified_p1 = sign(base, certify=MDPPerm.NO_CHANGES)
certified_p2 = sign(base, certify=MDPPerm.FILL_FORMS)
certified_p3 = sign(base, certify=MDPPerm.ANNOTATE)
shadow = shadow_base()
shadow_signed = sign(shadow)
shadow_certified = sign(shadow, certify=MDPPerm.FILL_FORMS)
OVER_TEXT = (60, 690, 420, 780)  # over the title and the first terms on page 1
BESIDE_TEXT = (400, 480, 560, 560)  # empty right-hand margin between terms and field

# Honest files: each must pass. ------------------------------------------------------------------
case("honest-approval", "honest", True, "reportlab + pyHanko", "one approval signature", approved)
case("honest-certified-p1", "honest", True, "reportlab + pyHanko", "certification, no changes allowed", certified_p1)
case("honest-certified-p2", "honest", True, "reportlab + pyHanko", "certification, form filling allowed", certified_p2)
case("honest-ecdsa", "honest", True, "reportlab + pyHanko", "approval with an ECDSA P-256 key", sign(base, signer=WITNESS))
case("honest-rsa-pss", "honest", True, "reportlab + pyHanko", "approval with RSASSA-PSS", sign(base, signer=PSS_SIGNER))
case("honest-sha512", "honest", True, "reportlab + pyHanko", "approval with SHA-512", sign(base, md="sha512"))
case(
    "honest-visible-stamp",
    "honest",
    True,
    "reportlab + pyHanko",
    "approval with a visible stamp in an empty area",
    sign(base, box=(350, 100, 550, 160)),
)
case("honest-compressed-base", "honest", True, "reportlab (compressed) + pyHanko", "approval over compressed streams", sign(reportlab_contract(compress=True)))
time.sleep(1.1)  # so that the next saves write a later /ModDate, as every co-signing tool does
co_signed = sign(approved, signer=LENDER, field="Signature2")
case("honest-two-approvals", "honest", True, "pyHanko", "a second approval signature by another person", co_signed)
case("honest-three-approvals", "honest", True, "pyHanko", "three signers, one of them ECDSA", sign(co_signed, signer=WITNESS, field="Signature3"))
prepared = add_empty_signature_field(base, "Lender", (350, 100, 550, 160))
case(
    "honest-prepared-field",
    "honest",
    True,
    "pyHanko",
    "a signature field prepared, then signed in place",
    sign(sign(prepared), signer=LENDER, field="Lender", existing=True),
)
certified_prepared = sign(prepared, certify=MDPPerm.FILL_FORMS)
case(
    "honest-p2-countersigned",
    "honest",
    True,
    "pyHanko",
    "certified (P=2), countersigned in the prepared field",
    sign(certified_prepared, signer=LENDER, field="Lender", existing=True),
)
case("honest-p2-new-signature", "honest", True, "pyHanko", "certified (P=2), then a new invisible approval", sign(certified_p2, signer=LENDER, field="Signature2"))
filled_p2 = pypdf_update(certified_p2, fill_nominee("Ravi Rao"))
case("honest-p2-form-fill", "honest", True, "pyHanko + pypdf", "certified (P=2), the Nominee field filled", filled_p2)
case("honest-p2-fill-then-sign", "honest", True, "pyHanko + pypdf", "certified (P=2), filled, then approved", sign(filled_p2, signer=LENDER, field="Signature2"))
case("honest-approval-form-fill", "honest", True, "pyHanko + pypdf", "approval, then the Nominee field filled", pypdf_update(approved, fill_nominee("Ravi Rao")))
case(
    "honest-p3-sticky-note",
    "honest",
    True,
    "pyHanko + pypdf",
    "certified (P=3), a sticky note in the margin",
    pypdf_update(certified_p3, annotate(Text(rect=(520, 700, 540, 720), text="Checked by branch"))),
)
case(
    "honest-approval-sticky-note",
    "honest",
    True,
    "pyHanko + pypdf",
    "approval, a sticky note in the margin",
    pypdf_update(approved, annotate(Text(rect=(520, 700, 540, 720), text="Checked by branch"))),
)
case(
    "honest-approval-highlight",
    "honest",
    True,
    "pyHanko + pypdf",
    "approval, the interest rate highlighted (a translucent mark)",
    pypdf_update(approved, annotate(Highlight(rect=(70, 674, 400, 690), quad_points=pypdf.generic.ArrayObject([pypdf.generic.FloatObject(v) for v in (70, 690, 400, 690, 70, 674, 400, 674)])))),
)
case("honest-title-changed", "honest", True, "pyHanko + pypdf", "approval, then the document title changed", pypdf_update(approved, set_title("Loan agreement (filed)")))
case("honest-xmp-changed", "honest", True, "pyHanko + pypdf", "approval, then XMP metadata added", pypdf_update(approved, set_xmp))
case("honest-noop-save", "honest", True, "pyHanko + pypdf", "approval, then saved again with nothing changed", pypdf_update(approved, lambda w: None))
case("honest-dss-update", "honest", True, "pyHanko", "approval, then a DSS with certificates and a CRL (LTV)", add_dss(approved))
time_stamped = sign(base, timestamper=TSA)
case("honest-signature-timestamp", "honest", True, "pyHanko", "approval with a signature time-stamp (B-T)", time_stamped)
case("honest-document-timestamp", "honest", True, "pyHanko", "approval (B-T), DSS, then a document time-stamp (B-LTA)", document_timestamp(add_dss(time_stamped)))
case("honest-timestamp-only", "honest", True, "pyHanko", "a document time-stamp on an unsigned document", document_timestamp(base))
case("honest-p2-co-signed-dss", "honest", True, "pyHanko", "certified (P=2), approved, then a DSS", add_dss(sign(certified_p2, signer=LENDER, field="Signature2")))
case("honest-raw-writer", "honest", True, "raw writer + pyHanko", "approval of a hand-written PDF with unused objects", shadow_signed)

# Universal signature forgery: a signature dictionary whose values make checking impossible. ----


def usf(body_change):
    """The unsigned contract with the false terms, carrying a signature dictionary copied from
    a real signature and then broken by `body_change`."""
    tampered = rewrite_content(base, b"INR 1,00,000", b"INR 9,00,000")
    signed = sign(tampered)
    n, body = signature_dict(signed)
    return append_update(signed, {n: body_change(body)})


def _replace(pattern, repl):
    return lambda body: re.sub(pattern, repl, body, count=1, flags=re.S)


USF_CASES = [
    ("usf-contents-missing", "/Contents removed", _replace(rb"/Contents\s*<[0-9a-fA-F]*>", b"")),
    ("usf-contents-empty", "/Contents <>", _replace(rb"/Contents\s*<[0-9a-fA-F]*>", b"/Contents <>")),
    ("usf-contents-null", "/Contents null", _replace(rb"/Contents\s*<[0-9a-fA-F]*>", b"/Contents null")),
    ("usf-contents-zeros", "/Contents all zeros", lambda b: re.sub(rb"/Contents\s*<([0-9a-fA-F]*)>", lambda m: b"/Contents <" + b"0" * len(m.group(1)) + b">", b, count=1)),
    ("usf-byterange-missing", "/ByteRange removed", _replace(rb"/ByteRange\s*\[[^\]]*\]", b"")),
    ("usf-byterange-null", "/ByteRange null", _replace(rb"/ByteRange\s*\[[^\]]*\]", b"/ByteRange null")),
    ("usf-byterange-empty", "/ByteRange []", _replace(rb"/ByteRange\s*\[[^\]]*\]", b"/ByteRange []")),
    ("usf-byterange-zero", "/ByteRange [0 0 0 0]", _replace(rb"/ByteRange\s*\[[^\]]*\]", b"/ByteRange [0 0 0 0]")),
    ("usf-filter-missing", "/Filter and /SubFilter removed", lambda b: re.sub(rb"/SubFilter\s*/[A-Za-z0-9.]+", b"", re.sub(rb"/Filter\s*/[A-Za-z0-9.]+", b"", b))),
]
for name, what, change in USF_CASES:
    case(name, "USF", False, "pyHanko + raw edit", f"false terms; a later signature dictionary with {what}", usf(change))


def contents_from_another_document():
    """A real CMS, by a trusted signer, over another document, pasted into this one's gap."""
    tampered = rewrite_content(base, b"INR 1,00,000", b"INR 9,00,000")
    target = sign(tampered)
    donor = sign(base)
    hex_target = re.findall(rb"/Contents\s*<([0-9a-fA-F]+)>", target)[-1]
    hex_donor = re.findall(rb"/Contents\s*<([0-9a-fA-F]+)>", donor)[-1]
    assert len(hex_target) == len(hex_donor)
    return target.replace(hex_target, hex_donor)


case("usf-contents-from-another-document", "USF", False, "pyHanko + raw edit", "false terms; the signature value of the true terms pasted in", contents_from_another_document())

# Incremental saving attacks: content changed in a later revision. -----------------------------

cn = content_number(approved)
false_stream = stream(text_ops(FALSE_TERMS, 600), b"")
case("isa-content-redefined", "ISA", False, "raw edit", "a later revision redefines the page's content stream", append_update(approved, {cn: false_stream}))
new_n = trailer_of(approved)[1]
case(
    "isa-content-appended",
    "ISA",
    False,
    "raw edit",
    "a later revision gives the page a second content stream",
    append_update(approved, {new_n: false_stream, first_page_number(approved): page_body(approved, b"[%d 0 R %d 0 R]" % (cn, new_n))}),
)
case("isa-no-xref", "ISA", False, "raw edit", "the content stream redefined after %%EOF, without xref or trailer", append_update(approved, {cn: false_stream}, xref=False))
case("isa-no-prev", "ISA", False, "raw edit", "the later revision's trailer has no /Prev", append_update(approved, {cn: false_stream}, prev=False))


def pypdf_overlay(w):
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(595.27, 841.89))
    c.setFillColorRGB(1, 1, 1)
    c.rect(70, 690, 330, 56, stroke=0, fill=1)
    c.setFillColorRGB(0, 0, 0)
    c.setFont("Helvetica", 11)
    c.drawString(72, 694, "Principal: INR 9,00,000 (nine lakh rupees).")
    c.save()
    w.pages[0].merge_page(pypdf.PdfReader(io.BytesIO(buf.getvalue())).pages[0])


case("isa-pypdf-overlay", "ISA", False, "pypdf", "pypdf merges an overlay page onto the signed page", pypdf_update(approved, pypdf_overlay))


def pyhanko_new_page(pdf):
    w = IncrementalPdfFileWriter(io.BytesIO(pdf), strict=False)
    content = generic.StreamObject(stream_data=text_ops(["Addendum: the borrower waives every right."]))
    page = generic.DictionaryObject(
        {
            generic.NameObject("/Type"): generic.NameObject("/Page"),
            generic.NameObject("/MediaBox"): generic.ArrayObject([generic.NumberObject(v) for v in (0, 0, 595, 842)]),
            generic.NameObject("/Contents"): w.add_object(content),
            generic.NameObject("/Resources"): generic.DictionaryObject(),
        }
    )
    w.insert_page(page)
    out = io.BytesIO()
    w.write(out)
    return out.getvalue()


case("isa-page-added", "ISA", False, "pyHanko writer", "a page added in a later revision", pyhanko_new_page(approved))
case("isa-p2-content-redefined", "ISA", False, "raw edit", "certified (P=2), then the content redefined", append_update(certified_p2, {content_number(certified_p2): false_stream}))


def pages_reordered(pdf):
    r = pypdf.PdfReader(io.BytesIO(pdf))
    pages = r.trailer["/Root"]["/Pages"]
    n = pages.indirect_reference.idnum
    kids = b" ".join(b"%d 0 R" % k.idnum for k in reversed(pages["/Kids"]))
    return append_update(pdf, {n: b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, len(pages["/Kids"]))})


case("isa-pages-reordered", "ISA", False, "raw edit", "the page order changed in a later revision", pages_reordered(approved))

# Signature wrapping: the signed ranges moved so that new bytes sit between them. -------------


def swa_second_part_moved(pdf):
    """Classic SWA: the bytes after the signature value move back; the gap they leave holds a
    new content object; /ByteRange (rewritten with the same width) points at the moved part."""
    a, b, c, d = byte_range(pdf)
    gap = pdf[b - 1 : c + 1]  # '<hex>'
    payload = b"\n%d 0 obj\n" % cn + false_stream + b"\nendobj\n"
    moved = pdf[:b] + gap[1:-1] + b">" + payload + pdf[c:]
    shift = len(payload) + 1
    old = b"%d %d %d %d" % (a, b, c, d)
    new = b"%d %d %d %d" % (a, b, c + shift, d)
    return moved.replace(old, new.ljust(len(old)), 1)


case("swa-second-part-moved", "SWA", False, "raw edit", "signed range moved; a content object inserted in the gap", swa_second_part_moved(approved))


def swa_object_in_gap(pdf):
    """The unsigned gap (/Contents padding) overwritten with a redefinition of the content
    object, plus a later revision whose xref points at it."""
    a, b, c, d = byte_range(pdf)
    hexstr = pdf[b + 1 : c - 1]
    used = len(hexstr.rstrip(b"0"))
    used += used % 2
    payload = b">\n%d 0 obj\n" % cn + false_stream + b"\nendobj\n%"
    start = b + 1 + used + 64
    assert start + len(payload) < c - 1, "the padding is too small"
    patched = pdf[:start] + payload + pdf[start + len(payload) :]
    return xref_only_update(patched, {cn: start + 2})


case("swa-object-in-gap", "SWA", False, "raw edit", "a content object written into the signature's padding, pointed at by a later xref", swa_object_in_gap(approved))


def swa_gap_widened(pdf):
    """/ByteRange altered (same width) so that the first signed part ends earlier; the freed
    bytes are then changed."""
    a, b, c, d = byte_range(pdf)
    old = b"%d %d %d %d" % (a, b, c, d)
    start = pdf.find(b"INR 1,00,000")
    assert start < b
    new = b"%d %d %d %d" % (a, start, c - start + start, d)
    return rewrite_content(pdf.replace(old, new.ljust(len(old)), 1), b"INR 1,00,000", b"INR 9,00,000")


case("swa-gap-widened", "SWA", False, "raw edit", "the first signed range shortened so the principal lies in the gap", swa_gap_widened(approved))


def swa_range_not_to_end(pdf):
    """/ByteRange's second part shortened by the length of an appended revision's fake tail,
    then the tail rewritten."""
    a, b, c, d = byte_range(pdf)
    return pdf[: c + d - 40] + b"\n%%EOF\n" + b" " * 33 + append_update(pdf, {cn: false_stream})[len(pdf) :]


case("swa-tail-rewritten", "SWA", False, "raw edit", "the signed file's last bytes rewritten, then content redefined", swa_range_not_to_end(approved))

# Shadow attacks: the attacker prepares the document, a victim signs, the attacker switches. ---
# In shadow_base: objects 5 (true terms), 6 (false terms), 9 (white box over 6), 10 (unused false
# terms), 7/11/12 (an alternate page, catalog and page tree).

case("shadow-hide-free-cover", "shadow-hide", False, "raw writer + pyHanko + raw edit", "the white box freed by a later xref: the false terms show", append_update(shadow_signed, {}, free=(9,)))
case(
    "shadow-hide-contents-array",
    "shadow-hide",
    False,
    "raw writer + pyHanko + raw edit",
    "the page's content array rewritten without the white box",
    append_update(shadow_signed, {3: page_body(shadow_signed, b"[6 0 R]")}),
)
case(
    "shadow-hide-xref-to-empty",
    "shadow-hide",
    False,
    "raw writer + pyHanko + raw edit",
    "the white box's number pointed at another body (xref only)",
    xref_only_update(shadow_signed, {9: offset_of(shadow_signed, 10)}),
)
case(
    "shadow-hide-p2",
    "shadow-hide",
    False,
    "raw writer + pyHanko + raw edit",
    "certified (P=2); the white box freed by a later xref",
    append_update(shadow_certified, {}, free=(9,)),
)
case(
    "shadow-replace-xref",
    "shadow-replace",
    False,
    "raw writer + pyHanko + raw edit",
    "the true terms' number pointed at the unused false terms (xref only)",
    xref_only_update(shadow_signed, {5: offset_of(shadow_signed, 10)}),
)
case(
    "shadow-replace-font",
    "shadow-replace",
    False,
    "raw writer + pyHanko + raw edit",
    "the font redefined (Helvetica becomes Symbol): every glyph changes",
    append_update(shadow_signed, {4: b"<< /Type /Font /Subtype /Type1 /BaseFont /Symbol >>"}),
)
case(
    "shadow-replace-p2-xref",
    "shadow-replace",
    False,
    "raw writer + pyHanko + raw edit",
    "certified (P=2); the true terms' number pointed at the false terms",
    xref_only_update(shadow_certified, {5: offset_of(shadow_certified, 10)}),
)


def field_over_text(pdf, value):
    """pypdf fills the Nominee field after moving its widget over the principal."""

    def change(w):
        for annot in w.pages[0]["/Annots"]:
            a = annot.get_object()
            if a.get("/T") == "Nominee":
                a[NameObject("/Rect")] = pypdf.generic.ArrayObject([pypdf.generic.FloatObject(v) for v in (70, 690, 400, 710)])
        w.update_page_form_field_values(w.pages[0], {"Nominee": value}, auto_regenerate=False)

    return pypdf_update(pdf, change)


case("shadow-replace-field-moved", "shadow-replace", False, "pyHanko + pypdf", "certified (P=2); the field's widget moved over the principal and filled", field_over_text(certified_p2, "INR 9,00,000"))


def shared_appearance_base():
    """An attacker's document whose page draws, as its own content, the form XObject that is
    also the appearance of a text field: filling the field "in place" would redraw the page."""
    form = stream(b"BT /F1 11 Tf 2 6 Td (Principal: INR 1,00,000.) Tj ET", b"/Type /XObject /Subtype /Form /BBox [0 0 300 20] /Resources << /Font << /F1 4 0 R >> >>")
    objs = {
        1: b"<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [13 0 R] >> >>",
        2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> /XObject << /Fm1 14 0 R >> >> /Contents 5 0 R /Annots [13 0 R] >>",
        4: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        5: stream(text_ops(["Loan agreement"], 770) + b"q 1 0 0 1 70 700 cm /Fm1 Do Q\n"),
        8: b"<< /Title (Loan agreement) >>",
        13: b"<< /Type /Annot /Subtype /Widget /FT /Tx /T (Remarks) /Rect [300 100 500 120] /P 3 0 R /F 4 /AP << /N 14 0 R >> >>",
        14: form,
    }
    return raw_pdf(objs, root=1, info=8)


shared_signed = sign(shared_appearance_base())
case(
    "shadow-replace-shared-appearance",
    "shadow-replace",
    False,
    "raw writer + pyHanko + raw edit",
    "a field's appearance, which the page also draws, rewritten as if filling the field",
    append_update(
        shared_signed,
        {14: stream(b"BT /F1 11 Tf 2 6 Td (Principal: INR 9,00,000.) Tj ET", b"/Type /XObject /Subtype /Form /BBox [0 0 300 20] /Resources << /Font << /F1 4 0 R >> >>")},
    ),
)
case(
    "shadow-hide-and-replace-page",
    "shadow-hide-and-replace",
    False,
    "raw writer + pyHanko + raw edit",
    "the page tree pointed at the alternate page",
    append_update(shadow_signed, {2: b"<< /Type /Pages /Kids [7 0 R] /Count 1 >>", 7: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 10 0 R >>"}),
)
case(
    "shadow-hide-and-replace-xref",
    "shadow-hide-and-replace",
    False,
    "raw writer + pyHanko + raw edit",
    "the page's number pointed at the alternate page's body (xref only)",
    xref_only_update(shadow_signed, {3: offset_of(shadow_signed, 7)}),
)
case(
    "shadow-hide-and-replace-catalog",
    "shadow-hide-and-replace",
    False,
    "raw writer + pyHanko + raw edit",
    "a later trailer names the alternate catalog as /Root",
    append_update(shadow_signed, {}, root=11),
)
case(
    "shadow-hide-and-replace-p2",
    "shadow-hide-and-replace",
    False,
    "raw writer + pyHanko + raw edit",
    "certified (P=2); the page's number pointed at the alternate page",
    xref_only_update(shadow_certified, {3: offset_of(shadow_certified, 7)}),
)

# Evil annotation attacks: allowed-looking annotations that paint over certified text. -------


def freetext(rect, text="Principal: INR 9,00,000"):
    return FreeText(text=text, rect=rect, font="Helvetica", bold=True, font_size="14pt", font_color="000000", border_color="ffffff", background_color="ffffff")


def form_xobject(w, rect, content, resources):
    """An appearance: a Form XObject the size of `rect` drawing `content` with `resources`
    (a dictionary of resource kind to named entries), added to writer `w`; its reference."""
    x1, y1, x2, y2 = rect
    ap = pypdf.generic.StreamObject()
    ap.set_data(content)
    ap.update(
        {
            NameObject("/Type"): NameObject("/XObject"),
            NameObject("/Subtype"): NameObject("/Form"),
            NameObject("/BBox"): pypdf.generic.ArrayObject([NumberObject(0), NumberObject(0), NumberObject(x2 - x1), NumberObject(y2 - y1)]),
            NameObject("/Resources"): pypdf.generic.DictionaryObject(
                {NameObject(kind): pypdf.generic.DictionaryObject({NameObject(n): v for n, v in entries.items()}) for kind, entries in resources.items()}
            ),
        }
    )
    return w._add_object(ap)


def helvetica():
    """Resources naming Helvetica /Helv (a new dictionary for each appearance)."""
    font = {NameObject("/Type"): NameObject("/Font"), NameObject("/Subtype"): NameObject("/Type1"), NameObject("/BaseFont"): NameObject("/Helvetica")}
    return {"/Font": {"/Helv": pypdf.generic.DictionaryObject(font)}}


def highlight_with_appearance(w, rect, content, blend=b"/Multiply"):
    """A Highlight with its own appearance stream `content`, whose resources define one
    graphics state GS0 with blend mode `blend` (as Acrobat draws highlights)."""
    x1, y1, x2, y2 = rect
    state = pypdf.generic.DictionaryObject({NameObject("/Type"): NameObject("/ExtGState"), NameObject("/BM"): NameObject(blend.decode())})
    ap = form_xobject(w, rect, content, {"/ExtGState": {"/GS0": state}})
    quads = pypdf.generic.ArrayObject([pypdf.generic.FloatObject(v) for v in (x1, y2, x2, y2, x1, y1, x2, y1)])
    annot = pypdf.generic.DictionaryObject(
        {
            NameObject("/Type"): NameObject("/Annot"),
            NameObject("/Subtype"): NameObject("/Highlight"),
            NameObject("/Rect"): pypdf.generic.ArrayObject([NumberObject(v) for v in rect]),
            NameObject("/QuadPoints"): quads,
            NameObject("/F"): NumberObject(4),
            NameObject("/AP"): pypdf.generic.DictionaryObject({NameObject("/N"): ap}),
        }
    )
    w.add_annotation(page_number=0, annotation=annot)


HIGHLIGHT_RECT = (70, 674, 400, 690)


def stamp_with_appearance(w, rect, text=b"INR 9,00,000", subtype="/Stamp"):
    """An annotation (a Stamp unless said) with its own appearance stream: a white box with
    new terms."""
    x1, y1, x2, y2 = rect
    content = b"q 1 1 1 rg 0 0 %d %d re f Q BT /Helv 14 Tf 4 8 Td (%s) Tj ET" % (x2 - x1, y2 - y1, text)
    ap = form_xobject(w, rect, content, helvetica())
    annot = pypdf.generic.DictionaryObject(
        {
            NameObject("/Type"): NameObject("/Annot"),
            NameObject("/Subtype"): NameObject(subtype),
            NameObject("/Rect"): pypdf.generic.ArrayObject([NumberObject(v) for v in rect]),
            NameObject("/F"): NumberObject(4),
            NameObject("/AP"): pypdf.generic.DictionaryObject({NameObject("/N"): ap}),
        }
    )
    w.add_annotation(page_number=0, annotation=annot)


case("eaa-freetext-p2", "EAA", False, "pyHanko + pypdf", "certified (P=2), a FreeText annotation over the terms", pypdf_update(certified_p2, annotate(freetext(OVER_TEXT))))
case("eaa-stamp-p2", "EAA", False, "pyHanko + pypdf", "certified (P=2), a Stamp with its own appearance over the terms", pypdf_update(certified_p2, lambda w: stamp_with_appearance(w, OVER_TEXT)))
case("eaa-freetext-p1", "EAA", False, "pyHanko + pypdf", "certified (P=1), a FreeText annotation", pypdf_update(certified_p1, annotate(freetext(BESIDE_TEXT, "Approved"))))
case("eaa-freetext-p3", "EAA", False, "pyHanko + pypdf", "certified (P=3, comments allowed), a FreeText over the terms", pypdf_update(certified_p3, annotate(freetext(OVER_TEXT))))
case("eaa-stamp-p3", "EAA", False, "pyHanko + pypdf", "certified (P=3), a Stamp with its own appearance over the terms", pypdf_update(certified_p3, lambda w: stamp_with_appearance(w, OVER_TEXT)))
case("eaa-square-p2", "EAA", False, "pyHanko + pypdf", "certified (P=2), a filled Square annotation", pypdf_update(certified_p2, annotate(Rectangle(rect=OVER_TEXT, interior_color="ffffff"))))
case("eaa-stamp-approval", "EAA", False, "pyHanko + pypdf", "approval, a Stamp with its own appearance over the terms", pypdf_update(approved, lambda w: stamp_with_appearance(w, OVER_TEXT)))
case(
    "eaa-opaque-highlight-approval",
    "EAA",
    False,
    "pyHanko + pypdf",
    "approval, a \"Highlight\" whose appearance paints a white box and new terms",
    pypdf_update(approved, lambda w: stamp_with_appearance(w, OVER_TEXT, subtype="/Highlight")),
)
case(
    "eaa-highlight-unused-blend",
    "EAA",
    False,
    "pyHanko + pypdf",
    "approval, a \"Highlight\" that declares a multiplying state but paints an opaque white box",
    pypdf_update(approved, lambda w: highlight_with_appearance(w, HIGHLIGHT_RECT, b"q /GS0 gs Q 1 1 1 rg 0 0 330 16 re f")),
)
# An honest highlight drawn the way readers draw one (defined here, after its helper).
case(
    "honest-approval-highlight-drawn",
    "honest",
    True,
    "pyHanko + pypdf",
    "approval, the interest rate highlighted with a drawn appearance (yellow, multiplied)",
    pypdf_update(approved, lambda w: highlight_with_appearance(w, HIGHLIGHT_RECT, b"/GS0 gs 1 1 0 rg 0 0 330 16 re f")),
)
case("eaa-freetext-approval", "EAA", False, "pyHanko + pypdf", "approval, a FreeText over the terms", pypdf_update(approved, annotate(freetext(OVER_TEXT))))

def type0_contract():
    """The terms drawn in a composite (Type0, Identity-H) font with a ToUnicode map, as Word,
    Chromium and LibreOffice write text outside Latin-1: two bytes a glyph, numbered like a
    subset's glyphs (3, 4, 5 ...), meaningless without the map."""
    chars = sorted(set("".join(TRUE_TERMS)))
    gid = {ch: i + 3 for i, ch in enumerate(chars)}
    cmap = (
        b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n/CMapName /Adobe-Identity-UCS def /CMapType 2 def\n"
        b"1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n%d beginbfchar\n" % len(chars)
        + b"".join(b"<%04X> <%04X>\n" % (gid[ch], ord(ch)) for ch in chars)
        + b"endbfchar\nendcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n"
    )
    ops = b"BT /F2 11 Tf 72 730 Td 18 TL\n" + b"".join(b"<" + b"".join(b"%04X" % gid[ch] for ch in line) + b"> Tj T*\n" for line in TRUE_TERMS) + b"ET\n"
    objs = {
        1: b"<< /Type /Catalog /Pages 2 0 R >>",
        2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F2 5 0 R >> >> /Contents 4 0 R >>",
        4: stream(ops),
        5: b"<< /Type /Font /Subtype /Type0 /BaseFont /NotoSans /Encoding /Identity-H /DescendantFonts [6 0 R] /ToUnicode 7 0 R >>",
        6: b"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /NotoSans /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor 8 0 R /DW 500 >>",
        7: stream(cmap),
        8: b"<< /Type /FontDescriptor /FontName /NotoSans /Flags 32 /FontBBox [0 -300 1000 900] /ItalicAngle 0 /Ascent 900 /Descent -300 /CapHeight 700 /StemV 80 >>",
        9: b"<< /Title (Loan agreement) /Producer (corpus raw writer) >>",
    }
    return raw_pdf(objs, root=1, info=9)


def reportlab_form_contract():
    """The terms drawn inside a form XObject placed by the page (reportlab's beginForm/doForm),
    as Chromium and many report generators draw whole pages."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4, pageCompression=0)
    c.setTitle("Loan agreement")
    c.beginForm("terms")
    c.setFont("Helvetica", 11)
    for i, line in enumerate(TRUE_TERMS):
        c.drawString(0, 36 - 18 * i, line)
    c.endForm()
    c.saveState()
    c.translate(72, 694)
    c.doForm("terms")
    c.restoreState()
    c.showPage()
    c.save()
    return buf.getvalue()


type0_approved = sign(type0_contract())
form_approved = sign(reportlab_form_contract())
case("honest-type0-sticky-note", "honest", True, "raw writer + pyHanko + pypdf", "approval of terms in a two-byte (Type0) font, a sticky note in the margin", pypdf_update(type0_approved, annotate(Text(rect=(520, 780, 540, 800), text="Checked by branch"))))
case("honest-form-sticky-note", "honest", True, "reportlab + pyHanko + pypdf", "approval of terms drawn in a form XObject, a sticky note in the margin", pypdf_update(form_approved, annotate(Text(rect=(520, 780, 540, 800), text="Checked by branch"))))
case("eaa-stamp-over-type0-text", "EAA", False, "raw writer + pyHanko + pypdf", "approval, a Stamp over terms drawn in a two-byte (Type0) font", pypdf_update(type0_approved, lambda w: stamp_with_appearance(w, OVER_TEXT)))
case("eaa-stamp-over-form-text", "EAA", False, "reportlab + pyHanko + pypdf", "approval, a Stamp over terms drawn inside a form XObject", pypdf_update(form_approved, lambda w: stamp_with_appearance(w, OVER_TEXT)))


# Sneaky signature attacks: a signature field whose appearance paints over certified text. ----


def signature_field_over_text(pdf, text=b"INR 9,00,000"):
    def change(w):
        x1, y1, x2, y2 = OVER_TEXT
        content = b"q 1 1 1 rg 0 0 %d %d re f Q BT /Helv 14 Tf 4 40 Td (Principal: %s) Tj ET" % (x2 - x1, y2 - y1, text)
        ap = form_xobject(w, OVER_TEXT, content, helvetica())
        widget = pypdf.generic.DictionaryObject(
            {
                NameObject("/Type"): NameObject("/Annot"),
                NameObject("/Subtype"): NameObject("/Widget"),
                NameObject("/FT"): NameObject("/Sig"),
                NameObject("/T"): pypdf.generic.TextStringObject("Approval"),
                NameObject("/Rect"): pypdf.generic.ArrayObject([NumberObject(v) for v in OVER_TEXT]),
                NameObject("/F"): NumberObject(4),
                NameObject("/P"): w.pages[0].indirect_reference,
                NameObject("/AP"): pypdf.generic.DictionaryObject({NameObject("/N"): ap}),
            }
        )
        ref = w._add_object(widget)
        w.pages[0][NameObject("/Annots")].append(ref)
        w._root_object["/AcroForm"]["/Fields"].append(ref)

    return pypdf_update(pdf, change)


case("ssa-unsigned-field-p2", "SSA", False, "pyHanko + pypdf", "certified (P=2), an unsigned signature field painting new terms over the old", signature_field_over_text(certified_p2))
case("ssa-unsigned-field-approval", "SSA", False, "pyHanko + pypdf", "approval, an unsigned signature field painting over the terms", signature_field_over_text(approved))
case(
    "ssa-signed-over-text-p2",
    "SSA",
    False,
    "pyHanko + pypdf",
    "certified (P=2), the painted field then signed by pyHanko",
    sign(signature_field_over_text(certified_p2), signer=LENDER, field="Approval", existing=True),
)

# Structural ambiguity: files that different readers can read differently. --------------------


def old_startxref(pdf):
    """A redefinition appended with its own xref, but the file still ends with the signed
    startxref: readers that reconstruct see the new content, readers that follow see the old."""
    updated = append_update(pdf, {cn: false_stream})
    tail = b"startxref\n%d\n%%%%EOF\n" % last_startxref(pdf)
    return updated[: updated.rfind(b"startxref")] + tail


case("structure-old-startxref", "structure", False, "raw edit", "a redefinition after the signed revision, the old startxref kept", old_startxref(approved))
case("structure-bytes-after-eof", "structure", False, "raw edit", "an object appended after the last %%EOF", approved + b"\n%d 0 obj\n" % cn + false_stream + b"\nendobj\n")
case(
    "structure-duplicate-object",
    "structure",
    False,
    "raw edit",
    "the content object defined twice in the later revision (readers pick different ones)",
    append_update(approved, {cn: false_stream})[: -len(b"%%EOF\n")] + b"%d 0 obj\n" % cn + false_stream + b"\nendobj\n%%EOF\n",
)


def xref_offset_shifted(pdf):
    """A later xref whose offset for the page points into the signed revision's content stream."""
    return xref_only_update(pdf, {first_page_number(pdf): offset_of(pdf, cn)})


case("structure-xref-into-other-object", "structure", False, "raw edit", "a later xref points the page at another object's body", xref_offset_shifted(approved))
case(
    "structure-second-trailer-root",
    "structure",
    False,
    "raw edit",
    "a later trailer's /Root names a new catalog with an OpenAction",
    append_update(approved, {new_n: b"<< /Type /Catalog /Pages %d 0 R /OpenAction << /S /JavaScript /JS (app.alert\\('ok'\\)) >> >>" % pypdf.PdfReader(io.BytesIO(approved)).trailer["/Root"]["/Pages"].indirect_reference.idnum}, root=new_n),
)

# ---------------------------------------------------------------------------------------------
# Judge every file with pyHanko as well, and write the manifest.


def pyhanko_verdict(pdf):
    try:
        r = PdfFileReader(io.BytesIO(pdf), strict=False)
        sigs = r.embedded_signatures
        if not sigs:
            return "rejected: no signature"
        vc = validation_context()
        for s in sigs:
            if s.sig_object_type == "/DocTimeStamp":
                status = validate_pdf_timestamp(s, validation_context=vc)
                ok = status.valid and status.intact and status.trusted and status.docmdp_ok is not False
            else:
                status = validate_pdf_signature(s, signer_validation_context=vc)
                ok = status.bottom_line
            if not ok:
                level = getattr(status, "modification_level", None)
                return f"rejected: {s.field_name} " + ("" if level is None else level.name.lower())
        return "accepted"
    except Exception as e:  # pyHanko refuses some attacks by raising
        return f"rejected: {type(e).__name__}"


manifest = []
for c in cases:
    (OUT / f"{c['name']}.pdf").write_bytes(c["pdf"])
    manifest.append(dict(name=c["name"], cls=c["cls"], honest=c["honest"], made_by=c["made_by"], what=c["what"], pyhanko=pyhanko_verdict(c["pdf"])))
(OUT / "manifest.json").write_text(json.dumps(manifest, indent=1))
print(f"{sum(1 for c in cases if not c['honest'])} attacks, {sum(1 for c in cases if c['honest'])} honest files in {OUT}")
