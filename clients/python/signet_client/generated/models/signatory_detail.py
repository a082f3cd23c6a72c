from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="SignatoryDetail")


@_attrs_define
class SignatoryDetail:
    """
    Attributes:
        email_id (str):
        subscriber_id (int): A user of the tenant, or 0 for someone outside it (known by `emailId` and `name`).
        mobile_no (Union[None, Unset, str]): The signatory's mobile number, to which their invitation and reminders are
            also sent
            by SMS when the installation has an SMS provider (without one it is kept and unused):
            `+` and the country code then the number, 8 to 15 digits (spaces, hyphens, dots and
            parentheses between them are dropped), or a 10-digit Indian mobile number starting with
            6-9 (taken as `+91`). Anything else is refused (400 `validation_failed`, field
            `signatories[i].mobileNo`). A Signet extension of the spec's object. Example: +919876543210.
        mode_of_signature (Union[None, Unset, str]): How this signatory signs: `electronic` (or `4`, the default) or
            `aadhaar_esign` (or
            `3`): Aadhaar eSign through the configured ESP, the signature then made with a
            certificate in the signer's own name; or `dsc_token` (or `2`): the signer's own crypto
            token through the signer utility. A Signet extension of the spec's object.
        name (Union[None, Unset, str]):
        otp_by_sms (Union[Unset, bool]): The signatory confirms a six-digit code texted to `mobileNo` on their signing
            page
            before any signature of theirs is accepted (electronic, crypto token or Aadhaar
            eSign); declining and commenting need no code. Needs `mobileNo` and an SMS provider on
            the service, else 400 `validation_failed` with the field `signatories[i].otpBySms`.
            Default false. A Signet extension of the spec's object.
        signing_order (Union[Unset, int]): Equal numbers sign in parallel; groups go 1, 2, 3, ... Leave 0 for all to
            sign one
            after the other in the listed order.
    """

    email_id: str
    subscriber_id: int
    mobile_no: Union[None, Unset, str] = UNSET
    mode_of_signature: Union[None, Unset, str] = UNSET
    name: Union[None, Unset, str] = UNSET
    otp_by_sms: Union[Unset, bool] = UNSET
    signing_order: Union[Unset, int] = UNSET

    def to_dict(self) -> dict[str, Any]:
        email_id = self.email_id

        subscriber_id = self.subscriber_id

        mobile_no: Union[None, Unset, str]
        if isinstance(self.mobile_no, Unset):
            mobile_no = UNSET
        else:
            mobile_no = self.mobile_no

        mode_of_signature: Union[None, Unset, str]
        if isinstance(self.mode_of_signature, Unset):
            mode_of_signature = UNSET
        else:
            mode_of_signature = self.mode_of_signature

        name: Union[None, Unset, str]
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        otp_by_sms = self.otp_by_sms

        signing_order = self.signing_order

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "emailId": email_id,
                "subscriberId": subscriber_id,
            }
        )
        if mobile_no is not UNSET:
            field_dict["mobileNo"] = mobile_no
        if mode_of_signature is not UNSET:
            field_dict["modeOfSignature"] = mode_of_signature
        if name is not UNSET:
            field_dict["name"] = name
        if otp_by_sms is not UNSET:
            field_dict["otpBySms"] = otp_by_sms
        if signing_order is not UNSET:
            field_dict["signingOrder"] = signing_order

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        email_id = d.pop("emailId")

        subscriber_id = d.pop("subscriberId")

        def _parse_mobile_no(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        mobile_no = _parse_mobile_no(d.pop("mobileNo", UNSET))

        def _parse_mode_of_signature(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        mode_of_signature = _parse_mode_of_signature(d.pop("modeOfSignature", UNSET))

        def _parse_name(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        name = _parse_name(d.pop("name", UNSET))

        otp_by_sms = d.pop("otpBySms", UNSET)

        signing_order = d.pop("signingOrder", UNSET)

        signatory_detail = cls(
            email_id=email_id,
            subscriber_id=subscriber_id,
            mobile_no=mobile_no,
            mode_of_signature=mode_of_signature,
            name=name,
            otp_by_sms=otp_by_sms,
            signing_order=signing_order,
        )

        return signatory_detail
