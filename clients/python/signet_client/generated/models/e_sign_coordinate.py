from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ESignCoordinate")


@_attrs_define
class ESignCoordinate:
    """The spec's `ESignCoordinate`.

    Attributes:
        coordinates (Union[None, Unset, list[str]]): `page,left,top,width,height`, 1 to 20 boxes.
        document_id (Union[Unset, int]):
        prtcptentty_id (Union[Unset, int]):
    """

    coordinates: Union[None, Unset, list[str]] = UNSET
    document_id: Union[Unset, int] = UNSET
    prtcptentty_id: Union[Unset, int] = UNSET

    def to_dict(self) -> dict[str, Any]:
        coordinates: Union[None, Unset, list[str]]
        if isinstance(self.coordinates, Unset):
            coordinates = UNSET
        elif isinstance(self.coordinates, list):
            coordinates = self.coordinates

        else:
            coordinates = self.coordinates

        document_id = self.document_id

        prtcptentty_id = self.prtcptentty_id

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if coordinates is not UNSET:
            field_dict["coordinates"] = coordinates
        if document_id is not UNSET:
            field_dict["documentID"] = document_id
        if prtcptentty_id is not UNSET:
            field_dict["prtcptenttyId"] = prtcptentty_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_coordinates(data: object) -> Union[None, Unset, list[str]]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                coordinates_type_0 = cast(list[str], data)

                return coordinates_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, Unset, list[str]], data)

        coordinates = _parse_coordinates(d.pop("coordinates", UNSET))

        document_id = d.pop("documentID", UNSET)

        prtcptentty_id = d.pop("prtcptenttyId", UNSET)

        e_sign_coordinate = cls(
            coordinates=coordinates,
            document_id=document_id,
            prtcptentty_id=prtcptentty_id,
        )

        return e_sign_coordinate
