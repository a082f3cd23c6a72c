from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="SsoProviderRequest")


@_attrs_define
class SsoProviderRequest:
    """
    Attributes:
        client_id (str): The client id Signet is registered with at the provider.
        display_name (str): What the sign-in button says ("Bank staff login").
        email_domains (list[str]): The e-mail domains whose addresses sign in through this provider; each must be the
            domain of a user of the tenant, served by no other provider of the tenant and proven by
            no other tenant. The provider serves a domain once the tenant has proven it
            (`/api/v1/sso-providers/domain-proofs/{domain}`).
        issuer (str): The provider's issuer identifier; Signet reads `<issuer>/.well-known/openid-configuration`
            now and refuses an issuer whose document it cannot fetch or use.
        name (str): Short name, unique in the tenant: lower-case letters, digits and hyphens.
        client_secret (Union[None, Unset, str]): The client secret (`client_secret_basic`); none for a public client
            (PKCE only). Kept
            sealed; never shown again. When a saved provider is changed, leaving it out (or null)
            keeps the saved secret and an empty string removes it (a public client from then on).
        redirect_uris (Union[None, Unset, list[str]]): Application addresses a finished sign-in may return to with its
            one-time code (exact
            match); the first is the default. Paths on Signet itself are always allowed.
    """

    client_id: str
    display_name: str
    email_domains: list[str]
    issuer: str
    name: str
    client_secret: Union[None, Unset, str] = UNSET
    redirect_uris: Union[None, Unset, list[str]] = UNSET

    def to_dict(self) -> dict[str, Any]:
        client_id = self.client_id

        display_name = self.display_name

        email_domains = self.email_domains

        issuer = self.issuer

        name = self.name

        client_secret: Union[None, Unset, str]
        if isinstance(self.client_secret, Unset):
            client_secret = UNSET
        else:
            client_secret = self.client_secret

        redirect_uris: Union[None, Unset, list[str]]
        if isinstance(self.redirect_uris, Unset):
            redirect_uris = UNSET
        elif isinstance(self.redirect_uris, list):
            redirect_uris = self.redirect_uris

        else:
            redirect_uris = self.redirect_uris

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "clientId": client_id,
                "displayName": display_name,
                "emailDomains": email_domains,
                "issuer": issuer,
                "name": name,
            }
        )
        if client_secret is not UNSET:
            field_dict["clientSecret"] = client_secret
        if redirect_uris is not UNSET:
            field_dict["redirectUris"] = redirect_uris

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        client_id = d.pop("clientId")

        display_name = d.pop("displayName")

        email_domains = cast(list[str], d.pop("emailDomains"))

        issuer = d.pop("issuer")

        name = d.pop("name")

        def _parse_client_secret(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        client_secret = _parse_client_secret(d.pop("clientSecret", UNSET))

        def _parse_redirect_uris(data: object) -> Union[None, Unset, list[str]]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                redirect_uris_type_0 = cast(list[str], data)

                return redirect_uris_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, Unset, list[str]], data)

        redirect_uris = _parse_redirect_uris(d.pop("redirectUris", UNSET))

        sso_provider_request = cls(
            client_id=client_id,
            display_name=display_name,
            email_domains=email_domains,
            issuer=issuer,
            name=name,
            client_secret=client_secret,
            redirect_uris=redirect_uris,
        )

        return sso_provider_request
