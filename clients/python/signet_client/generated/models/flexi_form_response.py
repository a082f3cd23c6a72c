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
    from ..models.access_user import AccessUser
    from ..models.department import Department
    from ..models.header_info import HeaderInfo


T = TypeVar("T", bound="FlexiFormResponse")


@_attrs_define
class FlexiFormResponse:
    """Who may use a menu entry.

    Attributes:
        header (HeaderInfo):
        departments (Union[None, Unset, list['Department']]):
        users (Union[None, Unset, list['AccessUser']]):
    """

    header: "HeaderInfo"
    departments: Union[None, Unset, list["Department"]] = UNSET
    users: Union[None, Unset, list["AccessUser"]] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        header = self.header.to_dict()

        departments: Union[None, Unset, list[dict[str, Any]]]
        if isinstance(self.departments, Unset):
            departments = UNSET
        elif isinstance(self.departments, list):
            departments = []
            for departments_type_0_item_data in self.departments:
                departments_type_0_item = departments_type_0_item_data.to_dict()
                departments.append(departments_type_0_item)

        else:
            departments = self.departments

        users: Union[None, Unset, list[dict[str, Any]]]
        if isinstance(self.users, Unset):
            users = UNSET
        elif isinstance(self.users, list):
            users = []
            for users_type_0_item_data in self.users:
                users_type_0_item = users_type_0_item_data.to_dict()
                users.append(users_type_0_item)

        else:
            users = self.users

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "header": header,
            }
        )
        if departments is not UNSET:
            field_dict["departments"] = departments
        if users is not UNSET:
            field_dict["users"] = users

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.access_user import AccessUser
        from ..models.department import Department
        from ..models.header_info import HeaderInfo

        d = dict(src_dict)
        header = HeaderInfo.from_dict(d.pop("header"))

        def _parse_departments(data: object) -> Union[None, Unset, list["Department"]]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                departments_type_0 = []
                _departments_type_0 = data
                for departments_type_0_item_data in _departments_type_0:
                    departments_type_0_item = Department.from_dict(
                        departments_type_0_item_data
                    )

                    departments_type_0.append(departments_type_0_item)

                return departments_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, Unset, list["Department"]], data)

        departments = _parse_departments(d.pop("departments", UNSET))

        def _parse_users(data: object) -> Union[None, Unset, list["AccessUser"]]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                users_type_0 = []
                _users_type_0 = data
                for users_type_0_item_data in _users_type_0:
                    users_type_0_item = AccessUser.from_dict(users_type_0_item_data)

                    users_type_0.append(users_type_0_item)

                return users_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, Unset, list["AccessUser"]], data)

        users = _parse_users(d.pop("users", UNSET))

        flexi_form_response = cls(
            header=header,
            departments=departments,
            users=users,
        )

        flexi_form_response.additional_properties = d
        return flexi_form_response

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
