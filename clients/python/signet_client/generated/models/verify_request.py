from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="VerifyRequest")


@_attrs_define
class VerifyRequest:
    """
    Attributes:
        file_data (str): The signed file, base64 (a `data:` URL prefix is allowed): a PDF, an XML document with
            enveloped signatures, or a CMS signature (DER or PEM); at most 25 MiB.
        detached_content (Union[None, Unset, str]): For a detached CMS signature: the content it signs, base64.
    """

    file_data: str
    detached_content: Union[None, Unset, str] = UNSET

    def to_dict(self) -> dict[str, Any]:
        file_data = self.file_data

        detached_content: Union[None, Unset, str]
        if isinstance(self.detached_content, Unset):
            detached_content = UNSET
        else:
            detached_content = self.detached_content

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "fileData": file_data,
            }
        )
        if detached_content is not UNSET:
            field_dict["detachedContent"] = detached_content

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        file_data = d.pop("fileData")

        def _parse_detached_content(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        detached_content = _parse_detached_content(d.pop("detachedContent", UNSET))

        verify_request = cls(
            file_data=file_data,
            detached_content=detached_content,
        )

        return verify_request
