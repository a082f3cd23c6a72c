from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    TypeVar,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.erased_record import ErasedRecord
    from ..models.kept_record import KeptRecord


T = TypeVar("T", bound="ErasureResult")


@_attrs_define
class ErasureResult:
    """What an erasure request did.

    Attributes:
        erased (list['ErasedRecord']):
        kept (list['KeptRecord']):
        more (bool): More than 200 workflows of the person: send the request again for the rest.
    """

    erased: list["ErasedRecord"]
    kept: list["KeptRecord"]
    more: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        erased = []
        for erased_item_data in self.erased:
            erased_item = erased_item_data.to_dict()
            erased.append(erased_item)

        kept = []
        for kept_item_data in self.kept:
            kept_item = kept_item_data.to_dict()
            kept.append(kept_item)

        more = self.more

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "erased": erased,
                "kept": kept,
                "more": more,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.erased_record import ErasedRecord
        from ..models.kept_record import KeptRecord

        d = dict(src_dict)
        erased = []
        _erased = d.pop("erased")
        for erased_item_data in _erased:
            erased_item = ErasedRecord.from_dict(erased_item_data)

            erased.append(erased_item)

        kept = []
        _kept = d.pop("kept")
        for kept_item_data in _kept:
            kept_item = KeptRecord.from_dict(kept_item_data)

            kept.append(kept_item)

        more = d.pop("more")

        erasure_result = cls(
            erased=erased,
            kept=kept,
            more=more,
        )

        erasure_result.additional_properties = d
        return erasure_result

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
