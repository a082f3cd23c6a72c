from enum import Enum


class EspProfile(str, Enum):
    CDAC = "cdac"
    EMUDHRA = "emudhra"
    GENERIC_2_1 = "generic-2.1"
    GENERIC_3_X = "generic-3.x"
    PROTEAN = "protean"

    def __str__(self) -> str:
        return str(self.value)
