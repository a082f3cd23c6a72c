from enum import Enum


class TemplateFieldKind(str, Enum):
    CHECKBOX = "checkbox"
    DATE = "date"
    EMAIL = "email"
    INITIALS = "initials"
    NAME = "name"
    SIGNATURE = "signature"
    TEXT = "text"

    def __str__(self) -> str:
        return str(self.value)
