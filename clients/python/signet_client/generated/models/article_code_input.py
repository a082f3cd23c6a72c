from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..models.article_code_input_duty_kind import ArticleCodeInputDutyKind
from ..types import UNSET, Unset

T = TypeVar("T", bound="ArticleCodeInput")


@_attrs_define
class ArticleCodeInput:
    """A tenant's version of an article.

    Attributes:
        description (str):
        duty_kind (ArticleCodeInputDutyKind):
        duty_rule (Union[None, Unset, str]):
        fixed_duty (Union[None, Unset, int]): Required with `fixed`, and only then.
        source (Union[None, Unset, str]):
    """

    description: str
    duty_kind: ArticleCodeInputDutyKind
    duty_rule: Union[None, Unset, str] = UNSET
    fixed_duty: Union[None, Unset, int] = UNSET
    source: Union[None, Unset, str] = UNSET

    def to_dict(self) -> dict[str, Any]:
        description = self.description

        duty_kind = self.duty_kind.value

        duty_rule: Union[None, Unset, str]
        if isinstance(self.duty_rule, Unset):
            duty_rule = UNSET
        else:
            duty_rule = self.duty_rule

        fixed_duty: Union[None, Unset, int]
        if isinstance(self.fixed_duty, Unset):
            fixed_duty = UNSET
        else:
            fixed_duty = self.fixed_duty

        source: Union[None, Unset, str]
        if isinstance(self.source, Unset):
            source = UNSET
        else:
            source = self.source

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "description": description,
                "dutyKind": duty_kind,
            }
        )
        if duty_rule is not UNSET:
            field_dict["dutyRule"] = duty_rule
        if fixed_duty is not UNSET:
            field_dict["fixedDuty"] = fixed_duty
        if source is not UNSET:
            field_dict["source"] = source

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        description = d.pop("description")

        duty_kind = ArticleCodeInputDutyKind(d.pop("dutyKind"))

        def _parse_duty_rule(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        duty_rule = _parse_duty_rule(d.pop("dutyRule", UNSET))

        def _parse_fixed_duty(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        fixed_duty = _parse_fixed_duty(d.pop("fixedDuty", UNSET))

        def _parse_source(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        source = _parse_source(d.pop("source", UNSET))

        article_code_input = cls(
            description=description,
            duty_kind=duty_kind,
            duty_rule=duty_rule,
            fixed_duty=fixed_duty,
            source=source,
        )

        return article_code_input
