"""Writes the seed corpus of the fuzz targets (fuzz/corpus/<target>/): small valid inputs.

Run from fuzz/: python3 make_seeds.py (needs openssl and `pip install py7zr`). The outputs
are committed; regenerating changes the signed seeds (fresh key, fresh signatures), which is fine.
Seeds of fixed crashes (crash-*) are not written here: they are committed as found.
"""
import base64, io, json, os, struct, subprocess, tempfile, zlib

C = 'corpus'
T = tempfile.mkdtemp()
subprocess.run(['openssl', 'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes',
                '-keyout', f'{T}/key.pem', '-out', f'{T}/cert.pem', '-days', '36500',
                '-subj', '/CN=Signet fuzz seed signer'], check=True, capture_output=True)
def w(target, name, data):
    os.makedirs(f'{C}/{target}', exist_ok=True)
    open(f'{C}/{target}/{name}', 'wb').write(data)


def build_pdf(objs, header=b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n"):
    out = header; offs = []
    for i, o in enumerate(objs, 1):
        offs.append(len(out)); out += b"%d 0 obj\n" % i + o + b"\nendobj\n"
    x = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    for o in offs: out += b"%010d 00000 n \n" % o
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, x)
    return out

# One page with a text line (also the fixed document of the images target).
content = b"BT /F1 12 Tf 20 150 Td (Sign here) Tj ET"
minimal = build_pdf([
    b"<< /Type /Catalog /Pages 2 0 R >>",
    b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
    b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
])
w('pdf_read', 'minimal.pdf', minimal)

# Two pages, compressed content, inherited MediaBox and Rotate.
c1 = zlib.compress(b"BT /F1 10 Tf 10 10 Td (Page one) Tj ET")
two = build_pdf([
    b"<< /Type /Catalog /Pages 2 0 R >>",
    b"<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 /MediaBox [0 0 300 400] /Rotate 90 /Resources << /Font << /F1 6 0 R >> >> >>",
    b"<< /Type /Page /Parent 2 0 R /Contents 5 0 R >>",
    b"<< /Type /Page /Parent 2 0 R /Contents [5 0 R 5 0 R] /CropBox [10 10 200 200] >>",
    b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(c1) + c1 + b"\nendstream",
    b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
])
w('pdf_read', 'two-pages.pdf', two)

# Xref stream + object stream.
objstm_body = b"1 0 2 44 " ; first = len(objstm_body)
o1 = b"<< /Type /Catalog /Pages 2 0 R >>".ljust(44)
o2 = b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>"
osd = objstm_body + o1 + o2
head = b"%PDF-1.7\n"
o3 = b"3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 100] >>\nendobj\n"
o4 = b"4 0 obj\n<< /Type /ObjStm /N 2 /First %d /Length %d >>\nstream\n" % (first, len(osd)) + osd + b"\nendstream\nendobj\n"
off3 = len(head); off4 = off3 + len(o3); off5 = off4 + len(o4)
rows = [(0,0,255),(2,4,0),(2,4,1),(1,off3,0),(1,off4,0),(1,off5,0)]
xs = b"".join(struct.pack(">BHB", *r) for r in rows)
o5 = b"5 0 obj\n<< /Type /XRef /Size 6 /W [1 2 1] /Root 1 0 R /Length %d >>\nstream\n" % len(xs) + xs + b"\nendstream\nendobj\n"
w('pdf_read', 'xref-stream.pdf', head + o3 + o4 + o5 + b"startxref\n%d\n%%%%EOF\n" % off5)

# Broken xref (offsets wrong) to reach recovery.
w('pdf_read', 'broken-xref.pdf', minimal.replace(b"startxref\n", b"startxref\n1").replace(b"0000000009", b"0000000001"))

# A signed PDF (incremental update with a signature dictionary, CMS by openssl).
sig_size = 4096
placeholder = b"<" + b"0" * (sig_size * 2) + b">"
br_tmpl = b"/ByteRange [0 0000000000 0000000000 0000000000]"
base = minimal
start = len(base)
upd_objs = {
  6: b"<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /ETSI.CAdES.detached " + br_tmpl + b" /Contents " + placeholder + b" /M (D:20260101000000Z) /Name (Fuzz) >>",
  7: b"<< /Type /Annot /Subtype /Widget /FT /Sig /T (Signature1) /V 6 0 R /Rect [0 0 0 0] /F 132 /P 3 0 R >>",
  1: b"<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [7 0 R] /SigFlags 3 >> >>",
  3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R /Annots [7 0 R] /Resources << /Font << /F1 5 0 R >> >> >>",
}
upd = b"\n"; offs = {}
for n, o in upd_objs.items():
    offs[n] = start + len(upd); upd += b"%d 0 obj\n" % n + o + b"\nendobj\n"
xref_off = start + len(upd)
upd += b"xref\n0 1\n0000000000 65535 f \n"
for n in sorted(offs): upd += b"%d 1\n%010d 00000 n \n" % (n, offs[n])
prev = int(base.rsplit(b"startxref\n", 1)[1].split(b"\n")[0])
upd += b"trailer\n<< /Size 8 /Root 1 0 R /Prev %d >>\nstartxref\n%d\n%%%%EOF\n" % (prev, xref_off)
doc = base + upd
cs = doc.index(placeholder); ce = cs + len(placeholder)
br = b"/ByteRange [0 %010d %010d %010d]" % (cs, ce, len(doc) - ce)
assert len(br) == len(br_tmpl)
doc = doc.replace(br_tmpl, br)
signed_part = doc[:cs] + doc[ce:]
open(f'{T}/tbs', 'wb').write(signed_part)
subprocess.run(['openssl', 'cms', '-sign', '-binary', '-in', f'{T}/tbs', '-signer', f'{T}/cert.pem',
                '-inkey', f'{T}/key.pem', '-outform', 'DER', '-out', f'{T}/pdf.p7s', '-nosmimecap'], check=True)
cms = open(f'{T}/pdf.p7s', 'rb').read()
hexcms = cms.hex().encode().ljust(sig_size * 2, b"0")
doc = doc[:cs + 1] + hexcms + doc[ce - 1:]
w('pdf_read', 'signed.pdf', doc)
w('pdf_verify', 'signed.pdf', doc)
w('pdf_verify', 'minimal.pdf', minimal)
w('cms_parse', 'pdf-detached.p7s', cms)

# CMS attached and a certificate.
open(f'{T}/data', 'wb').write(b"detached content")
subprocess.run(['openssl', 'cms', '-sign', '-binary', '-nodetach', '-in', f'{T}/data', '-signer', f'{T}/cert.pem',
                '-inkey', f'{T}/key.pem', '-outform', 'DER', '-out', f'{T}/att.p7s'], check=True)
w('cms_parse', 'attached.p7s', open(f'{T}/att.p7s', 'rb').read())
subprocess.run(['openssl', 'cms', '-sign', '-binary', '-in', f'{T}/data', '-signer', f'{T}/cert.pem',
                '-inkey', f'{T}/key.pem', '-outform', 'DER', '-out', f'{T}/det.p7s'], check=True)
det = open(f'{T}/det.p7s', 'rb').read()
w('cms_parse', 'detached.p7s', det)
w('pdf_verify', 'detached.p7s', det)
w('cms_parse', 'cert.der', open('keys/signer-cert.der', 'rb').read())

# XML.
plain = b'<?xml version="1.0" encoding="UTF-8"?>\n<Invoice xmlns="urn:example:invoice" xmlns:x="urn:x" id="1"><x:Line n="1" a="&amp;&lt;">Text &#x263A;<![CDATA[raw <data>]]></x:Line><!-- comment --><Empty/></Invoice>\n'
w('xml_parse', 'plain.xml', plain)
dsig = b'''<Doc xmlns="urn:d"><Data>hello</Data><ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#" Id="sig-1"><ds:SignedInfo><ds:CanonicalizationMethod Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/><ds:SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256"/><ds:Reference URI=""><ds:Transforms><ds:Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/><ds:Transform Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/></ds:Transforms><ds:DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/><ds:DigestValue>AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=</ds:DigestValue></ds:Reference></ds:SignedInfo><ds:SignatureValue>AAAA</ds:SignatureValue><ds:KeyInfo><ds:X509Data><ds:X509Certificate>''' + base64.b64encode(open('keys/signer-cert.der','rb').read()) + b'''</ds:X509Certificate></ds:X509Data></ds:KeyInfo></ds:Signature></Doc>'''
w('xml_parse', 'dsig-bad-values.xml', dsig)
w('pdf_verify', 'dsig-bad-values.xml', dsig)

# Gateway payloads.
tiny_pdf = b"%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<</Root 1 0 R>>\n%%EOF\n"
urls = {"SUrl": "https://a.example/s", "Furl": "https://a.example/f", "Curl": "https://a.example/c"}
pdf_payload = {"Filetype": "PDF", "File": base64.b64encode(tiny_pdf).decode(), "ReferenceNumber": "REF-1", "Name": "Asha",
               "Authtoken": "tok", "SignatureType": "4", "SelectPage": "ALL", "SignaturePosition": "Top-Left",
               "EnableDrawSignature": True, **urls}
specify = dict(pdf_payload, SelectPage="SPECIFY", PageNumber="1,2", SignaturePosition="Customize", CustomizeCoordinates="10, 20,150,50", SignatureType="1,4", Timestamp="2026-01-01T00:00:00Z")
level = dict(pdf_payload, SelectPage="PAGE LEVEL", PagelevelCoordinates="1,7,10,60,120;6,45.5,20,60,120;")
hash_p = {"FileType": "Hash", "Documentdetails": [{"DocumentName": "Name1", "DocumentURL": "http://d.example/1",
          "DocumentHash": "ab" * 32}], "ReferenceNumber": "R", "AuthToken": "t", "SignatureType": "1", **urls}
xml_p = {"FileType": "XML", "File": base64.b64encode(plain).decode(), "ReferenceNumber": "R2", "Authtoken": "t", "SignatureType": "1", "Storetodb": "TRUE", **urls}
# 7z holding the tiny PDF.
import py7zr
bio = io.BytesIO()
with py7zr.SevenZipFile(bio, 'w', filters=[{'id': py7zr.FILTER_LZMA2}]) as z:
    z.writestr(tiny_pdf, 'doc.pdf')
sz = bio.getvalue()
bio = io.BytesIO()
with py7zr.SevenZipFile(bio, 'w', filters=[{'id': py7zr.FILTER_LZMA}]) as z:
    z.writestr(b"x" * 2000, 'a.txt')
    z.writestr(b"second", 'b.txt')
sz2 = bio.getvalue()
w('archive_7z', 'lzma2-pdf.7z', sz)
w('archive_7z', 'lzma-two-files.7z', sz2)
compressed = dict(pdf_payload, File=base64.b64encode(sz).decode(), IsCompressed=True)
payloads = {'pdf.json': pdf_payload, 'pdf-specify.json': specify, 'pdf-page-level.json': level, 'hash.json': hash_p,
            'xml.json': xml_p, 'pdf-7z.json': compressed}
for name, p in payloads.items():
    w('gateway_payload', name, json.dumps(p).encode())
# Envelope seeds: mode byte + input (see the target).
modern = json.dumps(dict(pdf_payload, Timestamp="2026-01-01T00:00:00Z")).encode()
w('gateway_envelope', 'legacy-pdf', b"\x01" + json.dumps(pdf_payload).encode())
w('gateway_envelope', 'modern-pdf', b"\x02" + modern)
w('gateway_envelope', 'legacy-hash', b"\x01" + json.dumps(hash_p).encode())
w('gateway_envelope', 'raw-params', b"\x00" + b"2\x00" + base64.b64encode(b"k" * 256) + b"\x00" + b"AAAA+/==\x00 bad")
w('gateway_envelope', 'legacy-ciphertext', b"\x03" + b"\x10" * 32)
w('gateway_envelope', 'modern-ciphertext', b"\x04" + b"\x10" * 40)

# A 16x16 baseline JPEG (CPython's test image).
JPEG = base64.b64decode('/9j/4AAQSkZJRgABAQEAAQABAAD/2wBDAAMCAgICAgMCAgIDAwMDBAYEBAQEBAgGBgUGCQgKCgkICQkKDA8MCgsOCwkJDRENDg8QEBEQCgwSExIQEw8QEBD/2wBDAQMDAwQDBAgEBAgQCwkLEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBD/wAARCAAQABADASIAAhEBAxEB/8QAFgABAQEAAAAAAAAAAAAAAAAABwQF/8QAJBAAAQQBBAICAwAAAAAAAAAAAQIDBAYFBwgSExEiABQJMTL/xAAVAQEBAAAAAAAAAAAAAAAAAAAABv/EACMRAAECBQMFAAAAAAAAAAAAAAECEQMEBQYhABIxFRZhgeH/2gAMAwEAAhEDEQA/ABSm0mobc8HmExLUlRzzEWPkJWW+ulrsaUVAseUgslSlH9LKuPryIKuWPZdskzXmm3fX5m2nF4GlVxx/HOpx4ks51+MiU/Iaad7UcUo4tILoS4kqcWkezS0hO/HvuRp0rO6hWnWO1UisZVuFi4GFeyEpmGepa5S5SWVPuciFKRFLgSrwetnyPIB+Vb4N9mKhQMzo5po9XLdDs9d6ZVix2VEhiL9kuNPxw2gEKcDQ/rs8AuA8VAe0vdl7VOYn+27flGAUgmITjbhSmCg3BYlyeWDkMolvw4KOp1KM6iCNvngZHwetf//Z')
# Images: tiny PNGs (RGBA, grey, palette) and a tiny JPEG.
def png(w_, h, ctype, depth, rows, plte=None, trns=None):
    def chunk(t, d): return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w_, h, depth, ctype, 0, 0, 0))
    if plte: out += chunk(b"PLTE", plte)
    if trns: out += chunk(b"tRNS", trns)
    return out + chunk(b"IDAT", zlib.compress(b"".join(b"\x00" + r for r in rows))) + chunk(b"IEND", b"")
w('images', 'rgba.png', png(2, 2, 6, 8, [b"\xff\x00\x00\x80\x00\xff\x00\xff", b"\x00\x00\xff\x00\xff\xff\xff\xff"]))
w('images', 'grey.png', png(3, 1, 0, 8, [b"\x00\x80\xff"]))
w('images', 'palette.png', png(2, 1, 3, 8, [b"\x00\x01"], plte=b"\xff\x00\x00\x00\x00\xff", trns=b"\x80"))
w('images', 'tiny.jpg', JPEG)
