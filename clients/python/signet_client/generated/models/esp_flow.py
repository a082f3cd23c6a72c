from enum import Enum


class EspFlow(str, Enum):
    FORM = "form"
    SERVER = "server"

    def __str__(self) -> str:
        return str(self.value)
