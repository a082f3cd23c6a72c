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
    from ..models.workflow_document import WorkflowDocument
    from ..models.workflow_signatory import WorkflowSignatory


T = TypeVar("T", bound="WorkflowDetails")


@_attrs_define
class WorkflowDetails:
    """A workflow with its documents and signatories. Times are milliseconds since the epoch.

    Attributes:
        created_at (int):
        created_by (str):
        current_signing_order (int):
        documents (list['WorkflowDocument']):
        linked_workflow_ids (list[int]):
        signatories (list['WorkflowSignatory']):
        state (str): in_progress, completed, declined, expired, inactive or deleted.
        updated_at (int):
        workflow_id (int):
        workflow_name (str):
        workflow_type (int):
        category_id (Union[None, Unset, int]):
        completed_at (Union[None, Unset, int]):
        expires_at (Union[None, Unset, int]):
        reference_no (Union[None, Unset, str]):
        state_reason (Union[None, Unset, str]):
        template_id (Union[None, Unset, int]):
    """

    created_at: int
    created_by: str
    current_signing_order: int
    documents: list["WorkflowDocument"]
    linked_workflow_ids: list[int]
    signatories: list["WorkflowSignatory"]
    state: str
    updated_at: int
    workflow_id: int
    workflow_name: str
    workflow_type: int
    category_id: Union[None, Unset, int] = UNSET
    completed_at: Union[None, Unset, int] = UNSET
    expires_at: Union[None, Unset, int] = UNSET
    reference_no: Union[None, Unset, str] = UNSET
    state_reason: Union[None, Unset, str] = UNSET
    template_id: Union[None, Unset, int] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at

        created_by = self.created_by

        current_signing_order = self.current_signing_order

        documents = []
        for documents_item_data in self.documents:
            documents_item = documents_item_data.to_dict()
            documents.append(documents_item)

        linked_workflow_ids = self.linked_workflow_ids

        signatories = []
        for signatories_item_data in self.signatories:
            signatories_item = signatories_item_data.to_dict()
            signatories.append(signatories_item)

        state = self.state

        updated_at = self.updated_at

        workflow_id = self.workflow_id

        workflow_name = self.workflow_name

        workflow_type = self.workflow_type

        category_id: Union[None, Unset, int]
        if isinstance(self.category_id, Unset):
            category_id = UNSET
        else:
            category_id = self.category_id

        completed_at: Union[None, Unset, int]
        if isinstance(self.completed_at, Unset):
            completed_at = UNSET
        else:
            completed_at = self.completed_at

        expires_at: Union[None, Unset, int]
        if isinstance(self.expires_at, Unset):
            expires_at = UNSET
        else:
            expires_at = self.expires_at

        reference_no: Union[None, Unset, str]
        if isinstance(self.reference_no, Unset):
            reference_no = UNSET
        else:
            reference_no = self.reference_no

        state_reason: Union[None, Unset, str]
        if isinstance(self.state_reason, Unset):
            state_reason = UNSET
        else:
            state_reason = self.state_reason

        template_id: Union[None, Unset, int]
        if isinstance(self.template_id, Unset):
            template_id = UNSET
        else:
            template_id = self.template_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "createdBy": created_by,
                "currentSigningOrder": current_signing_order,
                "documents": documents,
                "linkedWorkflowIds": linked_workflow_ids,
                "signatories": signatories,
                "state": state,
                "updatedAt": updated_at,
                "workflowId": workflow_id,
                "workflowName": workflow_name,
                "workflowType": workflow_type,
            }
        )
        if category_id is not UNSET:
            field_dict["categoryId"] = category_id
        if completed_at is not UNSET:
            field_dict["completedAt"] = completed_at
        if expires_at is not UNSET:
            field_dict["expiresAt"] = expires_at
        if reference_no is not UNSET:
            field_dict["referenceNo"] = reference_no
        if state_reason is not UNSET:
            field_dict["stateReason"] = state_reason
        if template_id is not UNSET:
            field_dict["templateId"] = template_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.workflow_document import WorkflowDocument
        from ..models.workflow_signatory import WorkflowSignatory

        d = dict(src_dict)
        created_at = d.pop("createdAt")

        created_by = d.pop("createdBy")

        current_signing_order = d.pop("currentSigningOrder")

        documents = []
        _documents = d.pop("documents")
        for documents_item_data in _documents:
            documents_item = WorkflowDocument.from_dict(documents_item_data)

            documents.append(documents_item)

        linked_workflow_ids = cast(list[int], d.pop("linkedWorkflowIds"))

        signatories = []
        _signatories = d.pop("signatories")
        for signatories_item_data in _signatories:
            signatories_item = WorkflowSignatory.from_dict(signatories_item_data)

            signatories.append(signatories_item)

        state = d.pop("state")

        updated_at = d.pop("updatedAt")

        workflow_id = d.pop("workflowId")

        workflow_name = d.pop("workflowName")

        workflow_type = d.pop("workflowType")

        def _parse_category_id(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        category_id = _parse_category_id(d.pop("categoryId", UNSET))

        def _parse_completed_at(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        completed_at = _parse_completed_at(d.pop("completedAt", UNSET))

        def _parse_expires_at(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        expires_at = _parse_expires_at(d.pop("expiresAt", UNSET))

        def _parse_reference_no(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        reference_no = _parse_reference_no(d.pop("referenceNo", UNSET))

        def _parse_state_reason(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        state_reason = _parse_state_reason(d.pop("stateReason", UNSET))

        def _parse_template_id(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        template_id = _parse_template_id(d.pop("templateId", UNSET))

        workflow_details = cls(
            created_at=created_at,
            created_by=created_by,
            current_signing_order=current_signing_order,
            documents=documents,
            linked_workflow_ids=linked_workflow_ids,
            signatories=signatories,
            state=state,
            updated_at=updated_at,
            workflow_id=workflow_id,
            workflow_name=workflow_name,
            workflow_type=workflow_type,
            category_id=category_id,
            completed_at=completed_at,
            expires_at=expires_at,
            reference_no=reference_no,
            state_reason=state_reason,
            template_id=template_id,
        )

        workflow_details.additional_properties = d
        return workflow_details

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
