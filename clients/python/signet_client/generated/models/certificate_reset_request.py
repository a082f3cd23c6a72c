from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.browser_info import BrowserInfo


T = TypeVar("T", bound="CertificateResetRequest")


@_attrs_define
class CertificateResetRequest:
    """
    Attributes:
        profile_id (int): One of the caller's enrolled certificates.
        browserinfo (Union['BrowserInfo', None, Unset]):
        password (Union[None, Unset, str]): The caller's account password, confirming the removal.
    """

    profile_id: int
    browserinfo: Union["BrowserInfo", None, Unset] = UNSET
    password: Union[None, Unset, str] = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.browser_info import BrowserInfo

        profile_id = self.profile_id

        browserinfo: Union[None, Unset, dict[str, Any]]
        if isinstance(self.browserinfo, Unset):
            browserinfo = UNSET
        elif isinstance(self.browserinfo, BrowserInfo):
            browserinfo = self.browserinfo.to_dict()
        else:
            browserinfo = self.browserinfo

        password: Union[None, Unset, str]
        if isinstance(self.password, Unset):
            password = UNSET
        else:
            password = self.password

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "profileID": profile_id,
            }
        )
        if browserinfo is not UNSET:
            field_dict["browserinfo"] = browserinfo
        if password is not UNSET:
            field_dict["password"] = password

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.browser_info import BrowserInfo

        d = dict(src_dict)
        profile_id = d.pop("profileID")

        def _parse_browserinfo(data: object) -> Union["BrowserInfo", None, Unset]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                browserinfo_type_0 = BrowserInfo.from_dict(data)

                return browserinfo_type_0
            except:  # noqa: E722
                pass
            return cast(Union["BrowserInfo", None, Unset], data)

        browserinfo = _parse_browserinfo(d.pop("browserinfo", UNSET))

        def _parse_password(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        password = _parse_password(d.pop("password", UNSET))

        certificate_reset_request = cls(
            profile_id=profile_id,
            browserinfo=browserinfo,
            password=password,
        )

        return certificate_reset_request
