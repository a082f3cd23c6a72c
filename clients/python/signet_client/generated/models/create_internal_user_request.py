import datetime
from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define
from dateutil.parser import isoparse

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.browser_info import BrowserInfo


T = TypeVar("T", bound="CreateInternalUserRequest")


@_attrs_define
class CreateInternalUserRequest:
    """A staff user as an administrator creates or changes them. `name` and `EmailID` are
    required; the rest is optional.

        Attributes:
            email_id (str): The sign-in address, unique across Signet.
            name (str): 1 to 150 characters, no control characters.
            alternative_email_id (Union[None, Unset, str]): Another address of the user (not the sign-in one).
            pan_number (Union[None, Unset, str]): PAN: five letters, four digits, a letter (e.g. `ABCPE1234F`).
            browser_info (Union['BrowserInfo', None, Unset]):
            contact_number (Union[None, Unset, str]): 7 to 15 digits, optionally with a leading `+` (spaces and hyphens
                allowed between digits).
            dept_id (Union[None, Unset, int]): A department of the tenant.
            designation (Union[None, Unset, str]):
            dob (Union[None, Unset, datetime.datetime]): Date of birth, between 1900 and today.
            geo_profile_id (Union[None, Unset, int]):
            login_authentication (Union[None, Unset, str]): `password` (default), `email_otp` or `sso`.
            national_id (Union[None, Unset, str]): Aadhaar number: 12 digits with a valid check digit. Kept as its last four
                digits only.
            organization (Union[None, Unset, str]):
            profile_id (Union[None, Unset, str]): A certificate profile reference, kept as given.
            role_id (Union[None, Unset, int]): 1 administrator, 2 sender (default), 3 signer, 4 auditor, or a tenant role's
                id (above
                100, see `GET /api/v1/roles`); only administrators give the administrator or a tenant role.
            signature_option (Union[None, Unset, int]): eSignature options, combined: 1 draw, 2 type, 4 upload, 8 pad.
            signature_type (Union[None, Unset, str]): How the user signs: `electronic` (or 4), `aadhaar_esign` (3),
                `dsc_token` (2); default electronic.
            time_zone_id (Union[None, Unset, str]): IANA time-zone name, e.g. `Asia/Kolkata`.
    """

    email_id: str
    name: str
    alternative_email_id: Union[None, Unset, str] = UNSET
    pan_number: Union[None, Unset, str] = UNSET
    browser_info: Union["BrowserInfo", None, Unset] = UNSET
    contact_number: Union[None, Unset, str] = UNSET
    dept_id: Union[None, Unset, int] = UNSET
    designation: Union[None, Unset, str] = UNSET
    dob: Union[None, Unset, datetime.datetime] = UNSET
    geo_profile_id: Union[None, Unset, int] = UNSET
    login_authentication: Union[None, Unset, str] = UNSET
    national_id: Union[None, Unset, str] = UNSET
    organization: Union[None, Unset, str] = UNSET
    profile_id: Union[None, Unset, str] = UNSET
    role_id: Union[None, Unset, int] = UNSET
    signature_option: Union[None, Unset, int] = UNSET
    signature_type: Union[None, Unset, str] = UNSET
    time_zone_id: Union[None, Unset, str] = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.browser_info import BrowserInfo

        email_id = self.email_id

        name = self.name

        alternative_email_id: Union[None, Unset, str]
        if isinstance(self.alternative_email_id, Unset):
            alternative_email_id = UNSET
        else:
            alternative_email_id = self.alternative_email_id

        pan_number: Union[None, Unset, str]
        if isinstance(self.pan_number, Unset):
            pan_number = UNSET
        else:
            pan_number = self.pan_number

        browser_info: Union[None, Unset, dict[str, Any]]
        if isinstance(self.browser_info, Unset):
            browser_info = UNSET
        elif isinstance(self.browser_info, BrowserInfo):
            browser_info = self.browser_info.to_dict()
        else:
            browser_info = self.browser_info

        contact_number: Union[None, Unset, str]
        if isinstance(self.contact_number, Unset):
            contact_number = UNSET
        else:
            contact_number = self.contact_number

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

        dob: Union[None, Unset, str]
        if isinstance(self.dob, Unset):
            dob = UNSET
        elif isinstance(self.dob, datetime.datetime):
            dob = self.dob.isoformat()
        else:
            dob = self.dob

        geo_profile_id: Union[None, Unset, int]
        if isinstance(self.geo_profile_id, Unset):
            geo_profile_id = UNSET
        else:
            geo_profile_id = self.geo_profile_id

        login_authentication: Union[None, Unset, str]
        if isinstance(self.login_authentication, Unset):
            login_authentication = UNSET
        else:
            login_authentication = self.login_authentication

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

        profile_id: Union[None, Unset, str]
        if isinstance(self.profile_id, Unset):
            profile_id = UNSET
        else:
            profile_id = self.profile_id

        role_id: Union[None, Unset, int]
        if isinstance(self.role_id, Unset):
            role_id = UNSET
        else:
            role_id = self.role_id

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

        time_zone_id: Union[None, Unset, str]
        if isinstance(self.time_zone_id, Unset):
            time_zone_id = UNSET
        else:
            time_zone_id = self.time_zone_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "EmailID": email_id,
                "name": name,
            }
        )
        if alternative_email_id is not UNSET:
            field_dict["AlternativeEmailID"] = alternative_email_id
        if pan_number is not UNSET:
            field_dict["PanNumber"] = pan_number
        if browser_info is not UNSET:
            field_dict["browserInfo"] = browser_info
        if contact_number is not UNSET:
            field_dict["contactNumber"] = contact_number
        if dept_id is not UNSET:
            field_dict["deptId"] = dept_id
        if designation is not UNSET:
            field_dict["designation"] = designation
        if dob is not UNSET:
            field_dict["dob"] = dob
        if geo_profile_id is not UNSET:
            field_dict["geoProfileId"] = geo_profile_id
        if login_authentication is not UNSET:
            field_dict["loginAuthentication"] = login_authentication
        if national_id is not UNSET:
            field_dict["nationalId"] = national_id
        if organization is not UNSET:
            field_dict["organization"] = organization
        if profile_id is not UNSET:
            field_dict["profileId"] = profile_id
        if role_id is not UNSET:
            field_dict["roleId"] = role_id
        if signature_option is not UNSET:
            field_dict["signatureOption"] = signature_option
        if signature_type is not UNSET:
            field_dict["signatureType"] = signature_type
        if time_zone_id is not UNSET:
            field_dict["timeZoneId"] = time_zone_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.browser_info import BrowserInfo

        d = dict(src_dict)
        email_id = d.pop("EmailID")

        name = d.pop("name")

        def _parse_alternative_email_id(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        alternative_email_id = _parse_alternative_email_id(
            d.pop("AlternativeEmailID", UNSET)
        )

        def _parse_pan_number(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        pan_number = _parse_pan_number(d.pop("PanNumber", UNSET))

        def _parse_browser_info(data: object) -> Union["BrowserInfo", None, Unset]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                browser_info_type_0 = BrowserInfo.from_dict(data)

                return browser_info_type_0
            except:  # noqa: E722
                pass
            return cast(Union["BrowserInfo", None, Unset], data)

        browser_info = _parse_browser_info(d.pop("browserInfo", UNSET))

        def _parse_contact_number(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        contact_number = _parse_contact_number(d.pop("contactNumber", UNSET))

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

        def _parse_dob(data: object) -> Union[None, Unset, datetime.datetime]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                dob_type_0 = isoparse(data)

                return dob_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, Unset, datetime.datetime], data)

        dob = _parse_dob(d.pop("dob", UNSET))

        def _parse_geo_profile_id(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        geo_profile_id = _parse_geo_profile_id(d.pop("geoProfileId", UNSET))

        def _parse_login_authentication(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        login_authentication = _parse_login_authentication(
            d.pop("loginAuthentication", UNSET)
        )

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

        def _parse_profile_id(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        profile_id = _parse_profile_id(d.pop("profileId", UNSET))

        def _parse_role_id(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        role_id = _parse_role_id(d.pop("roleId", UNSET))

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

        def _parse_time_zone_id(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        time_zone_id = _parse_time_zone_id(d.pop("timeZoneId", UNSET))

        create_internal_user_request = cls(
            email_id=email_id,
            name=name,
            alternative_email_id=alternative_email_id,
            pan_number=pan_number,
            browser_info=browser_info,
            contact_number=contact_number,
            dept_id=dept_id,
            designation=designation,
            dob=dob,
            geo_profile_id=geo_profile_id,
            login_authentication=login_authentication,
            national_id=national_id,
            organization=organization,
            profile_id=profile_id,
            role_id=role_id,
            signature_option=signature_option,
            signature_type=signature_type,
            time_zone_id=time_zone_id,
        )

        return create_internal_user_request
