from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

T = TypeVar("T", bound="BulkDeleteDepartmentRequest")


@_attrs_define
class BulkDeleteDepartmentRequest:
    """
    Attributes:
        department_ids (list[int]): 1 to 1000 department ids, each positive; all are deleted or none.
    """

    department_ids: list[int]

    def to_dict(self) -> dict[str, Any]:
        department_ids = self.department_ids

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "departmentIds": department_ids,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        department_ids = cast(list[int], d.pop("departmentIds"))

        bulk_delete_department_request = cls(
            department_ids=department_ids,
        )

        return bulk_delete_department_request
