from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    TypeVar,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.application import Application


T = TypeVar("T", bound="ApplicationSecret")


@_attrs_define
class ApplicationSecret:
    """An application with its secret key, shown once.

    Attributes:
        application (Application):
        secret_key (str): For `AuthorizeAppRequest.secretKey`; Signet keeps only its hash.
    """

    application: "Application"
    secret_key: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        application = self.application.to_dict()

        secret_key = self.secret_key

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "application": application,
                "secretKey": secret_key,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.application import Application

        d = dict(src_dict)
        application = Application.from_dict(d.pop("application"))

        secret_key = d.pop("secretKey")

        application_secret = cls(
            application=application,
            secret_key=secret_key,
        )

        application_secret.additional_properties = d
        return application_secret

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
