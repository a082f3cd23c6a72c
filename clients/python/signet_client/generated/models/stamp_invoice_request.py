from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="StampInvoiceRequest")


@_attrs_define
class StampInvoiceRequest:
    """The spec's `StampInvoiceRequest`.

    Attributes:
        workflow_id (int): The workflow of the tenant to invoice; it must have ended (completed, declined, expired
            or inactive).
    """

    workflow_id: int

    def to_dict(self) -> dict[str, Any]:
        workflow_id = self.workflow_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "workflowId": workflow_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        workflow_id = d.pop("workflowId")

        stamp_invoice_request = cls(
            workflow_id=workflow_id,
        )

        return stamp_invoice_request
