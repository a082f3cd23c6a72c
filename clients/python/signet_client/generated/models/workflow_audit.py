from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.workflow_event import WorkflowEvent


T = TypeVar("T", bound="WorkflowAudit")


@_attrs_define
class WorkflowAudit:
    """
    Attributes:
        events (list['WorkflowEvent']):
        verified (bool): Whether every link and hash of the chain checks out.
        workflow_id (int):
        broken_at (Union[None, Unset, int]): The first entry that does not, and why.
        problem (Union[None, Unset, str]):
    """

    events: list["WorkflowEvent"]
    verified: bool
    workflow_id: int
    broken_at: Union[None, Unset, int] = UNSET
    problem: Union[None, Unset, str] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        events = []
        for events_item_data in self.events:
            events_item = events_item_data.to_dict()
            events.append(events_item)

        verified = self.verified

        workflow_id = self.workflow_id

        broken_at: Union[None, Unset, int]
        if isinstance(self.broken_at, Unset):
            broken_at = UNSET
        else:
            broken_at = self.broken_at

        problem: Union[None, Unset, str]
        if isinstance(self.problem, Unset):
            problem = UNSET
        else:
            problem = self.problem

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "events": events,
                "verified": verified,
                "workflowId": workflow_id,
            }
        )
        if broken_at is not UNSET:
            field_dict["brokenAt"] = broken_at
        if problem is not UNSET:
            field_dict["problem"] = problem

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.workflow_event import WorkflowEvent

        d = dict(src_dict)
        events = []
        _events = d.pop("events")
        for events_item_data in _events:
            events_item = WorkflowEvent.from_dict(events_item_data)

            events.append(events_item)

        verified = d.pop("verified")

        workflow_id = d.pop("workflowId")

        def _parse_broken_at(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        broken_at = _parse_broken_at(d.pop("brokenAt", UNSET))

        def _parse_problem(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        problem = _parse_problem(d.pop("problem", UNSET))

        workflow_audit = cls(
            events=events,
            verified=verified,
            workflow_id=workflow_id,
            broken_at=broken_at,
            problem=problem,
        )

        workflow_audit.additional_properties = d
        return workflow_audit

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
