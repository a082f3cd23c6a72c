from enum import Enum


class GatewaySettingsFileTypesItem(str, Enum):
    DATA = "DATA"
    HASH = "HASH"
    PDF = "PDF"
    XML = "XML"

    def __str__(self) -> str:
        return str(self.value)
