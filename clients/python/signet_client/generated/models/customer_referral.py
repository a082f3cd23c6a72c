from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="CustomerReferral")


@_attrs_define
class CustomerReferral:
    """A recorded referral.

    Attributes:
        created_at (int): Milliseconds since the epoch.
        created_by (str): Who recorded it: `user:ID` or `client:ID`.
        referral_email (str):
        referral_id (int):
        referral_mobile (str):
        referral_name (str):
        referrer_email (str):
        referrer_mobile (str): As normalised: digits, with the `+` if sent.
        referrer_name (str):
    """

    created_at: int
    created_by: str
    referral_email: str
    referral_id: int
    referral_mobile: str
    referral_name: str
    referrer_email: str
    referrer_mobile: str
    referrer_name: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at

        created_by = self.created_by

        referral_email = self.referral_email

        referral_id = self.referral_id

        referral_mobile = self.referral_mobile

        referral_name = self.referral_name

        referrer_email = self.referrer_email

        referrer_mobile = self.referrer_mobile

        referrer_name = self.referrer_name

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "createdBy": created_by,
                "referralEmail": referral_email,
                "referralId": referral_id,
                "referralMobile": referral_mobile,
                "referralName": referral_name,
                "referrerEmail": referrer_email,
                "referrerMobile": referrer_mobile,
                "referrerName": referrer_name,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = d.pop("createdAt")

        created_by = d.pop("createdBy")

        referral_email = d.pop("referralEmail")

        referral_id = d.pop("referralId")

        referral_mobile = d.pop("referralMobile")

        referral_name = d.pop("referralName")

        referrer_email = d.pop("referrerEmail")

        referrer_mobile = d.pop("referrerMobile")

        referrer_name = d.pop("referrerName")

        customer_referral = cls(
            created_at=created_at,
            created_by=created_by,
            referral_email=referral_email,
            referral_id=referral_id,
            referral_mobile=referral_mobile,
            referral_name=referral_name,
            referrer_email=referrer_email,
            referrer_mobile=referrer_mobile,
            referrer_name=referrer_name,
        )

        customer_referral.additional_properties = d
        return customer_referral

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
