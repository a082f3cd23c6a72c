from http import HTTPStatus
from typing import Any, Optional, Union

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.list_workflows_state import ListWorkflowsState
from ...models.problem_details import ProblemDetails
from ...models.workflow_page import WorkflowPage
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    page_number: Union[Unset, int] = UNSET,
    page_size: Union[Unset, int] = UNSET,
    state: Union[Unset, ListWorkflowsState] = UNSET,
    search_text: Union[Unset, str] = UNSET,
) -> dict[str, Any]:
    params: dict[str, Any] = {}

    params["pageNumber"] = page_number

    params["pageSize"] = page_size

    json_state: Union[Unset, str] = UNSET
    if not isinstance(state, Unset):
        json_state = state.value

    params["state"] = json_state

    params["searchText"] = search_text

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/workflows",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: Union[AuthenticatedClient, Client], response: httpx.Response
) -> Optional[Union[ProblemDetails, WorkflowPage]]:
    if response.status_code == 200:
        response_200 = WorkflowPage.from_dict(response.json())

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
) -> Response[Union[ProblemDetails, WorkflowPage]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    page_number: Union[Unset, int] = UNSET,
    page_size: Union[Unset, int] = UNSET,
    state: Union[Unset, ListWorkflowsState] = UNSET,
    search_text: Union[Unset, str] = UNSET,
) -> Response[Union[ProblemDetails, WorkflowPage]]:
    """
    Args:
        page_number (Union[Unset, int]):
        page_size (Union[Unset, int]):
        state (Union[Unset, ListWorkflowsState]): One state: in_progress, completed, declined,
            expired, inactive.
        search_text (Union[Unset, str]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[ProblemDetails, WorkflowPage]]
    """

    kwargs = _get_kwargs(
        page_number=page_number,
        page_size=page_size,
        state=state,
        search_text=search_text,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    page_number: Union[Unset, int] = UNSET,
    page_size: Union[Unset, int] = UNSET,
    state: Union[Unset, ListWorkflowsState] = UNSET,
    search_text: Union[Unset, str] = UNSET,
) -> Optional[Union[ProblemDetails, WorkflowPage]]:
    """
    Args:
        page_number (Union[Unset, int]):
        page_size (Union[Unset, int]):
        state (Union[Unset, ListWorkflowsState]): One state: in_progress, completed, declined,
            expired, inactive.
        search_text (Union[Unset, str]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[ProblemDetails, WorkflowPage]
    """

    return sync_detailed(
        client=client,
        page_number=page_number,
        page_size=page_size,
        state=state,
        search_text=search_text,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    page_number: Union[Unset, int] = UNSET,
    page_size: Union[Unset, int] = UNSET,
    state: Union[Unset, ListWorkflowsState] = UNSET,
    search_text: Union[Unset, str] = UNSET,
) -> Response[Union[ProblemDetails, WorkflowPage]]:
    """
    Args:
        page_number (Union[Unset, int]):
        page_size (Union[Unset, int]):
        state (Union[Unset, ListWorkflowsState]): One state: in_progress, completed, declined,
            expired, inactive.
        search_text (Union[Unset, str]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Union[ProblemDetails, WorkflowPage]]
    """

    kwargs = _get_kwargs(
        page_number=page_number,
        page_size=page_size,
        state=state,
        search_text=search_text,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    page_number: Union[Unset, int] = UNSET,
    page_size: Union[Unset, int] = UNSET,
    state: Union[Unset, ListWorkflowsState] = UNSET,
    search_text: Union[Unset, str] = UNSET,
) -> Optional[Union[ProblemDetails, WorkflowPage]]:
    """
    Args:
        page_number (Union[Unset, int]):
        page_size (Union[Unset, int]):
        state (Union[Unset, ListWorkflowsState]): One state: in_progress, completed, declined,
            expired, inactive.
        search_text (Union[Unset, str]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Union[ProblemDetails, WorkflowPage]
    """

    return (
        await asyncio_detailed(
            client=client,
            page_number=page_number,
            page_size=page_size,
            state=state,
            search_text=search_text,
        )
    ).parsed
