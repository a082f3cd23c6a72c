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


T = TypeVar("T", bound="EnrollmentCertificateUploadRequest")


@_attrs_define
class EnrollmentCertificateUploadRequest:
    """
    Attributes:
        pfx_base_64 (str): The PKCS#12 (.p12/.pfx), base64, at most 256 KiB: a certificate that may sign documents
            now and chains to the installation's trust list.
        browser_info (Union['BrowserInfo', None, Unset]):
        certificate_name (Union[None, Unset, str]): A name for it (default: the certificate's subject), at most 100
            characters.
        password (Union[None, Unset, str]): Its password; used once to open the file and not stored.
    """

    pfx_base_64: str
    browser_info: Union["BrowserInfo", None, Unset] = UNSET
    certificate_name: Union[None, Unset, str] = UNSET
    password: Union[None, Unset, str] = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.browser_info import BrowserInfo

        pfx_base_64 = self.pfx_base_64

        browser_info: Union[None, Unset, dict[str, Any]]
        if isinstance(self.browser_info, Unset):
            browser_info = UNSET
        elif isinstance(self.browser_info, BrowserInfo):
            browser_info = self.browser_info.to_dict()
        else:
            browser_info = self.browser_info

        certificate_name: Union[None, Unset, str]
        if isinstance(self.certificate_name, Unset):
            certificate_name = UNSET
        else:
            certificate_name = self.certificate_name

        password: Union[None, Unset, str]
        if isinstance(self.password, Unset):
            password = UNSET
        else:
            password = self.password

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "pfxBase64": pfx_base_64,
            }
        )
        if browser_info is not UNSET:
            field_dict["browserInfo"] = browser_info
        if certificate_name is not UNSET:
            field_dict["certificateName"] = certificate_name
        if password is not UNSET:
            field_dict["password"] = password

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.browser_info import BrowserInfo

        d = dict(src_dict)
        pfx_base_64 = d.pop("pfxBase64")

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

        def _parse_certificate_name(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        certificate_name = _parse_certificate_name(d.pop("certificateName", UNSET))

        def _parse_password(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        password = _parse_password(d.pop("password", UNSET))

        enrollment_certificate_upload_request = cls(
            pfx_base_64=pfx_base_64,
            browser_info=browser_info,
            certificate_name=certificate_name,
            password=password,
        )

        return enrollment_certificate_upload_request
