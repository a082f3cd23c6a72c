from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="DeclineWorkflowRequest")


@_attrs_define
class DeclineWorkflowRequest:
    """
    Attributes:
        reason (Union[None, Unset, str]): At most 500 characters, no control characters.
        workflow_id (Union[Unset, int]): The workflow id of the address.
    """

    reason: Union[None, Unset, str] = UNSET
    workflow_id: Union[Unset, int] = UNSET

    def to_dict(self) -> dict[str, Any]:
        reason: Union[None, Unset, str]
        if isinstance(self.reason, Unset):
            reason = UNSET
        else:
            reason = self.reason

        workflow_id = self.workflow_id

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if reason is not UNSET:
            field_dict["reason"] = reason
        if workflow_id is not UNSET:
            field_dict["workflowId"] = workflow_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_reason(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        reason = _parse_reason(d.pop("reason", UNSET))

        workflow_id = d.pop("workflowId", UNSET)

        decline_workflow_request = cls(
            reason=reason,
            workflow_id=workflow_id,
        )

        return decline_workflow_request
