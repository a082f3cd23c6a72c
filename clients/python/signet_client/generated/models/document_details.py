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
    from ..models.merge_document_details import MergeDocumentDetails
    from ..models.template_control_detail import TemplateControlDetail


T = TypeVar("T", bound="DocumentDetails")


@_attrs_define
class DocumentDetails:
    """A document to sign: its form fields filled from `controlDetails` (and flattened with
    `flattenFields`, a Signet extension), then the `mergeDocumentDetails` appended after it.

        Attributes:
            control_details (Union[None, Unset, list['TemplateControlDetail']]):
            document_name (Union[None, Unset, str]):
            file_data (Union[None, Unset, str]):
            flatten_fields (Union[Unset, bool]): Signet extension: draw the filled fields into the pages and remove them.
            merge_document_details (Union[None, Unset, list['MergeDocumentDetails']]):
            template_id (Union[Unset, int]): 0, or one of the tenant's templates (checked; templates carry no document).
    """

    control_details: Union[None, Unset, list["TemplateControlDetail"]] = UNSET
    document_name: Union[None, Unset, str] = UNSET
    file_data: Union[None, Unset, str] = UNSET
    flatten_fields: Union[Unset, bool] = UNSET
    merge_document_details: Union[None, Unset, list["MergeDocumentDetails"]] = UNSET
    template_id: Union[Unset, int] = UNSET

    def to_dict(self) -> dict[str, Any]:
        control_details: Union[None, Unset, list[dict[str, Any]]]
        if isinstance(self.control_details, Unset):
            control_details = UNSET
        elif isinstance(self.control_details, list):
            control_details = []
            for control_details_type_0_item_data in self.control_details:
                control_details_type_0_item = control_details_type_0_item_data.to_dict()
                control_details.append(control_details_type_0_item)

        else:
            control_details = self.control_details

        document_name: Union[None, Unset, str]
        if isinstance(self.document_name, Unset):
            document_name = UNSET
        else:
            document_name = self.document_name

        file_data: Union[None, Unset, str]
        if isinstance(self.file_data, Unset):
            file_data = UNSET
        else:
            file_data = self.file_data

        flatten_fields = self.flatten_fields

        merge_document_details: Union[None, Unset, list[dict[str, Any]]]
        if isinstance(self.merge_document_details, Unset):
            merge_document_details = UNSET
        elif isinstance(self.merge_document_details, list):
            merge_document_details = []
            for merge_document_details_type_0_item_data in self.merge_document_details:
                merge_document_details_type_0_item = (
                    merge_document_details_type_0_item_data.to_dict()
                )
                merge_document_details.append(merge_document_details_type_0_item)

        else:
            merge_document_details = self.merge_document_details

        template_id = self.template_id

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if control_details is not UNSET:
            field_dict["controlDetails"] = control_details
        if document_name is not UNSET:
            field_dict["documentName"] = document_name
        if file_data is not UNSET:
            field_dict["fileData"] = file_data
        if flatten_fields is not UNSET:
            field_dict["flattenFields"] = flatten_fields
        if merge_document_details is not UNSET:
            field_dict["mergeDocumentDetails"] = merge_document_details
        if template_id is not UNSET:
            field_dict["templateId"] = template_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.merge_document_details import MergeDocumentDetails
        from ..models.template_control_detail import TemplateControlDetail

        d = dict(src_dict)

        def _parse_control_details(
            data: object,
        ) -> Union[None, Unset, list["TemplateControlDetail"]]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                control_details_type_0 = []
                _control_details_type_0 = data
                for control_details_type_0_item_data in _control_details_type_0:
                    control_details_type_0_item = TemplateControlDetail.from_dict(
                        control_details_type_0_item_data
                    )

                    control_details_type_0.append(control_details_type_0_item)

                return control_details_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, Unset, list["TemplateControlDetail"]], data)

        control_details = _parse_control_details(d.pop("controlDetails", UNSET))

        def _parse_document_name(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        document_name = _parse_document_name(d.pop("documentName", UNSET))

        def _parse_file_data(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        file_data = _parse_file_data(d.pop("fileData", UNSET))

        flatten_fields = d.pop("flattenFields", UNSET)

        def _parse_merge_document_details(
            data: object,
        ) -> Union[None, Unset, list["MergeDocumentDetails"]]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                merge_document_details_type_0 = []
                _merge_document_details_type_0 = data
                for (
                    merge_document_details_type_0_item_data
                ) in _merge_document_details_type_0:
                    merge_document_details_type_0_item = MergeDocumentDetails.from_dict(
                        merge_document_details_type_0_item_data
                    )

                    merge_document_details_type_0.append(
                        merge_document_details_type_0_item
                    )

                return merge_document_details_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, Unset, list["MergeDocumentDetails"]], data)

        merge_document_details = _parse_merge_document_details(
            d.pop("mergeDocumentDetails", UNSET)
        )

        template_id = d.pop("templateId", UNSET)

        document_details = cls(
            control_details=control_details,
            document_name=document_name,
            file_data=file_data,
            flatten_fields=flatten_fields,
            merge_document_details=merge_document_details,
            template_id=template_id,
        )

        return document_details
