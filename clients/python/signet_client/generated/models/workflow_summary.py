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

T = TypeVar("T", bound="WorkflowSummary")


@_attrs_define
class WorkflowSummary:
    """
    Attributes:
        created_at (int):
        current_signing_order (int):
        state (str):
        workflow_id (int):
        workflow_name (str):
        completed_at (Union[None, Unset, int]):
        reference_no (Union[None, Unset, str]):
    """

    created_at: int
    current_signing_order: int
    state: str
    workflow_id: int
    workflow_name: str
    completed_at: Union[None, Unset, int] = UNSET
    reference_no: Union[None, Unset, str] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at

        current_signing_order = self.current_signing_order

        state = self.state

        workflow_id = self.workflow_id

        workflow_name = self.workflow_name

        completed_at: Union[None, Unset, int]
        if isinstance(self.completed_at, Unset):
            completed_at = UNSET
        else:
            completed_at = self.completed_at

        reference_no: Union[None, Unset, str]
        if isinstance(self.reference_no, Unset):
            reference_no = UNSET
        else:
            reference_no = self.reference_no

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "currentSigningOrder": current_signing_order,
                "state": state,
                "workflowId": workflow_id,
                "workflowName": workflow_name,
            }
        )
        if completed_at is not UNSET:
            field_dict["completedAt"] = completed_at
        if reference_no is not UNSET:
            field_dict["referenceNo"] = reference_no

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = d.pop("createdAt")

        current_signing_order = d.pop("currentSigningOrder")

        state = d.pop("state")

        workflow_id = d.pop("workflowId")

        workflow_name = d.pop("workflowName")

        def _parse_completed_at(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        completed_at = _parse_completed_at(d.pop("completedAt", UNSET))

        def _parse_reference_no(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        reference_no = _parse_reference_no(d.pop("referenceNo", UNSET))

        workflow_summary = cls(
            created_at=created_at,
            current_signing_order=current_signing_order,
            state=state,
            workflow_id=workflow_id,
            workflow_name=workflow_name,
            completed_at=completed_at,
            reference_no=reference_no,
        )

        workflow_summary.additional_properties = d
        return workflow_summary

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
