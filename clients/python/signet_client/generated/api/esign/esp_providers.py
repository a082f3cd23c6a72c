from http import HTTPStatus
from typing import Any, Optional, Union

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.esp_providers import EspProviders
from ...models.problem_details import ProblemDetails
from ...types import Response


def _get_kwargs() -> dict[str, Any]:
    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/esign/providers",
    }

    return _kwargs


def _parse_response(
    *, client: Union[AuthenticatedClient, Client], response: httpx.Response
) -> Optional[Union[EspProviders, ProblemDetails]]:
    if response.status_code == 200:
        response_200 = EspProviders.from_dict(response.json())

        return response_200

    if response.status_code == 401:
        response_401 = ProblemDetails.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = ProblemDetails.from_dict(response.json())

        return response_403

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
) -> Response[Union[EspProviders, ProblemDetails]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
) -> Response[Union[EspProviders, ProblemDetails]]:
    """The installation's eSign service providers, each one's health and routing.

     A Signet extension. Each configured ESP in priority order with its verdict over the sliding
    window, the window's observations and the requests routed to it since this instance started;
    empty when Aadhaar eSign is not configured. Needs `manage_settings`: the ESPs are the
    installation's, and the organisation's Aadhaar signers are routed through them.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[EspProviders, ProblemDetails]]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
) -> Optional[Union[EspProviders, ProblemDetails]]:
    """The installation's eSign service providers, each one's health and routing.

     A Signet extension. Each configured ESP in priority order with its verdict over the sliding
    window, the window's observations and the requests routed to it since this instance started;
    empty when Aadhaar eSign is not configured. Needs `manage_settings`: the ESPs are the
    installation's, and the organisation's Aadhaar signers are routed through them.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[EspProviders, ProblemDetails]
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
) -> Response[Union[EspProviders, ProblemDetails]]:
    """The installation's eSign service providers, each one's health and routing.

     A Signet extension. Each configured ESP in priority order with its verdict over the sliding
    window, the window's observations and the requests routed to it since this instance started;
    empty when Aadhaar eSign is not configured. Needs `manage_settings`: the ESPs are the
    installation's, and the organisation's Aadhaar signers are routed through them.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[EspProviders, ProblemDetails]]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
) -> Optional[Union[EspProviders, ProblemDetails]]:
    """The installation's eSign service providers, each one's health and routing.

     A Signet extension. Each configured ESP in priority order with its verdict over the sliding
    window, the window's observations and the requests routed to it since this instance started;
    empty when Aadhaar eSign is not configured. Needs `manage_settings`: the ESPs are the
    installation's, and the organisation's Aadhaar signers are routed through them.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[EspProviders, ProblemDetails]
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
