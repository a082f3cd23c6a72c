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

T = TypeVar("T", bound="CreateInternalUserResponse")


@_attrs_define
class CreateInternalUserResponse:
    """
    Attributes:
        is_success (bool):
        op_id (int): The id of the audit event that recorded the creation's operation (the user id here).
        subscriber_id (int): The new user's id (`subscriberId` in workflows).
        email (Union[None, Unset, str]):
        message (Union[None, Unset, str]): What happened, e.g. whether a set-password invitation was e-mailed.
        name (Union[None, Unset, str]):
    """

    is_success: bool
    op_id: int
    subscriber_id: int
    email: Union[None, Unset, str] = UNSET
    message: Union[None, Unset, str] = UNSET
    name: Union[None, Unset, str] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        is_success = self.is_success

        op_id = self.op_id

        subscriber_id = self.subscriber_id

        email: Union[None, Unset, str]
        if isinstance(self.email, Unset):
            email = UNSET
        else:
            email = self.email

        message: Union[None, Unset, str]
        if isinstance(self.message, Unset):
            message = UNSET
        else:
            message = self.message

        name: Union[None, Unset, str]
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "isSuccess": is_success,
                "opId": op_id,
                "subscriberId": subscriber_id,
            }
        )
        if email is not UNSET:
            field_dict["email"] = email
        if message is not UNSET:
            field_dict["message"] = message
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        is_success = d.pop("isSuccess")

        op_id = d.pop("opId")

        subscriber_id = d.pop("subscriberId")

        def _parse_email(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        email = _parse_email(d.pop("email", UNSET))

        def _parse_message(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        message = _parse_message(d.pop("message", UNSET))

        def _parse_name(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        name = _parse_name(d.pop("name", UNSET))

        create_internal_user_response = cls(
            is_success=is_success,
            op_id=op_id,
            subscriber_id=subscriber_id,
            email=email,
            message=message,
            name=name,
        )

        create_internal_user_response.additional_properties = d
        return create_internal_user_response

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
