from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="GetUserLoginModesRequest")


@_attrs_define
class GetUserLoginModesRequest:
    """
    Attributes:
        email_id (str):
    """

    email_id: str

    def to_dict(self) -> dict[str, Any]:
        email_id = self.email_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "emailId": email_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        email_id = d.pop("emailId")

        get_user_login_modes_request = cls(
            email_id=email_id,
        )

        return get_user_login_modes_request
