from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="MergeDocument")


@_attrs_define
class MergeDocument:
    """A document appended after a template's document.

    Attributes:
        document_name (Union[None, Unset, str]): The title of the bookmark that leads to the merged pages.
        file_data (Union[None, Unset, str]):
    """

    document_name: Union[None, Unset, str] = UNSET
    file_data: Union[None, Unset, str] = UNSET

    def to_dict(self) -> dict[str, Any]:
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

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if document_name is not UNSET:
            field_dict["documentName"] = document_name
        if file_data is not UNSET:
            field_dict["fileData"] = file_data

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

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

        merge_document = cls(
            document_name=document_name,
            file_data=file_data,
        )

        return merge_document
