from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    TypeVar,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.esp_provider import EspProvider


T = TypeVar("T", bound="EspProviders")


@_attrs_define
class EspProviders:
    """The installation's ESPs in priority order; empty when Aadhaar eSign is not configured.

    Attributes:
        providers (list['EspProvider']):
        window_ms (int): The sliding window each verdict is drawn from, in milliseconds (`esign_health_window_ms`).
    """

    providers: list["EspProvider"]
    window_ms: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        providers = []
        for providers_item_data in self.providers:
            providers_item = providers_item_data.to_dict()
            providers.append(providers_item)

        window_ms = self.window_ms

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "providers": providers,
                "windowMs": window_ms,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.esp_provider import EspProvider

        d = dict(src_dict)
        providers = []
        _providers = d.pop("providers")
        for providers_item_data in _providers:
            providers_item = EspProvider.from_dict(providers_item_data)

            providers.append(providers_item)

        window_ms = d.pop("windowMs")

        esp_providers = cls(
            providers=providers,
            window_ms=window_ms,
        )

        esp_providers.additional_properties = d
        return esp_providers

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
