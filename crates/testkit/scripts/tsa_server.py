#!/usr/bin/env python3
"""Tiny RFC 3161 TSA for tests: pipes each POSTed TimeStampReq through `openssl ts -reply`.

Usage: tsa_server.py WORKDIR  (WORKDIR holds tsa.cnf, tsa.pem, tsa.key, ca.pem)
Binds 127.0.0.1 on an ephemeral port and prints the port on the first stdout line.
"""
import http.server
import os
import subprocess
import sys
import tempfile
import threading

WORKDIR = sys.argv[1]
LOCK = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        with LOCK, tempfile.TemporaryDirectory() as tmp:
            q = os.path.join(tmp, "q.tsq")
            r = os.path.join(tmp, "r.tsr")
            with open(q, "wb") as f:
                f.write(body)
            p = subprocess.run(
                ["openssl", "ts", "-reply", "-config", "tsa.cnf", "-queryfile", q, "-out", r],
                cwd=WORKDIR, capture_output=True)
            if p.returncode != 0:
                self.send_response(500)
                self.end_headers()
                self.wfile.write(p.stderr)
                return
            with open(r, "rb") as f:
                data = f.read()
        self.send_response(200)
        self.send_header("Content-Type", "application/timestamp-reply")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


srv = http.server.HTTPServer(("127.0.0.1", 0), Handler)
print(srv.server_address[1], flush=True)
srv.serve_forever()
