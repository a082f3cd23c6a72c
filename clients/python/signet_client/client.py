"""The hand-written layer over the generated client: tokens, refresh, and errors as exceptions.

    from signet_client import Signet
    from signet_client.generated.api.workflows import get_workflow

    with Signet("https://signet.example", client_id="…", client_secret="…") as signet:
        details = get_workflow.sync(workflow_id=42, client=signet.client)

Every generated function takes `client=signet.client`. Tokens come from
`POST /api/v1/auth/token` (client credentials, or a user's password), are renewed through
`POST /api/v1/auth/refresh` shortly before the access token expires and once when the server
rejects it (401), and every `application/problem+json` answer is raised as `SignetProblem`
instead of being returned.
"""

from __future__ import annotations

import threading
import time
from typing import Any, Iterator, Mapping, Optional

import httpx

from .generated import AuthenticatedClient, Client
from .generated.api.auth import refresh as _refresh_op
from .generated.api.auth import token as _token_op
from .generated.models.refresh_request import RefreshRequest
from .generated.models.token_request import TokenRequest
from .generated.models.token_request_grant_type import TokenRequestGrantType
from .generated.models.token_response import TokenResponse

__all__ = ["Signet", "SignetProblem", "Tokens"]

PROBLEM_JSON = "application/problem+json"


class SignetProblem(Exception):
    """An `application/problem+json` answer (RFC 9457) with Signet's stable `code`.

    `status`, `code`, `title` and `detail` are always set (from the body when it has them, else
    from the HTTP status); `errors` maps field names to messages for `validation_failed`;
    `request_id` is the id the server logged; `body` is the whole parsed body.
    """

    def __init__(
        self,
        status: int,
        code: str,
        title: str,
        detail: str,
        *,
        type: str = "about:blank",
        instance: str = "",
        errors: Optional[Mapping[str, Any]] = None,
        request_id: str = "",
        body: Optional[Mapping[str, Any]] = None,
    ) -> None:
        message = f"{status} {code}: {detail or title}"
        if errors:
            message += " " + "; ".join(
                f"{field}: {msgs if isinstance(msgs, str) else ', '.join(map(str, msgs))}"
                for field, msgs in errors.items()
            )
        super().__init__(message)
        self.status = status
        self.code = code
        self.title = title
        self.detail = detail
        self.type = type
        self.instance = instance
        self.errors = dict(errors or {})
        self.request_id = request_id
        self.body = dict(body or {})

    @classmethod
    def from_response(cls, response: httpx.Response) -> "SignetProblem":
        try:
            body = response.json()
        except ValueError:
            body = None
        if not isinstance(body, dict):
            body = {}
        status = body.get("status")
        return cls(
            status=status if isinstance(status, int) else response.status_code,
            code=str(body.get("code") or ""),
            title=str(body.get("title") or response.reason_phrase),
            detail=str(body.get("detail") or ""),
            type=str(body.get("type") or "about:blank"),
            instance=str(body.get("instance") or ""),
            errors=body.get("errors") if isinstance(body.get("errors"), dict) else None,
            request_id=str(body.get("requestId") or response.headers.get("x-request-id", "")),
            body=body,
        )


def is_problem(response: httpx.Response) -> bool:
    media_type = response.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    return media_type == PROBLEM_JSON


class _ProblemRaisingClient(httpx.Client):
    """An httpx client that raises `SignetProblem` for problem+json answers.

    This is done in `send`, after authentication (a 401 is first answered by one refresh and a
    retry inside the auth flow) and after redirects, so only the final answer is judged.
    """

    def send(self, request: httpx.Request, **kwargs: Any) -> httpx.Response:
        response = super().send(request, **kwargs)
        if is_problem(response):
            response.read()
            response.close()
            raise SignetProblem.from_response(response)
        return response


class Tokens:
    """The current token pair; `expires_at` is on `time.monotonic()`'s clock."""

    def __init__(self, answer: TokenResponse, now: float) -> None:
        self.access_token: str = answer.access_token
        self.refresh_token: str = answer.refresh_token
        self.expires_in: int = answer.expires_in
        self.expires_at: float = now + answer.expires_in


class _SignetAuth(httpx.Auth):
    def __init__(self, signet: "Signet") -> None:
        self._signet = signet

    def sync_auth_flow(self, request: httpx.Request) -> Iterator[httpx.Request]:
        used = self._signet._valid_access_token()
        request.headers["Authorization"] = f"Bearer {used}"
        response = yield request
        if response.status_code == 401:
            # Rejected (revoked, expired early, key rolled over): renew once and retry.
            response.read()
            fresh = self._signet._renew_after_rejection(used)
            request.headers["Authorization"] = f"Bearer {fresh}"
            yield request

    def async_auth_flow(self, request: httpx.Request):  # pragma: no cover - not offered
        raise NotImplementedError("Signet's token handling is synchronous: use the sync_* functions")


class Signet:
    """A Signet API session.

    Signet(base_url, client_id=..., client_secret=...)   an API client (client credentials)
    Signet(base_url, username=..., password=...)          a user (password grant)

    `client` is the generated `AuthenticatedClient` to pass to every generated function.
    `refresh_margin` is how many seconds before the access token's expiry it is renewed.
    """

    def __init__(
        self,
        base_url: str,
        *,
        client_id: Optional[str] = None,
        client_secret: Optional[str] = None,
        username: Optional[str] = None,
        password: Optional[str] = None,
        refresh_margin: float = 30.0,
        timeout: float = 30.0,
        httpx_args: Optional[dict[str, Any]] = None,
    ) -> None:
        if (client_id is None) == (username is None):
            raise ValueError("give either client_id and client_secret, or username and password")
        if client_id is not None and client_secret is None:
            raise ValueError("client_id needs client_secret")
        if username is not None and password is None:
            raise ValueError("username needs password")
        self.base_url = base_url.rstrip("/")
        self.refresh_margin = refresh_margin
        self._grant = (
            TokenRequest(
                grant_type=TokenRequestGrantType.CLIENT_CREDENTIALS,
                client_id=client_id,
                client_secret=client_secret,
            )
            if client_id is not None
            else TokenRequest(grant_type=TokenRequestGrantType.PASSWORD, username=username, password=password)
        )
        self._lock = threading.RLock()
        self._tokens: Optional[Tokens] = None
        args = dict(httpx_args or {})
        http_timeout = httpx.Timeout(timeout)
        # Unauthenticated: the token operations (and any public operation).
        self.public = Client(base_url=self.base_url, raise_on_unexpected_status=True)
        self.public.set_httpx_client(_ProblemRaisingClient(base_url=self.base_url, timeout=http_timeout, **args))
        self.client = AuthenticatedClient(base_url=self.base_url, token="", raise_on_unexpected_status=True)
        self.client.set_httpx_client(
            _ProblemRaisingClient(base_url=self.base_url, timeout=http_timeout, auth=_SignetAuth(self), **args)
        )

    # --- tokens -----------------------------------------------------------------------------

    @property
    def tokens(self) -> Optional[Tokens]:
        """The current token pair (None before the first request)."""
        return self._tokens

    def login(self) -> Tokens:
        """Gets a new token pair with the credentials given to the constructor."""
        with self._lock:
            answer = _token_op.sync(client=self.public, body=self._grant)
            return self._store(answer)

    def refresh(self) -> Tokens:
        """Spends the refresh token for a new pair (`POST /api/v1/auth/refresh`)."""
        with self._lock:
            if self._tokens is None:
                return self.login()
            answer = _refresh_op.sync(client=self.public, body=RefreshRequest(refresh_token=self._tokens.refresh_token))
            return self._store(answer)

    def _store(self, answer: Any) -> Tokens:
        if not isinstance(answer, TokenResponse):  # problems are raised before this point
            raise RuntimeError(f"unexpected token answer: {answer!r}")
        self._tokens = Tokens(answer, time.monotonic())
        return self._tokens

    def _renew(self) -> Tokens:
        """Refreshes, or logs in again when the refresh token is refused (its session ended)."""
        if self._tokens is None:
            return self.login()
        try:
            return self.refresh()
        except SignetProblem as problem:
            if problem.code != "invalid_grant":
                raise
            return self.login()

    def _valid_access_token(self) -> str:
        with self._lock:
            tokens = self._tokens
            if tokens is None:
                tokens = self.login()
            elif time.monotonic() >= tokens.expires_at - self.refresh_margin:
                tokens = self._renew()
            return tokens.access_token

    def _renew_after_rejection(self, used: str) -> str:
        with self._lock:
            # Another thread may already have renewed it.
            if self._tokens is None or self._tokens.access_token == used:
                self._renew()
            assert self._tokens is not None
            return self._tokens.access_token

    # --- plumbing ---------------------------------------------------------------------------

    def request(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        """An authenticated request to any address of the API (problems raised as usual)."""
        return self.client.get_httpx_client().request(method, path, **kwargs)

    def close(self) -> None:
        self.client.get_httpx_client().close()
        self.public.get_httpx_client().close()

    def __enter__(self) -> "Signet":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
