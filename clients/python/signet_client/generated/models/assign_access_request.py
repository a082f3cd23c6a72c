from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.browser_info import BrowserInfo


T = TypeVar("T", bound="AssignAccessRequest")


@_attrs_define
class AssignAccessRequest:
    """Grants every listed menu entry to every listed user and department.

    Attributes:
        menu_ids (list[int]): 1 to 1000 menu entries of the tenant.
        browser_info (Union['BrowserInfo', None, Unset]):
        department_ids (Union[None, Unset, list[int]]): Up to 1000 ids of the tenant's active users (or departments);
            absent or null: none.
        subscriber_ids (Union[None, Unset, list[int]]): Up to 1000 ids of the tenant's active users (or departments);
            absent or null: none.
    """

    menu_ids: list[int]
    browser_info: Union["BrowserInfo", None, Unset] = UNSET
    department_ids: Union[None, Unset, list[int]] = UNSET
    subscriber_ids: Union[None, Unset, list[int]] = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.browser_info import BrowserInfo

        menu_ids = self.menu_ids

        browser_info: Union[None, Unset, dict[str, Any]]
        if isinstance(self.browser_info, Unset):
            browser_info = UNSET
        elif isinstance(self.browser_info, BrowserInfo):
            browser_info = self.browser_info.to_dict()
        else:
            browser_info = self.browser_info

        department_ids: Union[None, Unset, list[int]]
        if isinstance(self.department_ids, Unset):
            department_ids = UNSET
        elif isinstance(self.department_ids, list):
            department_ids = self.department_ids

        else:
            department_ids = self.department_ids

        subscriber_ids: Union[None, Unset, list[int]]
        if isinstance(self.subscriber_ids, Unset):
            subscriber_ids = UNSET
        elif isinstance(self.subscriber_ids, list):
            subscriber_ids = self.subscriber_ids

        else:
            subscriber_ids = self.subscriber_ids

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "menuIds": menu_ids,
            }
        )
        if browser_info is not UNSET:
            field_dict["browserInfo"] = browser_info
        if department_ids is not UNSET:
            field_dict["departmentIds"] = department_ids
        if subscriber_ids is not UNSET:
            field_dict["subscriberIds"] = subscriber_ids

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.browser_info import BrowserInfo

        d = dict(src_dict)
        menu_ids = cast(list[int], d.pop("menuIds"))

        def _parse_browser_info(data: object) -> Union["BrowserInfo", None, Unset]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                browser_info_type_0 = BrowserInfo.from_dict(data)

                return browser_info_type_0
            except:  # noqa: E722
                pass
            return cast(Union["BrowserInfo", None, Unset], data)

        browser_info = _parse_browser_info(d.pop("browserInfo", UNSET))

        def _parse_department_ids(data: object) -> Union[None, Unset, list[int]]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                department_ids_type_0 = cast(list[int], data)

                return department_ids_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, Unset, list[int]], data)

        department_ids = _parse_department_ids(d.pop("departmentIds", UNSET))

        def _parse_subscriber_ids(data: object) -> Union[None, Unset, list[int]]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                subscriber_ids_type_0 = cast(list[int], data)

                return subscriber_ids_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, Unset, list[int]], data)

        subscriber_ids = _parse_subscriber_ids(d.pop("subscriberIds", UNSET))

        assign_access_request = cls(
            menu_ids=menu_ids,
            browser_info=browser_info,
            department_ids=department_ids,
            subscriber_ids=subscriber_ids,
        )

        return assign_access_request
