from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="StampAlertSettings")


@_attrs_define
class StampAlertSettings:
    """The tenant's low-stock alert: when an allocation brings the available certificates of a
    state and denomination from above `lowStockThreshold` to at or below it, webhooks receive
    `stamps.low_stock` and `alertEmails` an e-mail.

        Attributes:
            alert_emails (Union[Unset, list[str]]): Up to 10 addresses.
            low_stock_threshold (Union[Unset, int]): 0 (the default) switches alerts off.
    """

    alert_emails: Union[Unset, list[str]] = UNSET
    low_stock_threshold: Union[Unset, int] = UNSET

    def to_dict(self) -> dict[str, Any]:
        alert_emails: Union[Unset, list[str]] = UNSET
        if not isinstance(self.alert_emails, Unset):
            alert_emails = self.alert_emails

        low_stock_threshold = self.low_stock_threshold

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if alert_emails is not UNSET:
            field_dict["alertEmails"] = alert_emails
        if low_stock_threshold is not UNSET:
            field_dict["lowStockThreshold"] = low_stock_threshold

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        alert_emails = cast(list[str], d.pop("alertEmails", UNSET))

        low_stock_threshold = d.pop("lowStockThreshold", UNSET)

        stamp_alert_settings = cls(
            alert_emails=alert_emails,
            low_stock_threshold=low_stock_threshold,
        )

        return stamp_alert_settings
