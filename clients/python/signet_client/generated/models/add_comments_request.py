from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="AddCommentsRequest")


@_attrs_define
class AddCommentsRequest:
    """
    Attributes:
        comment (str): 1 to 2000 characters (trimmed).
        document_id (int): A document in one of the tenant's workflows.
    """

    comment: str
    document_id: int

    def to_dict(self) -> dict[str, Any]:
        comment = self.comment

        document_id = self.document_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "comment": comment,
                "documentID": document_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        comment = d.pop("comment")

        document_id = d.pop("documentID")

        add_comments_request = cls(
            comment=comment,
            document_id=document_id,
        )

        return add_comments_request
