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
    from ..models.template_field import TemplateField


T = TypeVar("T", bound="TemplateDefinition")


@_attrs_define
class TemplateDefinition:
    """
    Attributes:
        expiry_days (Union[None, Unset, int]): Default days until the envelope expires, when the initiator sets none.
        fields (Union[Unset, list['TemplateField']]): At most 500.
        reminder_frequency (Union[None, Unset, int]): Default reminder interval in days.
    """

    expiry_days: Union[None, Unset, int] = UNSET
    fields: Union[Unset, list["TemplateField"]] = UNSET
    reminder_frequency: Union[None, Unset, int] = UNSET

    def to_dict(self) -> dict[str, Any]:
        expiry_days: Union[None, Unset, int]
        if isinstance(self.expiry_days, Unset):
            expiry_days = UNSET
        else:
            expiry_days = self.expiry_days

        fields: Union[Unset, list[dict[str, Any]]] = UNSET
        if not isinstance(self.fields, Unset):
            fields = []
            for fields_item_data in self.fields:
                fields_item = fields_item_data.to_dict()
                fields.append(fields_item)

        reminder_frequency: Union[None, Unset, int]
        if isinstance(self.reminder_frequency, Unset):
            reminder_frequency = UNSET
        else:
            reminder_frequency = self.reminder_frequency

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if expiry_days is not UNSET:
            field_dict["expiryDays"] = expiry_days
        if fields is not UNSET:
            field_dict["fields"] = fields
        if reminder_frequency is not UNSET:
            field_dict["reminderFrequency"] = reminder_frequency

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.template_field import TemplateField

        d = dict(src_dict)

        def _parse_expiry_days(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        expiry_days = _parse_expiry_days(d.pop("expiryDays", UNSET))

        fields = []
        _fields = d.pop("fields", UNSET)
        for fields_item_data in _fields or []:
            fields_item = TemplateField.from_dict(fields_item_data)

            fields.append(fields_item)

        def _parse_reminder_frequency(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        reminder_frequency = _parse_reminder_frequency(
            d.pop("reminderFrequency", UNSET)
        )

        template_definition = cls(
            expiry_days=expiry_days,
            fields=fields,
            reminder_frequency=reminder_frequency,
        )

        return template_definition
