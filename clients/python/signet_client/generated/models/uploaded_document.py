from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="UploadedDocument")


@_attrs_define
class UploadedDocument:
    """An uploaded document.

    Attributes:
        document_id (int):
        document_name (str):
        pages (int):
        sha256 (str): SHA-256 of the uploaded file, hex.
        size_bytes (int):
    """

    document_id: int
    document_name: str
    pages: int
    sha256: str
    size_bytes: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        document_id = self.document_id

        document_name = self.document_name

        pages = self.pages

        sha256 = self.sha256

        size_bytes = self.size_bytes

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "documentId": document_id,
                "documentName": document_name,
                "pages": pages,
                "sha256": sha256,
                "sizeBytes": size_bytes,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        document_id = d.pop("documentId")

        document_name = d.pop("documentName")

        pages = d.pop("pages")

        sha256 = d.pop("sha256")

        size_bytes = d.pop("sizeBytes")

        uploaded_document = cls(
            document_id=document_id,
            document_name=document_name,
            pages=pages,
            sha256=sha256,
            size_bytes=size_bytes,
        )

        uploaded_document.additional_properties = d
        return uploaded_document

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
