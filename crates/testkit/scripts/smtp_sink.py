#!/usr/bin/env python3
"""A real SMTP server for tests (aiosmtpd). Each received message is written as NNNN.json
({"to": [...], "subject", "text", "html", "attachments": [{"filename", "contentType", "path"}]})
into DIR, each attached file beside it as NNNN-K.bin; the port is printed on the first line.

Usage: smtp_sink.py DIR
"""
import json
import os
import socket
import sys
import threading
from email import message_from_bytes, policy

from aiosmtpd.controller import Controller

DIR = sys.argv[1]


class Handler:
    def __init__(self):
        self.count = 0
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        message = message_from_bytes(envelope.original_content or envelope.content, policy=policy.default)
        text = message.get_body(("plain",))
        html = message.get_body(("html",))
        record = {
            "to": list(envelope.rcpt_tos),
            "toHeader": str(message["To"]),
            "from": str(message["From"]),
            "subject": str(message["Subject"]),
            "text": text.get_content() if text else "",
            "html": html.get_content() if html else None,
        }
        with self.lock:
            self.count += 1
            number = self.count
            path = os.path.join(DIR, "%04d.json" % number)
        attachments = []
        for k, part in enumerate(message.iter_attachments()):
            file_path = os.path.join(DIR, "%04d-%d.bin" % (number, k))
            with open(file_path, "wb") as f:
                f.write(part.get_payload(decode=True) or b"")
            attachments.append({"filename": part.get_filename(), "contentType": part.get_content_type(), "path": file_path})
        record["attachments"] = attachments
        with open(path + ".tmp", "w") as f:
            json.dump(record, f)
        os.rename(path + ".tmp", path)
        return "250 Message accepted"


# aiosmtpd connects to its own port to check it started, so it needs a real one up front.
probe = socket.socket()
probe.bind(("127.0.0.1", 0))
port = probe.getsockname()[1]
probe.close()
controller = Controller(Handler(), hostname="127.0.0.1", port=port)
controller.start()
print(port, flush=True)
threading.Event().wait()
