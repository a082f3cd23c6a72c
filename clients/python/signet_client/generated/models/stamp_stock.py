from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="StampStock")


@_attrs_define
class StampStock:
    """One state and denomination of the inventory.

    Attributes:
        allocated (int):
        available (int):
        denomination (int):
        low (bool): Available stock is at or below the tenant's threshold (never when alerts are off).
        reserved (int):
        retired (int):
        state (str):
    """

    allocated: int
    available: int
    denomination: int
    low: bool
    reserved: int
    retired: int
    state: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        allocated = self.allocated

        available = self.available

        denomination = self.denomination

        low = self.low

        reserved = self.reserved

        retired = self.retired

        state = self.state

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "allocated": allocated,
                "available": available,
                "denomination": denomination,
                "low": low,
                "reserved": reserved,
                "retired": retired,
                "state": state,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        allocated = d.pop("allocated")

        available = d.pop("available")

        denomination = d.pop("denomination")

        low = d.pop("low")

        reserved = d.pop("reserved")

        retired = d.pop("retired")

        state = d.pop("state")

        stamp_stock = cls(
            allocated=allocated,
            available=available,
            denomination=denomination,
            low=low,
            reserved=reserved,
            retired=retired,
            state=state,
        )

        stamp_stock.additional_properties = d
        return stamp_stock

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
