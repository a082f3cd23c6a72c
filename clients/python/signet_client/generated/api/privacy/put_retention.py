from http import HTTPStatus
from typing import Any, Optional, Union

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem_details import ProblemDetails
from ...models.retention_settings import RetentionSettings
from ...types import Response


def _get_kwargs(
    *,
    body: RetentionSettings,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/api/v1/retention",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: Union[AuthenticatedClient, Client], response: httpx.Response
) -> Optional[Union[ProblemDetails, RetentionSettings]]:
    if response.status_code == 200:
        response_200 = RetentionSettings.from_dict(response.json())

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

    if response.status_code == 404:
        response_404 = ProblemDetails.from_dict(response.json())

        return response_404

    if response.status_code == 413:
        response_413 = ProblemDetails.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = ProblemDetails.from_dict(response.json())

        return response_415

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
) -> Response[Union[ProblemDetails, RetentionSettings]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: RetentionSettings,
) -> Response[Union[ProblemDetails, RetentionSettings]]:
    """
    Args:
        body (RetentionSettings): Periods in days after a workflow ended before the daily sweep
            erases it (documents,
            attachments, events, signatories' personal fields), leaving a sealed tombstone in the
            audit
            chain. Absent (or null): kept until erased on request; 0: erased at the next sweep. A
            period
            is also a floor: an erasure request does not take a record inside it.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[ProblemDetails, RetentionSettings]]
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
    client: AuthenticatedClient,
    body: RetentionSettings,
) -> Optional[Union[ProblemDetails, RetentionSettings]]:
    """
    Args:
        body (RetentionSettings): Periods in days after a workflow ended before the daily sweep
            erases it (documents,
            attachments, events, signatories' personal fields), leaving a sealed tombstone in the
            audit
            chain. Absent (or null): kept until erased on request; 0: erased at the next sweep. A
            period
            is also a floor: an erasure request does not take a record inside it.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[ProblemDetails, RetentionSettings]
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: RetentionSettings,
) -> Response[Union[ProblemDetails, RetentionSettings]]:
    """
    Args:
        body (RetentionSettings): Periods in days after a workflow ended before the daily sweep
            erases it (documents,
            attachments, events, signatories' personal fields), leaving a sealed tombstone in the
            audit
            chain. Absent (or null): kept until erased on request; 0: erased at the next sweep. A
            period
            is also a floor: an erasure request does not take a record inside it.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[ProblemDetails, RetentionSettings]]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: RetentionSettings,
) -> Optional[Union[ProblemDetails, RetentionSettings]]:
    """
    Args:
        body (RetentionSettings): Periods in days after a workflow ended before the daily sweep
            erases it (documents,
            attachments, events, signatories' personal fields), leaving a sealed tombstone in the
            audit
            chain. Absent (or null): kept until erased on request; 0: erased at the next sweep. A
            period
            is also a floor: an erasure request does not take a record inside it.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[ProblemDetails, RetentionSettings]
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
