from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    TypeVar,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.bulk_send_row_problem_errors import BulkSendRowProblemErrors


T = TypeVar("T", bound="BulkSendRowProblem")


@_attrs_define
class BulkSendRowProblem:
    """A row that would not start a workflow, and why (by field).

    Attributes:
        errors (BulkSendRowProblemErrors):
        line (int): Its line in the file (the header is line 1).
        row (int): The row among the records, from 1.
    """

    errors: "BulkSendRowProblemErrors"
    line: int
    row: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        errors = self.errors.to_dict()

        line = self.line

        row = self.row

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "errors": errors,
                "line": line,
                "row": row,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.bulk_send_row_problem_errors import BulkSendRowProblemErrors

        d = dict(src_dict)
        errors = BulkSendRowProblemErrors.from_dict(d.pop("errors"))

        line = d.pop("line")

        row = d.pop("row")

        bulk_send_row_problem = cls(
            errors=errors,
            line=line,
            row=row,
        )

        bulk_send_row_problem.additional_properties = d
        return bulk_send_row_problem

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
