import datetime
from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define
from dateutil.parser import isoparse

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.attachment_details import AttachmentDetails
    from ..models.signatory_detail import SignatoryDetail
    from ..models.signer_attachment_detail import SignerAttachmentDetail


T = TypeVar("T", bound="InitiateWorkFlowData")


@_attrs_define
class InitiateWorkFlowData:
    """The spec's `InitiateWorkFlowData`.

    Attributes:
        document_ids (list[int]): The uploaded documents (`POST /api/v1/documents`), each once.
        signatories (list['SignatoryDetail']):
        template_id (int): A template of the tenant (signature fields per signatory), or 0 for none.
        check_email_notify (Union[Unset, bool]):
        e_sign_params (Union[Unset, Any]):
        e_signature_pin (Union[None, Unset, str]):
        enable_auto_close_popup (Union[Unset, bool]):
        envelope_expiry (Union[None, Unset, datetime.datetime]): When the envelope expires (RFC 3339 date-time).
        geo_tagging (Union[Unset, Any]):
        hsm_certificate_id (Union[Unset, int]):
        initials (Union[Unset, Any]):
        linked_workflow_id (Union[Unset, int]):
        list_attachment_details (Union[None, Unset, list['AttachmentDetails']]):
        location (Union[Unset, Any]):
        message (Union[None, Unset, str]): Signet's addition: the sender's message to the signers, shown in their
            invitation
            e-mails and on their signing page (line breaks and tabs kept, no other control
            characters).
        notify_customer (Union[Unset, bool]):
        reason (Union[None, Unset, str]):
        redirect_url (Union[None, Unset, str]): An absolute http(s) URL, at most 2000 characters, or empty.
        reference_no (Union[None, Unset, str]):
        reminder_frequency (Union[None, Unset, int]): Remind signers who have not signed every this many days (0 to
            365).
        send_mail (Union[Unset, bool]):
        signer_attachment_details (Union[None, Unset, list['SignerAttachmentDetail']]):
        stamp_details (Union[Unset, Any]): Stamp duty for the first document (docs/stamps.md). `eStampType` `inventory`:
            from the
            tenant's stock, with `state`, `denomination` (0 takes the article's fixed duty),
            `articleCode`. `eStampType` `digital`: certificates the stamp provider issued under
            `providerRef` (at most 100 characters), fetched when the workflow starts; `state`, when
            given, must be theirs, and `denomination` 0. Both take `firstParty`, `secondParty`,
            `stampDutyPaidBy`, `descriptionOfDocument` (each at most 200 characters) and
            `suppressEstampPage`. Without `eStampType` it is kept as sent.
        third_party_params (Union[None, Unset, str]):
        workflow_name (Union[None, Unset, str]): At most 200 characters, no control characters.
        workflow_type (Union[Unset, int]):
    """

    document_ids: list[int]
    signatories: list["SignatoryDetail"]
    template_id: int
    check_email_notify: Union[Unset, bool] = UNSET
    e_sign_params: Union[Unset, Any] = UNSET
    e_signature_pin: Union[None, Unset, str] = UNSET
    enable_auto_close_popup: Union[Unset, bool] = UNSET
    envelope_expiry: Union[None, Unset, datetime.datetime] = UNSET
    geo_tagging: Union[Unset, Any] = UNSET
    hsm_certificate_id: Union[Unset, int] = UNSET
    initials: Union[Unset, Any] = UNSET
    linked_workflow_id: Union[Unset, int] = UNSET
    list_attachment_details: Union[None, Unset, list["AttachmentDetails"]] = UNSET
    location: Union[Unset, Any] = UNSET
    message: Union[None, Unset, str] = UNSET
    notify_customer: Union[Unset, bool] = UNSET
    reason: Union[None, Unset, str] = UNSET
    redirect_url: Union[None, Unset, str] = UNSET
    reference_no: Union[None, Unset, str] = UNSET
    reminder_frequency: Union[None, Unset, int] = UNSET
    send_mail: Union[Unset, bool] = UNSET
    signer_attachment_details: Union[None, Unset, list["SignerAttachmentDetail"]] = (
        UNSET
    )
    stamp_details: Union[Unset, Any] = UNSET
    third_party_params: Union[None, Unset, str] = UNSET
    workflow_name: Union[None, Unset, str] = UNSET
    workflow_type: Union[Unset, int] = UNSET

    def to_dict(self) -> dict[str, Any]:
        document_ids = self.document_ids

        signatories = []
        for signatories_item_data in self.signatories:
            signatories_item = signatories_item_data.to_dict()
            signatories.append(signatories_item)

        template_id = self.template_id

        check_email_notify = self.check_email_notify

        e_sign_params = self.e_sign_params

        e_signature_pin: Union[None, Unset, str]
        if isinstance(self.e_signature_pin, Unset):
            e_signature_pin = UNSET
        else:
            e_signature_pin = self.e_signature_pin

        enable_auto_close_popup = self.enable_auto_close_popup

        envelope_expiry: Union[None, Unset, str]
        if isinstance(self.envelope_expiry, Unset):
            envelope_expiry = UNSET
        elif isinstance(self.envelope_expiry, datetime.datetime):
            envelope_expiry = self.envelope_expiry.isoformat()
        else:
            envelope_expiry = self.envelope_expiry

        geo_tagging = self.geo_tagging

        hsm_certificate_id = self.hsm_certificate_id

        initials = self.initials

        linked_workflow_id = self.linked_workflow_id

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

        location = self.location

        message: Union[None, Unset, str]
        if isinstance(self.message, Unset):
            message = UNSET
        else:
            message = self.message

        notify_customer = self.notify_customer

        reason: Union[None, Unset, str]
        if isinstance(self.reason, Unset):
            reason = UNSET
        else:
            reason = self.reason

        redirect_url: Union[None, Unset, str]
        if isinstance(self.redirect_url, Unset):
            redirect_url = UNSET
        else:
            redirect_url = self.redirect_url

        reference_no: Union[None, Unset, str]
        if isinstance(self.reference_no, Unset):
            reference_no = UNSET
        else:
            reference_no = self.reference_no

        reminder_frequency: Union[None, Unset, int]
        if isinstance(self.reminder_frequency, Unset):
            reminder_frequency = UNSET
        else:
            reminder_frequency = self.reminder_frequency

        send_mail = self.send_mail

        signer_attachment_details: Union[None, Unset, list[dict[str, Any]]]
        if isinstance(self.signer_attachment_details, Unset):
            signer_attachment_details = UNSET
        elif isinstance(self.signer_attachment_details, list):
            signer_attachment_details = []
            for (
                signer_attachment_details_type_0_item_data
            ) in self.signer_attachment_details:
                signer_attachment_details_type_0_item = (
                    signer_attachment_details_type_0_item_data.to_dict()
                )
                signer_attachment_details.append(signer_attachment_details_type_0_item)

        else:
            signer_attachment_details = self.signer_attachment_details

        stamp_details = self.stamp_details

        third_party_params: Union[None, Unset, str]
        if isinstance(self.third_party_params, Unset):
            third_party_params = UNSET
        else:
            third_party_params = self.third_party_params

        workflow_name: Union[None, Unset, str]
        if isinstance(self.workflow_name, Unset):
            workflow_name = UNSET
        else:
            workflow_name = self.workflow_name

        workflow_type = self.workflow_type

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "documentIds": document_ids,
                "signatories": signatories,
                "templateId": template_id,
            }
        )
        if check_email_notify is not UNSET:
            field_dict["checkEmailNotify"] = check_email_notify
        if e_sign_params is not UNSET:
            field_dict["eSignParams"] = e_sign_params
        if e_signature_pin is not UNSET:
            field_dict["eSignaturePIN"] = e_signature_pin
        if enable_auto_close_popup is not UNSET:
            field_dict["enableAutoClosePopup"] = enable_auto_close_popup
        if envelope_expiry is not UNSET:
            field_dict["envelopeExpiry"] = envelope_expiry
        if geo_tagging is not UNSET:
            field_dict["geoTagging"] = geo_tagging
        if hsm_certificate_id is not UNSET:
            field_dict["hsmCertificateId"] = hsm_certificate_id
        if initials is not UNSET:
            field_dict["initials"] = initials
        if linked_workflow_id is not UNSET:
            field_dict["linkedWorkflowId"] = linked_workflow_id
        if list_attachment_details is not UNSET:
            field_dict["listAttachmentDetails"] = list_attachment_details
        if location is not UNSET:
            field_dict["location"] = location
        if message is not UNSET:
            field_dict["message"] = message
        if notify_customer is not UNSET:
            field_dict["notifyCustomer"] = notify_customer
        if reason is not UNSET:
            field_dict["reason"] = reason
        if redirect_url is not UNSET:
            field_dict["redirectURL"] = redirect_url
        if reference_no is not UNSET:
            field_dict["referenceNo"] = reference_no
        if reminder_frequency is not UNSET:
            field_dict["reminderFrequency"] = reminder_frequency
        if send_mail is not UNSET:
            field_dict["sendMail"] = send_mail
        if signer_attachment_details is not UNSET:
            field_dict["signerAttachmentDetails"] = signer_attachment_details
        if stamp_details is not UNSET:
            field_dict["stampDetails"] = stamp_details
        if third_party_params is not UNSET:
            field_dict["thirdPartyParams"] = third_party_params
        if workflow_name is not UNSET:
            field_dict["workflowName"] = workflow_name
        if workflow_type is not UNSET:
            field_dict["workflowType"] = workflow_type

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.attachment_details import AttachmentDetails
        from ..models.signatory_detail import SignatoryDetail
        from ..models.signer_attachment_detail import SignerAttachmentDetail

        d = dict(src_dict)
        document_ids = cast(list[int], d.pop("documentIds"))

        signatories = []
        _signatories = d.pop("signatories")
        for signatories_item_data in _signatories:
            signatories_item = SignatoryDetail.from_dict(signatories_item_data)

            signatories.append(signatories_item)

        template_id = d.pop("templateId")

        check_email_notify = d.pop("checkEmailNotify", UNSET)

        e_sign_params = d.pop("eSignParams", UNSET)

        def _parse_e_signature_pin(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        e_signature_pin = _parse_e_signature_pin(d.pop("eSignaturePIN", UNSET))

        enable_auto_close_popup = d.pop("enableAutoClosePopup", UNSET)

        def _parse_envelope_expiry(
            data: object,
        ) -> Union[None, Unset, datetime.datetime]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                envelope_expiry_type_0 = isoparse(data)

                return envelope_expiry_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, Unset, datetime.datetime], data)

        envelope_expiry = _parse_envelope_expiry(d.pop("envelopeExpiry", UNSET))

        geo_tagging = d.pop("geoTagging", UNSET)

        hsm_certificate_id = d.pop("hsmCertificateId", UNSET)

        initials = d.pop("initials", UNSET)

        linked_workflow_id = d.pop("linkedWorkflowId", UNSET)

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

        location = d.pop("location", UNSET)

        def _parse_message(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        message = _parse_message(d.pop("message", UNSET))

        notify_customer = d.pop("notifyCustomer", UNSET)

        def _parse_reason(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        reason = _parse_reason(d.pop("reason", UNSET))

        def _parse_redirect_url(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        redirect_url = _parse_redirect_url(d.pop("redirectURL", UNSET))

        def _parse_reference_no(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        reference_no = _parse_reference_no(d.pop("referenceNo", UNSET))

        def _parse_reminder_frequency(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        reminder_frequency = _parse_reminder_frequency(
            d.pop("reminderFrequency", UNSET)
        )

        send_mail = d.pop("sendMail", UNSET)

        def _parse_signer_attachment_details(
            data: object,
        ) -> Union[None, Unset, list["SignerAttachmentDetail"]]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                signer_attachment_details_type_0 = []
                _signer_attachment_details_type_0 = data
                for (
                    signer_attachment_details_type_0_item_data
                ) in _signer_attachment_details_type_0:
                    signer_attachment_details_type_0_item = (
                        SignerAttachmentDetail.from_dict(
                            signer_attachment_details_type_0_item_data
                        )
                    )

                    signer_attachment_details_type_0.append(
                        signer_attachment_details_type_0_item
                    )

                return signer_attachment_details_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, Unset, list["SignerAttachmentDetail"]], data)

        signer_attachment_details = _parse_signer_attachment_details(
            d.pop("signerAttachmentDetails", UNSET)
        )

        stamp_details = d.pop("stampDetails", UNSET)

        def _parse_third_party_params(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        third_party_params = _parse_third_party_params(d.pop("thirdPartyParams", UNSET))

        def _parse_workflow_name(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        workflow_name = _parse_workflow_name(d.pop("workflowName", UNSET))

        workflow_type = d.pop("workflowType", UNSET)

        initiate_work_flow_data = cls(
            document_ids=document_ids,
            signatories=signatories,
            template_id=template_id,
            check_email_notify=check_email_notify,
            e_sign_params=e_sign_params,
            e_signature_pin=e_signature_pin,
            enable_auto_close_popup=enable_auto_close_popup,
            envelope_expiry=envelope_expiry,
            geo_tagging=geo_tagging,
            hsm_certificate_id=hsm_certificate_id,
            initials=initials,
            linked_workflow_id=linked_workflow_id,
            list_attachment_details=list_attachment_details,
            location=location,
            message=message,
            notify_customer=notify_customer,
            reason=reason,
            redirect_url=redirect_url,
            reference_no=reference_no,
            reminder_frequency=reminder_frequency,
            send_mail=send_mail,
            signer_attachment_details=signer_attachment_details,
            stamp_details=stamp_details,
            third_party_params=third_party_params,
            workflow_name=workflow_name,
            workflow_type=workflow_type,
        )

        return initiate_work_flow_data
