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

T = TypeVar("T", bound="Webhook")


@_attrs_define
class Webhook:
    """
    Attributes:
        created_at (int):
        event_types (list[str]):
        url (str):
        webhook_id (int):
        description (Union[None, Unset, str]):
        paused_at (Union[None, Unset, int]): When the circuit breaker paused the endpoint after repeated failures (its
            deliveries
            wait; see `resumeWebhook`); absent while it is delivering.
    """

    created_at: int
    event_types: list[str]
    url: str
    webhook_id: int
    description: Union[None, Unset, str] = UNSET
    paused_at: Union[None, Unset, int] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at

        event_types = self.event_types

        url = self.url

        webhook_id = self.webhook_id

        description: Union[None, Unset, str]
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        paused_at: Union[None, Unset, int]
        if isinstance(self.paused_at, Unset):
            paused_at = UNSET
        else:
            paused_at = self.paused_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "eventTypes": event_types,
                "url": url,
                "webhookId": webhook_id,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description
        if paused_at is not UNSET:
            field_dict["pausedAt"] = paused_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = d.pop("createdAt")

        event_types = cast(list[str], d.pop("eventTypes"))

        url = d.pop("url")

        webhook_id = d.pop("webhookId")

        def _parse_description(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        description = _parse_description(d.pop("description", UNSET))

        def _parse_paused_at(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        paused_at = _parse_paused_at(d.pop("pausedAt", UNSET))

        webhook = cls(
            created_at=created_at,
            event_types=event_types,
            url=url,
            webhook_id=webhook_id,
            description=description,
            paused_at=paused_at,
        )

        webhook.additional_properties = d
        return webhook

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
