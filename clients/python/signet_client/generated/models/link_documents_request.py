from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="LinkDocumentsRequest")


@_attrs_define
class LinkDocumentsRequest:
    """
    Attributes:
        linked_workflow_ids (Union[None, Unset, list[int]]):
        workflow_id (Union[Unset, int]):
    """

    linked_workflow_ids: Union[None, Unset, list[int]] = UNSET
    workflow_id: Union[Unset, int] = UNSET

    def to_dict(self) -> dict[str, Any]:
        linked_workflow_ids: Union[None, Unset, list[int]]
        if isinstance(self.linked_workflow_ids, Unset):
            linked_workflow_ids = UNSET
        elif isinstance(self.linked_workflow_ids, list):
            linked_workflow_ids = self.linked_workflow_ids

        else:
            linked_workflow_ids = self.linked_workflow_ids

        workflow_id = self.workflow_id

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if linked_workflow_ids is not UNSET:
            field_dict["linkedWorkflowIds"] = linked_workflow_ids
        if workflow_id is not UNSET:
            field_dict["workflowId"] = workflow_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_linked_workflow_ids(data: object) -> Union[None, Unset, list[int]]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                linked_workflow_ids_type_0 = cast(list[int], data)

                return linked_workflow_ids_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, Unset, list[int]], data)

        linked_workflow_ids = _parse_linked_workflow_ids(
            d.pop("linkedWorkflowIds", UNSET)
        )

        workflow_id = d.pop("workflowId", UNSET)

        link_documents_request = cls(
            linked_workflow_ids=linked_workflow_ids,
            workflow_id=workflow_id,
        )

        return link_documents_request
