import datetime
from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define
from dateutil.parser import isoparse

from ..types import UNSET, Unset

T = TypeVar("T", bound="GetUsersRequest")


@_attrs_define
class GetUsersRequest:
    """The spec's search over every user (staff and external).

    Attributes:
        alternative_email (Union[None, Unset, str]):
        contact_number (Union[None, Unset, str]):
        created_by (Union[None, Unset, str]): Substring of who created the user (`user:<id>`, `client:<id>`).
        created_date (Union[None, Unset, datetime.datetime]): Created at or after this time.
        email (Union[None, Unset, str]):
        name (Union[None, Unset, str]): Substrings (case-insensitive) of these fields.
        national_id (Union[None, Unset, str]): The whole Aadhaar number (exact match; the number itself is not stored).
        organization (Union[None, Unset, str]):
        page_number (Union[None, Unset, int]):
        page_size (Union[None, Unset, int]):
        rejected_by (Union[None, Unset, str]): Substring of who set the status, e.g. who rejected a registration
            (`user:<id>`).
        remarks (Union[None, Unset, str]): Substring of the reason recorded with the status.
        search_text (Union[None, Unset, str]):
        sort_column (Union[None, Unset, str]): `id` (default), `name`, `email`, `createdAt` or `status`, in any case.
        sort_order (Union[None, Unset, str]): `asc` (default) or `desc`, in any case.
        status (Union[None, Unset, str]): A status (`active`, `inactive`, `disabled`, `pending`, `rejected`, `deleted`),
            in any case.
        updated_on (Union[None, Unset, datetime.datetime]): Changed at or after this time.
    """

    alternative_email: Union[None, Unset, str] = UNSET
    contact_number: Union[None, Unset, str] = UNSET
    created_by: Union[None, Unset, str] = UNSET
    created_date: Union[None, Unset, datetime.datetime] = UNSET
    email: Union[None, Unset, str] = UNSET
    name: Union[None, Unset, str] = UNSET
    national_id: Union[None, Unset, str] = UNSET
    organization: Union[None, Unset, str] = UNSET
    page_number: Union[None, Unset, int] = UNSET
    page_size: Union[None, Unset, int] = UNSET
    rejected_by: Union[None, Unset, str] = UNSET
    remarks: Union[None, Unset, str] = UNSET
    search_text: Union[None, Unset, str] = UNSET
    sort_column: Union[None, Unset, str] = UNSET
    sort_order: Union[None, Unset, str] = UNSET
    status: Union[None, Unset, str] = UNSET
    updated_on: Union[None, Unset, datetime.datetime] = UNSET

    def to_dict(self) -> dict[str, Any]:
        alternative_email: Union[None, Unset, str]
        if isinstance(self.alternative_email, Unset):
            alternative_email = UNSET
        else:
            alternative_email = self.alternative_email

        contact_number: Union[None, Unset, str]
        if isinstance(self.contact_number, Unset):
            contact_number = UNSET
        else:
            contact_number = self.contact_number

        created_by: Union[None, Unset, str]
        if isinstance(self.created_by, Unset):
            created_by = UNSET
        else:
            created_by = self.created_by

        created_date: Union[None, Unset, str]
        if isinstance(self.created_date, Unset):
            created_date = UNSET
        elif isinstance(self.created_date, datetime.datetime):
            created_date = self.created_date.isoformat()
        else:
            created_date = self.created_date

        email: Union[None, Unset, str]
        if isinstance(self.email, Unset):
            email = UNSET
        else:
            email = self.email

        name: Union[None, Unset, str]
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        national_id: Union[None, Unset, str]
        if isinstance(self.national_id, Unset):
            national_id = UNSET
        else:
            national_id = self.national_id

        organization: Union[None, Unset, str]
        if isinstance(self.organization, Unset):
            organization = UNSET
        else:
            organization = self.organization

        page_number: Union[None, Unset, int]
        if isinstance(self.page_number, Unset):
            page_number = UNSET
        else:
            page_number = self.page_number

        page_size: Union[None, Unset, int]
        if isinstance(self.page_size, Unset):
            page_size = UNSET
        else:
            page_size = self.page_size

        rejected_by: Union[None, Unset, str]
        if isinstance(self.rejected_by, Unset):
            rejected_by = UNSET
        else:
            rejected_by = self.rejected_by

        remarks: Union[None, Unset, str]
        if isinstance(self.remarks, Unset):
            remarks = UNSET
        else:
            remarks = self.remarks

        search_text: Union[None, Unset, str]
        if isinstance(self.search_text, Unset):
            search_text = UNSET
        else:
            search_text = self.search_text

        sort_column: Union[None, Unset, str]
        if isinstance(self.sort_column, Unset):
            sort_column = UNSET
        else:
            sort_column = self.sort_column

        sort_order: Union[None, Unset, str]
        if isinstance(self.sort_order, Unset):
            sort_order = UNSET
        else:
            sort_order = self.sort_order

        status: Union[None, Unset, str]
        if isinstance(self.status, Unset):
            status = UNSET
        else:
            status = self.status

        updated_on: Union[None, Unset, str]
        if isinstance(self.updated_on, Unset):
            updated_on = UNSET
        elif isinstance(self.updated_on, datetime.datetime):
            updated_on = self.updated_on.isoformat()
        else:
            updated_on = self.updated_on

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if alternative_email is not UNSET:
            field_dict["alternativeEmail"] = alternative_email
        if contact_number is not UNSET:
            field_dict["contactNumber"] = contact_number
        if created_by is not UNSET:
            field_dict["createdBy"] = created_by
        if created_date is not UNSET:
            field_dict["createdDate"] = created_date
        if email is not UNSET:
            field_dict["email"] = email
        if name is not UNSET:
            field_dict["name"] = name
        if national_id is not UNSET:
            field_dict["nationalId"] = national_id
        if organization is not UNSET:
            field_dict["organization"] = organization
        if page_number is not UNSET:
            field_dict["pageNumber"] = page_number
        if page_size is not UNSET:
            field_dict["pageSize"] = page_size
        if rejected_by is not UNSET:
            field_dict["rejectedBy"] = rejected_by
        if remarks is not UNSET:
            field_dict["remarks"] = remarks
        if search_text is not UNSET:
            field_dict["searchText"] = search_text
        if sort_column is not UNSET:
            field_dict["sortColumn"] = sort_column
        if sort_order is not UNSET:
            field_dict["sortOrder"] = sort_order
        if status is not UNSET:
            field_dict["status"] = status
        if updated_on is not UNSET:
            field_dict["updatedOn"] = updated_on

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_alternative_email(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        alternative_email = _parse_alternative_email(d.pop("alternativeEmail", UNSET))

        def _parse_contact_number(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        contact_number = _parse_contact_number(d.pop("contactNumber", UNSET))

        def _parse_created_by(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        created_by = _parse_created_by(d.pop("createdBy", UNSET))

        def _parse_created_date(data: object) -> Union[None, Unset, datetime.datetime]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                created_date_type_0 = isoparse(data)

                return created_date_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, Unset, datetime.datetime], data)

        created_date = _parse_created_date(d.pop("createdDate", UNSET))

        def _parse_email(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        email = _parse_email(d.pop("email", UNSET))

        def _parse_name(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        name = _parse_name(d.pop("name", UNSET))

        def _parse_national_id(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        national_id = _parse_national_id(d.pop("nationalId", UNSET))

        def _parse_organization(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        organization = _parse_organization(d.pop("organization", UNSET))

        def _parse_page_number(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        page_number = _parse_page_number(d.pop("pageNumber", UNSET))

        def _parse_page_size(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        page_size = _parse_page_size(d.pop("pageSize", UNSET))

        def _parse_rejected_by(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        rejected_by = _parse_rejected_by(d.pop("rejectedBy", UNSET))

        def _parse_remarks(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        remarks = _parse_remarks(d.pop("remarks", UNSET))

        def _parse_search_text(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        search_text = _parse_search_text(d.pop("searchText", UNSET))

        def _parse_sort_column(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        sort_column = _parse_sort_column(d.pop("sortColumn", UNSET))

        def _parse_sort_order(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        sort_order = _parse_sort_order(d.pop("sortOrder", UNSET))

        def _parse_status(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        status = _parse_status(d.pop("status", UNSET))

        def _parse_updated_on(data: object) -> Union[None, Unset, datetime.datetime]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                updated_on_type_0 = isoparse(data)

                return updated_on_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, Unset, datetime.datetime], data)

        updated_on = _parse_updated_on(d.pop("updatedOn", UNSET))

        get_users_request = cls(
            alternative_email=alternative_email,
            contact_number=contact_number,
            created_by=created_by,
            created_date=created_date,
            email=email,
            name=name,
            national_id=national_id,
            organization=organization,
            page_number=page_number,
            page_size=page_size,
            rejected_by=rejected_by,
            remarks=remarks,
            search_text=search_text,
            sort_column=sort_column,
            sort_order=sort_order,
            status=status,
            updated_on=updated_on,
        )

        return get_users_request
