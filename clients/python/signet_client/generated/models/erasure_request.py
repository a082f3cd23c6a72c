from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ErasureRequest")


@_attrs_define
class ErasureRequest:
    """Whose data to erase: an e-mail address, a mobile number, or both (at least one; neither
    may be null).

        Attributes:
            email (Union[Unset, str]):
            phone (Union[Unset, str]): 7 to 15 digits, an optional leading `+`, single spaces or hyphens between digits; ten
                digits without a country code are an Indian mobile number (+91).
    """

    email: Union[Unset, str] = UNSET
    phone: Union[Unset, str] = UNSET

    def to_dict(self) -> dict[str, Any]:
        email = self.email

        phone = self.phone

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if email is not UNSET:
            field_dict["email"] = email
        if phone is not UNSET:
            field_dict["phone"] = phone

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        email = d.pop("email", UNSET)

        phone = d.pop("phone", UNSET)

        erasure_request = cls(
            email=email,
            phone=phone,
        )

        return erasure_request
