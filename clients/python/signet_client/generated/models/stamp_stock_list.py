from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    TypeVar,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.stamp_stock import StampStock


T = TypeVar("T", bound="StampStockList")


@_attrs_define
class StampStockList:
    """
    Attributes:
        items (list['StampStock']):
        low_stock_threshold (int):
    """

    items: list["StampStock"]
    low_stock_threshold: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)

        low_stock_threshold = self.low_stock_threshold

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "items": items,
                "lowStockThreshold": low_stock_threshold,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.stamp_stock import StampStock

        d = dict(src_dict)
        items = []
        _items = d.pop("items")
        for items_item_data in _items:
            items_item = StampStock.from_dict(items_item_data)

            items.append(items_item)

        low_stock_threshold = d.pop("lowStockThreshold")

        stamp_stock_list = cls(
            items=items,
            low_stock_threshold=low_stock_threshold,
        )

        stamp_stock_list.additional_properties = d
        return stamp_stock_list

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
