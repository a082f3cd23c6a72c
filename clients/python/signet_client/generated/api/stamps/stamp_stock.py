from http import HTTPStatus
from typing import Any, Optional, Union

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem_details import ProblemDetails
from ...models.stamp_stock_list import StampStockList
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    state: Union[Unset, str] = UNSET,
) -> dict[str, Any]:
    params: dict[str, Any] = {}

    params["state"] = state

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/stamps/stock",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: Union[AuthenticatedClient, Client], response: httpx.Response
) -> Optional[Union[ProblemDetails, StampStockList]]:
    if response.status_code == 200:
        response_200 = StampStockList.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = ProblemDetails.from_dict(response.json())

        return response_400

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
) -> Response[Union[ProblemDetails, StampStockList]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    state: Union[Unset, str] = UNSET,
) -> Response[Union[ProblemDetails, StampStockList]]:
    """
    Args:
        state (Union[Unset, str]): An Indian state or union territory: its ISO 3166-2:IN code (MH,
            KA, DL, ...; the 2023 edition's CG, OD, TS and UK too), with or without `IN-`, or its name
            (`&` for `and`; Orissa, Pondicherry, Uttaranchal and NCT of Delhi too), in any case.
            Answers give the code.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[ProblemDetails, StampStockList]]
    """

    kwargs = _get_kwargs(
        state=state,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    state: Union[Unset, str] = UNSET,
) -> Optional[Union[ProblemDetails, StampStockList]]:
    """
    Args:
        state (Union[Unset, str]): An Indian state or union territory: its ISO 3166-2:IN code (MH,
            KA, DL, ...; the 2023 edition's CG, OD, TS and UK too), with or without `IN-`, or its name
            (`&` for `and`; Orissa, Pondicherry, Uttaranchal and NCT of Delhi too), in any case.
            Answers give the code.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[ProblemDetails, StampStockList]
    """

    return sync_detailed(
        client=client,
        state=state,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    state: Union[Unset, str] = UNSET,
) -> Response[Union[ProblemDetails, StampStockList]]:
    """
    Args:
        state (Union[Unset, str]): An Indian state or union territory: its ISO 3166-2:IN code (MH,
            KA, DL, ...; the 2023 edition's CG, OD, TS and UK too), with or without `IN-`, or its name
            (`&` for `and`; Orissa, Pondicherry, Uttaranchal and NCT of Delhi too), in any case.
            Answers give the code.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[ProblemDetails, StampStockList]]
    """

    kwargs = _get_kwargs(
        state=state,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    state: Union[Unset, str] = UNSET,
) -> Optional[Union[ProblemDetails, StampStockList]]:
    """
    Args:
        state (Union[Unset, str]): An Indian state or union territory: its ISO 3166-2:IN code (MH,
            KA, DL, ...; the 2023 edition's CG, OD, TS and UK too), with or without `IN-`, or its name
            (`&` for `and`; Orissa, Pondicherry, Uttaranchal and NCT of Delhi too), in any case.
            Answers give the code.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[ProblemDetails, StampStockList]
    """

    return (
        await asyncio_detailed(
            client=client,
            state=state,
        )
    ).parsed
