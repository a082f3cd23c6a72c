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
    from ..models.document_details import DocumentDetails
    from ..models.template_data import TemplateData


T = TypeVar("T", bound="OptimizedSignRequest")


@_attrs_define
class OptimizedSignRequest:
    """The spec's `OptimizedSignRequest`: documents and the signers' e-mails, signing in order.

    Attributes:
        email_id (Union[None, Unset, str]):
        lst_document_details (Union[None, Unset, list['DocumentDetails']]):
        name (Union[None, Unset, str]):
        request_from (Union[None, Unset, str]):
        signatory_email_ids (Union[None, Unset, list[str]]):
        suppress_estamp_page (Union[Unset, bool]):
        template_list (Union[None, Unset, list['TemplateData']]):
    """

    email_id: Union[None, Unset, str] = UNSET
    lst_document_details: Union[None, Unset, list["DocumentDetails"]] = UNSET
    name: Union[None, Unset, str] = UNSET
    request_from: Union[None, Unset, str] = UNSET
    signatory_email_ids: Union[None, Unset, list[str]] = UNSET
    suppress_estamp_page: Union[Unset, bool] = UNSET
    template_list: Union[None, Unset, list["TemplateData"]] = UNSET

    def to_dict(self) -> dict[str, Any]:
        email_id: Union[None, Unset, str]
        if isinstance(self.email_id, Unset):
            email_id = UNSET
        else:
            email_id = self.email_id

        lst_document_details: Union[None, Unset, list[dict[str, Any]]]
        if isinstance(self.lst_document_details, Unset):
            lst_document_details = UNSET
        elif isinstance(self.lst_document_details, list):
            lst_document_details = []
            for lst_document_details_type_0_item_data in self.lst_document_details:
                lst_document_details_type_0_item = (
                    lst_document_details_type_0_item_data.to_dict()
                )
                lst_document_details.append(lst_document_details_type_0_item)

        else:
            lst_document_details = self.lst_document_details

        name: Union[None, Unset, str]
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        request_from: Union[None, Unset, str]
        if isinstance(self.request_from, Unset):
            request_from = UNSET
        else:
            request_from = self.request_from

        signatory_email_ids: Union[None, Unset, list[str]]
        if isinstance(self.signatory_email_ids, Unset):
            signatory_email_ids = UNSET
        elif isinstance(self.signatory_email_ids, list):
            signatory_email_ids = self.signatory_email_ids

        else:
            signatory_email_ids = self.signatory_email_ids

        suppress_estamp_page = self.suppress_estamp_page

        template_list: Union[None, Unset, list[dict[str, Any]]]
        if isinstance(self.template_list, Unset):
            template_list = UNSET
        elif isinstance(self.template_list, list):
            template_list = []
            for template_list_type_0_item_data in self.template_list:
                template_list_type_0_item = template_list_type_0_item_data.to_dict()
                template_list.append(template_list_type_0_item)

        else:
            template_list = self.template_list

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if email_id is not UNSET:
            field_dict["emailId"] = email_id
        if lst_document_details is not UNSET:
            field_dict["lstDocumentDetails"] = lst_document_details
        if name is not UNSET:
            field_dict["name"] = name
        if request_from is not UNSET:
            field_dict["requestFrom"] = request_from
        if signatory_email_ids is not UNSET:
            field_dict["signatoryEmailIds"] = signatory_email_ids
        if suppress_estamp_page is not UNSET:
            field_dict["suppressEstampPage"] = suppress_estamp_page
        if template_list is not UNSET:
            field_dict["templateList"] = template_list

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.document_details import DocumentDetails
        from ..models.template_data import TemplateData

        d = dict(src_dict)

        def _parse_email_id(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        email_id = _parse_email_id(d.pop("emailId", UNSET))

        def _parse_lst_document_details(
            data: object,
        ) -> Union[None, Unset, list["DocumentDetails"]]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                lst_document_details_type_0 = []
                _lst_document_details_type_0 = data
                for (
                    lst_document_details_type_0_item_data
                ) in _lst_document_details_type_0:
                    lst_document_details_type_0_item = DocumentDetails.from_dict(
                        lst_document_details_type_0_item_data
                    )

                    lst_document_details_type_0.append(lst_document_details_type_0_item)

                return lst_document_details_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, Unset, list["DocumentDetails"]], data)

        lst_document_details = _parse_lst_document_details(
            d.pop("lstDocumentDetails", UNSET)
        )

        def _parse_name(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        name = _parse_name(d.pop("name", UNSET))

        def _parse_request_from(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        request_from = _parse_request_from(d.pop("requestFrom", UNSET))

        def _parse_signatory_email_ids(data: object) -> Union[None, Unset, list[str]]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                signatory_email_ids_type_0 = cast(list[str], data)

                return signatory_email_ids_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, Unset, list[str]], data)

        signatory_email_ids = _parse_signatory_email_ids(
            d.pop("signatoryEmailIds", UNSET)
        )

        suppress_estamp_page = d.pop("suppressEstampPage", UNSET)

        def _parse_template_list(
            data: object,
        ) -> Union[None, Unset, list["TemplateData"]]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                template_list_type_0 = []
                _template_list_type_0 = data
                for template_list_type_0_item_data in _template_list_type_0:
                    template_list_type_0_item = TemplateData.from_dict(
                        template_list_type_0_item_data
                    )

                    template_list_type_0.append(template_list_type_0_item)

                return template_list_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, Unset, list["TemplateData"]], data)

        template_list = _parse_template_list(d.pop("templateList", UNSET))

        optimized_sign_request = cls(
            email_id=email_id,
            lst_document_details=lst_document_details,
            name=name,
            request_from=request_from,
            signatory_email_ids=signatory_email_ids,
            suppress_estamp_page=suppress_estamp_page,
            template_list=template_list,
        )

        return optimized_sign_request
