"""verify_webhook against the Standard Webhooks rules (no server; the live suite checks real
deliveries)."""

import base64
import hashlib
import hmac
import json
import time

import pytest

from signet_client import WebhookVerificationError, verify_webhook

KEY = bytes(range(32))
SECRET = "whsec_" + base64.b64encode(KEY).decode()
BODY = json.dumps({"type": "workflow.completed", "data": {"workflowId": 7}}).encode()


def sign(msg_id, timestamp, body, key=KEY):
    mac = hmac.new(key, f"{msg_id}.{timestamp}.".encode() + body, hashlib.sha256).digest()
    return "v1," + base64.b64encode(mac).decode()


def headers(timestamp=None, signature=None, msg_id="msg_1"):
    ts = str(int(time.time()) if timestamp is None else timestamp)
    return {
        "Webhook-Id": msg_id,
        "Webhook-Timestamp": ts,
        "Webhook-Signature": signature or sign(msg_id, ts, BODY),
    }


def test_a_genuine_delivery_verifies_and_is_parsed():
    assert verify_webhook(SECRET, headers(), BODY) == json.loads(BODY)
    assert verify_webhook(SECRET, headers(), BODY.decode()) == json.loads(BODY)  # str body too
    assert verify_webhook(SECRET, list(headers().items()), BODY)  # pairs, any case


def test_any_of_several_signatures_may_match():
    ts = str(int(time.time()))
    other = sign("msg_1", ts, BODY, key=b"x" * 32)
    good = sign("msg_1", ts, BODY)
    for value in (f"{other} {good}", f"{good} {other}", f"v1a,abc {good}"):
        assert verify_webhook(SECRET, headers(ts, value), BODY)


@pytest.mark.parametrize(
    "mutate",
    [
        lambda h, b: (h, b + b" "),  # body changed
        lambda h, b: (h, b.replace(b"7", b"8")),
        lambda h, b: ({**h, "Webhook-Id": "msg_2"}, b),  # id changed
        lambda h, b: ({**h, "Webhook-Timestamp": str(int(h["Webhook-Timestamp"]) + 1)}, b),
        lambda h, b: ({**h, "Webhook-Signature": "v2," + h["Webhook-Signature"][3:]}, b),  # other version
        lambda h, b: ({**h, "Webhook-Signature": "v1,not base64!"}, b),
        lambda h, b: ({k: v for k, v in h.items() if k != "Webhook-Signature"}, b),  # unsigned
    ],
)
def test_tampering_is_refused(mutate):
    h, b = mutate(headers(), BODY)
    with pytest.raises(WebhookVerificationError):
        verify_webhook(SECRET, h, b)


def test_a_wrong_secret_is_refused():
    with pytest.raises(WebhookVerificationError):
        verify_webhook("whsec_" + base64.b64encode(b"k" * 32).decode(), headers(), BODY)


def test_old_and_future_timestamps_are_refused():
    now = time.time()
    for ts in (int(now) - 301, int(now) + 301):
        with pytest.raises(WebhookVerificationError):
            verify_webhook(SECRET, headers(ts), BODY, now=now)
    assert verify_webhook(SECRET, headers(int(now) - 299), BODY, now=now)
    assert verify_webhook(SECRET, headers(int(now) - 3000), BODY, tolerance=3600, now=now)
    with pytest.raises(WebhookVerificationError):
        verify_webhook(SECRET, headers("yesterday"), BODY)
