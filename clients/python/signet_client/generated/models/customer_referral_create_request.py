from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="CustomerReferralCreateRequest")


@_attrs_define
class CustomerReferralCreateRequest:
    """The spec's `CustomerReferralCreateRequest`: a customer (the referrer) refers someone.

    Attributes:
        referral_email (str): Unique among the tenant's referrals, ignoring case.
        referral_mobile (str): Unique among the tenant's referrals (digits, with the `+` if sent).
        referral_name (str):
        referrer_email (str): Receives the confirmation of the referral.
        referrer_mobile (str): 7 to 15 digits, an optional leading `+`, single spaces or hyphens between digits.
        referrer_name (str):
    """

    referral_email: str
    referral_mobile: str
    referral_name: str
    referrer_email: str
    referrer_mobile: str
    referrer_name: str

    def to_dict(self) -> dict[str, Any]:
        referral_email = self.referral_email

        referral_mobile = self.referral_mobile

        referral_name = self.referral_name

        referrer_email = self.referrer_email

        referrer_mobile = self.referrer_mobile

        referrer_name = self.referrer_name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "referralEmail": referral_email,
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
        referral_email = d.pop("referralEmail")

        referral_mobile = d.pop("referralMobile")

        referral_name = d.pop("referralName")

        referrer_email = d.pop("referrerEmail")

        referrer_mobile = d.pop("referrerMobile")

        referrer_name = d.pop("referrerName")

        customer_referral_create_request = cls(
            referral_email=referral_email,
            referral_mobile=referral_mobile,
            referral_name=referral_name,
            referrer_email=referrer_email,
            referrer_mobile=referrer_mobile,
            referrer_name=referrer_name,
        )

        return customer_referral_create_request
