from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="DocumentUploadRequest")


@_attrs_define
class DocumentUploadRequest:
    """
    Attributes:
        file_data (str): The PDF (1 to 2000 pages, not encrypted), base64; a `data:` URL prefix is allowed.
        category_id (Union[None, Unset, int]):
        document_name (Union[None, Unset, str]): File name shown to signers (default `document.pdf`), at most 200
            characters, without
            control characters or slashes.
        reference_no (Union[None, Unset, str]):
    """

    file_data: str
    category_id: Union[None, Unset, int] = UNSET
    document_name: Union[None, Unset, str] = UNSET
    reference_no: Union[None, Unset, str] = UNSET

    def to_dict(self) -> dict[str, Any]:
        file_data = self.file_data

        category_id: Union[None, Unset, int]
        if isinstance(self.category_id, Unset):
            category_id = UNSET
        else:
            category_id = self.category_id

        document_name: Union[None, Unset, str]
        if isinstance(self.document_name, Unset):
            document_name = UNSET
        else:
            document_name = self.document_name

        reference_no: Union[None, Unset, str]
        if isinstance(self.reference_no, Unset):
            reference_no = UNSET
        else:
            reference_no = self.reference_no

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "fileData": file_data,
            }
        )
        if category_id is not UNSET:
            field_dict["categoryId"] = category_id
        if document_name is not UNSET:
            field_dict["documentName"] = document_name
        if reference_no is not UNSET:
            field_dict["referenceNo"] = reference_no

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        file_data = d.pop("fileData")

        def _parse_category_id(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        category_id = _parse_category_id(d.pop("categoryId", UNSET))

        def _parse_document_name(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        document_name = _parse_document_name(d.pop("documentName", UNSET))

        def _parse_reference_no(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        reference_no = _parse_reference_no(d.pop("referenceNo", UNSET))

        document_upload_request = cls(
            file_data=file_data,
            category_id=category_id,
            document_name=document_name,
            reference_no=reference_no,
        )

        return document_upload_request
