from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="UpdateDepartmentRequest")


@_attrs_define
class UpdateDepartmentRequest:
    """
    Attributes:
        department_name (str): As in `CreateDepartmentRequest`.
    """

    department_name: str

    def to_dict(self) -> dict[str, Any]:
        department_name = self.department_name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "departmentName": department_name,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        department_name = d.pop("departmentName")

        update_department_request = cls(
            department_name=department_name,
        )

        return update_department_request
