from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="MapCategoryRequest")


@_attrs_define
class MapCategoryRequest:
    """
    Attributes:
        category_id (Union[Unset, int]):
        document_id (Union[Unset, int]):
        workflow_id (Union[Unset, int]):
    """

    category_id: Union[Unset, int] = UNSET
    document_id: Union[Unset, int] = UNSET
    workflow_id: Union[Unset, int] = UNSET

    def to_dict(self) -> dict[str, Any]:
        category_id = self.category_id

        document_id = self.document_id

        workflow_id = self.workflow_id

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if category_id is not UNSET:
            field_dict["categoryId"] = category_id
        if document_id is not UNSET:
            field_dict["documentId"] = document_id
        if workflow_id is not UNSET:
            field_dict["workflowId"] = workflow_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        category_id = d.pop("categoryId", UNSET)

        document_id = d.pop("documentId", UNSET)

        workflow_id = d.pop("workflowId", UNSET)

        map_category_request = cls(
            category_id=category_id,
            document_id=document_id,
            workflow_id=workflow_id,
        )

        return map_category_request
