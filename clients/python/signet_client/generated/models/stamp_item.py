from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="StampItem")


@_attrs_define
class StampItem:
    """The spec's `StampItem`: one certificate of a load.

    Attributes:
        denomination (int): The certificate's amount in rupees.
        reference_no (str): The certificate number (e.g. `IN-DL12345678901234X`), unique in the tenant's inventory
            ignoring case.
        certificate_file (Union[None, Unset, str]): Signet's addition to the spec's object: the certificate as issued (a
            PDF of 1 to 4 pages,
            base64, at most 2 MiB). Its pages go in front of the document it is allocated to; without
            it Signet makes a certificate page.
    """

    denomination: int
    reference_no: str
    certificate_file: Union[None, Unset, str] = UNSET

    def to_dict(self) -> dict[str, Any]:
        denomination = self.denomination

        reference_no = self.reference_no

        certificate_file: Union[None, Unset, str]
        if isinstance(self.certificate_file, Unset):
            certificate_file = UNSET
        else:
            certificate_file = self.certificate_file

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "denomination": denomination,
                "referenceNo": reference_no,
            }
        )
        if certificate_file is not UNSET:
            field_dict["certificateFile"] = certificate_file

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        denomination = d.pop("denomination")

        reference_no = d.pop("referenceNo")

        def _parse_certificate_file(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        certificate_file = _parse_certificate_file(d.pop("certificateFile", UNSET))

        stamp_item = cls(
            denomination=denomination,
            reference_no=reference_no,
            certificate_file=certificate_file,
        )

        return stamp_item
