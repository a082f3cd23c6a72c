from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="QRCoordinate")


@_attrs_define
class QRCoordinate:
    """Where a QR code leading to the document's public verification page (`/verify/d/...`) is
    drawn: a box in points from the page's top-left corner (width and height 0: one inch; a
    smaller box is enlarged to 40 points so that phones read the code), on the pages of
    `pageNumber` ("1" or "1,3"), else of `selectedPage`, else the first page.

        Attributes:
            height (Union[Unset, int]):
            left (Union[Unset, int]):
            page_number (Union[None, Unset, str]):
            selected_page (Union[None, Unset, str]):
            top (Union[Unset, int]):
            width (Union[Unset, int]):
    """

    height: Union[Unset, int] = UNSET
    left: Union[Unset, int] = UNSET
    page_number: Union[None, Unset, str] = UNSET
    selected_page: Union[None, Unset, str] = UNSET
    top: Union[Unset, int] = UNSET
    width: Union[Unset, int] = UNSET

    def to_dict(self) -> dict[str, Any]:
        height = self.height

        left = self.left

        page_number: Union[None, Unset, str]
        if isinstance(self.page_number, Unset):
            page_number = UNSET
        else:
            page_number = self.page_number

        selected_page: Union[None, Unset, str]
        if isinstance(self.selected_page, Unset):
            selected_page = UNSET
        else:
            selected_page = self.selected_page

        top = self.top

        width = self.width

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if height is not UNSET:
            field_dict["height"] = height
        if left is not UNSET:
            field_dict["left"] = left
        if page_number is not UNSET:
            field_dict["pageNumber"] = page_number
        if selected_page is not UNSET:
            field_dict["selectedPage"] = selected_page
        if top is not UNSET:
            field_dict["top"] = top
        if width is not UNSET:
            field_dict["width"] = width

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        height = d.pop("height", UNSET)

        left = d.pop("left", UNSET)

        def _parse_page_number(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        page_number = _parse_page_number(d.pop("pageNumber", UNSET))

        def _parse_selected_page(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        selected_page = _parse_selected_page(d.pop("selectedPage", UNSET))

        top = d.pop("top", UNSET)

        width = d.pop("width", UNSET)

        qr_coordinate = cls(
            height=height,
            left=left,
            page_number=page_number,
            selected_page=selected_page,
            top=top,
            width=width,
        )

        return qr_coordinate
