import datetime
from http import HTTPStatus
from typing import Any, Optional, Union

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem_details import ProblemDetails
from ...models.stamp_invoice_page import StampInvoicePage
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    issued_from: Union[Unset, datetime.date] = UNSET,
    issued_to: Union[Unset, datetime.date] = UNSET,
    workflow_id: Union[Unset, int] = UNSET,
    page_number: Union[Unset, int] = UNSET,
    page_size: Union[Unset, int] = UNSET,
) -> dict[str, Any]:
    params: dict[str, Any] = {}

    json_issued_from: Union[Unset, str] = UNSET
    if not isinstance(issued_from, Unset):
        json_issued_from = issued_from.isoformat()
    params["issuedFrom"] = json_issued_from

    json_issued_to: Union[Unset, str] = UNSET
    if not isinstance(issued_to, Unset):
        json_issued_to = issued_to.isoformat()
    params["issuedTo"] = json_issued_to

    params["workflowId"] = workflow_id

    params["pageNumber"] = page_number

    params["pageSize"] = page_size

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/stamps/invoices",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: Union[AuthenticatedClient, Client], response: httpx.Response
) -> Optional[Union[ProblemDetails, StampInvoicePage]]:
    if response.status_code == 200:
        response_200 = StampInvoicePage.from_dict(response.json())

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
) -> Response[Union[ProblemDetails, StampInvoicePage]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    issued_from: Union[Unset, datetime.date] = UNSET,
    issued_to: Union[Unset, datetime.date] = UNSET,
    workflow_id: Union[Unset, int] = UNSET,
    page_number: Union[Unset, int] = UNSET,
    page_size: Union[Unset, int] = UNSET,
) -> Response[Union[ProblemDetails, StampInvoicePage]]:
    """
    Args:
        issued_from (Union[Unset, datetime.date]):
        issued_to (Union[Unset, datetime.date]):
        workflow_id (Union[Unset, int]):
        page_number (Union[Unset, int]):
        page_size (Union[Unset, int]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[ProblemDetails, StampInvoicePage]]
    """

    kwargs = _get_kwargs(
        issued_from=issued_from,
        issued_to=issued_to,
        workflow_id=workflow_id,
        page_number=page_number,
        page_size=page_size,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    issued_from: Union[Unset, datetime.date] = UNSET,
    issued_to: Union[Unset, datetime.date] = UNSET,
    workflow_id: Union[Unset, int] = UNSET,
    page_number: Union[Unset, int] = UNSET,
    page_size: Union[Unset, int] = UNSET,
) -> Optional[Union[ProblemDetails, StampInvoicePage]]:
    """
    Args:
        issued_from (Union[Unset, datetime.date]):
        issued_to (Union[Unset, datetime.date]):
        workflow_id (Union[Unset, int]):
        page_number (Union[Unset, int]):
        page_size (Union[Unset, int]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[ProblemDetails, StampInvoicePage]
    """

    return sync_detailed(
        client=client,
        issued_from=issued_from,
        issued_to=issued_to,
        workflow_id=workflow_id,
        page_number=page_number,
        page_size=page_size,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    issued_from: Union[Unset, datetime.date] = UNSET,
    issued_to: Union[Unset, datetime.date] = UNSET,
    workflow_id: Union[Unset, int] = UNSET,
    page_number: Union[Unset, int] = UNSET,
    page_size: Union[Unset, int] = UNSET,
) -> Response[Union[ProblemDetails, StampInvoicePage]]:
    """
    Args:
        issued_from (Union[Unset, datetime.date]):
        issued_to (Union[Unset, datetime.date]):
        workflow_id (Union[Unset, int]):
        page_number (Union[Unset, int]):
        page_size (Union[Unset, int]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[ProblemDetails, StampInvoicePage]]
    """

    kwargs = _get_kwargs(
        issued_from=issued_from,
        issued_to=issued_to,
        workflow_id=workflow_id,
        page_number=page_number,
        page_size=page_size,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    issued_from: Union[Unset, datetime.date] = UNSET,
    issued_to: Union[Unset, datetime.date] = UNSET,
    workflow_id: Union[Unset, int] = UNSET,
    page_number: Union[Unset, int] = UNSET,
    page_size: Union[Unset, int] = UNSET,
) -> Optional[Union[ProblemDetails, StampInvoicePage]]:
    """
    Args:
        issued_from (Union[Unset, datetime.date]):
        issued_to (Union[Unset, datetime.date]):
        workflow_id (Union[Unset, int]):
        page_number (Union[Unset, int]):
        page_size (Union[Unset, int]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[ProblemDetails, StampInvoicePage]
    """

    return (
        await asyncio_detailed(
            client=client,
            issued_from=issued_from,
            issued_to=issued_to,
            workflow_id=workflow_id,
            page_number=page_number,
            page_size=page_size,
        )
    ).parsed
