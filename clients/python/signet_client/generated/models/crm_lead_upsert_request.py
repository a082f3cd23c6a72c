from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="CrmLeadUpsertRequest")


@_attrs_define
class CrmLeadUpsertRequest:
    """The spec's `CrmLeadUpsertRequest`: a sales lead, created or changed. Fields left out (or
    null) keep a changed lead's values; `planId` and `amount` are always written.

        Attributes:
            amount (Union[Unset, float]): In `currency` units, 0 to 10^12.
            billing_cycle (Union[None, Unset, str]): How often the plan is billed. One of monthly, quarterly, yearly,
                one_time in any case (or a spelling the pattern names), kept as that.
            client_ip (Union[None, Unset, str]): The customer's address as the caller saw it (IPv4 or IPv6 text); recorded
                only.
            currency (Union[None, Unset, str]): ISO 4217 code (`INR`).
            dialcode (Union[None, Unset, str]): The country calling code (`+91`).
            email (Union[None, Unset, str]):
            force_by_lead_key (Union[Unset, bool]): Match by `leadKey` only: never take over a lead without a key that has
                the same
                e-mail or mobile. Needs a `leadKey`.
            lead_key (Union[None, Unset, str]): The caller's identifier of the lead: one lead per key in a tenant.
            mobile (Union[None, Unset, str]): 7 to 15 digits, an optional leading `+`, single spaces or hyphens between
                digits.
            name (Union[None, Unset, str]):
            num_envelopes (Union[None, Unset, int]):
            num_users (Union[None, Unset, int]):
            partner_referral_code (Union[None, Unset, str]):
            plan_id (Union[Unset, int]):
            plan_name (Union[None, Unset, str]):
            state (Union[None, Unset, str]): The customer's state or region.
            subscription_mode (Union[None, Unset, str]): How the customer would subscribe. One of trial, free, paid in any
                case (or a spelling the pattern names), kept as that.
            user_agent (Union[None, Unset, str]):
            visitor_id (Union[None, Unset, str]):
    """

    amount: Union[Unset, float] = UNSET
    billing_cycle: Union[None, Unset, str] = UNSET
    client_ip: Union[None, Unset, str] = UNSET
    currency: Union[None, Unset, str] = UNSET
    dialcode: Union[None, Unset, str] = UNSET
    email: Union[None, Unset, str] = UNSET
    force_by_lead_key: Union[Unset, bool] = UNSET
    lead_key: Union[None, Unset, str] = UNSET
    mobile: Union[None, Unset, str] = UNSET
    name: Union[None, Unset, str] = UNSET
    num_envelopes: Union[None, Unset, int] = UNSET
    num_users: Union[None, Unset, int] = UNSET
    partner_referral_code: Union[None, Unset, str] = UNSET
    plan_id: Union[Unset, int] = UNSET
    plan_name: Union[None, Unset, str] = UNSET
    state: Union[None, Unset, str] = UNSET
    subscription_mode: Union[None, Unset, str] = UNSET
    user_agent: Union[None, Unset, str] = UNSET
    visitor_id: Union[None, Unset, str] = UNSET

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

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

        force_by_lead_key = self.force_by_lead_key

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

        plan_id = self.plan_id

        plan_name: Union[None, Unset, str]
        if isinstance(self.plan_name, Unset):
            plan_name = UNSET
        else:
            plan_name = self.plan_name

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

        field_dict.update({})
        if amount is not UNSET:
            field_dict["amount"] = amount
        if billing_cycle is not UNSET:
            field_dict["billingCycle"] = billing_cycle
        if client_ip is not UNSET:
            field_dict["clientIp"] = client_ip
        if currency is not UNSET:
            field_dict["currency"] = currency
        if dialcode is not UNSET:
            field_dict["dialcode"] = dialcode
        if email is not UNSET:
            field_dict["email"] = email
        if force_by_lead_key is not UNSET:
            field_dict["forceByLeadKey"] = force_by_lead_key
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
        if plan_id is not UNSET:
            field_dict["planId"] = plan_id
        if plan_name is not UNSET:
            field_dict["planName"] = plan_name
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
        amount = d.pop("amount", UNSET)

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

        force_by_lead_key = d.pop("forceByLeadKey", UNSET)

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

        plan_id = d.pop("planId", UNSET)

        def _parse_plan_name(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        plan_name = _parse_plan_name(d.pop("planName", UNSET))

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

        crm_lead_upsert_request = cls(
            amount=amount,
            billing_cycle=billing_cycle,
            client_ip=client_ip,
            currency=currency,
            dialcode=dialcode,
            email=email,
            force_by_lead_key=force_by_lead_key,
            lead_key=lead_key,
            mobile=mobile,
            name=name,
            num_envelopes=num_envelopes,
            num_users=num_users,
            partner_referral_code=partner_referral_code,
            plan_id=plan_id,
            plan_name=plan_name,
            state=state,
            subscription_mode=subscription_mode,
            user_agent=user_agent,
            visitor_id=visitor_id,
        )

        return crm_lead_upsert_request
