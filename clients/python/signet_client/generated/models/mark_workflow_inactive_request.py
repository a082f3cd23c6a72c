from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="MarkWorkflowInactiveRequest")


@_attrs_define
class MarkWorkflowInactiveRequest:
    """
    Attributes:
        workflowid (Union[Unset, int]):
    """

    workflowid: Union[Unset, int] = UNSET

    def to_dict(self) -> dict[str, Any]:
        workflowid = self.workflowid

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if workflowid is not UNSET:
            field_dict["workflowid"] = workflowid

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        workflowid = d.pop("workflowid", UNSET)

        mark_workflow_inactive_request = cls(
            workflowid=workflowid,
        )

        return mark_workflow_inactive_request
