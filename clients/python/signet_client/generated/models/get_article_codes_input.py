from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="GetArticleCodesInput")


@_attrs_define
class GetArticleCodesInput:
    """The spec's `GetArticleCodesInput`.

    Attributes:
        state_code (str): The state: its ISO 3166-2:IN code or name, as `StampBulk.state` takes it (ignoring
            surrounding spaces); a text that names no state has no articles.
    """

    state_code: str

    def to_dict(self) -> dict[str, Any]:
        state_code = self.state_code

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "stateCode": state_code,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        state_code = d.pop("stateCode")

        get_article_codes_input = cls(
            state_code=state_code,
        )

        return get_article_codes_input
