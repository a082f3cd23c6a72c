"""Verifying Signet's webhook deliveries (Standard Webhooks, see docs/api.md "Webhooks").

Each delivery carries `webhook-id`, `webhook-timestamp` (seconds since the epoch) and
`webhook-signature`: one or more space-separated `v1,<base64 HMAC-SHA256>` signatures of
`"{webhook-id}.{webhook-timestamp}.{body}"`, keyed with the base64-decoded part of the
endpoint's secret after `whsec_`.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
from typing import Any, Mapping, Optional, Union

__all__ = ["WebhookVerificationError", "verify_webhook"]


class WebhookVerificationError(Exception):
    """The delivery is not genuine (or too old or too new to be trusted)."""


def _header(headers: Any, name: str) -> Optional[str]:
    items = headers.items() if hasattr(headers, "items") else headers
    found = [str(v) for k, v in items if str(k).lower() == name]
    if len(found) > 1:
        raise WebhookVerificationError(f"more than one {name} header")
    return found[0] if found else None


def _key(secret: Union[str, bytes]) -> bytes:
    if isinstance(secret, bytes):
        secret = secret.decode("ascii")
    if secret.startswith("whsec_"):
        secret = secret[len("whsec_") :]
    try:
        return base64.b64decode(secret, validate=True)
    except (binascii.Error, ValueError) as error:
        raise ValueError("the webhook secret is not whsec_ followed by base64") from error


def verify_webhook(
    secret: Union[str, bytes],
    headers: Union[Mapping[str, str], Any],
    body: Union[bytes, str],
    tolerance: int = 300,
    *,
    now: Optional[float] = None,
) -> Any:
    """Checks a delivery and returns its parsed JSON body; raises `WebhookVerificationError`.

    `headers` is any mapping or list of pairs (names in any case), `body` the raw bytes as
    received (not re-serialised JSON). Deliveries whose timestamp is more than `tolerance`
    seconds away from `now` (default: the current time) are refused, old or future alike.
    """
    key = _key(secret)
    raw = body.encode("utf-8") if isinstance(body, str) else bytes(body)
    msg_id = _header(headers, "webhook-id")
    timestamp = _header(headers, "webhook-timestamp")
    signatures = _header(headers, "webhook-signature")
    if not msg_id or not timestamp or not signatures:
        raise WebhookVerificationError("missing webhook-id, webhook-timestamp or webhook-signature")
    try:
        sent = int(timestamp)
    except ValueError as error:
        raise WebhookVerificationError("webhook-timestamp is not a number of seconds") from error
    current = time.time() if now is None else now
    if sent < current - tolerance:
        raise WebhookVerificationError("the delivery is too old")
    if sent > current + tolerance:
        raise WebhookVerificationError("the delivery's timestamp is in the future")
    signed = f"{msg_id}.{timestamp}.".encode() + raw
    expected = hmac.new(key, signed, hashlib.sha256).digest()
    for candidate in signatures.split(" "):
        version, _, value = candidate.partition(",")
        if version != "v1":
            continue
        try:
            given = base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError):
            continue
        if hmac.compare_digest(given, expected):
            try:
                return json.loads(raw)
            except ValueError as error:
                raise WebhookVerificationError("the body is not JSON") from error
    raise WebhookVerificationError("no matching v1 signature")
