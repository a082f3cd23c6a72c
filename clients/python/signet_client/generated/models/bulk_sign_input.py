from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="BulkSignInput")


@_attrs_define
class BulkSignInput:
    """The spec's `BulkSignInput`: the lot's signer signs every workflow of the lot with one
    consent (this request) and one signature image.

        Attributes:
            lot_id (int):
            signature_image (str): PNG or JPEG, base64, at most 1 MiB.
            reviewer_comments (Union[None, Unset, str]):
    """

    lot_id: int
    signature_image: str
    reviewer_comments: Union[None, Unset, str] = UNSET

    def to_dict(self) -> dict[str, Any]:
        lot_id = self.lot_id

        signature_image = self.signature_image

        reviewer_comments: Union[None, Unset, str]
        if isinstance(self.reviewer_comments, Unset):
            reviewer_comments = UNSET
        else:
            reviewer_comments = self.reviewer_comments

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "lotId": lot_id,
                "signatureImage": signature_image,
            }
        )
        if reviewer_comments is not UNSET:
            field_dict["reviewerComments"] = reviewer_comments

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        lot_id = d.pop("lotId")

        signature_image = d.pop("signatureImage")

        def _parse_reviewer_comments(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        reviewer_comments = _parse_reviewer_comments(d.pop("reviewerComments", UNSET))

        bulk_sign_input = cls(
            lot_id=lot_id,
            signature_image=signature_image,
            reviewer_comments=reviewer_comments,
        )

        return bulk_sign_input
