from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="SigningProfile")


@_attrs_define
class SigningProfile:
    """
    Attributes:
        created_at (int):
        email_id (str):
        name (str):
        not_after (int): When the certificate expires (milliseconds since the epoch).
        profile_id (int): Use as `hsmCertificateId` in `InitiateWorkFlowData`.
        subject (str): The certificate's subject.
        revoked_at (Union[None, Unset, int]):
    """

    created_at: int
    email_id: str
    name: str
    not_after: int
    profile_id: int
    subject: str
    revoked_at: Union[None, Unset, int] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at

        email_id = self.email_id

        name = self.name

        not_after = self.not_after

        profile_id = self.profile_id

        subject = self.subject

        revoked_at: Union[None, Unset, int]
        if isinstance(self.revoked_at, Unset):
            revoked_at = UNSET
        else:
            revoked_at = self.revoked_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "emailId": email_id,
                "name": name,
                "notAfter": not_after,
                "profileId": profile_id,
                "subject": subject,
            }
        )
        if revoked_at is not UNSET:
            field_dict["revokedAt"] = revoked_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = d.pop("createdAt")

        email_id = d.pop("emailId")

        name = d.pop("name")

        not_after = d.pop("notAfter")

        profile_id = d.pop("profileId")

        subject = d.pop("subject")

        def _parse_revoked_at(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        revoked_at = _parse_revoked_at(d.pop("revokedAt", UNSET))

        signing_profile = cls(
            created_at=created_at,
            email_id=email_id,
            name=name,
            not_after=not_after,
            profile_id=profile_id,
            subject=subject,
            revoked_at=revoked_at,
        )

        signing_profile.additional_properties = d
        return signing_profile

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
