from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.verified_signature import VerifiedSignature


T = TypeVar("T", bound="VerificationReport")


@_attrs_define
class VerificationReport:
    """
    Attributes:
        errors (list[str]): Problems with the file as a whole.
        file_kind (str): `pdf`, `cms` or `xml`.
        signatures (list['VerifiedSignature']):
        summary (str): One sentence about the whole file.
        valid (bool): At least one signature, and every one valid.
    """

    errors: list[str]
    file_kind: str
    signatures: list["VerifiedSignature"]
    summary: str
    valid: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        errors = self.errors

        file_kind = self.file_kind

        signatures = []
        for signatures_item_data in self.signatures:
            signatures_item = signatures_item_data.to_dict()
            signatures.append(signatures_item)

        summary = self.summary

        valid = self.valid

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "errors": errors,
                "fileKind": file_kind,
                "signatures": signatures,
                "summary": summary,
                "valid": valid,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.verified_signature import VerifiedSignature

        d = dict(src_dict)
        errors = cast(list[str], d.pop("errors"))

        file_kind = d.pop("fileKind")

        signatures = []
        _signatures = d.pop("signatures")
        for signatures_item_data in _signatures:
            signatures_item = VerifiedSignature.from_dict(signatures_item_data)

            signatures.append(signatures_item)

        summary = d.pop("summary")

        valid = d.pop("valid")

        verification_report = cls(
            errors=errors,
            file_kind=file_kind,
            signatures=signatures,
            summary=summary,
            valid=valid,
        )

        verification_report.additional_properties = d
        return verification_report

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
