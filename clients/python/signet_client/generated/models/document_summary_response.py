from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    TypeVar,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.document_summary_response_summary import (
        DocumentSummaryResponseSummary,
    )


T = TypeVar("T", bound="DocumentSummaryResponse")


@_attrs_define
class DocumentSummaryResponse:
    """
    Attributes:
        document_id (int):
        from_cache (bool):
        success (bool):
        summary (DocumentSummaryResponseSummary): `{"sentences": [...], "characters": n}`: the sentences that carry the
            document's most
            frequent content words, in order (extractive; text in two-byte fonts is not read).
    """

    document_id: int
    from_cache: bool
    success: bool
    summary: "DocumentSummaryResponseSummary"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        document_id = self.document_id

        from_cache = self.from_cache

        success = self.success

        summary = self.summary.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "documentId": document_id,
                "fromCache": from_cache,
                "success": success,
                "summary": summary,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.document_summary_response_summary import (
            DocumentSummaryResponseSummary,
        )

        d = dict(src_dict)
        document_id = d.pop("documentId")

        from_cache = d.pop("fromCache")

        success = d.pop("success")

        summary = DocumentSummaryResponseSummary.from_dict(d.pop("summary"))

        document_summary_response = cls(
            document_id=document_id,
            from_cache=from_cache,
            success=success,
            summary=summary,
        )

        document_summary_response.additional_properties = d
        return document_summary_response

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
