from http import HTTPStatus
from typing import Any, Optional, Union

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem_details import ProblemDetails
from ...models.revoke_request import RevokeRequest
from ...models.token_revoked import TokenRevoked
from ...types import Response


def _get_kwargs(
    *,
    body: Union[
        RevokeRequest,
        RevokeRequest,
    ],
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/auth/revoke",
    }

    if isinstance(body, RevokeRequest):
        _kwargs["json"] = body.to_dict()

        headers["Content-Type"] = "application/json"
    if isinstance(body, RevokeRequest):
        _kwargs["data"] = body.to_dict()

        headers["Content-Type"] = "application/x-www-form-urlencoded"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: Union[AuthenticatedClient, Client], response: httpx.Response
) -> Optional[Union[ProblemDetails, TokenRevoked]]:
    if response.status_code == 200:
        response_200 = TokenRevoked.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = ProblemDetails.from_dict(response.json())

        return response_400

    if response.status_code == 413:
        response_413 = ProblemDetails.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = ProblemDetails.from_dict(response.json())

        return response_415

    if response.status_code == 429:
        response_429 = ProblemDetails.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = ProblemDetails.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = ProblemDetails.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: Union[AuthenticatedClient, Client], response: httpx.Response
) -> Response[Union[ProblemDetails, TokenRevoked]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: Union[AuthenticatedClient, Client],
    body: Union[
        RevokeRequest,
        RevokeRequest,
    ],
) -> Response[Union[ProblemDetails, TokenRevoked]]:
    """
    Args:
        body (RevokeRequest): RFC 7009 revocation request.
        body (RevokeRequest): RFC 7009 revocation request.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[ProblemDetails, TokenRevoked]]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: Union[AuthenticatedClient, Client],
    body: Union[
        RevokeRequest,
        RevokeRequest,
    ],
) -> Optional[Union[ProblemDetails, TokenRevoked]]:
    """
    Args:
        body (RevokeRequest): RFC 7009 revocation request.
        body (RevokeRequest): RFC 7009 revocation request.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[ProblemDetails, TokenRevoked]
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: Union[AuthenticatedClient, Client],
    body: Union[
        RevokeRequest,
        RevokeRequest,
    ],
) -> Response[Union[ProblemDetails, TokenRevoked]]:
    """
    Args:
        body (RevokeRequest): RFC 7009 revocation request.
        body (RevokeRequest): RFC 7009 revocation request.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[ProblemDetails, TokenRevoked]]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: Union[AuthenticatedClient, Client],
    body: Union[
        RevokeRequest,
        RevokeRequest,
    ],
) -> Optional[Union[ProblemDetails, TokenRevoked]]:
    """
    Args:
        body (RevokeRequest): RFC 7009 revocation request.
        body (RevokeRequest): RFC 7009 revocation request.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[ProblemDetails, TokenRevoked]
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
