from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
)

from attrs import define as _attrs_define

from ..models.create_role_request_permissions_item import (
    CreateRoleRequestPermissionsItem,
)

T = TypeVar("T", bound="CreateRoleRequest")


@_attrs_define
class CreateRoleRequest:
    """
    Attributes:
        name (str): 1 to 100 characters, unique in the tenant (ignoring case).
        permissions (list[CreateRoleRequestPermissionsItem]): What the role grants (repeats are ignored).
    """

    name: str
    permissions: list[CreateRoleRequestPermissionsItem]

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        permissions = []
        for permissions_item_data in self.permissions:
            permissions_item = permissions_item_data.value
            permissions.append(permissions_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "permissions": permissions,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        permissions = []
        _permissions = d.pop("permissions")
        for permissions_item_data in _permissions:
            permissions_item = CreateRoleRequestPermissionsItem(permissions_item_data)

            permissions.append(permissions_item)

        create_role_request = cls(
            name=name,
            permissions=permissions,
        )

        return create_role_request
