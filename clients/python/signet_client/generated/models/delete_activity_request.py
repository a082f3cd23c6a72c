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


T = TypeVar("T", bound="DeleteActivityRequest")


@_attrs_define
class DeleteActivityRequest:
    """
    Attributes:
        menu_id (int):
        browser_info (Union['BrowserInfo', None, Unset]):
    """

    menu_id: int
    browser_info: Union["BrowserInfo", None, Unset] = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.browser_info import BrowserInfo

        menu_id = self.menu_id

        browser_info: Union[None, Unset, dict[str, Any]]
        if isinstance(self.browser_info, Unset):
            browser_info = UNSET
        elif isinstance(self.browser_info, BrowserInfo):
            browser_info = self.browser_info.to_dict()
        else:
            browser_info = self.browser_info

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "menuId": menu_id,
            }
        )
        if browser_info is not UNSET:
            field_dict["browserInfo"] = browser_info

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.browser_info import BrowserInfo

        d = dict(src_dict)
        menu_id = d.pop("menuId")

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

        delete_activity_request = cls(
            menu_id=menu_id,
            browser_info=browser_info,
        )

        return delete_activity_request
