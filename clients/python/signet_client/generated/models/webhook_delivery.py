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
    from ..models.webhook_delivery_attempt import WebhookDeliveryAttempt


T = TypeVar("T", bound="WebhookDelivery")


@_attrs_define
class WebhookDelivery:
    """
    Attributes:
        attempt_log (list['WebhookDeliveryAttempt']): Every attempt at this delivery, oldest first (failed attempts are
            retried 15 times
            over a day and more: docs/api.md).
        attempts (int):
        created_at (int):
        delivery_id (int):
        event_type (str):
        message_id (str): The `webhook-id` header, the same on every attempt.
        state (str): pending, succeeded or failed.
        updated_at (int):
        last_error (Union[None, Unset, str]):
        last_status (Union[None, Unset, int]):
    """

    attempt_log: list["WebhookDeliveryAttempt"]
    attempts: int
    created_at: int
    delivery_id: int
    event_type: str
    message_id: str
    state: str
    updated_at: int
    last_error: Union[None, Unset, str] = UNSET
    last_status: Union[None, Unset, int] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        attempt_log = []
        for attempt_log_item_data in self.attempt_log:
            attempt_log_item = attempt_log_item_data.to_dict()
            attempt_log.append(attempt_log_item)

        attempts = self.attempts

        created_at = self.created_at

        delivery_id = self.delivery_id

        event_type = self.event_type

        message_id = self.message_id

        state = self.state

        updated_at = self.updated_at

        last_error: Union[None, Unset, str]
        if isinstance(self.last_error, Unset):
            last_error = UNSET
        else:
            last_error = self.last_error

        last_status: Union[None, Unset, int]
        if isinstance(self.last_status, Unset):
            last_status = UNSET
        else:
            last_status = self.last_status

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "attemptLog": attempt_log,
                "attempts": attempts,
                "createdAt": created_at,
                "deliveryId": delivery_id,
                "eventType": event_type,
                "messageId": message_id,
                "state": state,
                "updatedAt": updated_at,
            }
        )
        if last_error is not UNSET:
            field_dict["lastError"] = last_error
        if last_status is not UNSET:
            field_dict["lastStatus"] = last_status

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.webhook_delivery_attempt import WebhookDeliveryAttempt

        d = dict(src_dict)
        attempt_log = []
        _attempt_log = d.pop("attemptLog")
        for attempt_log_item_data in _attempt_log:
            attempt_log_item = WebhookDeliveryAttempt.from_dict(attempt_log_item_data)

            attempt_log.append(attempt_log_item)

        attempts = d.pop("attempts")

        created_at = d.pop("createdAt")

        delivery_id = d.pop("deliveryId")

        event_type = d.pop("eventType")

        message_id = d.pop("messageId")

        state = d.pop("state")

        updated_at = d.pop("updatedAt")

        def _parse_last_error(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        last_error = _parse_last_error(d.pop("lastError", UNSET))

        def _parse_last_status(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        last_status = _parse_last_status(d.pop("lastStatus", UNSET))

        webhook_delivery = cls(
            attempt_log=attempt_log,
            attempts=attempts,
            created_at=created_at,
            delivery_id=delivery_id,
            event_type=event_type,
            message_id=message_id,
            state=state,
            updated_at=updated_at,
            last_error=last_error,
            last_status=last_status,
        )

        webhook_delivery.additional_properties = d
        return webhook_delivery

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
