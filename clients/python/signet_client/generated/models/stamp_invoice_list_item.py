import datetime
from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from dateutil.parser import isoparse

from ..models.stamp_invoice_list_item_kind import StampInvoiceListItemKind

T = TypeVar("T", bound="StampInvoiceListItem")


@_attrs_define
class StampInvoiceListItem:
    """A document issued to the tenant.

    Attributes:
        document_url (str): Where its PDF downloads, as issued: `GET /api/v1/stamps/invoices/{workflowId}/{kind}`.
        issued_at (datetime.datetime): When it was issued (RFC 3339, in India Standard Time).
        kind (StampInvoiceListItemKind): `invoice` (the tax invoice) or `debit_note` (the stamp duty).
        number (str): `INV/26-27/000001` or `DN/26-27/000001`.
        total_amount (float): The document's total in rupees (an invoice's fee and GST, a debit note's stamp duty).
        workflow_id (int): The workflow it bills.
    """

    document_url: str
    issued_at: datetime.datetime
    kind: StampInvoiceListItemKind
    number: str
    total_amount: float
    workflow_id: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        document_url = self.document_url

        issued_at = self.issued_at.isoformat()

        kind = self.kind.value

        number = self.number

        total_amount = self.total_amount

        workflow_id = self.workflow_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "documentUrl": document_url,
                "issuedAt": issued_at,
                "kind": kind,
                "number": number,
                "totalAmount": total_amount,
                "workflowId": workflow_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        document_url = d.pop("documentUrl")

        issued_at = isoparse(d.pop("issuedAt"))

        kind = StampInvoiceListItemKind(d.pop("kind"))

        number = d.pop("number")

        total_amount = d.pop("totalAmount")

        workflow_id = d.pop("workflowId")

        stamp_invoice_list_item = cls(
            document_url=document_url,
            issued_at=issued_at,
            kind=kind,
            number=number,
            total_amount=total_amount,
            workflow_id=workflow_id,
        )

        stamp_invoice_list_item.additional_properties = d
        return stamp_invoice_list_item

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
