#!/usr/bin/env python3
"""A Signet gateway client in Python, written the way real integrations do it
(`cryptography` package). Used by the interop tests and quoted in docs/gateway.md.

  seal  <cert.(pem|cer)> <legacy|modern> <payload.json>   -> JSON {Parameter1..3, Profile?, SessionKey}
  open  <legacy|modern> <session key hex> <Returnvalue>   -> the plaintext, base64, on stdout
"""
import base64
import hashlib
import json
import os
import sys
from datetime import datetime, timezone

from cryptography import x509
from cryptography.hazmat.primitives import hashes, padding as sym_padding
from cryptography.hazmat.primitives.asymmetric import padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM


def load_certificate(path):
    data = open(path, "rb").read()
    if data.lstrip().startswith(b"-----BEGIN"):
        return x509.load_pem_x509_certificate(data)
    return x509.load_der_x509_certificate(data)


# --- legacy profile: RSA PKCS#1 v1.5 + AES-256-ECB/PKCS#7 ---------------------------------
def aes_ecb_encrypt(key, data):
    padder = sym_padding.PKCS7(128).padder()
    padded = padder.update(data) + padder.finalize()
    enc = Cipher(algorithms.AES(key), modes.ECB()).encryptor()
    return enc.update(padded) + enc.finalize()


def aes_ecb_decrypt(key, data):
    dec = Cipher(algorithms.AES(key), modes.ECB()).decryptor()
    padded = dec.update(data) + dec.finalize()
    unpadder = sym_padding.PKCS7(128).unpadder()
    return unpadder.update(padded) + unpadder.finalize()


# --- modern profile (Profile=2): RSA-OAEP-SHA256/MGF1-SHA256 + AES-256-GCM -------------------
def gcm_encrypt(key, data):
    nonce = os.urandom(12)
    return nonce + AESGCM(key).encrypt(nonce, data, None)  # ciphertext || 16-byte tag


def gcm_decrypt(key, data):
    return AESGCM(key).decrypt(data[:12], data[12:], None)


def seal(cert, profile, payload):
    session_key = os.urandom(32)
    public_key = cert.public_key()
    if profile == "modern":
        payload["Timestamp"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
        json_bytes = json.dumps(payload).encode("utf-8")
        wrapped = public_key.encrypt(
            session_key,
            padding.OAEP(mgf=padding.MGF1(algorithm=hashes.SHA256()), algorithm=hashes.SHA256(), label=None),
        )
        encrypt = gcm_encrypt
    else:
        json_bytes = json.dumps(payload).encode("utf-8")
        wrapped = public_key.encrypt(session_key, padding.PKCS1v15())
        encrypt = aes_ecb_encrypt
    digest = hashlib.sha256(json_bytes).digest()  # raw 32 bytes of the exact JSON sent
    fields = {
        "Parameter1": base64.b64encode(wrapped).decode(),
        "Parameter2": base64.b64encode(encrypt(session_key, json_bytes)).decode(),
        "Parameter3": base64.b64encode(encrypt(session_key, digest)).decode(),
    }
    if profile == "modern":
        fields["Profile"] = "2"
    # Keep the session key (e.g. in your database, keyed by ReferenceNumber) to open the result.
    fields["SessionKey"] = session_key.hex()
    return fields


def open_result(profile, session_key, returnvalue):
    data = base64.b64decode(returnvalue)
    return gcm_decrypt(session_key, data) if profile == "modern" else aes_ecb_decrypt(session_key, data)


def main(argv):
    if argv[1] == "seal":
        cert = load_certificate(argv[2])
        payload = json.load(open(argv[4], encoding="utf-8"))
        print(json.dumps(seal(cert, argv[3], payload)))
    elif argv[1] == "open":
        plain = open_result(argv[2], bytes.fromhex(argv[3]), argv[4])
        print(base64.b64encode(plain).decode())
    else:
        raise SystemExit("usage: seal|open ...")


if __name__ == "__main__":
    main(sys.argv)
