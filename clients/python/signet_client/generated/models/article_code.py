from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.article_code_duty_kind import ArticleCodeDutyKind
from ..types import UNSET, Unset

T = TypeVar("T", bound="ArticleCode")


@_attrs_define
class ArticleCode:
    """An article of a state's stamp schedule.

    Attributes:
        article_code (str):
        description (str):
        duty_kind (ArticleCodeDutyKind):
        duty_rule (str):
        edited (bool): The tenant changed or added it.
        shipped (bool): Signet ships this article.
        source (str): Where the rule is published (act, schedule, article).
        fixed_duty (Union[None, Unset, int]): The duty in rupees, when the article fixes one.
    """

    article_code: str
    description: str
    duty_kind: ArticleCodeDutyKind
    duty_rule: str
    edited: bool
    shipped: bool
    source: str
    fixed_duty: Union[None, Unset, int] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        article_code = self.article_code

        description = self.description

        duty_kind = self.duty_kind.value

        duty_rule = self.duty_rule

        edited = self.edited

        shipped = self.shipped

        source = self.source

        fixed_duty: Union[None, Unset, int]
        if isinstance(self.fixed_duty, Unset):
            fixed_duty = UNSET
        else:
            fixed_duty = self.fixed_duty

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "articleCode": article_code,
                "description": description,
                "dutyKind": duty_kind,
                "dutyRule": duty_rule,
                "edited": edited,
                "shipped": shipped,
                "source": source,
            }
        )
        if fixed_duty is not UNSET:
            field_dict["fixedDuty"] = fixed_duty

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        article_code = d.pop("articleCode")

        description = d.pop("description")

        duty_kind = ArticleCodeDutyKind(d.pop("dutyKind"))

        duty_rule = d.pop("dutyRule")

        edited = d.pop("edited")

        shipped = d.pop("shipped")

        source = d.pop("source")

        def _parse_fixed_duty(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        fixed_duty = _parse_fixed_duty(d.pop("fixedDuty", UNSET))

        article_code = cls(
            article_code=article_code,
            description=description,
            duty_kind=duty_kind,
            duty_rule=duty_rule,
            edited=edited,
            shipped=shipped,
            source=source,
            fixed_duty=fixed_duty,
        )

        article_code.additional_properties = d
        return article_code

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
