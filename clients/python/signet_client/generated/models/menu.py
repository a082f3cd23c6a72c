from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="Menu")


@_attrs_define
class Menu:
    """A menu entry: an activity, or a template.

    Attributes:
        created_at (int):
        kind (str): `activity` or `template`.
        menu_id (int):
        menu_name (str):
        menu_parent_id (Union[None, Unset, int]):
        template_id (Union[None, Unset, int]):
    """

    created_at: int
    kind: str
    menu_id: int
    menu_name: str
    menu_parent_id: Union[None, Unset, int] = UNSET
    template_id: Union[None, Unset, int] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at

        kind = self.kind

        menu_id = self.menu_id

        menu_name = self.menu_name

        menu_parent_id: Union[None, Unset, int]
        if isinstance(self.menu_parent_id, Unset):
            menu_parent_id = UNSET
        else:
            menu_parent_id = self.menu_parent_id

        template_id: Union[None, Unset, int]
        if isinstance(self.template_id, Unset):
            template_id = UNSET
        else:
            template_id = self.template_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "kind": kind,
                "menuId": menu_id,
                "menuName": menu_name,
            }
        )
        if menu_parent_id is not UNSET:
            field_dict["menuParentId"] = menu_parent_id
        if template_id is not UNSET:
            field_dict["templateId"] = template_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = d.pop("createdAt")

        kind = d.pop("kind")

        menu_id = d.pop("menuId")

        menu_name = d.pop("menuName")

        def _parse_menu_parent_id(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        menu_parent_id = _parse_menu_parent_id(d.pop("menuParentId", UNSET))

        def _parse_template_id(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        template_id = _parse_template_id(d.pop("templateId", UNSET))

        menu = cls(
            created_at=created_at,
            kind=kind,
            menu_id=menu_id,
            menu_name=menu_name,
            menu_parent_id=menu_parent_id,
            template_id=template_id,
        )

        menu.additional_properties = d
        return menu

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
