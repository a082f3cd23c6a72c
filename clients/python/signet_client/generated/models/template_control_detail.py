from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="TemplateControlDetail")


@_attrs_define
class TemplateControlDetail:
    """A value for one of the document's form fields (`fieldName`, fully qualified as
    `parent.child`): `fieldValue` for a text field, `isChecked` (`true`/`false`) for a
    checkbox, `fieldValue` (the option) with `isSelected` (default `true`) for a radio group or
    a choice field, `imageData` (PNG or JPEG, base64) for an image field (a push button).
    `fieldType`, when given (`text`, `checkbox`, `radio`, `choice`, `image`), must match the
    field.

        Attributes:
            field_name (Union[None, Unset, str]):
            field_type (Union[None, Unset, str]):
            field_value (Union[None, Unset, str]):
            image_data (Union[None, Unset, str]): PNG or JPEG, base64, at most 5 MiB decoded.
            is_checked (Union[None, Unset, str]):
            is_selected (Union[None, Unset, str]):
    """

    field_name: Union[None, Unset, str] = UNSET
    field_type: Union[None, Unset, str] = UNSET
    field_value: Union[None, Unset, str] = UNSET
    image_data: Union[None, Unset, str] = UNSET
    is_checked: Union[None, Unset, str] = UNSET
    is_selected: Union[None, Unset, str] = UNSET

    def to_dict(self) -> dict[str, Any]:
        field_name: Union[None, Unset, str]
        if isinstance(self.field_name, Unset):
            field_name = UNSET
        else:
            field_name = self.field_name

        field_type: Union[None, Unset, str]
        if isinstance(self.field_type, Unset):
            field_type = UNSET
        else:
            field_type = self.field_type

        field_value: Union[None, Unset, str]
        if isinstance(self.field_value, Unset):
            field_value = UNSET
        else:
            field_value = self.field_value

        image_data: Union[None, Unset, str]
        if isinstance(self.image_data, Unset):
            image_data = UNSET
        else:
            image_data = self.image_data

        is_checked: Union[None, Unset, str]
        if isinstance(self.is_checked, Unset):
            is_checked = UNSET
        else:
            is_checked = self.is_checked

        is_selected: Union[None, Unset, str]
        if isinstance(self.is_selected, Unset):
            is_selected = UNSET
        else:
            is_selected = self.is_selected

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if field_name is not UNSET:
            field_dict["fieldName"] = field_name
        if field_type is not UNSET:
            field_dict["fieldType"] = field_type
        if field_value is not UNSET:
            field_dict["fieldValue"] = field_value
        if image_data is not UNSET:
            field_dict["imageData"] = image_data
        if is_checked is not UNSET:
            field_dict["isChecked"] = is_checked
        if is_selected is not UNSET:
            field_dict["isSelected"] = is_selected

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_field_name(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        field_name = _parse_field_name(d.pop("fieldName", UNSET))

        def _parse_field_type(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        field_type = _parse_field_type(d.pop("fieldType", UNSET))

        def _parse_field_value(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        field_value = _parse_field_value(d.pop("fieldValue", UNSET))

        def _parse_image_data(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        image_data = _parse_image_data(d.pop("imageData", UNSET))

        def _parse_is_checked(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        is_checked = _parse_is_checked(d.pop("isChecked", UNSET))

        def _parse_is_selected(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        is_selected = _parse_is_selected(d.pop("isSelected", UNSET))

        template_control_detail = cls(
            field_name=field_name,
            field_type=field_type,
            field_value=field_value,
            image_data=image_data,
            is_checked=is_checked,
            is_selected=is_selected,
        )

        return template_control_detail
