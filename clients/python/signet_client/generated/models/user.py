from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="User")


@_attrs_define
class User:
    """A user of the tenant.

    Attributes:
        created_at (int):
        has_password (bool): Whether the user has set a password.
        login_authentication (str): `password`, `email_otp` or `sso`.
        role (str): `administrator`, `sender`, `signer`, `auditor`, or the name of the tenant's own role.
        role_id (int): 1 to 4 for a built-in role, above 100 for a tenant's own role.
        status (str): `active`, `inactive`, `disabled`, `pending`, `rejected` or `deleted`.
        subscriber_id (int): The user's id (`subscriberId`).
        user_type (str): `internal` or `external`.
        alternative_email_id (Union[None, Unset, str]):
        contact_number (Union[None, Unset, str]):
        created_by (Union[None, Unset, str]):
        dept_id (Union[None, Unset, int]):
        designation (Union[None, Unset, str]):
        dob (Union[None, Unset, int]): Milliseconds since the epoch.
        email_id (Union[None, Unset, str]):
        geo_profile_id (Union[None, Unset, int]):
        name (Union[None, Unset, str]):
        national_id (Union[None, Unset, str]): The national id masked: `XXXXXXXX1234`.
        organization (Union[None, Unset, str]):
        pan_number (Union[None, Unset, str]):
        profile_id (Union[None, Unset, str]):
        signature_option (Union[None, Unset, int]):
        signature_type (Union[None, Unset, str]):
        status_by (Union[None, Unset, str]): Who set the status (e.g. who approved or rejected a registration).
        status_reason (Union[None, Unset, str]):
        time_zone_id (Union[None, Unset, str]):
        updated_at (Union[None, Unset, int]):
    """

    created_at: int
    has_password: bool
    login_authentication: str
    role: str
    role_id: int
    status: str
    subscriber_id: int
    user_type: str
    alternative_email_id: Union[None, Unset, str] = UNSET
    contact_number: Union[None, Unset, str] = UNSET
    created_by: Union[None, Unset, str] = UNSET
    dept_id: Union[None, Unset, int] = UNSET
    designation: Union[None, Unset, str] = UNSET
    dob: Union[None, Unset, int] = UNSET
    email_id: Union[None, Unset, str] = UNSET
    geo_profile_id: Union[None, Unset, int] = UNSET
    name: Union[None, Unset, str] = UNSET
    national_id: Union[None, Unset, str] = UNSET
    organization: Union[None, Unset, str] = UNSET
    pan_number: Union[None, Unset, str] = UNSET
    profile_id: Union[None, Unset, str] = UNSET
    signature_option: Union[None, Unset, int] = UNSET
    signature_type: Union[None, Unset, str] = UNSET
    status_by: Union[None, Unset, str] = UNSET
    status_reason: Union[None, Unset, str] = UNSET
    time_zone_id: Union[None, Unset, str] = UNSET
    updated_at: Union[None, Unset, int] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at

        has_password = self.has_password

        login_authentication = self.login_authentication

        role = self.role

        role_id = self.role_id

        status = self.status

        subscriber_id = self.subscriber_id

        user_type = self.user_type

        alternative_email_id: Union[None, Unset, str]
        if isinstance(self.alternative_email_id, Unset):
            alternative_email_id = UNSET
        else:
            alternative_email_id = self.alternative_email_id

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

        dept_id: Union[None, Unset, int]
        if isinstance(self.dept_id, Unset):
            dept_id = UNSET
        else:
            dept_id = self.dept_id

        designation: Union[None, Unset, str]
        if isinstance(self.designation, Unset):
            designation = UNSET
        else:
            designation = self.designation

        dob: Union[None, Unset, int]
        if isinstance(self.dob, Unset):
            dob = UNSET
        else:
            dob = self.dob

        email_id: Union[None, Unset, str]
        if isinstance(self.email_id, Unset):
            email_id = UNSET
        else:
            email_id = self.email_id

        geo_profile_id: Union[None, Unset, int]
        if isinstance(self.geo_profile_id, Unset):
            geo_profile_id = UNSET
        else:
            geo_profile_id = self.geo_profile_id

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

        pan_number: Union[None, Unset, str]
        if isinstance(self.pan_number, Unset):
            pan_number = UNSET
        else:
            pan_number = self.pan_number

        profile_id: Union[None, Unset, str]
        if isinstance(self.profile_id, Unset):
            profile_id = UNSET
        else:
            profile_id = self.profile_id

        signature_option: Union[None, Unset, int]
        if isinstance(self.signature_option, Unset):
            signature_option = UNSET
        else:
            signature_option = self.signature_option

        signature_type: Union[None, Unset, str]
        if isinstance(self.signature_type, Unset):
            signature_type = UNSET
        else:
            signature_type = self.signature_type

        status_by: Union[None, Unset, str]
        if isinstance(self.status_by, Unset):
            status_by = UNSET
        else:
            status_by = self.status_by

        status_reason: Union[None, Unset, str]
        if isinstance(self.status_reason, Unset):
            status_reason = UNSET
        else:
            status_reason = self.status_reason

        time_zone_id: Union[None, Unset, str]
        if isinstance(self.time_zone_id, Unset):
            time_zone_id = UNSET
        else:
            time_zone_id = self.time_zone_id

        updated_at: Union[None, Unset, int]
        if isinstance(self.updated_at, Unset):
            updated_at = UNSET
        else:
            updated_at = self.updated_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "hasPassword": has_password,
                "loginAuthentication": login_authentication,
                "role": role,
                "roleId": role_id,
                "status": status,
                "subscriberId": subscriber_id,
                "userType": user_type,
            }
        )
        if alternative_email_id is not UNSET:
            field_dict["alternativeEmailID"] = alternative_email_id
        if contact_number is not UNSET:
            field_dict["contactNumber"] = contact_number
        if created_by is not UNSET:
            field_dict["createdBy"] = created_by
        if dept_id is not UNSET:
            field_dict["deptId"] = dept_id
        if designation is not UNSET:
            field_dict["designation"] = designation
        if dob is not UNSET:
            field_dict["dob"] = dob
        if email_id is not UNSET:
            field_dict["emailID"] = email_id
        if geo_profile_id is not UNSET:
            field_dict["geoProfileId"] = geo_profile_id
        if name is not UNSET:
            field_dict["name"] = name
        if national_id is not UNSET:
            field_dict["nationalId"] = national_id
        if organization is not UNSET:
            field_dict["organization"] = organization
        if pan_number is not UNSET:
            field_dict["panNumber"] = pan_number
        if profile_id is not UNSET:
            field_dict["profileId"] = profile_id
        if signature_option is not UNSET:
            field_dict["signatureOption"] = signature_option
        if signature_type is not UNSET:
            field_dict["signatureType"] = signature_type
        if status_by is not UNSET:
            field_dict["statusBy"] = status_by
        if status_reason is not UNSET:
            field_dict["statusReason"] = status_reason
        if time_zone_id is not UNSET:
            field_dict["timeZoneId"] = time_zone_id
        if updated_at is not UNSET:
            field_dict["updatedAt"] = updated_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = d.pop("createdAt")

        has_password = d.pop("hasPassword")

        login_authentication = d.pop("loginAuthentication")

        role = d.pop("role")

        role_id = d.pop("roleId")

        status = d.pop("status")

        subscriber_id = d.pop("subscriberId")

        user_type = d.pop("userType")

        def _parse_alternative_email_id(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        alternative_email_id = _parse_alternative_email_id(
            d.pop("alternativeEmailID", UNSET)
        )

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

        def _parse_dept_id(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        dept_id = _parse_dept_id(d.pop("deptId", UNSET))

        def _parse_designation(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        designation = _parse_designation(d.pop("designation", UNSET))

        def _parse_dob(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        dob = _parse_dob(d.pop("dob", UNSET))

        def _parse_email_id(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        email_id = _parse_email_id(d.pop("emailID", UNSET))

        def _parse_geo_profile_id(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        geo_profile_id = _parse_geo_profile_id(d.pop("geoProfileId", UNSET))

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

        def _parse_pan_number(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        pan_number = _parse_pan_number(d.pop("panNumber", UNSET))

        def _parse_profile_id(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        profile_id = _parse_profile_id(d.pop("profileId", UNSET))

        def _parse_signature_option(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        signature_option = _parse_signature_option(d.pop("signatureOption", UNSET))

        def _parse_signature_type(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        signature_type = _parse_signature_type(d.pop("signatureType", UNSET))

        def _parse_status_by(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        status_by = _parse_status_by(d.pop("statusBy", UNSET))

        def _parse_status_reason(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        status_reason = _parse_status_reason(d.pop("statusReason", UNSET))

        def _parse_time_zone_id(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        time_zone_id = _parse_time_zone_id(d.pop("timeZoneId", UNSET))

        def _parse_updated_at(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        updated_at = _parse_updated_at(d.pop("updatedAt", UNSET))

        user = cls(
            created_at=created_at,
            has_password=has_password,
            login_authentication=login_authentication,
            role=role,
            role_id=role_id,
            status=status,
            subscriber_id=subscriber_id,
            user_type=user_type,
            alternative_email_id=alternative_email_id,
            contact_number=contact_number,
            created_by=created_by,
            dept_id=dept_id,
            designation=designation,
            dob=dob,
            email_id=email_id,
            geo_profile_id=geo_profile_id,
            name=name,
            national_id=national_id,
            organization=organization,
            pan_number=pan_number,
            profile_id=profile_id,
            signature_option=signature_option,
            signature_type=signature_type,
            status_by=status_by,
            status_reason=status_reason,
            time_zone_id=time_zone_id,
            updated_at=updated_at,
        )

        user.additional_properties = d
        return user

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
