from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="EspRouted")


@_attrs_define
class EspRouted:
    """New eSign requests sent to an ESP since this Signet instance started, by why it was chosen.

    Attributes:
        failover (int): An earlier ESP could not take the request (a failed server-flow post).
        healthiest (int): It was first in the order, another being down or degraded.
        primary (int): It was first in the order and is the primary.
        retry (int): A signer back from another ESP, or trying again after a refused answer.
    """

    failover: int
    healthiest: int
    primary: int
    retry: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        failover = self.failover

        healthiest = self.healthiest

        primary = self.primary

        retry = self.retry

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "failover": failover,
                "healthiest": healthiest,
                "primary": primary,
                "retry": retry,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        failover = d.pop("failover")

        healthiest = d.pop("healthiest")

        primary = d.pop("primary")

        retry = d.pop("retry")

        esp_routed = cls(
            failover=failover,
            healthiest=healthiest,
            primary=primary,
            retry=retry,
        )

        esp_routed.additional_properties = d
        return esp_routed

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
