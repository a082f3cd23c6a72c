"""The client against a running Signet server.

Needs SIGNET_URL, SIGNET_CLIENT_ID and SIGNET_CLIENT_SECRET (a tenant's API client, as
`signet tenant create` prints it); skipped when SIGNET_URL is unset. The webhook test starts its
own receiver on 127.0.0.1, so the server must allow private webhook addresses
(SIGNET_OUTBOUND_ALLOW_PRIVATE=true).
"""

import base64
import http.server
import os
import queue
import threading
import time
import uuid

import httpx
import pytest

from signet_client import Signet, SignetProblem, WebhookVerificationError, verify_webhook
from signet_client.generated.api.auth import refresh as refresh_op
from signet_client.generated.api.documents import download, upload
from signet_client.generated.api.verification import verify_file
from signet_client.generated.api.webhooks import create_webhook, deliveries, delete_webhook, list_webhooks
from signet_client.generated.api.workflows import get_workflow, initiate
from signet_client.generated.models import (
    CreateWebhookRequest,
    CreateWebhookRequestEventTypesItem,
    DocumentDownloadRequest,
    DocumentUploadRequest,
    InitiatedWorkflow,
    InitiateWorkFlowData,
    RefreshRequest,
    SignatoryDetail,
    UploadedDocument,
    VerificationReport,
    VerifyRequest,
    WorkflowDetails,
)

URL = os.environ.get("SIGNET_URL", "").rstrip("/")
CLIENT_ID = os.environ.get("SIGNET_CLIENT_ID", "")
CLIENT_SECRET = os.environ.get("SIGNET_CLIENT_SECRET", "")

pytestmark = pytest.mark.skipif(not URL, reason="SIGNET_URL is not set (no server to test against)")


def minimal_pdf() -> bytes:
    """A valid one-page PDF (A4, one line of text) with an exact cross-reference table."""
    content = b"BT /F1 18 Tf 72 760 Td (Signet Python client test) Tj ET"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> "
        b"/Contents 5 0 R >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


class PathLog:
    """Records the path and status of every request a Signet session sends (httpx event hook)."""

    def __init__(self):
        self.entries = []

    def __call__(self, response: httpx.Response) -> None:
        self.entries.append((response.request.method, response.request.url.path, response.status_code))

    def paths(self):
        return [f"{method} {path} {status}" for method, path, status in self.entries]


def session(log: PathLog = None, **kwargs) -> Signet:
    args = {"event_hooks": {"response": [log]}} if log else None
    return Signet(URL, client_id=CLIENT_ID, client_secret=CLIENT_SECRET, httpx_args=args, **kwargs)


@pytest.fixture(scope="module")
def signet():
    with session() as s:
        yield s


def run_workflow(signet: Signet, signers: int, name: str) -> int:
    """Uploads a PDF, starts a workflow, and has every signer sign in order through the signer page."""
    uploaded = upload.sync(
        client=signet.client,
        body=DocumentUploadRequest(document_name="python.pdf", file_data=base64.b64encode(minimal_pdf()).decode()),
    )
    assert isinstance(uploaded, UploadedDocument) and uploaded.pages == 1
    started = initiate.sync(
        client=signet.client,
        body=InitiateWorkFlowData(
            template_id=0,
            workflow_name=name,
            document_ids=[uploaded.document_id],
            signatories=[
                SignatoryDetail(subscriber_id=0, email_id=f"signer{i}@python.test", name=f"Signer {i}", signing_order=i)
                for i in range(1, signers + 1)
            ],
        ),
    )
    assert isinstance(started, InitiatedWorkflow)
    assert len(started.signing_urls) == signers
    with httpx.Client(timeout=30) as browser:
        for link in sorted(started.signing_urls, key=lambda u: u.sequence_number):
            page = browser.get(link.url)
            assert page.status_code == 200, page.text[:300]
            signed = browser.post(
                f"{link.url}/sign",
                data={"mode": "typed", "typedName": link.name, "font": "handwriting", "consent": "on"},
            )
            assert signed.status_code < 400, signed.text[:300]
    return started.workflow_id


# --- tokens -----------------------------------------------------------------------------------


def test_client_credentials_and_refresh_give_new_pairs_and_spent_tokens_are_refused():
    log = PathLog()
    with session(log) as s:
        first = s.login()
        assert first.access_token and first.refresh_token and first.expires_in > 0
        second = s.refresh()
        assert second.access_token != first.access_token
        assert second.refresh_token != first.refresh_token
        assert [p for p in log.paths()] == ["POST /api/v1/auth/token 200", "POST /api/v1/auth/refresh 200"]

        # The spent refresh token is refused...
        with pytest.raises(SignetProblem) as refused:
            refresh_op.sync(client=s.public, body=RefreshRequest(refresh_token=first.refresh_token))
        assert (refused.value.status, refused.value.code) == (400, "invalid_grant")
        assert refused.value.title and refused.value.request_id
        # ...and presenting it revoked its whole family (reuse detection): the newer one too.
        with pytest.raises(SignetProblem) as family:
            s.refresh()
        assert family.value.code == "invalid_grant"

        # A rejected access token with a dead refresh token: the session signs in again.
        s.tokens.access_token = "not-a-token"
        log.entries.clear()
        assert isinstance(list_webhooks.sync(client=s.client), list)
        assert log.paths() == [
            "GET /api/v1/webhooks 401",
            "POST /api/v1/auth/refresh 400",
            "POST /api/v1/auth/token 200",
            "GET /api/v1/webhooks 200",
        ]


def test_the_client_refreshes_by_itself_when_rejected_or_about_to_expire():
    log = PathLog()
    with session(log) as s:
        assert isinstance(list_webhooks.sync(client=s.client), list)  # first use: signs in
        assert log.paths() == ["POST /api/v1/auth/token 200", "GET /api/v1/webhooks 200"]

        # Rejected (401): one refresh, then the request again.
        before = s.tokens.refresh_token
        token = s.tokens.access_token  # a forged signature: one character of it changed
        s.tokens.access_token = token[:-10] + ("A" if token[-10] != "A" else "B") + token[-9:]
        log.entries.clear()
        assert isinstance(list_webhooks.sync(client=s.client), list)
        assert log.paths() == [
            "GET /api/v1/webhooks 401",
            "POST /api/v1/auth/refresh 200",
            "GET /api/v1/webhooks 200",
        ]
        assert s.tokens.refresh_token != before

        # About to expire: refreshed before the request is sent.
        s.refresh_margin = s.tokens.expires_in + 1
        log.entries.clear()
        assert isinstance(list_webhooks.sync(client=s.client), list)
        assert log.paths() == ["POST /api/v1/auth/refresh 200", "GET /api/v1/webhooks 200"]

        # Fresh enough: no token traffic at all.
        s.refresh_margin = 30
        log.entries.clear()
        list_webhooks.sync(client=s.client)
        assert log.paths() == ["GET /api/v1/webhooks 200"]


def test_wrong_client_secret_is_a_problem():
    with Signet(URL, client_id=CLIENT_ID, client_secret=CLIENT_SECRET + "x") as s:
        with pytest.raises(SignetProblem) as problem:
            s.login()
    assert (problem.value.status, problem.value.code) == (401, "invalid_client")


# --- a workflow from upload to signed download --------------------------------------------------


def test_workflow_from_upload_to_signed_download(signet):
    workflow_id = run_workflow(signet, 2, f"python {uuid.uuid4().hex[:8]}")
    details = get_workflow.sync(workflow_id=workflow_id, client=signet.client)
    assert isinstance(details, WorkflowDetails)
    assert details.state == "completed"
    assert len(details.signatories) == 2
    answer = download.sync_detailed(client=signet.client, body=DocumentDownloadRequest(workflowid=workflow_id))
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/pdf")
    pdf = answer.content
    assert pdf.startswith(b"%PDF-")
    assert pdf.count(b"/ByteRange") == 2, "one signature per signer"
    # Signet's own verifier (public operation) finds both signatures intact.
    report = verify_file.sync(client=signet.public, body=VerifyRequest(file_data=base64.b64encode(pdf).decode()))
    assert isinstance(report, VerificationReport)
    assert report.valid, report.summary
    assert [(sig.status, sig.method) for sig in report.signatures] == [("valid", "electronic")] * 2


# --- webhooks ---------------------------------------------------------------------------------


class Receiver(http.server.ThreadingHTTPServer):
    def __init__(self):
        self.received = queue.Queue()
        super().__init__(("127.0.0.1", 0), Handler)


class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):  # noqa: N802
        body = self.rfile.read(int(self.headers.get("content-length", "0")))
        self.server.received.put((dict(self.headers.items()), body))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def receiver():
    server = Receiver()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def test_webhook_delivery_is_signed_and_verifies(signet, receiver):
    url = f"http://127.0.0.1:{receiver.server_address[1]}/hooks/signet"
    try:
        created = create_webhook.sync(
            client=signet.client,
            body=CreateWebhookRequest(
                url=url, event_types=[CreateWebhookRequestEventTypesItem.WORKFLOW_COMPLETED], description="python test"
            ),
        )
    except SignetProblem as problem:
        pytest.fail(
            f"registering {url}: {problem} (the server must run with "
            "SIGNET_OUTBOUND_ALLOW_PRIVATE=true to deliver to 127.0.0.1)"
        )
    assert created.secret.startswith("whsec_")
    try:
        workflow_id = run_workflow(signet, 1, f"python hook {uuid.uuid4().hex[:8]}")
        deadline = time.monotonic() + 20
        while True:
            remaining = deadline - time.monotonic()
            assert remaining > 0, "no workflow.completed delivery within 20 s"
            headers, body = receiver.received.get(timeout=remaining)
            event = verify_webhook(created.secret, headers, body)
            if event["data"]["workflowId"] == workflow_id:
                break
        assert event["type"] == "workflow.completed"
        assert event["data"]["workflowState"] == "completed"
        # Tampering with anything signed fails.
        with pytest.raises(WebhookVerificationError):
            verify_webhook(created.secret, headers, body.replace(b"completed", b"declined", 1))
        with pytest.raises(WebhookVerificationError):
            verify_webhook(created.secret, {**headers, "webhook-id": "msg_other"}, body)
        # The server recorded the delivery under the same message id.
        message_id = {k.lower(): v for k, v in headers.items()}["webhook-id"]
        deadline = time.monotonic() + 10
        while True:
            listed = deliveries.sync(webhook_id=created.webhook_id, client=signet.client)
            ours = [d for d in listed if d.message_id == message_id]
            if ours and ours[0].state == "succeeded" or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert ours and ours[0].state == "succeeded" and ours[0].event_type == "workflow.completed"
    finally:
        delete_webhook.sync_detailed(webhook_id=created.webhook_id, client=signet.client)


# --- problems ---------------------------------------------------------------------------------


def test_problems_are_raised_with_their_codes(signet):
    with pytest.raises(SignetProblem) as missing:
        get_workflow.sync(workflow_id=2_000_000_000, client=signet.client)
    assert (missing.value.status, missing.value.code) == (404, "not_found")
    assert missing.value.instance == "/api/v1/workflows/2000000000"

    with pytest.raises(SignetProblem) as invalid:
        upload.sync(client=signet.client, body=DocumentUploadRequest(file_data="this is not a PDF"))
    assert (invalid.value.status, invalid.value.code) == (400, "validation_failed")
    assert "fileData" in invalid.value.errors

    with pytest.raises(SignetProblem) as malformed:
        signet.request("POST", "/api/v1/documents", content=b"{", headers={"content-type": "application/json"})
    assert (malformed.value.status, malformed.value.code) == (400, "malformed_body")

    with pytest.raises(SignetProblem) as anonymous:
        list_webhooks.sync(client=signet.public)  # no token
    assert (anonymous.value.status, anonymous.value.code) == (401, "unauthenticated")
