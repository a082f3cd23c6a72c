from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="TotpEnrolment")


@_attrs_define
class TotpEnrolment:
    """A new second-factor secret, shown once: scan `otpauthUri` (or type `secret`) into an
    authenticator app, then confirm with a code.

        Attributes:
            otpauth_uri (str):
            secret (str): Base32, for typing into the app.
    """

    otpauth_uri: str
    secret: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        otpauth_uri = self.otpauth_uri

        secret = self.secret

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "otpauthUri": otpauth_uri,
                "secret": secret,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        otpauth_uri = d.pop("otpauthUri")

        secret = d.pop("secret")

        totp_enrolment = cls(
            otpauth_uri=otpauth_uri,
            secret=secret,
        )

        totp_enrolment.additional_properties = d
        return totp_enrolment

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
