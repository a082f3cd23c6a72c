from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="FreeTrialRequest")


@_attrs_define
class FreeTrialRequest:
    """A self-service trial sign-up.

    Attributes:
        email_id (str):
        name (str): The person's name, 1 to 150 characters.
        password (str): 12 to 150 characters, not containing the address, not among the commonest passwords.
        google_access_key (Union[None, Unset, str]): Not accepted (must be empty), as `microsoftAccessKey`.
        is_sso (Union[Unset, bool]): Sign-up through single sign-on: the provider `ssoProvider` proves the address
            instead of
            an e-mailed link; the answer's `redirectUrl` sends the person there. Absent: false.
        microsoft_access_key (Union[None, Unset, str]): Not accepted (must be empty): a token obtained elsewhere proves
            nothing to Signet; sign
            up through single sign-on with `isSSO` and `ssoProvider` instead.
        source (Union[None, Unset, str]): Where the person came from (a campaign), kept with the sign-up; at most 100
            characters.
        sso_provider (Union[None, Unset, str]): One of the installation's sign-up providers (`sso_signup_providers`),
            with `isSSO`.
    """

    email_id: str
    name: str
    password: str
    google_access_key: Union[None, Unset, str] = UNSET
    is_sso: Union[Unset, bool] = UNSET
    microsoft_access_key: Union[None, Unset, str] = UNSET
    source: Union[None, Unset, str] = UNSET
    sso_provider: Union[None, Unset, str] = UNSET

    def to_dict(self) -> dict[str, Any]:
        email_id = self.email_id

        name = self.name

        password = self.password

        google_access_key: Union[None, Unset, str]
        if isinstance(self.google_access_key, Unset):
            google_access_key = UNSET
        else:
            google_access_key = self.google_access_key

        is_sso = self.is_sso

        microsoft_access_key: Union[None, Unset, str]
        if isinstance(self.microsoft_access_key, Unset):
            microsoft_access_key = UNSET
        else:
            microsoft_access_key = self.microsoft_access_key

        source: Union[None, Unset, str]
        if isinstance(self.source, Unset):
            source = UNSET
        else:
            source = self.source

        sso_provider: Union[None, Unset, str]
        if isinstance(self.sso_provider, Unset):
            sso_provider = UNSET
        else:
            sso_provider = self.sso_provider

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "emailId": email_id,
                "name": name,
                "password": password,
            }
        )
        if google_access_key is not UNSET:
            field_dict["googleAccessKey"] = google_access_key
        if is_sso is not UNSET:
            field_dict["isSSO"] = is_sso
        if microsoft_access_key is not UNSET:
            field_dict["microsoftAccessKey"] = microsoft_access_key
        if source is not UNSET:
            field_dict["source"] = source
        if sso_provider is not UNSET:
            field_dict["ssoProvider"] = sso_provider

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        email_id = d.pop("emailId")

        name = d.pop("name")

        password = d.pop("password")

        def _parse_google_access_key(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        google_access_key = _parse_google_access_key(d.pop("googleAccessKey", UNSET))

        is_sso = d.pop("isSSO", UNSET)

        def _parse_microsoft_access_key(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        microsoft_access_key = _parse_microsoft_access_key(
            d.pop("microsoftAccessKey", UNSET)
        )

        def _parse_source(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        source = _parse_source(d.pop("source", UNSET))

        def _parse_sso_provider(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        sso_provider = _parse_sso_provider(d.pop("ssoProvider", UNSET))

        free_trial_request = cls(
            email_id=email_id,
            name=name,
            password=password,
            google_access_key=google_access_key,
            is_sso=is_sso,
            microsoft_access_key=microsoft_access_key,
            source=source,
            sso_provider=sso_provider,
        )

        return free_trial_request
