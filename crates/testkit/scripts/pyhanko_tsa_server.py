#!/usr/bin/env python3
"""RFC 3161 TSA for tests written by someone else: pyHanko's DummyTimeStamper
(pyhanko.sign.timestamps.dummy_client) answers each POSTed TimeStampReq. Its tokens differ
from openssl's where real TSAs differ too: genTime to the microsecond, no accuracy, the TSA
certificate named by ESS signingCertificate (version 1, SHA-1), RSA PKCS#1 v1.5 signatures.
Serves its CA's CRL (GET /ca.crl) like tsa_server.py.

Usage: pyhanko_tsa_server.py WORKDIR  (WORKDIR holds tsa.pem, tsa.key, ca.crl, read on each request)
Binds 127.0.0.1 on an ephemeral port and prints the port on the first stdout line.
"""
import http.server
import os
import sys

from asn1crypto import keys, pem, tsp, x509
from pyhanko.sign.timestamps.dummy_client import DummyTimeStamper

WORKDIR = sys.argv[1]
# A TimeStampReq is a hash and a few small fields; refuse anything far larger.
MAX_REQUEST = 64 * 1024


def load_der(name):
    with open(os.path.join(WORKDIR, name), "rb") as f:
        data = f.read()
    return pem.unarmor(data)[2] if pem.detect(data) else data


def stamper():
    # Read per request: the certificate is written after the port is announced (it names
    # the port in its CRL address).
    return DummyTimeStamper(
        tsa_cert=x509.Certificate.load(load_der("tsa.pem")),
        tsa_key=keys.PrivateKeyInfo.load(load_der("tsa.key")),
    )


class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        if length > MAX_REQUEST:
            self.send_response(413)
            self.end_headers()
            return
        req = tsp.TimeStampReq.load(self.rfile.read(length))
        data = stamper().request_tsa_response(req).dump()
        self.send_response(200)
        self.send_header("Content-Type", "application/timestamp-reply")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path != "/ca.crl":
            self.send_response(404)
            self.end_headers()
            return
        with open(os.path.join(WORKDIR, "ca.crl"), "rb") as f:
            data = f.read()
        self.send_response(200)
        self.send_header("Content-Type", "application/pkix-crl")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


srv = http.server.HTTPServer(("127.0.0.1", 0), Handler)
print(srv.server_address[1], flush=True)
srv.serve_forever()
