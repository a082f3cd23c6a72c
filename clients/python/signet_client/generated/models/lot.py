from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="Lot")


@_attrs_define
class Lot:
    """A lot.

    Attributes:
        created_at (int):
        lot_id (int):
        name (str):
        signer_email (str):
        workflow_ids (list[int]):
        job_id (Union[None, Unset, str]): The job that signs (or signed) it, once `BulkSignInput` was sent.
    """

    created_at: int
    lot_id: int
    name: str
    signer_email: str
    workflow_ids: list[int]
    job_id: Union[None, Unset, str] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at

        lot_id = self.lot_id

        name = self.name

        signer_email = self.signer_email

        workflow_ids = self.workflow_ids

        job_id: Union[None, Unset, str]
        if isinstance(self.job_id, Unset):
            job_id = UNSET
        else:
            job_id = self.job_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "lotId": lot_id,
                "name": name,
                "signerEmail": signer_email,
                "workflowIds": workflow_ids,
            }
        )
        if job_id is not UNSET:
            field_dict["jobId"] = job_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = d.pop("createdAt")

        lot_id = d.pop("lotId")

        name = d.pop("name")

        signer_email = d.pop("signerEmail")

        workflow_ids = cast(list[int], d.pop("workflowIds"))

        def _parse_job_id(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        job_id = _parse_job_id(d.pop("jobId", UNSET))

        lot = cls(
            created_at=created_at,
            lot_id=lot_id,
            name=name,
            signer_email=signer_email,
            workflow_ids=workflow_ids,
            job_id=job_id,
        )

        lot.additional_properties = d
        return lot

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
