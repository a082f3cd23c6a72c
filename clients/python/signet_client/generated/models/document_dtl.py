from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="DocumentDtl")


@_attrs_define
class DocumentDtl:
    """The spec's `DocumentDtl`.

    Attributes:
        doc_data (Union[None, Unset, str]): The PDF, base64 (instead of `fileData`).
        doc_ref_no (Union[None, Unset, str]):
        document_id (Union[None, Unset, str]):
    """

    doc_data: Union[None, Unset, str] = UNSET
    doc_ref_no: Union[None, Unset, str] = UNSET
    document_id: Union[None, Unset, str] = UNSET

    def to_dict(self) -> dict[str, Any]:
        doc_data: Union[None, Unset, str]
        if isinstance(self.doc_data, Unset):
            doc_data = UNSET
        else:
            doc_data = self.doc_data

        doc_ref_no: Union[None, Unset, str]
        if isinstance(self.doc_ref_no, Unset):
            doc_ref_no = UNSET
        else:
            doc_ref_no = self.doc_ref_no

        document_id: Union[None, Unset, str]
        if isinstance(self.document_id, Unset):
            document_id = UNSET
        else:
            document_id = self.document_id

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if doc_data is not UNSET:
            field_dict["docData"] = doc_data
        if doc_ref_no is not UNSET:
            field_dict["docRefNo"] = doc_ref_no
        if document_id is not UNSET:
            field_dict["documentID"] = document_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_doc_data(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        doc_data = _parse_doc_data(d.pop("docData", UNSET))

        def _parse_doc_ref_no(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        doc_ref_no = _parse_doc_ref_no(d.pop("docRefNo", UNSET))

        def _parse_document_id(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        document_id = _parse_document_id(d.pop("documentID", UNSET))

        document_dtl = cls(
            doc_data=doc_data,
            doc_ref_no=doc_ref_no,
            document_id=document_id,
        )

        return document_dtl
