from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="LegalHoldRequest")


@_attrs_define
class LegalHoldRequest:
    """Why a workflow is held.

    Attributes:
        reason (str): At least one character that is not a space.
    """

    reason: str

    def to_dict(self) -> dict[str, Any]:
        reason = self.reason

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        reason = d.pop("reason")

        legal_hold_request = cls(
            reason=reason,
        )

        return legal_hold_request
