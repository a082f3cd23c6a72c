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


T = TypeVar("T", bound="DisableUserRequest")


@_attrs_define
class DisableUserRequest:
    """
    Attributes:
        user_id (int):
        browser_info (Union['BrowserInfo', None, Unset]):
        force_disable_with_workflow (Union[None, Unset, bool]): Disable even with workflows in progress: those become
            inactive (cancelled).
    """

    user_id: int
    browser_info: Union["BrowserInfo", None, Unset] = UNSET
    force_disable_with_workflow: Union[None, Unset, bool] = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.browser_info import BrowserInfo

        user_id = self.user_id

        browser_info: Union[None, Unset, dict[str, Any]]
        if isinstance(self.browser_info, Unset):
            browser_info = UNSET
        elif isinstance(self.browser_info, BrowserInfo):
            browser_info = self.browser_info.to_dict()
        else:
            browser_info = self.browser_info

        force_disable_with_workflow: Union[None, Unset, bool]
        if isinstance(self.force_disable_with_workflow, Unset):
            force_disable_with_workflow = UNSET
        else:
            force_disable_with_workflow = self.force_disable_with_workflow

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "userId": user_id,
            }
        )
        if browser_info is not UNSET:
            field_dict["browserInfo"] = browser_info
        if force_disable_with_workflow is not UNSET:
            field_dict["forceDisableWithWorkflow"] = force_disable_with_workflow

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.browser_info import BrowserInfo

        d = dict(src_dict)
        user_id = d.pop("userId")

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

        def _parse_force_disable_with_workflow(
            data: object,
        ) -> Union[None, Unset, bool]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, bool], data)

        force_disable_with_workflow = _parse_force_disable_with_workflow(
            d.pop("forceDisableWithWorkflow", UNSET)
        )

        disable_user_request = cls(
            user_id=user_id,
            browser_info=browser_info,
            force_disable_with_workflow=force_disable_with_workflow,
        )

        return disable_user_request
