from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="TokenRevoked")


@_attrs_define
class TokenRevoked:
    """RFC 7009's answer carries nothing: an empty JSON object."""

    def to_dict(self) -> dict[str, Any]:
        field_dict: dict[str, Any] = {}

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        token_revoked = cls()

        return token_revoked
