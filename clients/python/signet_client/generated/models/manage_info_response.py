from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.external_login_provider import ExternalLoginProvider


T = TypeVar("T", bound="ManageInfoResponse")


@_attrs_define
class ManageInfoResponse:
    """How the signed-in user signs in: their local login and any linked external ones.

    Attributes:
        has_password (bool):
        email (Union[None, Unset, str]):
        external_login_providers (Union[None, Unset, list['ExternalLoginProvider']]): The single sign-on providers the
            account is linked to.
        local_login_provider (Union[None, Unset, str]): `password` or `email_otp` (null when the user signs in only
            through SSO).
    """

    has_password: bool
    email: Union[None, Unset, str] = UNSET
    external_login_providers: Union[None, Unset, list["ExternalLoginProvider"]] = UNSET
    local_login_provider: Union[None, Unset, str] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        has_password = self.has_password

        email: Union[None, Unset, str]
        if isinstance(self.email, Unset):
            email = UNSET
        else:
            email = self.email

        external_login_providers: Union[None, Unset, list[dict[str, Any]]]
        if isinstance(self.external_login_providers, Unset):
            external_login_providers = UNSET
        elif isinstance(self.external_login_providers, list):
            external_login_providers = []
            for (
                external_login_providers_type_0_item_data
            ) in self.external_login_providers:
                external_login_providers_type_0_item = (
                    external_login_providers_type_0_item_data.to_dict()
                )
                external_login_providers.append(external_login_providers_type_0_item)

        else:
            external_login_providers = self.external_login_providers

        local_login_provider: Union[None, Unset, str]
        if isinstance(self.local_login_provider, Unset):
            local_login_provider = UNSET
        else:
            local_login_provider = self.local_login_provider

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "hasPassword": has_password,
            }
        )
        if email is not UNSET:
            field_dict["email"] = email
        if external_login_providers is not UNSET:
            field_dict["externalLoginProviders"] = external_login_providers
        if local_login_provider is not UNSET:
            field_dict["localLoginProvider"] = local_login_provider

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.external_login_provider import ExternalLoginProvider

        d = dict(src_dict)
        has_password = d.pop("hasPassword")

        def _parse_email(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        email = _parse_email(d.pop("email", UNSET))

        def _parse_external_login_providers(
            data: object,
        ) -> Union[None, Unset, list["ExternalLoginProvider"]]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                external_login_providers_type_0 = []
                _external_login_providers_type_0 = data
                for (
                    external_login_providers_type_0_item_data
                ) in _external_login_providers_type_0:
                    external_login_providers_type_0_item = (
                        ExternalLoginProvider.from_dict(
                            external_login_providers_type_0_item_data
                        )
                    )

                    external_login_providers_type_0.append(
                        external_login_providers_type_0_item
                    )

                return external_login_providers_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, Unset, list["ExternalLoginProvider"]], data)

        external_login_providers = _parse_external_login_providers(
            d.pop("externalLoginProviders", UNSET)
        )

        def _parse_local_login_provider(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        local_login_provider = _parse_local_login_provider(
            d.pop("localLoginProvider", UNSET)
        )

        manage_info_response = cls(
            has_password=has_password,
            email=email,
            external_login_providers=external_login_providers,
            local_login_provider=local_login_provider,
        )

        manage_info_response.additional_properties = d
        return manage_info_response

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
