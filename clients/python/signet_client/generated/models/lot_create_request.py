from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

T = TypeVar("T", bound="LotCreateRequest")


@_attrs_define
class LotCreateRequest:
    """A new lot: workflows whose documents one user of the organisation signs at once.

    Attributes:
        name (str):
        signer_user_id (int): The user who signs the lot (their address must be a signatory still to sign in each).
        workflow_ids (list[int]):
    """

    name: str
    signer_user_id: int
    workflow_ids: list[int]

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        signer_user_id = self.signer_user_id

        workflow_ids = self.workflow_ids

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "signerUserId": signer_user_id,
                "workflowIds": workflow_ids,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        signer_user_id = d.pop("signerUserId")

        workflow_ids = cast(list[int], d.pop("workflowIds"))

        lot_create_request = cls(
            name=name,
            signer_user_id=signer_user_id,
            workflow_ids=workflow_ids,
        )

        return lot_create_request
