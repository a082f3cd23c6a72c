from enum import Enum


class StampSource(str, Enum):
    INVENTORY = "inventory"
    PROVIDER = "provider"

    def __str__(self) -> str:
        return str(self.value)
