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

T = TypeVar("T", bound="AccessUser")


@_attrs_define
class AccessUser:
    """
    Attributes:
        subscriber_id (int):
        email_id (Union[None, Unset, str]):
        name (Union[None, Unset, str]):
        profileimg (Union[None, Unset, str]): Not kept by Signet: always null.
    """

    subscriber_id: int
    email_id: Union[None, Unset, str] = UNSET
    name: Union[None, Unset, str] = UNSET
    profileimg: Union[None, Unset, str] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        subscriber_id = self.subscriber_id

        email_id: Union[None, Unset, str]
        if isinstance(self.email_id, Unset):
            email_id = UNSET
        else:
            email_id = self.email_id

        name: Union[None, Unset, str]
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        profileimg: Union[None, Unset, str]
        if isinstance(self.profileimg, Unset):
            profileimg = UNSET
        else:
            profileimg = self.profileimg

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "subscriberID": subscriber_id,
            }
        )
        if email_id is not UNSET:
            field_dict["emailID"] = email_id
        if name is not UNSET:
            field_dict["name"] = name
        if profileimg is not UNSET:
            field_dict["profileimg"] = profileimg

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        subscriber_id = d.pop("subscriberID")

        def _parse_email_id(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        email_id = _parse_email_id(d.pop("emailID", UNSET))

        def _parse_name(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        name = _parse_name(d.pop("name", UNSET))

        def _parse_profileimg(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        profileimg = _parse_profileimg(d.pop("profileimg", UNSET))

        access_user = cls(
            subscriber_id=subscriber_id,
            email_id=email_id,
            name=name,
            profileimg=profileimg,
        )

        access_user.additional_properties = d
        return access_user

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
