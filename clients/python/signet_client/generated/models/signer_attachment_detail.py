from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="SignerAttachmentDetail")


@_attrs_define
class SignerAttachmentDetail:
    """
    Attributes:
        base_64_file_data (str):
        document_name (str):
        description (Union[None, Unset, str]):
    """

    base_64_file_data: str
    document_name: str
    description: Union[None, Unset, str] = UNSET

    def to_dict(self) -> dict[str, Any]:
        base_64_file_data = self.base_64_file_data

        document_name = self.document_name

        description: Union[None, Unset, str]
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "base64FileData": base_64_file_data,
                "documentName": document_name,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        base_64_file_data = d.pop("base64FileData")

        document_name = d.pop("documentName")

        def _parse_description(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        description = _parse_description(d.pop("description", UNSET))

        signer_attachment_detail = cls(
            base_64_file_data=base_64_file_data,
            document_name=document_name,
            description=description,
        )

        return signer_attachment_detail
