from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="EmbedRequest")


@_attrs_define
class EmbedRequest:
    """For which page an embed address is asked.

    Attributes:
        origin (str): A web origin: http:// or https://, a host (or [IPv6]) and an optional port, nothing after it.
    """

    origin: str

    def to_dict(self) -> dict[str, Any]:
        origin = self.origin

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "origin": origin,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        origin = d.pop("origin")

        embed_request = cls(
            origin=origin,
        )

        return embed_request
