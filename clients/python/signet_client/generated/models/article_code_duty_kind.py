from enum import Enum


class ArticleCodeDutyKind(str, Enum):
    AD_VALOREM = "ad_valorem"
    FIXED = "fixed"
    VARIES = "varies"

    def __str__(self) -> str:
        return str(self.value)
