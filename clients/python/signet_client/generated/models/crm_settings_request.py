from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="CrmSettingsRequest")


@_attrs_define
class CrmSettingsRequest:
    """The tenant's CRM endpoint: every version of every lead is posted to it, signed the
    Standard Webhooks way (`webhook-id`, `webhook-timestamp`, `webhook-signature`) with
    `secret`, and retried with backoff until it answers 2xx.

        Attributes:
            url (Union[None, Unset, str]): Absolute http(s) URL allowed by the outbound policy; null stops pushes (leads
                wait in
                the outbox). Left out: null.
    """

    url: Union[None, Unset, str] = UNSET

    def to_dict(self) -> dict[str, Any]:
        url: Union[None, Unset, str]
        if isinstance(self.url, Unset):
            url = UNSET
        else:
            url = self.url

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if url is not UNSET:
            field_dict["url"] = url

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_url(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        url = _parse_url(d.pop("url", UNSET))

        crm_settings_request = cls(
            url=url,
        )

        return crm_settings_request
