from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="BrowserInfo")


@_attrs_define
class BrowserInfo:
    """The client's browser, as the spec's objects carry it (recorded, not trusted).

    Attributes:
        browser_name (Union[None, Unset, str]):
        browser_version (Union[None, Unset, str]):
        device (Union[None, Unset, str]):
        ip_address (Union[None, Unset, str]):
        os_name (Union[None, Unset, str]):
        os_version (Union[None, Unset, str]):
        time_zone (Union[None, Unset, str]):
    """

    browser_name: Union[None, Unset, str] = UNSET
    browser_version: Union[None, Unset, str] = UNSET
    device: Union[None, Unset, str] = UNSET
    ip_address: Union[None, Unset, str] = UNSET
    os_name: Union[None, Unset, str] = UNSET
    os_version: Union[None, Unset, str] = UNSET
    time_zone: Union[None, Unset, str] = UNSET

    def to_dict(self) -> dict[str, Any]:
        browser_name: Union[None, Unset, str]
        if isinstance(self.browser_name, Unset):
            browser_name = UNSET
        else:
            browser_name = self.browser_name

        browser_version: Union[None, Unset, str]
        if isinstance(self.browser_version, Unset):
            browser_version = UNSET
        else:
            browser_version = self.browser_version

        device: Union[None, Unset, str]
        if isinstance(self.device, Unset):
            device = UNSET
        else:
            device = self.device

        ip_address: Union[None, Unset, str]
        if isinstance(self.ip_address, Unset):
            ip_address = UNSET
        else:
            ip_address = self.ip_address

        os_name: Union[None, Unset, str]
        if isinstance(self.os_name, Unset):
            os_name = UNSET
        else:
            os_name = self.os_name

        os_version: Union[None, Unset, str]
        if isinstance(self.os_version, Unset):
            os_version = UNSET
        else:
            os_version = self.os_version

        time_zone: Union[None, Unset, str]
        if isinstance(self.time_zone, Unset):
            time_zone = UNSET
        else:
            time_zone = self.time_zone

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if browser_name is not UNSET:
            field_dict["browserName"] = browser_name
        if browser_version is not UNSET:
            field_dict["browserVersion"] = browser_version
        if device is not UNSET:
            field_dict["device"] = device
        if ip_address is not UNSET:
            field_dict["ipAddress"] = ip_address
        if os_name is not UNSET:
            field_dict["osName"] = os_name
        if os_version is not UNSET:
            field_dict["osVersion"] = os_version
        if time_zone is not UNSET:
            field_dict["timeZone"] = time_zone

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_browser_name(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        browser_name = _parse_browser_name(d.pop("browserName", UNSET))

        def _parse_browser_version(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        browser_version = _parse_browser_version(d.pop("browserVersion", UNSET))

        def _parse_device(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        device = _parse_device(d.pop("device", UNSET))

        def _parse_ip_address(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        ip_address = _parse_ip_address(d.pop("ipAddress", UNSET))

        def _parse_os_name(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        os_name = _parse_os_name(d.pop("osName", UNSET))

        def _parse_os_version(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        os_version = _parse_os_version(d.pop("osVersion", UNSET))

        def _parse_time_zone(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        time_zone = _parse_time_zone(d.pop("timeZone", UNSET))

        browser_info = cls(
            browser_name=browser_name,
            browser_version=browser_version,
            device=device,
            ip_address=ip_address,
            os_name=os_name,
            os_version=os_version,
            time_zone=time_zone,
        )

        return browser_info
