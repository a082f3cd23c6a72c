from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.external_login_provider import ExternalLoginProvider


T = TypeVar("T", bound="UserLoginModes")


@_attrs_define
class UserLoginModes:
    """How an address may sign in: the same for every address, so nothing tells whether an
    account exists; a user's own mode is enforced when they sign in.

        Attributes:
            email_id (str):
            external_login_providers (list['ExternalLoginProvider']): The single sign-on provider serving the address's
                domain (at most one): `url` starts
                the sign-in (add `return_to` and `state` as the application needs).
            login_modes (list[str]): `password` and `email_otp`, and `sso` when a provider serves the address's domain.
    """

    email_id: str
    external_login_providers: list["ExternalLoginProvider"]
    login_modes: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        email_id = self.email_id

        external_login_providers = []
        for external_login_providers_item_data in self.external_login_providers:
            external_login_providers_item = external_login_providers_item_data.to_dict()
            external_login_providers.append(external_login_providers_item)

        login_modes = self.login_modes

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "emailId": email_id,
                "externalLoginProviders": external_login_providers,
                "loginModes": login_modes,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.external_login_provider import ExternalLoginProvider

        d = dict(src_dict)
        email_id = d.pop("emailId")

        external_login_providers = []
        _external_login_providers = d.pop("externalLoginProviders")
        for external_login_providers_item_data in _external_login_providers:
            external_login_providers_item = ExternalLoginProvider.from_dict(
                external_login_providers_item_data
            )

            external_login_providers.append(external_login_providers_item)

        login_modes = cast(list[str], d.pop("loginModes"))

        user_login_modes = cls(
            email_id=email_id,
            external_login_providers=external_login_providers,
            login_modes=login_modes,
        )

        user_login_modes.additional_properties = d
        return user_login_modes

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
