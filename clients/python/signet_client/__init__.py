"""Signet's Python client.

* `Signet`: tokens (client credentials or password), refresh, and the generated
  `AuthenticatedClient` (`signet.client`) for every operation in `signet_client.generated.api`
  with the typed models of `signet_client.generated.models`.
* `SignetProblem`: every `application/problem+json` answer, raised.
* `verify_webhook`: checks a webhook delivery (Standard Webhooks).
* `signet_client.gateway`: sealing requests to, and opening results from, the signing gateway.
"""

from .client import Signet, SignetProblem, Tokens
from .webhooks import WebhookVerificationError, verify_webhook

__all__ = ["Signet", "SignetProblem", "Tokens", "WebhookVerificationError", "verify_webhook"]
__version__ = "0.1.0"
