from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SsoProvider")


@_attrs_define
class SsoProvider:
    """
    Attributes:
        callback_url (str): Register this address as the redirect URI at the provider.
        client_id (str):
        created_at (int):
        disabled (bool):
        display_name (str):
        email_domains (list[str]):
        has_client_secret (bool):
        issuer (str):
        name (str):
        provider_id (int):
        redirect_uris (list[str]):
        start_url (str): Where a sign-in starts (query: `return_to`, `state`, `login_hint`).
    """

    callback_url: str
    client_id: str
    created_at: int
    disabled: bool
    display_name: str
    email_domains: list[str]
    has_client_secret: bool
    issuer: str
    name: str
    provider_id: int
    redirect_uris: list[str]
    start_url: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        callback_url = self.callback_url

        client_id = self.client_id

        created_at = self.created_at

        disabled = self.disabled

        display_name = self.display_name

        email_domains = self.email_domains

        has_client_secret = self.has_client_secret

        issuer = self.issuer

        name = self.name

        provider_id = self.provider_id

        redirect_uris = self.redirect_uris

        start_url = self.start_url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "callbackUrl": callback_url,
                "clientId": client_id,
                "createdAt": created_at,
                "disabled": disabled,
                "displayName": display_name,
                "emailDomains": email_domains,
                "hasClientSecret": has_client_secret,
                "issuer": issuer,
                "name": name,
                "providerId": provider_id,
                "redirectUris": redirect_uris,
                "startUrl": start_url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        callback_url = d.pop("callbackUrl")

        client_id = d.pop("clientId")

        created_at = d.pop("createdAt")

        disabled = d.pop("disabled")

        display_name = d.pop("displayName")

        email_domains = cast(list[str], d.pop("emailDomains"))

        has_client_secret = d.pop("hasClientSecret")

        issuer = d.pop("issuer")

        name = d.pop("name")

        provider_id = d.pop("providerId")

        redirect_uris = cast(list[str], d.pop("redirectUris"))

        start_url = d.pop("startUrl")

        sso_provider = cls(
            callback_url=callback_url,
            client_id=client_id,
            created_at=created_at,
            disabled=disabled,
            display_name=display_name,
            email_domains=email_domains,
            has_client_secret=has_client_secret,
            issuer=issuer,
            name=name,
            provider_id=provider_id,
            redirect_uris=redirect_uris,
            start_url=start_url,
        )

        sso_provider.additional_properties = d
        return sso_provider

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
