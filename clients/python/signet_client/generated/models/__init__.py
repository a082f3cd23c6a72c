"""Contains all the data models used in inputs/outputs"""

from .access_user import AccessUser
from .add_comments_request import AddCommentsRequest
from .admin_password_settings_email_request import AdminPasswordSettingsEmailRequest
from .application import Application
from .application_secret import ApplicationSecret
from .approve_external_user_request import ApproveExternalUserRequest
from .article_code import ArticleCode
from .article_code_duty_kind import ArticleCodeDutyKind
from .article_code_input import ArticleCodeInput
from .article_code_input_duty_kind import ArticleCodeInputDutyKind
from .article_code_list import ArticleCodeList
from .assign_access_request import AssignAccessRequest
from .assign_access_response import AssignAccessResponse
from .attachment_details import AttachmentDetails
from .audit_entry_view import AuditEntryView
from .audit_verification import AuditVerification
from .authorize_app_request import AuthorizeAppRequest
from .automated_signing_data import AutomatedSigningData
from .billing_profile import BillingProfile
from .browser_info import BrowserInfo
from .bulk_completion_request import BulkCompletionRequest
from .bulk_delete_department_request import BulkDeleteDepartmentRequest
from .bulk_document_upload_request import BulkDocumentUploadRequest
from .bulk_job import BulkJob
from .bulk_send_request import BulkSendRequest
from .bulk_send_result import BulkSendResult
from .bulk_send_row_problem import BulkSendRowProblem
from .bulk_send_row_problem_errors import BulkSendRowProblemErrors
from .bulk_sign_input import BulkSignInput
from .bulk_upload_response import BulkUploadResponse
from .certificate_reset_request import CertificateResetRequest
from .check_account_request import CheckAccountRequest
from .check_account_response import CheckAccountResponse
from .check_auth_request import CheckAuthRequest
from .check_auth_response import CheckAuthResponse
from .coordinate import Coordinate
from .create_activity_request import CreateActivityRequest
from .create_application_request import CreateApplicationRequest
from .create_authtoken_request import CreateAuthtokenRequest
from .create_department_request import CreateDepartmentRequest
from .create_internal_user_request import CreateInternalUserRequest
from .create_internal_user_response import CreateInternalUserResponse
from .create_role_request import CreateRoleRequest
from .create_role_request_permissions_item import CreateRoleRequestPermissionsItem
from .create_signing_profile_request import CreateSigningProfileRequest
from .create_template_request import CreateTemplateRequest
from .create_webhook_request import CreateWebhookRequest
from .create_webhook_request_event_types_item import CreateWebhookRequestEventTypesItem
from .created_authtoken import CreatedAuthtoken
from .created_webhook import CreatedWebhook
from .crm_lead import CrmLead
from .crm_lead_mark_pushed_request import CrmLeadMarkPushedRequest
from .crm_lead_page import CrmLeadPage
from .crm_lead_push_state import CrmLeadPushState
from .crm_lead_upsert_request import CrmLeadUpsertRequest
from .crm_settings import CrmSettings
from .crm_settings_request import CrmSettingsRequest
from .customer_referral import CustomerReferral
from .customer_referral_create_request import CustomerReferralCreateRequest
from .customer_referral_page import CustomerReferralPage
from .decline_workflow_request import DeclineWorkflowRequest
from .delegate_workflow_request import DelegateWorkflowRequest
from .delete_activity_request import DeleteActivityRequest
from .delete_department_request import DeleteDepartmentRequest
from .delete_document_request import DeleteDocumentRequest
from .delete_user_request import DeleteUserRequest
from .department import Department
from .department_page import DepartmentPage
from .disable_user_request import DisableUserRequest
from .disable_user_response import DisableUserResponse
from .document_comment import DocumentComment
from .document_details import DocumentDetails
from .document_download_request import DocumentDownloadRequest
from .document_dtl import DocumentDtl
from .document_summary_request import DocumentSummaryRequest
from .document_summary_response import DocumentSummaryResponse
from .document_summary_response_summary import DocumentSummaryResponseSummary
from .document_upload_request import DocumentUploadRequest
from .e_sign_coordinate import ESignCoordinate
from .embed_request import EmbedRequest
from .embed_url import EmbedUrl
from .embedding_settings import EmbeddingSettings
from .enrollment_certificate_upload_request import EnrollmentCertificateUploadRequest
from .entity_details import EntityDetails
from .erased_record import ErasedRecord
from .erasure_request import ErasureRequest
from .erasure_result import ErasureResult
from .esp_flow import EspFlow
from .esp_profile import EspProfile
from .esp_provider import EspProvider
from .esp_providers import EspProviders
from .esp_routed import EspRouted
from .esp_verdict import EspVerdict
from .estamp_detail import EstampDetail
from .estamp_payload import EstampPayload
from .export_job import ExportJob
from .export_request import ExportRequest
from .external_login_provider import ExternalLoginProvider
from .flexi_form_response import FlexiFormResponse
from .free_trial_request import FreeTrialRequest
from .free_trial_response import FreeTrialResponse
from .gateway_authtoken import GatewayAuthtoken
from .gateway_settings import GatewaySettings
from .gateway_settings_file_types_item import GatewaySettingsFileTypesItem
from .gateway_settings_signature_types_item import GatewaySettingsSignatureTypesItem
from .gateway_transaction import GatewayTransaction
from .get_article_codes_input import GetArticleCodesInput
from .get_internal_users_request import GetInternalUsersRequest
from .get_stamp_invoice_document_kind import GetStampInvoiceDocumentKind
from .get_user_login_modes_request import GetUserLoginModesRequest
from .get_users_request import GetUsersRequest
from .header_info import HeaderInfo
from .initiate_and_sign_workflow_config import InitiateAndSignWorkflowConfig
from .initiate_and_sign_workflow_config_e_stamp_type_type_0 import (
    InitiateAndSignWorkflowConfigEStampTypeType0,
)
from .initiate_work_flow_data import InitiateWorkFlowData
from .initiated_workflow import InitiatedWorkflow
from .kept_record import KeptRecord
from .legal_hold import LegalHold
from .legal_hold_request import LegalHoldRequest
from .link_documents_request import LinkDocumentsRequest
from .list_crm_leads_push_state import ListCrmLeadsPushState
from .list_stamps_status import ListStampsStatus
from .list_workflows_state import ListWorkflowsState
from .loaded_stamps import LoadedStamps
from .loan import Loan
from .loandtls import Loandtls
from .lot import Lot
from .lot_create_request import LotCreateRequest
from .manage_info_response import ManageInfoResponse
from .map_category_request import MapCategoryRequest
from .mark_document_inactive_request import MarkDocumentInactiveRequest
from .mark_user_inactive_request import MarkUserInactiveRequest
from .mark_workflow_inactive_request import MarkWorkflowInactiveRequest
from .menu import Menu
from .merge_document import MergeDocument
from .merge_document_details import MergeDocumentDetails
from .optimized_sign_request import OptimizedSignRequest
from .parallel_signing_url import ParallelSigningURL
from .participant import Participant
from .problem_details import ProblemDetails
from .problem_details_errors_type_0 import ProblemDetailsErrorsType0
from .qr_coordinate import QRCoordinate
from .refresh_request import RefreshRequest
from .register_external_user_request import RegisterExternalUserRequest
from .registration_response import RegistrationResponse
from .report_format import ReportFormat
from .retention_settings import RetentionSettings
from .revoke_request import RevokeRequest
from .role_view import RoleView
from .security_detail import SecurityDetail
from .set_password_request import SetPasswordRequest
from .signatory_detail import SignatoryDetail
from .signer_attachment_detail import SignerAttachmentDetail
from .signer_view import SignerView
from .signing_profile import SigningProfile
from .simple_request import SimpleRequest
from .sso_domain_proof import SsoDomainProof
from .sso_provider import SsoProvider
from .sso_provider_request import SsoProviderRequest
from .sso_settings import SsoSettings
from .stamp import Stamp
from .stamp_alert_settings import StampAlertSettings
from .stamp_bulk import StampBulk
from .stamp_invoice_list_item import StampInvoiceListItem
from .stamp_invoice_list_item_kind import StampInvoiceListItemKind
from .stamp_invoice_page import StampInvoicePage
from .stamp_invoice_request import StampInvoiceRequest
from .stamp_invoice_response import StampInvoiceResponse
from .stamp_item import StampItem
from .stamp_page import StampPage
from .stamp_source import StampSource
from .stamp_status import StampStatus
from .stamp_stock import StampStock
from .stamp_stock_list import StampStockList
from .template import Template
from .template_control_detail import TemplateControlDetail
from .template_data import TemplateData
from .template_definition import TemplateDefinition
from .template_field import TemplateField
from .template_field_kind import TemplateFieldKind
from .template_matches import TemplateMatches
from .template_retention import TemplateRetention
from .token_request import TokenRequest
from .token_request_grant_type import TokenRequestGrantType
from .token_response import TokenResponse
from .token_revoked import TokenRevoked
from .totp_code_request import TotpCodeRequest
from .totp_enrolment import TotpEnrolment
from .update_department_request import UpdateDepartmentRequest
from .uploaded_document import UploadedDocument
from .user import User
from .user_login_modes import UserLoginModes
from .user_page import UserPage
from .verification_report import VerificationReport
from .verification_report_request import VerificationReportRequest
from .verified_signature import VerifiedSignature
from .verify_request import VerifyRequest
from .webhook import Webhook
from .webhook_delivery import WebhookDelivery
from .webhook_delivery_attempt import WebhookDeliveryAttempt
from .workflow_audit import WorkflowAudit
from .workflow_details import WorkflowDetails
from .workflow_document import WorkflowDocument
from .workflow_event import WorkflowEvent
from .workflow_page import WorkflowPage
from .workflow_signatory import WorkflowSignatory
from .workflow_summary import WorkflowSummary

__all__ = (
    "AccessUser",
    "AddCommentsRequest",
    "AdminPasswordSettingsEmailRequest",
    "Application",
    "ApplicationSecret",
    "ApproveExternalUserRequest",
    "ArticleCode",
    "ArticleCodeDutyKind",
    "ArticleCodeInput",
    "ArticleCodeInputDutyKind",
    "ArticleCodeList",
    "AssignAccessRequest",
    "AssignAccessResponse",
    "AttachmentDetails",
    "AuditEntryView",
    "AuditVerification",
    "AuthorizeAppRequest",
    "AutomatedSigningData",
    "BillingProfile",
    "BrowserInfo",
    "BulkCompletionRequest",
    "BulkDeleteDepartmentRequest",
    "BulkDocumentUploadRequest",
    "BulkJob",
    "BulkSendRequest",
    "BulkSendResult",
    "BulkSendRowProblem",
    "BulkSendRowProblemErrors",
    "BulkSignInput",
    "BulkUploadResponse",
    "CertificateResetRequest",
    "CheckAccountRequest",
    "CheckAccountResponse",
    "CheckAuthRequest",
    "CheckAuthResponse",
    "Coordinate",
    "CreateActivityRequest",
    "CreateApplicationRequest",
    "CreateAuthtokenRequest",
    "CreatedAuthtoken",
    "CreateDepartmentRequest",
    "CreatedWebhook",
    "CreateInternalUserRequest",
    "CreateInternalUserResponse",
    "CreateRoleRequest",
    "CreateRoleRequestPermissionsItem",
    "CreateSigningProfileRequest",
    "CreateTemplateRequest",
    "CreateWebhookRequest",
    "CreateWebhookRequestEventTypesItem",
    "CrmLead",
    "CrmLeadMarkPushedRequest",
    "CrmLeadPage",
    "CrmLeadPushState",
    "CrmLeadUpsertRequest",
    "CrmSettings",
    "CrmSettingsRequest",
    "CustomerReferral",
    "CustomerReferralCreateRequest",
    "CustomerReferralPage",
    "DeclineWorkflowRequest",
    "DelegateWorkflowRequest",
    "DeleteActivityRequest",
    "DeleteDepartmentRequest",
    "DeleteDocumentRequest",
    "DeleteUserRequest",
    "Department",
    "DepartmentPage",
    "DisableUserRequest",
    "DisableUserResponse",
    "DocumentComment",
    "DocumentDetails",
    "DocumentDownloadRequest",
    "DocumentDtl",
    "DocumentSummaryRequest",
    "DocumentSummaryResponse",
    "DocumentSummaryResponseSummary",
    "DocumentUploadRequest",
    "EmbeddingSettings",
    "EmbedRequest",
    "EmbedUrl",
    "EnrollmentCertificateUploadRequest",
    "EntityDetails",
    "ErasedRecord",
    "ErasureRequest",
    "ErasureResult",
    "ESignCoordinate",
    "EspFlow",
    "EspProfile",
    "EspProvider",
    "EspProviders",
    "EspRouted",
    "EspVerdict",
    "EstampDetail",
    "EstampPayload",
    "ExportJob",
    "ExportRequest",
    "ExternalLoginProvider",
    "FlexiFormResponse",
    "FreeTrialRequest",
    "FreeTrialResponse",
    "GatewayAuthtoken",
    "GatewaySettings",
    "GatewaySettingsFileTypesItem",
    "GatewaySettingsSignatureTypesItem",
    "GatewayTransaction",
    "GetArticleCodesInput",
    "GetInternalUsersRequest",
    "GetStampInvoiceDocumentKind",
    "GetUserLoginModesRequest",
    "GetUsersRequest",
    "HeaderInfo",
    "InitiateAndSignWorkflowConfig",
    "InitiateAndSignWorkflowConfigEStampTypeType0",
    "InitiatedWorkflow",
    "InitiateWorkFlowData",
    "KeptRecord",
    "LegalHold",
    "LegalHoldRequest",
    "LinkDocumentsRequest",
    "ListCrmLeadsPushState",
    "ListStampsStatus",
    "ListWorkflowsState",
    "LoadedStamps",
    "Loan",
    "Loandtls",
    "Lot",
    "LotCreateRequest",
    "ManageInfoResponse",
    "MapCategoryRequest",
    "MarkDocumentInactiveRequest",
    "MarkUserInactiveRequest",
    "MarkWorkflowInactiveRequest",
    "Menu",
    "MergeDocument",
    "MergeDocumentDetails",
    "OptimizedSignRequest",
    "ParallelSigningURL",
    "Participant",
    "ProblemDetails",
    "ProblemDetailsErrorsType0",
    "QRCoordinate",
    "RefreshRequest",
    "RegisterExternalUserRequest",
    "RegistrationResponse",
    "ReportFormat",
    "RetentionSettings",
    "RevokeRequest",
    "RoleView",
    "SecurityDetail",
    "SetPasswordRequest",
    "SignatoryDetail",
    "SignerAttachmentDetail",
    "SignerView",
    "SigningProfile",
    "SimpleRequest",
    "SsoDomainProof",
    "SsoProvider",
    "SsoProviderRequest",
    "SsoSettings",
    "Stamp",
    "StampAlertSettings",
    "StampBulk",
    "StampInvoiceListItem",
    "StampInvoiceListItemKind",
    "StampInvoicePage",
    "StampInvoiceRequest",
    "StampInvoiceResponse",
    "StampItem",
    "StampPage",
    "StampSource",
    "StampStatus",
    "StampStock",
    "StampStockList",
    "Template",
    "TemplateControlDetail",
    "TemplateData",
    "TemplateDefinition",
    "TemplateField",
    "TemplateFieldKind",
    "TemplateMatches",
    "TemplateRetention",
    "TokenRequest",
    "TokenRequestGrantType",
    "TokenResponse",
    "TokenRevoked",
    "TotpCodeRequest",
    "TotpEnrolment",
    "UpdateDepartmentRequest",
    "UploadedDocument",
    "User",
    "UserLoginModes",
    "UserPage",
    "VerificationReport",
    "VerificationReportRequest",
    "VerifiedSignature",
    "VerifyRequest",
    "Webhook",
    "WebhookDelivery",
    "WebhookDeliveryAttempt",
    "WorkflowAudit",
    "WorkflowDetails",
    "WorkflowDocument",
    "WorkflowEvent",
    "WorkflowPage",
    "WorkflowSignatory",
    "WorkflowSummary",
)
