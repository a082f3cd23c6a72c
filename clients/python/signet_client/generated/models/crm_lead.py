from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.crm_lead_push_state import CrmLeadPushState
from ..types import UNSET, Unset

T = TypeVar("T", bound="CrmLead")


@_attrs_define
class CrmLead:
    """A lead with its place in the outbox.

    Attributes:
        amount (float):
        created_at (int):
        lead_id (int):
        plan_id (int):
        push_state (CrmLeadPushState):
        updated_at (int):
        version (int): Raised by every change; each version is pushed once.
        billing_cycle (Union[None, Unset, str]):
        client_ip (Union[None, Unset, str]):
        crm_lead_id (Union[None, Unset, str]):
        currency (Union[None, Unset, str]):
        dialcode (Union[None, Unset, str]):
        email (Union[None, Unset, str]):
        lead_key (Union[None, Unset, str]):
        mobile (Union[None, Unset, str]): As normalised: digits, with the `+` if sent.
        name (Union[None, Unset, str]):
        num_envelopes (Union[None, Unset, int]):
        num_users (Union[None, Unset, int]):
        partner_referral_code (Union[None, Unset, str]):
        plan_name (Union[None, Unset, str]):
        push_error (Union[None, Unset, str]):
        push_stage (Union[None, Unset, str]): The stage of the last push outcome (`outbox` for Signet's own push).
        push_success (Union[None, Unset, bool]):
        pushed_at (Union[None, Unset, int]):
        state (Union[None, Unset, str]):
        subscription_mode (Union[None, Unset, str]):
        user_agent (Union[None, Unset, str]):
        visitor_id (Union[None, Unset, str]):
    """

    amount: float
    created_at: int
    lead_id: int
    plan_id: int
    push_state: CrmLeadPushState
    updated_at: int
    version: int
    billing_cycle: Union[None, Unset, str] = UNSET
    client_ip: Union[None, Unset, str] = UNSET
    crm_lead_id: Union[None, Unset, str] = UNSET
    currency: Union[None, Unset, str] = UNSET
    dialcode: Union[None, Unset, str] = UNSET
    email: Union[None, Unset, str] = UNSET
    lead_key: Union[None, Unset, str] = UNSET
    mobile: Union[None, Unset, str] = UNSET
    name: Union[None, Unset, str] = UNSET
    num_envelopes: Union[None, Unset, int] = UNSET
    num_users: Union[None, Unset, int] = UNSET
    partner_referral_code: Union[None, Unset, str] = UNSET
    plan_name: Union[None, Unset, str] = UNSET
    push_error: Union[None, Unset, str] = UNSET
    push_stage: Union[None, Unset, str] = UNSET
    push_success: Union[None, Unset, bool] = UNSET
    pushed_at: Union[None, Unset, int] = UNSET
    state: Union[None, Unset, str] = UNSET
    subscription_mode: Union[None, Unset, str] = UNSET
    user_agent: Union[None, Unset, str] = UNSET
    visitor_id: Union[None, Unset, str] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        created_at = self.created_at

        lead_id = self.lead_id

        plan_id = self.plan_id

        push_state = self.push_state.value

        updated_at = self.updated_at

        version = self.version

        billing_cycle: Union[None, Unset, str]
        if isinstance(self.billing_cycle, Unset):
            billing_cycle = UNSET
        else:
            billing_cycle = self.billing_cycle

        client_ip: Union[None, Unset, str]
        if isinstance(self.client_ip, Unset):
            client_ip = UNSET
        else:
            client_ip = self.client_ip

        crm_lead_id: Union[None, Unset, str]
        if isinstance(self.crm_lead_id, Unset):
            crm_lead_id = UNSET
        else:
            crm_lead_id = self.crm_lead_id

        currency: Union[None, Unset, str]
        if isinstance(self.currency, Unset):
            currency = UNSET
        else:
            currency = self.currency

        dialcode: Union[None, Unset, str]
        if isinstance(self.dialcode, Unset):
            dialcode = UNSET
        else:
            dialcode = self.dialcode

        email: Union[None, Unset, str]
        if isinstance(self.email, Unset):
            email = UNSET
        else:
            email = self.email

        lead_key: Union[None, Unset, str]
        if isinstance(self.lead_key, Unset):
            lead_key = UNSET
        else:
            lead_key = self.lead_key

        mobile: Union[None, Unset, str]
        if isinstance(self.mobile, Unset):
            mobile = UNSET
        else:
            mobile = self.mobile

        name: Union[None, Unset, str]
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        num_envelopes: Union[None, Unset, int]
        if isinstance(self.num_envelopes, Unset):
            num_envelopes = UNSET
        else:
            num_envelopes = self.num_envelopes

        num_users: Union[None, Unset, int]
        if isinstance(self.num_users, Unset):
            num_users = UNSET
        else:
            num_users = self.num_users

        partner_referral_code: Union[None, Unset, str]
        if isinstance(self.partner_referral_code, Unset):
            partner_referral_code = UNSET
        else:
            partner_referral_code = self.partner_referral_code

        plan_name: Union[None, Unset, str]
        if isinstance(self.plan_name, Unset):
            plan_name = UNSET
        else:
            plan_name = self.plan_name

        push_error: Union[None, Unset, str]
        if isinstance(self.push_error, Unset):
            push_error = UNSET
        else:
            push_error = self.push_error

        push_stage: Union[None, Unset, str]
        if isinstance(self.push_stage, Unset):
            push_stage = UNSET
        else:
            push_stage = self.push_stage

        push_success: Union[None, Unset, bool]
        if isinstance(self.push_success, Unset):
            push_success = UNSET
        else:
            push_success = self.push_success

        pushed_at: Union[None, Unset, int]
        if isinstance(self.pushed_at, Unset):
            pushed_at = UNSET
        else:
            pushed_at = self.pushed_at

        state: Union[None, Unset, str]
        if isinstance(self.state, Unset):
            state = UNSET
        else:
            state = self.state

        subscription_mode: Union[None, Unset, str]
        if isinstance(self.subscription_mode, Unset):
            subscription_mode = UNSET
        else:
            subscription_mode = self.subscription_mode

        user_agent: Union[None, Unset, str]
        if isinstance(self.user_agent, Unset):
            user_agent = UNSET
        else:
            user_agent = self.user_agent

        visitor_id: Union[None, Unset, str]
        if isinstance(self.visitor_id, Unset):
            visitor_id = UNSET
        else:
            visitor_id = self.visitor_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "amount": amount,
                "createdAt": created_at,
                "leadId": lead_id,
                "planId": plan_id,
                "pushState": push_state,
                "updatedAt": updated_at,
                "version": version,
            }
        )
        if billing_cycle is not UNSET:
            field_dict["billingCycle"] = billing_cycle
        if client_ip is not UNSET:
            field_dict["clientIp"] = client_ip
        if crm_lead_id is not UNSET:
            field_dict["crmLeadId"] = crm_lead_id
        if currency is not UNSET:
            field_dict["currency"] = currency
        if dialcode is not UNSET:
            field_dict["dialcode"] = dialcode
        if email is not UNSET:
            field_dict["email"] = email
        if lead_key is not UNSET:
            field_dict["leadKey"] = lead_key
        if mobile is not UNSET:
            field_dict["mobile"] = mobile
        if name is not UNSET:
            field_dict["name"] = name
        if num_envelopes is not UNSET:
            field_dict["numEnvelopes"] = num_envelopes
        if num_users is not UNSET:
            field_dict["numUsers"] = num_users
        if partner_referral_code is not UNSET:
            field_dict["partnerReferralCode"] = partner_referral_code
        if plan_name is not UNSET:
            field_dict["planName"] = plan_name
        if push_error is not UNSET:
            field_dict["pushError"] = push_error
        if push_stage is not UNSET:
            field_dict["pushStage"] = push_stage
        if push_success is not UNSET:
            field_dict["pushSuccess"] = push_success
        if pushed_at is not UNSET:
            field_dict["pushedAt"] = pushed_at
        if state is not UNSET:
            field_dict["state"] = state
        if subscription_mode is not UNSET:
            field_dict["subscriptionMode"] = subscription_mode
        if user_agent is not UNSET:
            field_dict["userAgent"] = user_agent
        if visitor_id is not UNSET:
            field_dict["visitorId"] = visitor_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        amount = d.pop("amount")

        created_at = d.pop("createdAt")

        lead_id = d.pop("leadId")

        plan_id = d.pop("planId")

        push_state = CrmLeadPushState(d.pop("pushState"))

        updated_at = d.pop("updatedAt")

        version = d.pop("version")

        def _parse_billing_cycle(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        billing_cycle = _parse_billing_cycle(d.pop("billingCycle", UNSET))

        def _parse_client_ip(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        client_ip = _parse_client_ip(d.pop("clientIp", UNSET))

        def _parse_crm_lead_id(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        crm_lead_id = _parse_crm_lead_id(d.pop("crmLeadId", UNSET))

        def _parse_currency(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        currency = _parse_currency(d.pop("currency", UNSET))

        def _parse_dialcode(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        dialcode = _parse_dialcode(d.pop("dialcode", UNSET))

        def _parse_email(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        email = _parse_email(d.pop("email", UNSET))

        def _parse_lead_key(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        lead_key = _parse_lead_key(d.pop("leadKey", UNSET))

        def _parse_mobile(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        mobile = _parse_mobile(d.pop("mobile", UNSET))

        def _parse_name(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        name = _parse_name(d.pop("name", UNSET))

        def _parse_num_envelopes(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        num_envelopes = _parse_num_envelopes(d.pop("numEnvelopes", UNSET))

        def _parse_num_users(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        num_users = _parse_num_users(d.pop("numUsers", UNSET))

        def _parse_partner_referral_code(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        partner_referral_code = _parse_partner_referral_code(
            d.pop("partnerReferralCode", UNSET)
        )

        def _parse_plan_name(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        plan_name = _parse_plan_name(d.pop("planName", UNSET))

        def _parse_push_error(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        push_error = _parse_push_error(d.pop("pushError", UNSET))

        def _parse_push_stage(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        push_stage = _parse_push_stage(d.pop("pushStage", UNSET))

        def _parse_push_success(data: object) -> Union[None, Unset, bool]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, bool], data)

        push_success = _parse_push_success(d.pop("pushSuccess", UNSET))

        def _parse_pushed_at(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        pushed_at = _parse_pushed_at(d.pop("pushedAt", UNSET))

        def _parse_state(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        state = _parse_state(d.pop("state", UNSET))

        def _parse_subscription_mode(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        subscription_mode = _parse_subscription_mode(d.pop("subscriptionMode", UNSET))

        def _parse_user_agent(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        user_agent = _parse_user_agent(d.pop("userAgent", UNSET))

        def _parse_visitor_id(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        visitor_id = _parse_visitor_id(d.pop("visitorId", UNSET))

        crm_lead = cls(
            amount=amount,
            created_at=created_at,
            lead_id=lead_id,
            plan_id=plan_id,
            push_state=push_state,
            updated_at=updated_at,
            version=version,
            billing_cycle=billing_cycle,
            client_ip=client_ip,
            crm_lead_id=crm_lead_id,
            currency=currency,
            dialcode=dialcode,
            email=email,
            lead_key=lead_key,
            mobile=mobile,
            name=name,
            num_envelopes=num_envelopes,
            num_users=num_users,
            partner_referral_code=partner_referral_code,
            plan_name=plan_name,
            push_error=push_error,
            push_stage=push_stage,
            push_success=push_success,
            pushed_at=pushed_at,
            state=state,
            subscription_mode=subscription_mode,
            user_agent=user_agent,
            visitor_id=visitor_id,
        )

        crm_lead.additional_properties = d
        return crm_lead

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
