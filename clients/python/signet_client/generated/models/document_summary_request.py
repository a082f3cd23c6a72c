from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="DocumentSummaryRequest")


@_attrs_define
class DocumentSummaryRequest:
    """
    Attributes:
        document_id (Union[Unset, int]):
        workflow_id (Union[Unset, int]):
    """

    document_id: Union[Unset, int] = UNSET
    workflow_id: Union[Unset, int] = UNSET

    def to_dict(self) -> dict[str, Any]:
        document_id = self.document_id

        workflow_id = self.workflow_id

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if document_id is not UNSET:
            field_dict["documentId"] = document_id
        if workflow_id is not UNSET:
            field_dict["workflowId"] = workflow_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        document_id = d.pop("documentId", UNSET)

        workflow_id = d.pop("workflowId", UNSET)

        document_summary_request = cls(
            document_id=document_id,
            workflow_id=workflow_id,
        )

        return document_summary_request
