from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="GetInternalUsersRequest")


@_attrs_define
class GetInternalUsersRequest:
    """The spec's staff-user search.

    Attributes:
        is_active (Union[None, Unset, bool]): Only active users (`true`) or only users who are not (`false`).
        page_number (Union[None, Unset, int]):
        page_size (Union[None, Unset, int]): 1 to 100; default 20.
        search_text (Union[None, Unset, str]): Case-insensitive substring of the name or e-mail address.
        sort_by (Union[None, Unset, str]): `id` (default), `name`, `email`, `createdAt` or `status`, in any case.
        sort_direction (Union[None, Unset, str]): `asc` (default) or `desc`, in any case.
        status (Union[None, Unset, str]): A status (`active`, `inactive`, `disabled`, `pending`, `rejected`, `deleted`),
            in any case.
        status_of_user (Union[None, Unset, str]): A status (`active`, `inactive`, `disabled`, `pending`, `rejected`,
            `deleted`), in any case.
    """

    is_active: Union[None, Unset, bool] = UNSET
    page_number: Union[None, Unset, int] = UNSET
    page_size: Union[None, Unset, int] = UNSET
    search_text: Union[None, Unset, str] = UNSET
    sort_by: Union[None, Unset, str] = UNSET
    sort_direction: Union[None, Unset, str] = UNSET
    status: Union[None, Unset, str] = UNSET
    status_of_user: Union[None, Unset, str] = UNSET

    def to_dict(self) -> dict[str, Any]:
        is_active: Union[None, Unset, bool]
        if isinstance(self.is_active, Unset):
            is_active = UNSET
        else:
            is_active = self.is_active

        page_number: Union[None, Unset, int]
        if isinstance(self.page_number, Unset):
            page_number = UNSET
        else:
            page_number = self.page_number

        page_size: Union[None, Unset, int]
        if isinstance(self.page_size, Unset):
            page_size = UNSET
        else:
            page_size = self.page_size

        search_text: Union[None, Unset, str]
        if isinstance(self.search_text, Unset):
            search_text = UNSET
        else:
            search_text = self.search_text

        sort_by: Union[None, Unset, str]
        if isinstance(self.sort_by, Unset):
            sort_by = UNSET
        else:
            sort_by = self.sort_by

        sort_direction: Union[None, Unset, str]
        if isinstance(self.sort_direction, Unset):
            sort_direction = UNSET
        else:
            sort_direction = self.sort_direction

        status: Union[None, Unset, str]
        if isinstance(self.status, Unset):
            status = UNSET
        else:
            status = self.status

        status_of_user: Union[None, Unset, str]
        if isinstance(self.status_of_user, Unset):
            status_of_user = UNSET
        else:
            status_of_user = self.status_of_user

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if is_active is not UNSET:
            field_dict["isActive"] = is_active
        if page_number is not UNSET:
            field_dict["pageNumber"] = page_number
        if page_size is not UNSET:
            field_dict["pageSize"] = page_size
        if search_text is not UNSET:
            field_dict["searchText"] = search_text
        if sort_by is not UNSET:
            field_dict["sortBy"] = sort_by
        if sort_direction is not UNSET:
            field_dict["sortDirection"] = sort_direction
        if status is not UNSET:
            field_dict["status"] = status
        if status_of_user is not UNSET:
            field_dict["statusOfUser"] = status_of_user

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_is_active(data: object) -> Union[None, Unset, bool]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, bool], data)

        is_active = _parse_is_active(d.pop("isActive", UNSET))

        def _parse_page_number(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        page_number = _parse_page_number(d.pop("pageNumber", UNSET))

        def _parse_page_size(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        page_size = _parse_page_size(d.pop("pageSize", UNSET))

        def _parse_search_text(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        search_text = _parse_search_text(d.pop("searchText", UNSET))

        def _parse_sort_by(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        sort_by = _parse_sort_by(d.pop("sortBy", UNSET))

        def _parse_sort_direction(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        sort_direction = _parse_sort_direction(d.pop("sortDirection", UNSET))

        def _parse_status(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        status = _parse_status(d.pop("status", UNSET))

        def _parse_status_of_user(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        status_of_user = _parse_status_of_user(d.pop("statusOfUser", UNSET))

        get_internal_users_request = cls(
            is_active=is_active,
            page_number=page_number,
            page_size=page_size,
            search_text=search_text,
            sort_by=sort_by,
            sort_direction=sort_direction,
            status=status,
            status_of_user=status_of_user,
        )

        return get_internal_users_request
