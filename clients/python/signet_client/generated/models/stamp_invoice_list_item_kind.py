from enum import Enum


class StampInvoiceListItemKind(str, Enum):
    DEBIT_NOTE = "debit_note"
    INVOICE = "invoice"

    def __str__(self) -> str:
        return str(self.value)
