from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="EmbedUrl")


@_attrs_define
class EmbedUrl:
    """A signatory's embed address.

    Attributes:
        expires_at (int): When the address stops opening: milliseconds since the Unix epoch (five minutes on).
        url (str): The address to frame (`<signet-signing src="...">` or an iframe's `src`). It opens only
            inside a page of the origin asked for, and only until `expiresAt`; once open, the page
            keeps working for an hour.
    """

    expires_at: int
    url: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        expires_at = self.expires_at

        url = self.url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "expiresAt": expires_at,
                "url": url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        expires_at = d.pop("expiresAt")

        url = d.pop("url")

        embed_url = cls(
            expires_at=expires_at,
            url=url,
        )

        embed_url.additional_properties = d
        return embed_url

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
