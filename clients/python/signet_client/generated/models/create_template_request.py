from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.browser_info import BrowserInfo
    from ..models.template_definition import TemplateDefinition


T = TypeVar("T", bound="CreateTemplateRequest")


@_attrs_define
class CreateTemplateRequest:
    """The spec's `CreateTemplateRequest` (`menuName` is the template's name) with its definition.

    Attributes:
        menu_name (str): The template's name: 1 to 200 characters (trimmed), no control characters.
        browser_info (Union['BrowserInfo', None, Unset]):
        definition (Union['TemplateDefinition', None, Unset]):
        description (Union[None, Unset, str]):
    """

    menu_name: str
    browser_info: Union["BrowserInfo", None, Unset] = UNSET
    definition: Union["TemplateDefinition", None, Unset] = UNSET
    description: Union[None, Unset, str] = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.browser_info import BrowserInfo
        from ..models.template_definition import TemplateDefinition

        menu_name = self.menu_name

        browser_info: Union[None, Unset, dict[str, Any]]
        if isinstance(self.browser_info, Unset):
            browser_info = UNSET
        elif isinstance(self.browser_info, BrowserInfo):
            browser_info = self.browser_info.to_dict()
        else:
            browser_info = self.browser_info

        definition: Union[None, Unset, dict[str, Any]]
        if isinstance(self.definition, Unset):
            definition = UNSET
        elif isinstance(self.definition, TemplateDefinition):
            definition = self.definition.to_dict()
        else:
            definition = self.definition

        description: Union[None, Unset, str]
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "menuName": menu_name,
            }
        )
        if browser_info is not UNSET:
            field_dict["browserInfo"] = browser_info
        if definition is not UNSET:
            field_dict["definition"] = definition
        if description is not UNSET:
            field_dict["description"] = description

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.browser_info import BrowserInfo
        from ..models.template_definition import TemplateDefinition

        d = dict(src_dict)
        menu_name = d.pop("menuName")

        def _parse_browser_info(data: object) -> Union["BrowserInfo", None, Unset]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                browser_info_type_0 = BrowserInfo.from_dict(data)

                return browser_info_type_0
            except:  # noqa: E722
                pass
            return cast(Union["BrowserInfo", None, Unset], data)

        browser_info = _parse_browser_info(d.pop("browserInfo", UNSET))

        def _parse_definition(data: object) -> Union["TemplateDefinition", None, Unset]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                definition_type_0 = TemplateDefinition.from_dict(data)

                return definition_type_0
            except:  # noqa: E722
                pass
            return cast(Union["TemplateDefinition", None, Unset], data)

        definition = _parse_definition(d.pop("definition", UNSET))

        def _parse_description(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        description = _parse_description(d.pop("description", UNSET))

        create_template_request = cls(
            menu_name=menu_name,
            browser_info=browser_info,
            definition=definition,
            description=description,
        )

        return create_template_request
