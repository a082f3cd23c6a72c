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

T = TypeVar("T", bound="Application")


@_attrs_define
class Application:
    """
    Attributes:
        application_id (int):
        created_at (int):
        revoked (bool):
        role (str):
        role_id (int):
        app_name (Union[None, Unset, str]): Null for the API client made with the tenant.
        client_id (Union[None, Unset, str]):
        updated_at (Union[None, Unset, int]):
    """

    application_id: int
    created_at: int
    revoked: bool
    role: str
    role_id: int
    app_name: Union[None, Unset, str] = UNSET
    client_id: Union[None, Unset, str] = UNSET
    updated_at: Union[None, Unset, int] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        application_id = self.application_id

        created_at = self.created_at

        revoked = self.revoked

        role = self.role

        role_id = self.role_id

        app_name: Union[None, Unset, str]
        if isinstance(self.app_name, Unset):
            app_name = UNSET
        else:
            app_name = self.app_name

        client_id: Union[None, Unset, str]
        if isinstance(self.client_id, Unset):
            client_id = UNSET
        else:
            client_id = self.client_id

        updated_at: Union[None, Unset, int]
        if isinstance(self.updated_at, Unset):
            updated_at = UNSET
        else:
            updated_at = self.updated_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "applicationId": application_id,
                "createdAt": created_at,
                "revoked": revoked,
                "role": role,
                "roleId": role_id,
            }
        )
        if app_name is not UNSET:
            field_dict["appName"] = app_name
        if client_id is not UNSET:
            field_dict["clientId"] = client_id
        if updated_at is not UNSET:
            field_dict["updatedAt"] = updated_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        application_id = d.pop("applicationId")

        created_at = d.pop("createdAt")

        revoked = d.pop("revoked")

        role = d.pop("role")

        role_id = d.pop("roleId")

        def _parse_app_name(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        app_name = _parse_app_name(d.pop("appName", UNSET))

        def _parse_client_id(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        client_id = _parse_client_id(d.pop("clientId", UNSET))

        def _parse_updated_at(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        updated_at = _parse_updated_at(d.pop("updatedAt", UNSET))

        application = cls(
            application_id=application_id,
            created_at=created_at,
            revoked=revoked,
            role=role,
            role_id=role_id,
            app_name=app_name,
            client_id=client_id,
            updated_at=updated_at,
        )

        application.additional_properties = d
        return application

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
