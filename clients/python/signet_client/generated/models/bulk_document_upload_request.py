from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    TypeVar,
)

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.document_upload_request import DocumentUploadRequest


T = TypeVar("T", bound="BulkDocumentUploadRequest")


@_attrs_define
class BulkDocumentUploadRequest:
    """
    Attributes:
        documents (list['DocumentUploadRequest']): 1 to 20 documents, all stored or none.
    """

    documents: list["DocumentUploadRequest"]

    def to_dict(self) -> dict[str, Any]:
        documents = []
        for documents_item_data in self.documents:
            documents_item = documents_item_data.to_dict()
            documents.append(documents_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "documents": documents,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.document_upload_request import DocumentUploadRequest

        d = dict(src_dict)
        documents = []
        _documents = d.pop("documents")
        for documents_item_data in _documents:
            documents_item = DocumentUploadRequest.from_dict(documents_item_data)

            documents.append(documents_item)

        bulk_document_upload_request = cls(
            documents=documents,
        )

        return bulk_document_upload_request
