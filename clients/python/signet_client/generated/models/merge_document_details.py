from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="MergeDocumentDetails")


@_attrs_define
class MergeDocumentDetails:
    """A document merged after a document (`lstDocumentDetails`): given as `fileData`, or as a
    stored document of the tenant (`parentDocumentId`, uploaded with `POST /api/v1/documents`).
    With `addSignaturePlaceholder`, the signers' signature fields go on its last page as well.

        Attributes:
            add_signature_placeholder (Union[Unset, bool]):
            document_name (Union[None, Unset, str]): The title of the bookmark that leads to the merged pages.
            file_data (Union[None, Unset, str]):
            parent_document_id (Union[Unset, int]):
    """

    add_signature_placeholder: Union[Unset, bool] = UNSET
    document_name: Union[None, Unset, str] = UNSET
    file_data: Union[None, Unset, str] = UNSET
    parent_document_id: Union[Unset, int] = UNSET

    def to_dict(self) -> dict[str, Any]:
        add_signature_placeholder = self.add_signature_placeholder

        document_name: Union[None, Unset, str]
        if isinstance(self.document_name, Unset):
            document_name = UNSET
        else:
            document_name = self.document_name

        file_data: Union[None, Unset, str]
        if isinstance(self.file_data, Unset):
            file_data = UNSET
        else:
            file_data = self.file_data

        parent_document_id = self.parent_document_id

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if add_signature_placeholder is not UNSET:
            field_dict["addSignaturePlaceholder"] = add_signature_placeholder
        if document_name is not UNSET:
            field_dict["documentName"] = document_name
        if file_data is not UNSET:
            field_dict["fileData"] = file_data
        if parent_document_id is not UNSET:
            field_dict["parentDocumentId"] = parent_document_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        add_signature_placeholder = d.pop("addSignaturePlaceholder", UNSET)

        def _parse_document_name(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        document_name = _parse_document_name(d.pop("documentName", UNSET))

        def _parse_file_data(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        file_data = _parse_file_data(d.pop("fileData", UNSET))

        parent_document_id = d.pop("parentDocumentId", UNSET)

        merge_document_details = cls(
            add_signature_placeholder=add_signature_placeholder,
            document_name=document_name,
            file_data=file_data,
            parent_document_id=parent_document_id,
        )

        return merge_document_details
