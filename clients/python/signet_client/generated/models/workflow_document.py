from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="WorkflowDocument")


@_attrs_define
class WorkflowDocument:
    """
    Attributes:
        current_sha_256 (str): SHA-256 of the newest version (with every signature so far).
        document_id (int):
        document_name (str):
        original_sha_256 (str): SHA-256 of the uploaded file.
        pages (int):
        state (str):
        version (int):
    """

    current_sha_256: str
    document_id: int
    document_name: str
    original_sha_256: str
    pages: int
    state: str
    version: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        current_sha_256 = self.current_sha_256

        document_id = self.document_id

        document_name = self.document_name

        original_sha_256 = self.original_sha_256

        pages = self.pages

        state = self.state

        version = self.version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "currentSha256": current_sha_256,
                "documentId": document_id,
                "documentName": document_name,
                "originalSha256": original_sha_256,
                "pages": pages,
                "state": state,
                "version": version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        current_sha_256 = d.pop("currentSha256")

        document_id = d.pop("documentId")

        document_name = d.pop("documentName")

        original_sha_256 = d.pop("originalSha256")

        pages = d.pop("pages")

        state = d.pop("state")

        version = d.pop("version")

        workflow_document = cls(
            current_sha_256=current_sha_256,
            document_id=document_id,
            document_name=document_name,
            original_sha_256=original_sha_256,
            pages=pages,
            state=state,
            version=version,
        )

        workflow_document.additional_properties = d
        return workflow_document

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
