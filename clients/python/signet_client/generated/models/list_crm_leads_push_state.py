from enum import Enum


class ListCrmLeadsPushState(str, Enum):
    FAILED = "failed"
    PENDING = "pending"
    PUSHED = "pushed"

    def __str__(self) -> str:
        return str(self.value)
