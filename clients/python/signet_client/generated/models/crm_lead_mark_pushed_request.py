from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="CrmLeadMarkPushedRequest")


@_attrs_define
class CrmLeadMarkPushedRequest:
    """The spec's `CrmLeadMarkPushedRequest`: the outcome of a push made outside Signet.

    Attributes:
        lead_key (str): The lead, by its key.
        success (bool): `true`: the lead leaves the outbox as `pushed`; `false`: as `failed`.
        crm_lead_id (Union[None, Unset, str]): The CRM's id of the lead (kept when left out).
        error_message (Union[None, Unset, str]):
        stage (Union[None, Unset, str]): Where the push got to, in the integration's words.
    """

    lead_key: str
    success: bool
    crm_lead_id: Union[None, Unset, str] = UNSET
    error_message: Union[None, Unset, str] = UNSET
    stage: Union[None, Unset, str] = UNSET

    def to_dict(self) -> dict[str, Any]:
        lead_key = self.lead_key

        success = self.success

        crm_lead_id: Union[None, Unset, str]
        if isinstance(self.crm_lead_id, Unset):
            crm_lead_id = UNSET
        else:
            crm_lead_id = self.crm_lead_id

        error_message: Union[None, Unset, str]
        if isinstance(self.error_message, Unset):
            error_message = UNSET
        else:
            error_message = self.error_message

        stage: Union[None, Unset, str]
        if isinstance(self.stage, Unset):
            stage = UNSET
        else:
            stage = self.stage

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "leadKey": lead_key,
                "success": success,
            }
        )
        if crm_lead_id is not UNSET:
            field_dict["crmLeadId"] = crm_lead_id
        if error_message is not UNSET:
            field_dict["errorMessage"] = error_message
        if stage is not UNSET:
            field_dict["stage"] = stage

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        lead_key = d.pop("leadKey")

        success = d.pop("success")

        def _parse_crm_lead_id(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        crm_lead_id = _parse_crm_lead_id(d.pop("crmLeadId", UNSET))

        def _parse_error_message(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        error_message = _parse_error_message(d.pop("errorMessage", UNSET))

        def _parse_stage(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        stage = _parse_stage(d.pop("stage", UNSET))

        crm_lead_mark_pushed_request = cls(
            lead_key=lead_key,
            success=success,
            crm_lead_id=crm_lead_id,
            error_message=error_message,
            stage=stage,
        )

        return crm_lead_mark_pushed_request
