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


T = TypeVar("T", bound="MarkDocumentInactiveRequest")


@_attrs_define
class MarkDocumentInactiveRequest:
    """
    Attributes:
        browser_info (Union['BrowserInfo', None, Unset]):
        document_id (Union[Unset, int]):
        force_inactive (Union[Unset, bool]):
        reason (Union[None, Unset, str]): At most 500 characters, no control characters.
    """

    browser_info: Union["BrowserInfo", None, Unset] = UNSET
    document_id: Union[Unset, int] = UNSET
    force_inactive: Union[Unset, bool] = UNSET
    reason: Union[None, Unset, str] = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.browser_info import BrowserInfo

        browser_info: Union[None, Unset, dict[str, Any]]
        if isinstance(self.browser_info, Unset):
            browser_info = UNSET
        elif isinstance(self.browser_info, BrowserInfo):
            browser_info = self.browser_info.to_dict()
        else:
            browser_info = self.browser_info

        document_id = self.document_id

        force_inactive = self.force_inactive

        reason: Union[None, Unset, str]
        if isinstance(self.reason, Unset):
            reason = UNSET
        else:
            reason = self.reason

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if browser_info is not UNSET:
            field_dict["browserInfo"] = browser_info
        if document_id is not UNSET:
            field_dict["documentId"] = document_id
        if force_inactive is not UNSET:
            field_dict["forceInactive"] = force_inactive
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.browser_info import BrowserInfo

        d = dict(src_dict)

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

        document_id = d.pop("documentId", UNSET)

        force_inactive = d.pop("forceInactive", UNSET)

        def _parse_reason(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        reason = _parse_reason(d.pop("reason", UNSET))

        mark_document_inactive_request = cls(
            browser_info=browser_info,
            document_id=document_id,
            force_inactive=force_inactive,
            reason=reason,
        )

        return mark_document_inactive_request
