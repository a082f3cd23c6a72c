from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="TemplateRetention")


@_attrs_define
class TemplateRetention:
    """A template's own periods.

    Attributes:
        template_id (int):
        completed_days (Union[None, Unset, int]):
        declined_days (Union[None, Unset, int]):
        expired_days (Union[None, Unset, int]):
    """

    template_id: int
    completed_days: Union[None, Unset, int] = UNSET
    declined_days: Union[None, Unset, int] = UNSET
    expired_days: Union[None, Unset, int] = UNSET

    def to_dict(self) -> dict[str, Any]:
        template_id = self.template_id

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

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "templateId": template_id,
            }
        )
        if completed_days is not UNSET:
            field_dict["completedDays"] = completed_days
        if declined_days is not UNSET:
            field_dict["declinedDays"] = declined_days
        if expired_days is not UNSET:
            field_dict["expiredDays"] = expired_days

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        template_id = d.pop("templateId")

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

        template_retention = cls(
            template_id=template_id,
            completed_days=completed_days,
            declined_days=declined_days,
            expired_days=expired_days,
        )

        return template_retention
