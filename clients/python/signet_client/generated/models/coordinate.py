from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="Coordinate")


@_attrs_define
class Coordinate:
    """
    Attributes:
        control_type (Union[Unset, int]):
        height (Union[Unset, int]):
        is_mandatory (Union[Unset, int]):
        left (Union[Unset, int]):
        page (Union[None, Unset, str]): "first", "last" or "all", when no pageNumber is given.
        page_number (Union[None, Unset, str]): One page or a comma-separated list ("1,3").
        top (Union[Unset, int]):
        width (Union[Unset, int]):
    """

    control_type: Union[Unset, int] = UNSET
    height: Union[Unset, int] = UNSET
    is_mandatory: Union[Unset, int] = UNSET
    left: Union[Unset, int] = UNSET
    page: Union[None, Unset, str] = UNSET
    page_number: Union[None, Unset, str] = UNSET
    top: Union[Unset, int] = UNSET
    width: Union[Unset, int] = UNSET

    def to_dict(self) -> dict[str, Any]:
        control_type = self.control_type

        height = self.height

        is_mandatory = self.is_mandatory

        left = self.left

        page: Union[None, Unset, str]
        if isinstance(self.page, Unset):
            page = UNSET
        else:
            page = self.page

        page_number: Union[None, Unset, str]
        if isinstance(self.page_number, Unset):
            page_number = UNSET
        else:
            page_number = self.page_number

        top = self.top

        width = self.width

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if control_type is not UNSET:
            field_dict["controlType"] = control_type
        if height is not UNSET:
            field_dict["height"] = height
        if is_mandatory is not UNSET:
            field_dict["isMandatory"] = is_mandatory
        if left is not UNSET:
            field_dict["left"] = left
        if page is not UNSET:
            field_dict["page"] = page
        if page_number is not UNSET:
            field_dict["pageNumber"] = page_number
        if top is not UNSET:
            field_dict["top"] = top
        if width is not UNSET:
            field_dict["width"] = width

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        control_type = d.pop("controlType", UNSET)

        height = d.pop("height", UNSET)

        is_mandatory = d.pop("isMandatory", UNSET)

        left = d.pop("left", UNSET)

        def _parse_page(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        page = _parse_page(d.pop("page", UNSET))

        def _parse_page_number(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        page_number = _parse_page_number(d.pop("pageNumber", UNSET))

        top = d.pop("top", UNSET)

        width = d.pop("width", UNSET)

        coordinate = cls(
            control_type=control_type,
            height=height,
            is_mandatory=is_mandatory,
            left=left,
            page=page,
            page_number=page_number,
            top=top,
            width=width,
        )

        return coordinate
