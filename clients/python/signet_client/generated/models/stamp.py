from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.stamp_source import StampSource
from ..models.stamp_status import StampStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="Stamp")


@_attrs_define
class Stamp:
    """A certificate of the inventory.

    Attributes:
        denomination (int):
        has_certificate (bool): The tenant loaded the certificate's PDF.
        loaded_at (int): Milliseconds since the epoch.
        page_attached (bool): Allocated with its page in front of the document (else recorded without it).
        reference_no (str):
        source (StampSource):
        stamp_id (int):
        state (str): ISO 3166-2:IN code.
        status (StampStatus):
        allocated_at (Union[None, Unset, int]):
        provider_ref (Union[None, Unset, str]): The stamp provider's reference of the issue (`provider` only).
        workflow_id (Union[None, Unset, int]): The workflow it is allocated to (or was, when retired with it).
    """

    denomination: int
    has_certificate: bool
    loaded_at: int
    page_attached: bool
    reference_no: str
    source: StampSource
    stamp_id: int
    state: str
    status: StampStatus
    allocated_at: Union[None, Unset, int] = UNSET
    provider_ref: Union[None, Unset, str] = UNSET
    workflow_id: Union[None, Unset, int] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        denomination = self.denomination

        has_certificate = self.has_certificate

        loaded_at = self.loaded_at

        page_attached = self.page_attached

        reference_no = self.reference_no

        source = self.source.value

        stamp_id = self.stamp_id

        state = self.state

        status = self.status.value

        allocated_at: Union[None, Unset, int]
        if isinstance(self.allocated_at, Unset):
            allocated_at = UNSET
        else:
            allocated_at = self.allocated_at

        provider_ref: Union[None, Unset, str]
        if isinstance(self.provider_ref, Unset):
            provider_ref = UNSET
        else:
            provider_ref = self.provider_ref

        workflow_id: Union[None, Unset, int]
        if isinstance(self.workflow_id, Unset):
            workflow_id = UNSET
        else:
            workflow_id = self.workflow_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "denomination": denomination,
                "hasCertificate": has_certificate,
                "loadedAt": loaded_at,
                "pageAttached": page_attached,
                "referenceNo": reference_no,
                "source": source,
                "stampId": stamp_id,
                "state": state,
                "status": status,
            }
        )
        if allocated_at is not UNSET:
            field_dict["allocatedAt"] = allocated_at
        if provider_ref is not UNSET:
            field_dict["providerRef"] = provider_ref
        if workflow_id is not UNSET:
            field_dict["workflowId"] = workflow_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        denomination = d.pop("denomination")

        has_certificate = d.pop("hasCertificate")

        loaded_at = d.pop("loadedAt")

        page_attached = d.pop("pageAttached")

        reference_no = d.pop("referenceNo")

        source = StampSource(d.pop("source"))

        stamp_id = d.pop("stampId")

        state = d.pop("state")

        status = StampStatus(d.pop("status"))

        def _parse_allocated_at(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        allocated_at = _parse_allocated_at(d.pop("allocatedAt", UNSET))

        def _parse_provider_ref(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        provider_ref = _parse_provider_ref(d.pop("providerRef", UNSET))

        def _parse_workflow_id(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        workflow_id = _parse_workflow_id(d.pop("workflowId", UNSET))

        stamp = cls(
            denomination=denomination,
            has_certificate=has_certificate,
            loaded_at=loaded_at,
            page_attached=page_attached,
            reference_no=reference_no,
            source=source,
            stamp_id=stamp_id,
            state=state,
            status=status,
            allocated_at=allocated_at,
            provider_ref=provider_ref,
            workflow_id=workflow_id,
        )

        stamp.additional_properties = d
        return stamp

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
