from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="SimpleRequest")


@_attrs_define
class SimpleRequest:
    """The spec's `SimpleRequest`: a template looked up by its name (its menu name) from a channel,
    for the optimized initiations that name templates by id (docs/decisions.md says why).

        Attributes:
            name (str): The template's name, ignoring case and surrounding spaces; no control characters.
            request_from (str): The channel the request comes from, in the caller's words (`web`, `mobile`, a system's
                name): logged, not read. 1 to 50 characters, no control characters.
    """

    name: str
    request_from: str

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        request_from = self.request_from

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "requestFrom": request_from,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        request_from = d.pop("requestFrom")

        simple_request = cls(
            name=name,
            request_from=request_from,
        )

        return simple_request
