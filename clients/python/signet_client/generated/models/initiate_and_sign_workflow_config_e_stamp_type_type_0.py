from enum import Enum


class InitiateAndSignWorkflowConfigEStampTypeType0(str, Enum):
    INVENTORY = "inventory"
    VALUE_0 = ""

    def __str__(self) -> str:
        return str(self.value)
