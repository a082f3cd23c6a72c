from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="DeleteDepartmentRequest")


@_attrs_define
class DeleteDepartmentRequest:
    """
    Attributes:
        department_id (int):
    """

    department_id: int

    def to_dict(self) -> dict[str, Any]:
        department_id = self.department_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "departmentId": department_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        department_id = d.pop("departmentId")

        delete_department_request = cls(
            department_id=department_id,
        )

        return delete_department_request
