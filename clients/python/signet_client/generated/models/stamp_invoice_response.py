import datetime
from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from dateutil.parser import isoparse

from ..types import UNSET, Unset

T = TypeVar("T", bound="StampInvoiceResponse")


@_attrs_define
class StampInvoiceResponse:
    """The spec's `StampInvoiceResponse`: the documents issued for the workflow, the same on every
    call.

        Attributes:
            total_amount (float): The invoice's total (fee and GST) and the debit note's (stamp duty), in rupees.
            debit_note_created_date (Union[None, Unset, datetime.datetime]):
            debit_note_document (Union[None, Unset, str]): The debit note, a PDF, base64.
            debit_note_no (Union[None, Unset, str]): The debit note's number, e.g. `DN/26-27/000001`; null when the workflow
                took no stamp
                papers.
            invoice_created_date (Union[None, Unset, datetime.datetime]): When it was issued (RFC 3339, in India Standard
                Time).
            invoice_document (Union[None, Unset, str]): The tax invoice, a PDF, base64.
            invoice_no (Union[None, Unset, str]): The tax invoice's number, e.g. `INV/26-27/000001`.
    """

    total_amount: float
    debit_note_created_date: Union[None, Unset, datetime.datetime] = UNSET
    debit_note_document: Union[None, Unset, str] = UNSET
    debit_note_no: Union[None, Unset, str] = UNSET
    invoice_created_date: Union[None, Unset, datetime.datetime] = UNSET
    invoice_document: Union[None, Unset, str] = UNSET
    invoice_no: Union[None, Unset, str] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        total_amount = self.total_amount

        debit_note_created_date: Union[None, Unset, str]
        if isinstance(self.debit_note_created_date, Unset):
            debit_note_created_date = UNSET
        elif isinstance(self.debit_note_created_date, datetime.datetime):
            debit_note_created_date = self.debit_note_created_date.isoformat()
        else:
            debit_note_created_date = self.debit_note_created_date

        debit_note_document: Union[None, Unset, str]
        if isinstance(self.debit_note_document, Unset):
            debit_note_document = UNSET
        else:
            debit_note_document = self.debit_note_document

        debit_note_no: Union[None, Unset, str]
        if isinstance(self.debit_note_no, Unset):
            debit_note_no = UNSET
        else:
            debit_note_no = self.debit_note_no

        invoice_created_date: Union[None, Unset, str]
        if isinstance(self.invoice_created_date, Unset):
            invoice_created_date = UNSET
        elif isinstance(self.invoice_created_date, datetime.datetime):
            invoice_created_date = self.invoice_created_date.isoformat()
        else:
            invoice_created_date = self.invoice_created_date

        invoice_document: Union[None, Unset, str]
        if isinstance(self.invoice_document, Unset):
            invoice_document = UNSET
        else:
            invoice_document = self.invoice_document

        invoice_no: Union[None, Unset, str]
        if isinstance(self.invoice_no, Unset):
            invoice_no = UNSET
        else:
            invoice_no = self.invoice_no

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "totalAmount": total_amount,
            }
        )
        if debit_note_created_date is not UNSET:
            field_dict["debitNoteCreatedDate"] = debit_note_created_date
        if debit_note_document is not UNSET:
            field_dict["debitNoteDocument"] = debit_note_document
        if debit_note_no is not UNSET:
            field_dict["debitNoteNo"] = debit_note_no
        if invoice_created_date is not UNSET:
            field_dict["invoiceCreatedDate"] = invoice_created_date
        if invoice_document is not UNSET:
            field_dict["invoiceDocument"] = invoice_document
        if invoice_no is not UNSET:
            field_dict["invoiceNo"] = invoice_no

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        total_amount = d.pop("totalAmount")

        def _parse_debit_note_created_date(
            data: object,
        ) -> Union[None, Unset, datetime.datetime]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                debit_note_created_date_type_0 = isoparse(data)

                return debit_note_created_date_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, Unset, datetime.datetime], data)

        debit_note_created_date = _parse_debit_note_created_date(
            d.pop("debitNoteCreatedDate", UNSET)
        )

        def _parse_debit_note_document(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        debit_note_document = _parse_debit_note_document(
            d.pop("debitNoteDocument", UNSET)
        )

        def _parse_debit_note_no(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        debit_note_no = _parse_debit_note_no(d.pop("debitNoteNo", UNSET))

        def _parse_invoice_created_date(
            data: object,
        ) -> Union[None, Unset, datetime.datetime]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                invoice_created_date_type_0 = isoparse(data)

                return invoice_created_date_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, Unset, datetime.datetime], data)

        invoice_created_date = _parse_invoice_created_date(
            d.pop("invoiceCreatedDate", UNSET)
        )

        def _parse_invoice_document(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        invoice_document = _parse_invoice_document(d.pop("invoiceDocument", UNSET))

        def _parse_invoice_no(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        invoice_no = _parse_invoice_no(d.pop("invoiceNo", UNSET))

        stamp_invoice_response = cls(
            total_amount=total_amount,
            debit_note_created_date=debit_note_created_date,
            debit_note_document=debit_note_document,
            debit_note_no=debit_note_no,
            invoice_created_date=invoice_created_date,
            invoice_document=invoice_document,
            invoice_no=invoice_no,
        )

        stamp_invoice_response.additional_properties = d
        return stamp_invoice_response

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
