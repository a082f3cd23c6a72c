from enum import Enum


class CreateWebhookRequestEventTypesItem(str, Enum):
    BULK_COMPLETED = "bulk.completed"
    SIGNATORY_DECLINED = "signatory.declined"
    SIGNATORY_DELEGATED = "signatory.delegated"
    SIGNATORY_NOTIFIED = "signatory.notified"
    SIGNATORY_SIGNED = "signatory.signed"
    SIGNATORY_VIEWED = "signatory.viewed"
    STAMPS_LOW_STOCK = "stamps.low_stock"
    VALUE_0 = "*"
    WORKFLOW_COMPLETED = "workflow.completed"
    WORKFLOW_CREATED = "workflow.created"
    WORKFLOW_DECLINED = "workflow.declined"
    WORKFLOW_DELETED = "workflow.deleted"
    WORKFLOW_EXPIRED = "workflow.expired"
    WORKFLOW_INACTIVE = "workflow.inactive"

    def __str__(self) -> str:
        return str(self.value)
