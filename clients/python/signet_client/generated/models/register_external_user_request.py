from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="RegisterExternalUserRequest")


@_attrs_define
class RegisterExternalUserRequest:
    """A person registering with a tenant as an external user (a customer or counterparty).

    Attributes:
        email_id (str):
        name (str): 1 to 150 characters, no control characters.
        contact_number (Union[None, Unset, str]):
        organization (Union[None, Unset, str]):
    """

    email_id: str
    name: str
    contact_number: Union[None, Unset, str] = UNSET
    organization: Union[None, Unset, str] = UNSET

    def to_dict(self) -> dict[str, Any]:
        email_id = self.email_id

        name = self.name

        contact_number: Union[None, Unset, str]
        if isinstance(self.contact_number, Unset):
            contact_number = UNSET
        else:
            contact_number = self.contact_number

        organization: Union[None, Unset, str]
        if isinstance(self.organization, Unset):
            organization = UNSET
        else:
            organization = self.organization

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "emailID": email_id,
                "name": name,
            }
        )
        if contact_number is not UNSET:
            field_dict["contactNumber"] = contact_number
        if organization is not UNSET:
            field_dict["organization"] = organization

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        email_id = d.pop("emailID")

        name = d.pop("name")

        def _parse_contact_number(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        contact_number = _parse_contact_number(d.pop("contactNumber", UNSET))

        def _parse_organization(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        organization = _parse_organization(d.pop("organization", UNSET))

        register_external_user_request = cls(
            email_id=email_id,
            name=name,
            contact_number=contact_number,
            organization=organization,
        )

        return register_external_user_request
