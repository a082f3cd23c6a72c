from enum import Enum


class TokenRequestGrantType(str, Enum):
    CLIENT_CREDENTIALS = "client_credentials"
    EMAIL_OTP = "email_otp"
    PASSWORD = "password"
    REFRESH_TOKEN = "refresh_token"
    SSO_CODE = "sso_code"

    def __str__(self) -> str:
        return str(self.value)
