from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    TypeVar,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.stamp import Stamp


T = TypeVar("T", bound="LoadedStamps")


@_attrs_define
class LoadedStamps:
    """
    Attributes:
        loaded (int):
        stamps (list['Stamp']):
    """

    loaded: int
    stamps: list["Stamp"]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        loaded = self.loaded

        stamps = []
        for stamps_item_data in self.stamps:
            stamps_item = stamps_item_data.to_dict()
            stamps.append(stamps_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "loaded": loaded,
                "stamps": stamps,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.stamp import Stamp

        d = dict(src_dict)
        loaded = d.pop("loaded")

        stamps = []
        _stamps = d.pop("stamps")
        for stamps_item_data in _stamps:
            stamps_item = Stamp.from_dict(stamps_item_data)

            stamps.append(stamps_item)

        loaded_stamps = cls(
            loaded=loaded,
            stamps=stamps,
        )

        loaded_stamps.additional_properties = d
        return loaded_stamps

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
