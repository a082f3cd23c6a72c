from http import HTTPStatus
from typing import Any, Optional, Union

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem_details import ProblemDetails
from ...models.register_external_user_request import RegisterExternalUserRequest
from ...models.registration_response import RegistrationResponse
from ...types import Response


def _get_kwargs(
    tenant_id: int,
    *,
    body: RegisterExternalUserRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/tenants/{tenant_id}/register".format(
            tenant_id=tenant_id,
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: Union[AuthenticatedClient, Client], response: httpx.Response
) -> Optional[Union[ProblemDetails, RegistrationResponse]]:
    if response.status_code == 202:
        response_202 = RegistrationResponse.from_dict(response.json())

        return response_202

    if response.status_code == 400:
        response_400 = ProblemDetails.from_dict(response.json())

        return response_400

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
) -> Response[Union[ProblemDetails, RegistrationResponse]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    tenant_id: int,
    *,
    client: Union[AuthenticatedClient, Client],
    body: RegisterExternalUserRequest,
) -> Response[Union[ProblemDetails, RegistrationResponse]]:
    """
    Args:
        tenant_id (int):
        body (RegisterExternalUserRequest): A person registering with a tenant as an external user
            (a customer or counterparty).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[ProblemDetails, RegistrationResponse]]
    """

    kwargs = _get_kwargs(
        tenant_id=tenant_id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    tenant_id: int,
    *,
    client: Union[AuthenticatedClient, Client],
    body: RegisterExternalUserRequest,
) -> Optional[Union[ProblemDetails, RegistrationResponse]]:
    """
    Args:
        tenant_id (int):
        body (RegisterExternalUserRequest): A person registering with a tenant as an external user
            (a customer or counterparty).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[ProblemDetails, RegistrationResponse]
    """

    return sync_detailed(
        tenant_id=tenant_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    tenant_id: int,
    *,
    client: Union[AuthenticatedClient, Client],
    body: RegisterExternalUserRequest,
) -> Response[Union[ProblemDetails, RegistrationResponse]]:
    """
    Args:
        tenant_id (int):
        body (RegisterExternalUserRequest): A person registering with a tenant as an external user
            (a customer or counterparty).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[ProblemDetails, RegistrationResponse]]
    """

    kwargs = _get_kwargs(
        tenant_id=tenant_id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    tenant_id: int,
    *,
    client: Union[AuthenticatedClient, Client],
    body: RegisterExternalUserRequest,
) -> Optional[Union[ProblemDetails, RegistrationResponse]]:
    """
    Args:
        tenant_id (int):
        body (RegisterExternalUserRequest): A person registering with a tenant as an external user
            (a customer or counterparty).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[ProblemDetails, RegistrationResponse]
    """

    return (
        await asyncio_detailed(
            tenant_id=tenant_id,
            client=client,
            body=body,
        )
    ).parsed
