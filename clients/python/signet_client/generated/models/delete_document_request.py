from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="DeleteDocumentRequest")


@_attrs_define
class DeleteDocumentRequest:
    """
    Attributes:
        ip_address (Union[None, Unset, str]):
        is_workflow (Union[Unset, bool]):
        os_browser (Union[None, Unset, str]):
        workflow_id (Union[Unset, int]):
    """

    ip_address: Union[None, Unset, str] = UNSET
    is_workflow: Union[Unset, bool] = UNSET
    os_browser: Union[None, Unset, str] = UNSET
    workflow_id: Union[Unset, int] = UNSET

    def to_dict(self) -> dict[str, Any]:
        ip_address: Union[None, Unset, str]
        if isinstance(self.ip_address, Unset):
            ip_address = UNSET
        else:
            ip_address = self.ip_address

        is_workflow = self.is_workflow

        os_browser: Union[None, Unset, str]
        if isinstance(self.os_browser, Unset):
            os_browser = UNSET
        else:
            os_browser = self.os_browser

        workflow_id = self.workflow_id

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if ip_address is not UNSET:
            field_dict["ipAddress"] = ip_address
        if is_workflow is not UNSET:
            field_dict["isWorkflow"] = is_workflow
        if os_browser is not UNSET:
            field_dict["osBrowser"] = os_browser
        if workflow_id is not UNSET:
            field_dict["workflowId"] = workflow_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_ip_address(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        ip_address = _parse_ip_address(d.pop("ipAddress", UNSET))

        is_workflow = d.pop("isWorkflow", UNSET)

        def _parse_os_browser(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        os_browser = _parse_os_browser(d.pop("osBrowser", UNSET))

        workflow_id = d.pop("workflowId", UNSET)

        delete_document_request = cls(
            ip_address=ip_address,
            is_workflow=is_workflow,
            os_browser=os_browser,
            workflow_id=workflow_id,
        )

        return delete_document_request
