from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="SetPasswordRequest")


@_attrs_define
class SetPasswordRequest:
    """A new password, with the token of a set-password link.

    Attributes:
        password (str): 12 to 256 characters, not one of the commonest passwords from breaches.
        token (str): The token from the link's address (its `token` parameter).
    """

    password: str
    token: str

    def to_dict(self) -> dict[str, Any]:
        password = self.password

        token = self.token

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "password": password,
                "token": token,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        password = d.pop("password")

        token = d.pop("token")

        set_password_request = cls(
            password=password,
            token=token,
        )

        return set_password_request
