from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="RoleView")


@_attrs_define
class RoleView:
    """A role: built in (ids 1 to 4) or the tenant's own (ids above 100).

    Attributes:
        built_in (bool):
        name (str):
        permissions (list[str]): `read_workflows`, `send_workflows`, `read_directory`, `manage_people`,
            `manage_settings`,
            `read_audit` (every role may also manage its own account).
        role_id (int): For `roleId` in `CreateInternalUserRequest`.
    """

    built_in: bool
    name: str
    permissions: list[str]
    role_id: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        built_in = self.built_in

        name = self.name

        permissions = self.permissions

        role_id = self.role_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "builtIn": built_in,
                "name": name,
                "permissions": permissions,
                "roleId": role_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        built_in = d.pop("builtIn")

        name = d.pop("name")

        permissions = cast(list[str], d.pop("permissions"))

        role_id = d.pop("roleId")

        role_view = cls(
            built_in=built_in,
            name=name,
            permissions=permissions,
            role_id=role_id,
        )

        role_view.additional_properties = d
        return role_view

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
