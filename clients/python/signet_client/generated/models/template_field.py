from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..models.template_field_kind import TemplateFieldKind
from ..types import UNSET, Unset

T = TypeVar("T", bound="TemplateField")


@_attrs_define
class TemplateField:
    """A signature field of a template: which signatory (1-based position in `signatories`),
    which document (0-based position), where.

        Attributes:
            signatory (int): 1 to 50 (a workflow's largest number of signatories).
            anchor (Union[None, Unset, str]): Instead of coordinates: text in the document below which the signature goes
                (signature
                boxes only).
            document (Union[None, Unset, int]):
            height (Union[None, Unset, float]):
            kind (Union[Unset, TemplateFieldKind]): signature (the default), initials, date, name, email, text or checkbox.
                Default: TemplateFieldKind.SIGNATURE.
            label (Union[None, Unset, str]): The field's name on the signer page (fields only), at most 100 characters.
            left (Union[None, Unset, float]):
            page (Union[None, Unset, int, str]): A page number (from 1), "first", "last" or "all" (default "last").
            required (Union[Unset, bool]): A `text` that must be filled in, a `checkbox` that must be ticked (fields only).
            top (Union[None, Unset, float]):
            width (Union[None, Unset, float]):
    """

    signatory: int
    anchor: Union[None, Unset, str] = UNSET
    document: Union[None, Unset, int] = UNSET
    height: Union[None, Unset, float] = UNSET
    kind: Union[Unset, TemplateFieldKind] = TemplateFieldKind.SIGNATURE
    label: Union[None, Unset, str] = UNSET
    left: Union[None, Unset, float] = UNSET
    page: Union[None, Unset, int, str] = UNSET
    required: Union[Unset, bool] = UNSET
    top: Union[None, Unset, float] = UNSET
    width: Union[None, Unset, float] = UNSET

    def to_dict(self) -> dict[str, Any]:
        signatory = self.signatory

        anchor: Union[None, Unset, str]
        if isinstance(self.anchor, Unset):
            anchor = UNSET
        else:
            anchor = self.anchor

        document: Union[None, Unset, int]
        if isinstance(self.document, Unset):
            document = UNSET
        else:
            document = self.document

        height: Union[None, Unset, float]
        if isinstance(self.height, Unset):
            height = UNSET
        else:
            height = self.height

        kind: Union[Unset, str] = UNSET
        if not isinstance(self.kind, Unset):
            kind = self.kind.value

        label: Union[None, Unset, str]
        if isinstance(self.label, Unset):
            label = UNSET
        else:
            label = self.label

        left: Union[None, Unset, float]
        if isinstance(self.left, Unset):
            left = UNSET
        else:
            left = self.left

        page: Union[None, Unset, int, str]
        if isinstance(self.page, Unset):
            page = UNSET
        else:
            page = self.page

        required = self.required

        top: Union[None, Unset, float]
        if isinstance(self.top, Unset):
            top = UNSET
        else:
            top = self.top

        width: Union[None, Unset, float]
        if isinstance(self.width, Unset):
            width = UNSET
        else:
            width = self.width

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "signatory": signatory,
            }
        )
        if anchor is not UNSET:
            field_dict["anchor"] = anchor
        if document is not UNSET:
            field_dict["document"] = document
        if height is not UNSET:
            field_dict["height"] = height
        if kind is not UNSET:
            field_dict["kind"] = kind
        if label is not UNSET:
            field_dict["label"] = label
        if left is not UNSET:
            field_dict["left"] = left
        if page is not UNSET:
            field_dict["page"] = page
        if required is not UNSET:
            field_dict["required"] = required
        if top is not UNSET:
            field_dict["top"] = top
        if width is not UNSET:
            field_dict["width"] = width

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        signatory = d.pop("signatory")

        def _parse_anchor(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        anchor = _parse_anchor(d.pop("anchor", UNSET))

        def _parse_document(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        document = _parse_document(d.pop("document", UNSET))

        def _parse_height(data: object) -> Union[None, Unset, float]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, float], data)

        height = _parse_height(d.pop("height", UNSET))

        _kind = d.pop("kind", UNSET)
        kind: Union[Unset, TemplateFieldKind]
        if isinstance(_kind, Unset):
            kind = UNSET
        else:
            kind = TemplateFieldKind(_kind)

        def _parse_label(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        label = _parse_label(d.pop("label", UNSET))

        def _parse_left(data: object) -> Union[None, Unset, float]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, float], data)

        left = _parse_left(d.pop("left", UNSET))

        def _parse_page(data: object) -> Union[None, Unset, int, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int, str], data)

        page = _parse_page(d.pop("page", UNSET))

        required = d.pop("required", UNSET)

        def _parse_top(data: object) -> Union[None, Unset, float]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, float], data)

        top = _parse_top(d.pop("top", UNSET))

        def _parse_width(data: object) -> Union[None, Unset, float]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, float], data)

        width = _parse_width(d.pop("width", UNSET))

        template_field = cls(
            signatory=signatory,
            anchor=anchor,
            document=document,
            height=height,
            kind=kind,
            label=label,
            left=left,
            page=page,
            required=required,
            top=top,
            width=width,
        )

        return template_field
