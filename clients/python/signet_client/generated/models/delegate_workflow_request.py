from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="DelegateWorkflowRequest")


@_attrs_define
class DelegateWorkflowRequest:
    """
    Attributes:
        delegated_user_email (str):
        reason (str): 1 to 500 characters (trimmed), no control characters.
        workflow_id (int): The workflow id of the address.
    """

    delegated_user_email: str
    reason: str
    workflow_id: int

    def to_dict(self) -> dict[str, Any]:
        delegated_user_email = self.delegated_user_email

        reason = self.reason

        workflow_id = self.workflow_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "delegatedUserEmail": delegated_user_email,
                "reason": reason,
                "workflowId": workflow_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        delegated_user_email = d.pop("delegatedUserEmail")

        reason = d.pop("reason")

        workflow_id = d.pop("workflowId")

        delegate_workflow_request = cls(
            delegated_user_email=delegated_user_email,
            reason=reason,
            workflow_id=workflow_id,
        )

        return delegate_workflow_request
