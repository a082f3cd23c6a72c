from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="EmbeddingSettings")


@_attrs_define
class EmbeddingSettings:
    """What the organisation allows for embedding its signer pages in its own applications.

    Attributes:
        allowed_origins (list[str]):
        accent_color (Union[None, Unset, str]): The colour of the embedded pages' buttons and links, `#rrggbb`; none:
            Signet's own.
        logo (Union[None, Unset, str]): A logo shown at the top of the embedded pages: a PNG or JPEG of at most 100 KB,
            base64.
            None or empty: no logo.
    """

    allowed_origins: list[str]
    accent_color: Union[None, Unset, str] = UNSET
    logo: Union[None, Unset, str] = UNSET

    def to_dict(self) -> dict[str, Any]:
        allowed_origins = self.allowed_origins

        accent_color: Union[None, Unset, str]
        if isinstance(self.accent_color, Unset):
            accent_color = UNSET
        else:
            accent_color = self.accent_color

        logo: Union[None, Unset, str]
        if isinstance(self.logo, Unset):
            logo = UNSET
        else:
            logo = self.logo

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "allowedOrigins": allowed_origins,
            }
        )
        if accent_color is not UNSET:
            field_dict["accentColor"] = accent_color
        if logo is not UNSET:
            field_dict["logo"] = logo

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        allowed_origins = cast(list[str], d.pop("allowedOrigins"))

        def _parse_accent_color(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        accent_color = _parse_accent_color(d.pop("accentColor", UNSET))

        def _parse_logo(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        logo = _parse_logo(d.pop("logo", UNSET))

        embedding_settings = cls(
            allowed_origins=allowed_origins,
            accent_color=accent_color,
            logo=logo,
        )

        return embedding_settings
