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


T = TypeVar("T", bound="DocumentDownloadRequest")


@_attrs_define
class DocumentDownloadRequest:
    """
    Attributes:
        workflowid (int):
        browser_info (Union['BrowserInfo', None, Unset]):
        document_id (Union[Unset, int]): One document of the workflow; 0 or absent with `isMerged` or a single document.
        is_merged (Union[Unset, bool]): All documents in one PDF: the completion certificate with every signed document
            attached unchanged (so each signature stays valid).
        reference_no (Union[None, Unset, str]):
    """

    workflowid: int
    browser_info: Union["BrowserInfo", None, Unset] = UNSET
    document_id: Union[Unset, int] = UNSET
    is_merged: Union[Unset, bool] = UNSET
    reference_no: Union[None, Unset, str] = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.browser_info import BrowserInfo

        workflowid = self.workflowid

        browser_info: Union[None, Unset, dict[str, Any]]
        if isinstance(self.browser_info, Unset):
            browser_info = UNSET
        elif isinstance(self.browser_info, BrowserInfo):
            browser_info = self.browser_info.to_dict()
        else:
            browser_info = self.browser_info

        document_id = self.document_id

        is_merged = self.is_merged

        reference_no: Union[None, Unset, str]
        if isinstance(self.reference_no, Unset):
            reference_no = UNSET
        else:
            reference_no = self.reference_no

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "workflowid": workflowid,
            }
        )
        if browser_info is not UNSET:
            field_dict["browserInfo"] = browser_info
        if document_id is not UNSET:
            field_dict["documentId"] = document_id
        if is_merged is not UNSET:
            field_dict["isMerged"] = is_merged
        if reference_no is not UNSET:
            field_dict["referenceNo"] = reference_no

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.browser_info import BrowserInfo

        d = dict(src_dict)
        workflowid = d.pop("workflowid")

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

        is_merged = d.pop("isMerged", UNSET)

        def _parse_reference_no(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        reference_no = _parse_reference_no(d.pop("referenceNo", UNSET))

        document_download_request = cls(
            workflowid=workflowid,
            browser_info=browser_info,
            document_id=document_id,
            is_merged=is_merged,
            reference_no=reference_no,
        )

        return document_download_request
