from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="CreateAuthtokenRequest")


@_attrs_define
class CreateAuthtokenRequest:
    """
    Attributes:
        label (str): What the token is for, e.g. the integrating system's name (1 to 100 characters, trimmed,
            no control characters).
    """

    label: str

    def to_dict(self) -> dict[str, Any]:
        label = self.label

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "label": label,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        label = d.pop("label")

        create_authtoken_request = cls(
            label=label,
        )

        return create_authtoken_request
