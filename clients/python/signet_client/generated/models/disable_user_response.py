from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="DisableUserResponse")


@_attrs_define
class DisableUserResponse:
    """
    Attributes:
        cancelled_workflow_ids (list[int]): Workflows that were in progress and are now inactive.
    """

    cancelled_workflow_ids: list[int]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        cancelled_workflow_ids = self.cancelled_workflow_ids

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "cancelledWorkflowIds": cancelled_workflow_ids,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        cancelled_workflow_ids = cast(list[int], d.pop("cancelledWorkflowIds"))

        disable_user_response = cls(
            cancelled_workflow_ids=cancelled_workflow_ids,
        )

        disable_user_response.additional_properties = d
        return disable_user_response

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
