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

T = TypeVar("T", bound="AuditVerification")


@_attrs_define
class AuditVerification:
    """
    Attributes:
        entries (int):
        intact (bool):
        broken_at (Union[None, Unset, int]): The first entry that fails, when the chain is broken.
        reason (Union[None, Unset, str]):
    """

    entries: int
    intact: bool
    broken_at: Union[None, Unset, int] = UNSET
    reason: Union[None, Unset, str] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        entries = self.entries

        intact = self.intact

        broken_at: Union[None, Unset, int]
        if isinstance(self.broken_at, Unset):
            broken_at = UNSET
        else:
            broken_at = self.broken_at

        reason: Union[None, Unset, str]
        if isinstance(self.reason, Unset):
            reason = UNSET
        else:
            reason = self.reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "entries": entries,
                "intact": intact,
            }
        )
        if broken_at is not UNSET:
            field_dict["brokenAt"] = broken_at
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        entries = d.pop("entries")

        intact = d.pop("intact")

        def _parse_broken_at(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        broken_at = _parse_broken_at(d.pop("brokenAt", UNSET))

        def _parse_reason(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        reason = _parse_reason(d.pop("reason", UNSET))

        audit_verification = cls(
            entries=entries,
            intact=intact,
            broken_at=broken_at,
            reason=reason,
        )

        audit_verification.additional_properties = d
        return audit_verification

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
