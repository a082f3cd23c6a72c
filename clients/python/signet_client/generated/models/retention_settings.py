from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.template_retention import TemplateRetention


T = TypeVar("T", bound="RetentionSettings")


@_attrs_define
class RetentionSettings:
    """Periods in days after a workflow ended before the daily sweep erases it (documents,
    attachments, events, signatories' personal fields), leaving a sealed tombstone in the audit
    chain. Absent (or null): kept until erased on request; 0: erased at the next sweep. A period
    is also a floor: an erasure request does not take a record inside it.

        Attributes:
            completed_days (Union[None, Unset, int]):
            declined_days (Union[None, Unset, int]):
            expired_days (Union[None, Unset, int]):
            gateway_days (Union[None, Unset, int]): Finished gateway transactions: their request, document and result are
                erased.
            templates (Union[Unset, list['TemplateRetention']]): Templates whose workflows keep other periods: each field
                set wins over the
                organisation's. At most 1000; a template named twice takes its last entry.
    """

    completed_days: Union[None, Unset, int] = UNSET
    declined_days: Union[None, Unset, int] = UNSET
    expired_days: Union[None, Unset, int] = UNSET
    gateway_days: Union[None, Unset, int] = UNSET
    templates: Union[Unset, list["TemplateRetention"]] = UNSET

    def to_dict(self) -> dict[str, Any]:
        completed_days: Union[None, Unset, int]
        if isinstance(self.completed_days, Unset):
            completed_days = UNSET
        else:
            completed_days = self.completed_days

        declined_days: Union[None, Unset, int]
        if isinstance(self.declined_days, Unset):
            declined_days = UNSET
        else:
            declined_days = self.declined_days

        expired_days: Union[None, Unset, int]
        if isinstance(self.expired_days, Unset):
            expired_days = UNSET
        else:
            expired_days = self.expired_days

        gateway_days: Union[None, Unset, int]
        if isinstance(self.gateway_days, Unset):
            gateway_days = UNSET
        else:
            gateway_days = self.gateway_days

        templates: Union[Unset, list[dict[str, Any]]] = UNSET
        if not isinstance(self.templates, Unset):
            templates = []
            for templates_item_data in self.templates:
                templates_item = templates_item_data.to_dict()
                templates.append(templates_item)

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if completed_days is not UNSET:
            field_dict["completedDays"] = completed_days
        if declined_days is not UNSET:
            field_dict["declinedDays"] = declined_days
        if expired_days is not UNSET:
            field_dict["expiredDays"] = expired_days
        if gateway_days is not UNSET:
            field_dict["gatewayDays"] = gateway_days
        if templates is not UNSET:
            field_dict["templates"] = templates

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.template_retention import TemplateRetention

        d = dict(src_dict)

        def _parse_completed_days(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        completed_days = _parse_completed_days(d.pop("completedDays", UNSET))

        def _parse_declined_days(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        declined_days = _parse_declined_days(d.pop("declinedDays", UNSET))

        def _parse_expired_days(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        expired_days = _parse_expired_days(d.pop("expiredDays", UNSET))

        def _parse_gateway_days(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        gateway_days = _parse_gateway_days(d.pop("gatewayDays", UNSET))

        templates = []
        _templates = d.pop("templates", UNSET)
        for templates_item_data in _templates or []:
            templates_item = TemplateRetention.from_dict(templates_item_data)

            templates.append(templates_item)

        retention_settings = cls(
            completed_days=completed_days,
            declined_days=declined_days,
            expired_days=expired_days,
            gateway_days=gateway_days,
            templates=templates,
        )

        return retention_settings
