"""signet_client/gateway.py against docs/gateway.md, with no server: a self-signed RSA certificate
plays the gateway's, and the test decrypts what the helper seals (and seals what it opens) with
its own code, step by step as the guide describes."""

import base64
import hashlib
import json
import os
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes, padding as sym_padding, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.x509.oid import NameOID

from signet_client import gateway

PACKAGE = Path(__file__).resolve().parent.parent
SCRIPT = PACKAGE / "signet_client" / "gateway.py"
GUIDE = PACKAGE.parent.parent / "docs" / "gateway.md"

PAYLOAD = {
    "Filetype": "PDF",
    "File": base64.b64encode(b"%PDF-1.4 not really").decode(),
    "ReferenceNumber": "PY-0001",
    "Name": "Asha Rao — ✓",
    "Authtoken": "sgt_test",
    "SUrl": "https://app.example/ok",
    "Furl": "https://app.example/fail",
    "Curl": "https://app.example/cancel",
}


@pytest.fixture(scope="module")
def keypair(tmp_path_factory):
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "test gateway")])
    now = datetime.now(timezone.utc)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(days=1))
        .not_valid_after(now + timedelta(days=30))
        .sign(key, hashes.SHA256())
    )
    directory = tmp_path_factory.mktemp("gateway")
    pem, der = directory / "gateway.pem", directory / "gateway.cer"
    pem.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    der.write_bytes(cert.public_bytes(serialization.Encoding.DER))
    return key, pem, der


def ecb_decrypt(key, data):
    padded = Cipher(algorithms.AES(key), modes.ECB()).decryptor().update(data)
    unpadder = sym_padding.PKCS7(128).unpadder()
    return unpadder.update(padded) + unpadder.finalize()


def ecb_encrypt(key, data):
    padder = sym_padding.PKCS7(128).padder()
    enc = Cipher(algorithms.AES(key), modes.ECB()).encryptor()
    return enc.update(padder.update(data) + padder.finalize()) + enc.finalize()


OAEP_SHA256 = padding.OAEP(mgf=padding.MGF1(algorithm=hashes.SHA256()), algorithm=hashes.SHA256(), label=None)


def test_legacy_seal_opens_as_the_guide_says(keypair):
    key, pem, _ = keypair
    fields = gateway.seal(gateway.load_certificate(str(pem)), "legacy", dict(PAYLOAD))
    assert set(fields) == {"Parameter1", "Parameter2", "Parameter3", "SessionKey"}  # no Profile
    session = key.decrypt(base64.b64decode(fields["Parameter1"]), padding.PKCS1v15())
    assert len(session) == 32 and session.hex() == fields["SessionKey"]
    json_bytes = ecb_decrypt(session, base64.b64decode(fields["Parameter2"]))
    assert json.loads(json_bytes.decode("utf-8")) == PAYLOAD
    p3 = base64.b64decode(fields["Parameter3"])
    assert len(p3) == 48  # AES-ECB/PKCS#7 of 32 bytes
    assert ecb_decrypt(session, p3) == hashlib.sha256(json_bytes).digest()


def test_modern_seal_opens_as_the_guide_says(keypair):
    key, _, der = keypair
    fields = gateway.seal(gateway.load_certificate(str(der)), "modern", dict(PAYLOAD))
    assert fields["Profile"] == "2"
    wrapped = base64.b64decode(fields["Parameter1"])
    session = key.decrypt(wrapped, OAEP_SHA256)
    assert session.hex() == fields["SessionKey"]
    # MGF1 must be SHA-256 too (the Java pitfall in the guide): SHA-1 OAEP does not open it.
    with pytest.raises(ValueError):
        key.decrypt(wrapped, padding.OAEP(mgf=padding.MGF1(hashes.SHA1()), algorithm=hashes.SHA256(), label=None))
    p2 = base64.b64decode(fields["Parameter2"])
    json_bytes = AESGCM(session).decrypt(p2[:12], p2[12:], None)  # nonce ‖ ciphertext ‖ tag
    payload = json.loads(json_bytes)
    stamp = datetime.fromisoformat(payload.pop("Timestamp"))
    assert stamp.utcoffset() is not None, "Timestamp must carry an offset"
    assert abs((datetime.now(timezone.utc) - stamp).total_seconds()) < 300
    assert payload == PAYLOAD
    p3 = base64.b64decode(fields["Parameter3"])
    assert AESGCM(session).decrypt(p3[:12], p3[12:], None) == hashlib.sha256(json_bytes).digest()
    # Tampering with the ciphertext is detected.
    tampered = p2[:20] + bytes([p2[20] ^ 1]) + p2[21:]
    with pytest.raises(InvalidTag):
        AESGCM(session).decrypt(tampered[:12], tampered[12:], None)


def test_every_seal_has_a_fresh_key_and_nonce(keypair):
    _, pem, _ = keypair
    cert = gateway.load_certificate(str(pem))
    a, b = gateway.seal(cert, "modern", dict(PAYLOAD)), gateway.seal(cert, "modern", dict(PAYLOAD))
    assert a["SessionKey"] != b["SessionKey"]
    assert base64.b64decode(a["Parameter2"])[:12] != base64.b64decode(b["Parameter2"])[:12]


def test_results_sealed_as_the_gateway_does_open():
    session = os.urandom(32)
    signed = bytes((i * 7) % 251 for i in range(70_000))
    legacy = base64.b64encode(ecb_encrypt(session, signed)).decode()
    assert gateway.open_result("legacy", session, legacy) == signed
    nonce = os.urandom(12)
    modern = base64.b64encode(nonce + AESGCM(session).encrypt(nonce, signed, None)).decode()
    assert gateway.open_result("modern", session, modern) == signed
    with pytest.raises(InvalidTag):
        gateway.open_result("modern", os.urandom(32), modern)  # only the stored key opens it
    # And the helper's own sealing round-trips through its opening.
    assert gateway.aes_ecb_decrypt(session, gateway.aes_ecb_encrypt(session, signed)) == signed
    assert gateway.gcm_decrypt(session, gateway.gcm_encrypt(session, signed)) == signed


@pytest.mark.parametrize("profile,cert_index", [("legacy", 1), ("modern", 2)])
def test_command_line_seal_and_open(keypair, tmp_path, profile, cert_index):
    """The interface the Rust interop test runs: `python3 signet_client/gateway.py seal|open …`."""
    key = keypair[0]
    payload = tmp_path / "payload.json"
    payload.write_text(json.dumps(PAYLOAD), encoding="utf-8")
    run = lambda *args: subprocess.run(  # noqa: E731
        [sys.executable, str(SCRIPT), *args], check=True, capture_output=True, text=True, timeout=60
    ).stdout
    fields = json.loads(run("seal", str(keypair[cert_index]), profile, str(payload)))
    pad = OAEP_SHA256 if profile == "modern" else padding.PKCS1v15()
    session = key.decrypt(base64.b64decode(fields["Parameter1"]), pad)
    assert session.hex() == fields["SessionKey"]
    signed = b"%PDF-1.7 signed bytes \x00\xff" * 100
    if profile == "modern":
        nonce = os.urandom(12)
        rv = base64.b64encode(nonce + AESGCM(session).encrypt(nonce, signed, None)).decode()
    else:
        rv = base64.b64encode(ecb_encrypt(session, signed)).decode()
    assert base64.b64decode(run("open", profile, fields["SessionKey"], rv).strip()) == signed


def test_the_guide_quotes_this_module_verbatim():
    if not GUIDE.exists():
        pytest.skip(f"{GUIDE} not found (package used outside the repository)")
    assert SCRIPT.read_text(encoding="utf-8") in GUIDE.read_text(encoding="utf-8"), (
        "docs/gateway.md section 8.2 must quote signet_client/gateway.py verbatim"
    )
