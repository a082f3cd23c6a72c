from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="AuthorizeAppRequest")


@_attrs_define
class AuthorizeAppRequest:
    """
    Attributes:
        app_name (str):
        secret_key (str):
    """

    app_name: str
    secret_key: str

    def to_dict(self) -> dict[str, Any]:
        app_name = self.app_name

        secret_key = self.secret_key

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "appName": app_name,
                "secretKey": secret_key,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        app_name = d.pop("appName")

        secret_key = d.pop("secretKey")

        authorize_app_request = cls(
            app_name=app_name,
            secret_key=secret_key,
        )

        return authorize_app_request
