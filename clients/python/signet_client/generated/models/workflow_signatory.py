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

T = TypeVar("T", bound="WorkflowSignatory")


@_attrs_define
class WorkflowSignatory:
    """
    Attributes:
        email_id (str):
        name (str):
        otp_by_sms (bool): The signatory confirms a code texted to `mobileNo` before signing (`otpBySms`).
        signatory_id (int):
        signing_order (int):
        state (str): pending, notified, viewed, signed, declined or delegated.
        subscriber_id (int):
        delegated_from (Union[None, Unset, int]):
        mobile_no (Union[None, Unset, str]): The signatory's mobile number in international form, when the initiator
            gave one
            (`mobileNo`): invitations and reminders are also texted there.
        notified_at (Union[None, Unset, int]):
        reason (Union[None, Unset, str]):
        signed_at (Union[None, Unset, int]):
        viewed_at (Union[None, Unset, int]):
    """

    email_id: str
    name: str
    otp_by_sms: bool
    signatory_id: int
    signing_order: int
    state: str
    subscriber_id: int
    delegated_from: Union[None, Unset, int] = UNSET
    mobile_no: Union[None, Unset, str] = UNSET
    notified_at: Union[None, Unset, int] = UNSET
    reason: Union[None, Unset, str] = UNSET
    signed_at: Union[None, Unset, int] = UNSET
    viewed_at: Union[None, Unset, int] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        email_id = self.email_id

        name = self.name

        otp_by_sms = self.otp_by_sms

        signatory_id = self.signatory_id

        signing_order = self.signing_order

        state = self.state

        subscriber_id = self.subscriber_id

        delegated_from: Union[None, Unset, int]
        if isinstance(self.delegated_from, Unset):
            delegated_from = UNSET
        else:
            delegated_from = self.delegated_from

        mobile_no: Union[None, Unset, str]
        if isinstance(self.mobile_no, Unset):
            mobile_no = UNSET
        else:
            mobile_no = self.mobile_no

        notified_at: Union[None, Unset, int]
        if isinstance(self.notified_at, Unset):
            notified_at = UNSET
        else:
            notified_at = self.notified_at

        reason: Union[None, Unset, str]
        if isinstance(self.reason, Unset):
            reason = UNSET
        else:
            reason = self.reason

        signed_at: Union[None, Unset, int]
        if isinstance(self.signed_at, Unset):
            signed_at = UNSET
        else:
            signed_at = self.signed_at

        viewed_at: Union[None, Unset, int]
        if isinstance(self.viewed_at, Unset):
            viewed_at = UNSET
        else:
            viewed_at = self.viewed_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "emailId": email_id,
                "name": name,
                "otpBySms": otp_by_sms,
                "signatoryId": signatory_id,
                "signingOrder": signing_order,
                "state": state,
                "subscriberId": subscriber_id,
            }
        )
        if delegated_from is not UNSET:
            field_dict["delegatedFrom"] = delegated_from
        if mobile_no is not UNSET:
            field_dict["mobileNo"] = mobile_no
        if notified_at is not UNSET:
            field_dict["notifiedAt"] = notified_at
        if reason is not UNSET:
            field_dict["reason"] = reason
        if signed_at is not UNSET:
            field_dict["signedAt"] = signed_at
        if viewed_at is not UNSET:
            field_dict["viewedAt"] = viewed_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        email_id = d.pop("emailId")

        name = d.pop("name")

        otp_by_sms = d.pop("otpBySms")

        signatory_id = d.pop("signatoryId")

        signing_order = d.pop("signingOrder")

        state = d.pop("state")

        subscriber_id = d.pop("subscriberId")

        def _parse_delegated_from(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        delegated_from = _parse_delegated_from(d.pop("delegatedFrom", UNSET))

        def _parse_mobile_no(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        mobile_no = _parse_mobile_no(d.pop("mobileNo", UNSET))

        def _parse_notified_at(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        notified_at = _parse_notified_at(d.pop("notifiedAt", UNSET))

        def _parse_reason(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        reason = _parse_reason(d.pop("reason", UNSET))

        def _parse_signed_at(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        signed_at = _parse_signed_at(d.pop("signedAt", UNSET))

        def _parse_viewed_at(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        viewed_at = _parse_viewed_at(d.pop("viewedAt", UNSET))

        workflow_signatory = cls(
            email_id=email_id,
            name=name,
            otp_by_sms=otp_by_sms,
            signatory_id=signatory_id,
            signing_order=signing_order,
            state=state,
            subscriber_id=subscriber_id,
            delegated_from=delegated_from,
            mobile_no=mobile_no,
            notified_at=notified_at,
            reason=reason,
            signed_at=signed_at,
            viewed_at=viewed_at,
        )

        workflow_signatory.additional_properties = d
        return workflow_signatory

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
