from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="SsoSettings")


@_attrs_define
class SsoSettings:
    """The tenant's single sign-on settings.

    Attributes:
        replaces_second_factor (bool): Whether a sign-in through the tenant's provider stands in for the user's second
            factor
            (authenticator app). Default `false`: users with an authenticator app give its code
            after the provider too. Administrators give it anyway unless their provider asserts a
            multi-factor sign-in (the ID token's `amr`). Only administrators change it.
    """

    replaces_second_factor: bool

    def to_dict(self) -> dict[str, Any]:
        replaces_second_factor = self.replaces_second_factor

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "replacesSecondFactor": replaces_second_factor,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        replaces_second_factor = d.pop("replacesSecondFactor")

        sso_settings = cls(
            replaces_second_factor=replaces_second_factor,
        )

        return sso_settings
