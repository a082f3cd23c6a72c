from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    TypeVar,
)

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.stamp_item import StampItem


T = TypeVar("T", bound="StampBulk")


@_attrs_define
class StampBulk:
    """The spec's `StampBulk`: certificates of one state, loaded all or none.

    Attributes:
        denomination (list['StampItem']): The certificates: 1 to 1000.
        state (str): An Indian state or union territory: its ISO 3166-2:IN code (MH, KA, DL, ...; the 2023 edition's CG,
            OD, TS and UK too), with or without `IN-`, or its name (`&` for `and`; Orissa, Pondicherry, Uttaranchal and NCT
            of Delhi too), in any case. Answers give the code.
    """

    denomination: list["StampItem"]
    state: str

    def to_dict(self) -> dict[str, Any]:
        denomination = []
        for denomination_item_data in self.denomination:
            denomination_item = denomination_item_data.to_dict()
            denomination.append(denomination_item)

        state = self.state

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "denomination": denomination,
                "state": state,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.stamp_item import StampItem

        d = dict(src_dict)
        denomination = []
        _denomination = d.pop("denomination")
        for denomination_item_data in _denomination:
            denomination_item = StampItem.from_dict(denomination_item_data)

            denomination.append(denomination_item)

        state = d.pop("state")

        stamp_bulk = cls(
            denomination=denomination,
            state=state,
        )

        return stamp_bulk
