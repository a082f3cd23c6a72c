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

from ..models.esp_flow import EspFlow
from ..models.esp_profile import EspProfile
from ..models.esp_verdict import EspVerdict
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.esp_routed import EspRouted


T = TypeVar("T", bound="EspProvider")


@_attrs_define
class EspProvider:
    """One configured ESP as this Signet instance sees it now.

    Attributes:
        answered (int): Observations in the window: answers (and live probes).
        flow (EspFlow): How the request reaches the ESP.
        name (str): Its name in the installation's settings, the metrics and the logs.
        priority (int): Its place in the configured order, 1 for the primary.
        profile (EspProfile): The ESP's profile (`esign_esp_profile`): its flow, signature style and codes.
        refused (int): Observations in the window: refusals that are the ESP's own failure.
        routed (EspRouted): New eSign requests sent to an ESP since this Signet instance started, by why it was chosen.
        unreachable (int): Observations in the window: not reached, timed out, or a server error.
        verdict (EspVerdict): An ESP's health as Signet judges it over the window.
        median_latency_ms (Union[None, Unset, int]): Median latency of the window's timed observations (probes, server-
            flow posts).
    """

    answered: int
    flow: EspFlow
    name: str
    priority: int
    profile: EspProfile
    refused: int
    routed: "EspRouted"
    unreachable: int
    verdict: EspVerdict
    median_latency_ms: Union[None, Unset, int] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        answered = self.answered

        flow = self.flow.value

        name = self.name

        priority = self.priority

        profile = self.profile.value

        refused = self.refused

        routed = self.routed.to_dict()

        unreachable = self.unreachable

        verdict = self.verdict.value

        median_latency_ms: Union[None, Unset, int]
        if isinstance(self.median_latency_ms, Unset):
            median_latency_ms = UNSET
        else:
            median_latency_ms = self.median_latency_ms

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "answered": answered,
                "flow": flow,
                "name": name,
                "priority": priority,
                "profile": profile,
                "refused": refused,
                "routed": routed,
                "unreachable": unreachable,
                "verdict": verdict,
            }
        )
        if median_latency_ms is not UNSET:
            field_dict["medianLatencyMs"] = median_latency_ms

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.esp_routed import EspRouted

        d = dict(src_dict)
        answered = d.pop("answered")

        flow = EspFlow(d.pop("flow"))

        name = d.pop("name")

        priority = d.pop("priority")

        profile = EspProfile(d.pop("profile"))

        refused = d.pop("refused")

        routed = EspRouted.from_dict(d.pop("routed"))

        unreachable = d.pop("unreachable")

        verdict = EspVerdict(d.pop("verdict"))

        def _parse_median_latency_ms(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        median_latency_ms = _parse_median_latency_ms(d.pop("medianLatencyMs", UNSET))

        esp_provider = cls(
            answered=answered,
            flow=flow,
            name=name,
            priority=priority,
            profile=profile,
            refused=refused,
            routed=routed,
            unreachable=unreachable,
            verdict=verdict,
            median_latency_ms=median_latency_ms,
        )

        esp_provider.additional_properties = d
        return esp_provider

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
