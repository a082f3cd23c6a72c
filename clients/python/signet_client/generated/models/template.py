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
    from ..models.template_definition import TemplateDefinition


T = TypeVar("T", bound="Template")


@_attrs_define
class Template:
    """
    Attributes:
        created_at (int):
        definition (TemplateDefinition):
        menu_name (str):
        template_id (int):
        description (Union[None, Unset, str]):
    """

    created_at: int
    definition: "TemplateDefinition"
    menu_name: str
    template_id: int
    description: Union[None, Unset, str] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at

        definition = self.definition.to_dict()

        menu_name = self.menu_name

        template_id = self.template_id

        description: Union[None, Unset, str]
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "definition": definition,
                "menuName": menu_name,
                "templateId": template_id,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.template_definition import TemplateDefinition

        d = dict(src_dict)
        created_at = d.pop("createdAt")

        definition = TemplateDefinition.from_dict(d.pop("definition"))

        menu_name = d.pop("menuName")

        template_id = d.pop("templateId")

        def _parse_description(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        description = _parse_description(d.pop("description", UNSET))

        template = cls(
            created_at=created_at,
            definition=definition,
            menu_name=menu_name,
            template_id=template_id,
            description=description,
        )

        template.additional_properties = d
        return template

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
