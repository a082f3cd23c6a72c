from enum import Enum


class ListWorkflowsState(str, Enum):
    COMPLETED = "completed"
    DECLINED = "declined"
    EXPIRED = "expired"
    INACTIVE = "inactive"
    IN_PROGRESS = "in_progress"

    def __str__(self) -> str:
        return str(self.value)
