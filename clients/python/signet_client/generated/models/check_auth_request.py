from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="CheckAuthRequest")


@_attrs_define
class CheckAuthRequest:
    """
    Attributes:
        email_id (Union[None, Unset, str]):
        login_type (Union[None, Unset, int]): 1 password, 2 e-mail code, 3 single sign-on.
    """

    email_id: Union[None, Unset, str] = UNSET
    login_type: Union[None, Unset, int] = UNSET

    def to_dict(self) -> dict[str, Any]:
        email_id: Union[None, Unset, str]
        if isinstance(self.email_id, Unset):
            email_id = UNSET
        else:
            email_id = self.email_id

        login_type: Union[None, Unset, int]
        if isinstance(self.login_type, Unset):
            login_type = UNSET
        else:
            login_type = self.login_type

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if email_id is not UNSET:
            field_dict["emailId"] = email_id
        if login_type is not UNSET:
            field_dict["loginType"] = login_type

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_email_id(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        email_id = _parse_email_id(d.pop("emailId", UNSET))

        def _parse_login_type(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        login_type = _parse_login_type(d.pop("loginType", UNSET))

        check_auth_request = cls(
            email_id=email_id,
            login_type=login_type,
        )

        return check_auth_request
