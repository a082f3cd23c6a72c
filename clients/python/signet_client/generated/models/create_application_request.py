from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="CreateApplicationRequest")


@_attrs_define
class CreateApplicationRequest:
    """
    Attributes:
        app_name (str): 1 to 100 characters, no control characters; unique among the tenant's applications.
        role_id (int): What its tokens may do: 1 administrator, 2 sender, 3 signer, 4 auditor.
    """

    app_name: str
    role_id: int

    def to_dict(self) -> dict[str, Any]:
        app_name = self.app_name

        role_id = self.role_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "appName": app_name,
                "roleId": role_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        app_name = d.pop("appName")

        role_id = d.pop("roleId")

        create_application_request = cls(
            app_name=app_name,
            role_id=role_id,
        )

        return create_application_request
