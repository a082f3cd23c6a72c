from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    TypeVar,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.stamp_invoice_list_item import StampInvoiceListItem


T = TypeVar("T", bound="StampInvoicePage")


@_attrs_define
class StampInvoicePage:
    """A page of the documents issued to the tenant, newest first.

    Attributes:
        items (list['StampInvoiceListItem']):
        page_number (int):
        page_size (int):
        total_count (int):
    """

    items: list["StampInvoiceListItem"]
    page_number: int
    page_size: int
    total_count: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)

        page_number = self.page_number

        page_size = self.page_size

        total_count = self.total_count

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "items": items,
                "pageNumber": page_number,
                "pageSize": page_size,
                "totalCount": total_count,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.stamp_invoice_list_item import StampInvoiceListItem

        d = dict(src_dict)
        items = []
        _items = d.pop("items")
        for items_item_data in _items:
            items_item = StampInvoiceListItem.from_dict(items_item_data)

            items.append(items_item)

        page_number = d.pop("pageNumber")

        page_size = d.pop("pageSize")

        total_count = d.pop("totalCount")

        stamp_invoice_page = cls(
            items=items,
            page_number=page_number,
            page_size=page_size,
            total_count=total_count,
        )

        stamp_invoice_page.additional_properties = d
        return stamp_invoice_page

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
