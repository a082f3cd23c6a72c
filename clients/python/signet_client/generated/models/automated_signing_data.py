from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="AutomatedSigningData")


@_attrs_define
class AutomatedSigningData:
    """A user's automated signing: when enabled (with consent), their turn in a workflow is
    signed server-side with their enrolled certificate and their default reason and location.

        Attributes:
            consent_accepted (bool): Must be true to enable; the time and address of the consent are recorded.
            enabled (bool):
            certificate_name (Union[None, Unset, str]): The certificate's name (shown; ignored when sent).
            certificate_profile_id (Union[None, Unset, int]): One of the user's own enrolled certificates (required when
                enabled).
            default_signatory_location (Union[None, Unset, str]):
            default_signatory_reason (Union[None, Unset, str]):
    """

    consent_accepted: bool
    enabled: bool
    certificate_name: Union[None, Unset, str] = UNSET
    certificate_profile_id: Union[None, Unset, int] = UNSET
    default_signatory_location: Union[None, Unset, str] = UNSET
    default_signatory_reason: Union[None, Unset, str] = UNSET

    def to_dict(self) -> dict[str, Any]:
        consent_accepted = self.consent_accepted

        enabled = self.enabled

        certificate_name: Union[None, Unset, str]
        if isinstance(self.certificate_name, Unset):
            certificate_name = UNSET
        else:
            certificate_name = self.certificate_name

        certificate_profile_id: Union[None, Unset, int]
        if isinstance(self.certificate_profile_id, Unset):
            certificate_profile_id = UNSET
        else:
            certificate_profile_id = self.certificate_profile_id

        default_signatory_location: Union[None, Unset, str]
        if isinstance(self.default_signatory_location, Unset):
            default_signatory_location = UNSET
        else:
            default_signatory_location = self.default_signatory_location

        default_signatory_reason: Union[None, Unset, str]
        if isinstance(self.default_signatory_reason, Unset):
            default_signatory_reason = UNSET
        else:
            default_signatory_reason = self.default_signatory_reason

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "consentAccepted": consent_accepted,
                "enabled": enabled,
            }
        )
        if certificate_name is not UNSET:
            field_dict["certificateName"] = certificate_name
        if certificate_profile_id is not UNSET:
            field_dict["certificateProfileId"] = certificate_profile_id
        if default_signatory_location is not UNSET:
            field_dict["defaultSignatoryLocation"] = default_signatory_location
        if default_signatory_reason is not UNSET:
            field_dict["defaultSignatoryReason"] = default_signatory_reason

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        consent_accepted = d.pop("consentAccepted")

        enabled = d.pop("enabled")

        def _parse_certificate_name(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        certificate_name = _parse_certificate_name(d.pop("certificateName", UNSET))

        def _parse_certificate_profile_id(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        certificate_profile_id = _parse_certificate_profile_id(
            d.pop("certificateProfileId", UNSET)
        )

        def _parse_default_signatory_location(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        default_signatory_location = _parse_default_signatory_location(
            d.pop("defaultSignatoryLocation", UNSET)
        )

        def _parse_default_signatory_reason(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        default_signatory_reason = _parse_default_signatory_reason(
            d.pop("defaultSignatoryReason", UNSET)
        )

        automated_signing_data = cls(
            consent_accepted=consent_accepted,
            enabled=enabled,
            certificate_name=certificate_name,
            certificate_profile_id=certificate_profile_id,
            default_signatory_location=default_signatory_location,
            default_signatory_reason=default_signatory_reason,
        )

        return automated_signing_data
