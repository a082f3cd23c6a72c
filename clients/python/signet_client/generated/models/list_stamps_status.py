from enum import Enum


class ListStampsStatus(str, Enum):
    ALLOCATED = "allocated"
    AVAILABLE = "available"
    RESERVED = "reserved"
    RETIRED = "retired"

    def __str__(self) -> str:
        return str(self.value)
