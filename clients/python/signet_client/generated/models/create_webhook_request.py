from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..models.create_webhook_request_event_types_item import (
    CreateWebhookRequestEventTypesItem,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateWebhookRequest")


@_attrs_define
class CreateWebhookRequest:
    """
    Attributes:
        event_types (list[CreateWebhookRequestEventTypesItem]): Event types to receive, or `["*"]` for all.
        url (str): Where events are POSTed: an absolute http(s) URL on a public address, at most 2000
            characters.
        description (Union[None, Unset, str]):
    """

    event_types: list[CreateWebhookRequestEventTypesItem]
    url: str
    description: Union[None, Unset, str] = UNSET

    def to_dict(self) -> dict[str, Any]:
        event_types = []
        for event_types_item_data in self.event_types:
            event_types_item = event_types_item_data.value
            event_types.append(event_types_item)

        url = self.url

        description: Union[None, Unset, str]
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "eventTypes": event_types,
                "url": url,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        event_types = []
        _event_types = d.pop("eventTypes")
        for event_types_item_data in _event_types:
            event_types_item = CreateWebhookRequestEventTypesItem(event_types_item_data)

            event_types.append(event_types_item)

        url = d.pop("url")

        def _parse_description(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        description = _parse_description(d.pop("description", UNSET))

        create_webhook_request = cls(
            event_types=event_types,
            url=url,
            description=description,
        )

        return create_webhook_request
