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

T = TypeVar("T", bound="ParallelSigningURL")


@_attrs_define
class ParallelSigningURL:
    """The spec's `ParallelSigningURL`: one signatory's link.

    Attributes:
        email_id (str):
        identification_number (str): The signatory's id.
        name (str):
        sequence_number (int):
        url (str):
        mobile_no (Union[None, Unset, str]): The signatory's mobile number in international form (`+919876543210`), when
            the
            initiator gave one (`mobileNo`).
    """

    email_id: str
    identification_number: str
    name: str
    sequence_number: int
    url: str
    mobile_no: Union[None, Unset, str] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        email_id = self.email_id

        identification_number = self.identification_number

        name = self.name

        sequence_number = self.sequence_number

        url = self.url

        mobile_no: Union[None, Unset, str]
        if isinstance(self.mobile_no, Unset):
            mobile_no = UNSET
        else:
            mobile_no = self.mobile_no

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "emailId": email_id,
                "identificationNumber": identification_number,
                "name": name,
                "sequenceNumber": sequence_number,
                "url": url,
            }
        )
        if mobile_no is not UNSET:
            field_dict["mobileNo"] = mobile_no

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        email_id = d.pop("emailId")

        identification_number = d.pop("identificationNumber")

        name = d.pop("name")

        sequence_number = d.pop("sequenceNumber")

        url = d.pop("url")

        def _parse_mobile_no(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        mobile_no = _parse_mobile_no(d.pop("mobileNo", UNSET))

        parallel_signing_url = cls(
            email_id=email_id,
            identification_number=identification_number,
            name=name,
            sequence_number=sequence_number,
            url=url,
            mobile_no=mobile_no,
        )

        parallel_signing_url.additional_properties = d
        return parallel_signing_url

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
