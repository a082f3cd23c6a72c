from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="LegalHold")


@_attrs_define
class LegalHold:
    """A legal hold: neither the retention sweep nor an erasure request takes the workflow.

    Attributes:
        placed_at (int): Milliseconds since the Unix epoch.
        placed_by (str):
        reason (str):
        workflow_id (int):
    """

    placed_at: int
    placed_by: str
    reason: str
    workflow_id: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        placed_at = self.placed_at

        placed_by = self.placed_by

        reason = self.reason

        workflow_id = self.workflow_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "placedAt": placed_at,
                "placedBy": placed_by,
                "reason": reason,
                "workflowId": workflow_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        placed_at = d.pop("placedAt")

        placed_by = d.pop("placedBy")

        reason = d.pop("reason")

        workflow_id = d.pop("workflowId")

        legal_hold = cls(
            placed_at=placed_at,
            placed_by=placed_by,
            reason=reason,
            workflow_id=workflow_id,
        )

        legal_hold.additional_properties = d
        return legal_hold

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
