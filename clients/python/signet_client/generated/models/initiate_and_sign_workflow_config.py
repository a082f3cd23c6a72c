from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..models.initiate_and_sign_workflow_config_e_stamp_type_type_0 import (
    InitiateAndSignWorkflowConfigEStampTypeType0,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.attachment_details import AttachmentDetails
    from ..models.estamp_payload import EstampPayload
    from ..models.qr_coordinate import QRCoordinate
    from ..models.signer_view import SignerView


T = TypeVar("T", bound="InitiateAndSignWorkflowConfig")


@_attrs_define
class InitiateAndSignWorkflowConfig:
    """The spec's `InitiateAndSignWorkflowConfig`. Stamp duty comes from the tenant's inventory
    (`eStampType` `inventory`, `state`, `denomination`: docs/stamps.md) or from the stamp
    provider (`eStampType` `digital` with the loan record in `eStampPayload`, or
    `fetchEstampDeatilsUsingRefNo` with `referenceNo`: docs/estamp-provider.md).

        Attributes:
            client_id (Union[None, Unset, str]):
            client_name (Union[None, Unset, str]):
            denomination (Union[Unset, int]): The stamp duty in rupees (with `eStampType`): the stamp papers taken add up to
                it; 0 without.
            document_name (Union[None, Unset, str]):
            donot_send_completion_mail_to_participants (Union[Unset, bool]):
            e_stamp_payload (Union['EstampPayload', None, Unset]):
            e_stamp_type (Union[InitiateAndSignWorkflowConfigEStampTypeType0, None, Unset]): `inventory` takes stamp papers
                of `state` that make up `denomination` from the tenant's inventory and puts their certificate pages in front of
                the document (docs/stamps.md); empty or null for none.
            fetch_estamp_deatils_using_ref_no (Union[Unset, bool]): With `eStampType` `digital`: fetch the certificates the
                provider issued before under
                `referenceNo` instead of issuing new ones.
            file_data (Union[None, Unset, str]):
            list_attachment_details (Union[None, Unset, list['AttachmentDetails']]):
            qr_code_cordinats (Union[None, Unset, list['QRCoordinate']]):
            reference_no (Union[None, Unset, str]):
            reminder (Union[Unset, int]):
            signatories (Union[None, Unset, list['SignerView']]):
            state (Union[None, Unset, str]): The state whose stamp papers pay the duty, with `eStampType`: its ISO 3166-2:IN
                code or name, as `StampBulk.state` takes it.
            template_id (Union[Unset, int]):
            workflow_type (Union[Unset, int]):
    """

    client_id: Union[None, Unset, str] = UNSET
    client_name: Union[None, Unset, str] = UNSET
    denomination: Union[Unset, int] = UNSET
    document_name: Union[None, Unset, str] = UNSET
    donot_send_completion_mail_to_participants: Union[Unset, bool] = UNSET
    e_stamp_payload: Union["EstampPayload", None, Unset] = UNSET
    e_stamp_type: Union[InitiateAndSignWorkflowConfigEStampTypeType0, None, Unset] = (
        UNSET
    )
    fetch_estamp_deatils_using_ref_no: Union[Unset, bool] = UNSET
    file_data: Union[None, Unset, str] = UNSET
    list_attachment_details: Union[None, Unset, list["AttachmentDetails"]] = UNSET
    qr_code_cordinats: Union[None, Unset, list["QRCoordinate"]] = UNSET
    reference_no: Union[None, Unset, str] = UNSET
    reminder: Union[Unset, int] = UNSET
    signatories: Union[None, Unset, list["SignerView"]] = UNSET
    state: Union[None, Unset, str] = UNSET
    template_id: Union[Unset, int] = UNSET
    workflow_type: Union[Unset, int] = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.estamp_payload import EstampPayload

        client_id: Union[None, Unset, str]
        if isinstance(self.client_id, Unset):
            client_id = UNSET
        else:
            client_id = self.client_id

        client_name: Union[None, Unset, str]
        if isinstance(self.client_name, Unset):
            client_name = UNSET
        else:
            client_name = self.client_name

        denomination = self.denomination

        document_name: Union[None, Unset, str]
        if isinstance(self.document_name, Unset):
            document_name = UNSET
        else:
            document_name = self.document_name

        donot_send_completion_mail_to_participants = (
            self.donot_send_completion_mail_to_participants
        )

        e_stamp_payload: Union[None, Unset, dict[str, Any]]
        if isinstance(self.e_stamp_payload, Unset):
            e_stamp_payload = UNSET
        elif isinstance(self.e_stamp_payload, EstampPayload):
            e_stamp_payload = self.e_stamp_payload.to_dict()
        else:
            e_stamp_payload = self.e_stamp_payload

        e_stamp_type: Union[None, Unset, str]
        if isinstance(self.e_stamp_type, Unset):
            e_stamp_type = UNSET
        elif isinstance(
            self.e_stamp_type, InitiateAndSignWorkflowConfigEStampTypeType0
        ):
            e_stamp_type = self.e_stamp_type.value
        else:
            e_stamp_type = self.e_stamp_type

        fetch_estamp_deatils_using_ref_no = self.fetch_estamp_deatils_using_ref_no

        file_data: Union[None, Unset, str]
        if isinstance(self.file_data, Unset):
            file_data = UNSET
        else:
            file_data = self.file_data

        list_attachment_details: Union[None, Unset, list[dict[str, Any]]]
        if isinstance(self.list_attachment_details, Unset):
            list_attachment_details = UNSET
        elif isinstance(self.list_attachment_details, list):
            list_attachment_details = []
            for (
                list_attachment_details_type_0_item_data
            ) in self.list_attachment_details:
                list_attachment_details_type_0_item = (
                    list_attachment_details_type_0_item_data.to_dict()
                )
                list_attachment_details.append(list_attachment_details_type_0_item)

        else:
            list_attachment_details = self.list_attachment_details

        qr_code_cordinats: Union[None, Unset, list[dict[str, Any]]]
        if isinstance(self.qr_code_cordinats, Unset):
            qr_code_cordinats = UNSET
        elif isinstance(self.qr_code_cordinats, list):
            qr_code_cordinats = []
            for qr_code_cordinats_type_0_item_data in self.qr_code_cordinats:
                qr_code_cordinats_type_0_item = (
                    qr_code_cordinats_type_0_item_data.to_dict()
                )
                qr_code_cordinats.append(qr_code_cordinats_type_0_item)

        else:
            qr_code_cordinats = self.qr_code_cordinats

        reference_no: Union[None, Unset, str]
        if isinstance(self.reference_no, Unset):
            reference_no = UNSET
        else:
            reference_no = self.reference_no

        reminder = self.reminder

        signatories: Union[None, Unset, list[dict[str, Any]]]
        if isinstance(self.signatories, Unset):
            signatories = UNSET
        elif isinstance(self.signatories, list):
            signatories = []
            for signatories_type_0_item_data in self.signatories:
                signatories_type_0_item = signatories_type_0_item_data.to_dict()
                signatories.append(signatories_type_0_item)

        else:
            signatories = self.signatories

        state: Union[None, Unset, str]
        if isinstance(self.state, Unset):
            state = UNSET
        else:
            state = self.state

        template_id = self.template_id

        workflow_type = self.workflow_type

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if client_id is not UNSET:
            field_dict["clientID"] = client_id
        if client_name is not UNSET:
            field_dict["clientName"] = client_name
        if denomination is not UNSET:
            field_dict["denomination"] = denomination
        if document_name is not UNSET:
            field_dict["documentName"] = document_name
        if donot_send_completion_mail_to_participants is not UNSET:
            field_dict["donotSendCompletionMailToParticipants"] = (
                donot_send_completion_mail_to_participants
            )
        if e_stamp_payload is not UNSET:
            field_dict["eStampPayload"] = e_stamp_payload
        if e_stamp_type is not UNSET:
            field_dict["eStampType"] = e_stamp_type
        if fetch_estamp_deatils_using_ref_no is not UNSET:
            field_dict["fetchEstampDeatilsUsingRefNo"] = (
                fetch_estamp_deatils_using_ref_no
            )
        if file_data is not UNSET:
            field_dict["fileData"] = file_data
        if list_attachment_details is not UNSET:
            field_dict["listAttachmentDetails"] = list_attachment_details
        if qr_code_cordinats is not UNSET:
            field_dict["qrCodeCordinats"] = qr_code_cordinats
        if reference_no is not UNSET:
            field_dict["referenceNo"] = reference_no
        if reminder is not UNSET:
            field_dict["reminder"] = reminder
        if signatories is not UNSET:
            field_dict["signatories"] = signatories
        if state is not UNSET:
            field_dict["state"] = state
        if template_id is not UNSET:
            field_dict["templateId"] = template_id
        if workflow_type is not UNSET:
            field_dict["workflowType"] = workflow_type

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.attachment_details import AttachmentDetails
        from ..models.estamp_payload import EstampPayload
        from ..models.qr_coordinate import QRCoordinate
        from ..models.signer_view import SignerView

        d = dict(src_dict)

        def _parse_client_id(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        client_id = _parse_client_id(d.pop("clientID", UNSET))

        def _parse_client_name(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        client_name = _parse_client_name(d.pop("clientName", UNSET))

        denomination = d.pop("denomination", UNSET)

        def _parse_document_name(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        document_name = _parse_document_name(d.pop("documentName", UNSET))

        donot_send_completion_mail_to_participants = d.pop(
            "donotSendCompletionMailToParticipants", UNSET
        )

        def _parse_e_stamp_payload(data: object) -> Union["EstampPayload", None, Unset]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                e_stamp_payload_type_0 = EstampPayload.from_dict(data)

                return e_stamp_payload_type_0
            except:  # noqa: E722
                pass
            return cast(Union["EstampPayload", None, Unset], data)

        e_stamp_payload = _parse_e_stamp_payload(d.pop("eStampPayload", UNSET))

        def _parse_e_stamp_type(
            data: object,
        ) -> Union[InitiateAndSignWorkflowConfigEStampTypeType0, None, Unset]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                e_stamp_type_type_0 = InitiateAndSignWorkflowConfigEStampTypeType0(data)

                return e_stamp_type_type_0
            except:  # noqa: E722
                pass
            return cast(
                Union[InitiateAndSignWorkflowConfigEStampTypeType0, None, Unset], data
            )

        e_stamp_type = _parse_e_stamp_type(d.pop("eStampType", UNSET))

        fetch_estamp_deatils_using_ref_no = d.pop("fetchEstampDeatilsUsingRefNo", UNSET)

        def _parse_file_data(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        file_data = _parse_file_data(d.pop("fileData", UNSET))

        def _parse_list_attachment_details(
            data: object,
        ) -> Union[None, Unset, list["AttachmentDetails"]]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                list_attachment_details_type_0 = []
                _list_attachment_details_type_0 = data
                for (
                    list_attachment_details_type_0_item_data
                ) in _list_attachment_details_type_0:
                    list_attachment_details_type_0_item = AttachmentDetails.from_dict(
                        list_attachment_details_type_0_item_data
                    )

                    list_attachment_details_type_0.append(
                        list_attachment_details_type_0_item
                    )

                return list_attachment_details_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, Unset, list["AttachmentDetails"]], data)

        list_attachment_details = _parse_list_attachment_details(
            d.pop("listAttachmentDetails", UNSET)
        )

        def _parse_qr_code_cordinats(
            data: object,
        ) -> Union[None, Unset, list["QRCoordinate"]]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                qr_code_cordinats_type_0 = []
                _qr_code_cordinats_type_0 = data
                for qr_code_cordinats_type_0_item_data in _qr_code_cordinats_type_0:
                    qr_code_cordinats_type_0_item = QRCoordinate.from_dict(
                        qr_code_cordinats_type_0_item_data
                    )

                    qr_code_cordinats_type_0.append(qr_code_cordinats_type_0_item)

                return qr_code_cordinats_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, Unset, list["QRCoordinate"]], data)

        qr_code_cordinats = _parse_qr_code_cordinats(d.pop("qrCodeCordinats", UNSET))

        def _parse_reference_no(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        reference_no = _parse_reference_no(d.pop("referenceNo", UNSET))

        reminder = d.pop("reminder", UNSET)

        def _parse_signatories(data: object) -> Union[None, Unset, list["SignerView"]]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                signatories_type_0 = []
                _signatories_type_0 = data
                for signatories_type_0_item_data in _signatories_type_0:
                    signatories_type_0_item = SignerView.from_dict(
                        signatories_type_0_item_data
                    )

                    signatories_type_0.append(signatories_type_0_item)

                return signatories_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, Unset, list["SignerView"]], data)

        signatories = _parse_signatories(d.pop("signatories", UNSET))

        def _parse_state(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        state = _parse_state(d.pop("state", UNSET))

        template_id = d.pop("templateId", UNSET)

        workflow_type = d.pop("workflowType", UNSET)

        initiate_and_sign_workflow_config = cls(
            client_id=client_id,
            client_name=client_name,
            denomination=denomination,
            document_name=document_name,
            donot_send_completion_mail_to_participants=donot_send_completion_mail_to_participants,
            e_stamp_payload=e_stamp_payload,
            e_stamp_type=e_stamp_type,
            fetch_estamp_deatils_using_ref_no=fetch_estamp_deatils_using_ref_no,
            file_data=file_data,
            list_attachment_details=list_attachment_details,
            qr_code_cordinats=qr_code_cordinats,
            reference_no=reference_no,
            reminder=reminder,
            signatories=signatories,
            state=state,
            template_id=template_id,
            workflow_type=workflow_type,
        )

        return initiate_and_sign_workflow_config
