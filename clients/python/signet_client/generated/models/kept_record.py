from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="KeptRecord")


@_attrs_define
class KeptRecord:
    """A workflow the request kept, why, and until when.

    Attributes:
        reason (str): `in_progress`: still being signed; `legal_hold`: under a hold; `retention`: inside
            its retention period. Example: retention.
        workflow_id (int):
        workflow_name (str):
        until (Union[None, Unset, int]): Until when (milliseconds since the Unix epoch); absent while the reason lasts.
    """

    reason: str
    workflow_id: int
    workflow_name: str
    until: Union[None, Unset, int] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        reason = self.reason

        workflow_id = self.workflow_id

        workflow_name = self.workflow_name

        until: Union[None, Unset, int]
        if isinstance(self.until, Unset):
            until = UNSET
        else:
            until = self.until

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "reason": reason,
                "workflowId": workflow_id,
                "workflowName": workflow_name,
            }
        )
        if until is not UNSET:
            field_dict["until"] = until

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        reason = d.pop("reason")

        workflow_id = d.pop("workflowId")

        workflow_name = d.pop("workflowName")

        def _parse_until(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        until = _parse_until(d.pop("until", UNSET))

        kept_record = cls(
            reason=reason,
            workflow_id=workflow_id,
            workflow_name=workflow_name,
            until=until,
        )

        kept_record.additional_properties = d
        return kept_record

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
