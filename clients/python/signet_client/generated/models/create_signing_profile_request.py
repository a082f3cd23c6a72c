from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="CreateSigningProfileRequest")


@_attrs_define
class CreateSigningProfileRequest:
    """
    Attributes:
        email_id (str): The signer whose signatures this certificate makes.
        name (str): A name for the profile, 1 to 100 characters (trimmed), no control characters.
        password (str): Its password; used once to open the file and not stored.
        pkcs12 (str): The PKCS#12 (.p12/.pfx) file, base64, at most 256 KiB.
    """

    email_id: str
    name: str
    password: str
    pkcs12: str

    def to_dict(self) -> dict[str, Any]:
        email_id = self.email_id

        name = self.name

        password = self.password

        pkcs12 = self.pkcs12

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "emailId": email_id,
                "name": name,
                "password": password,
                "pkcs12": pkcs12,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        email_id = d.pop("emailId")

        name = d.pop("name")

        password = d.pop("password")

        pkcs12 = d.pop("pkcs12")

        create_signing_profile_request = cls(
            email_id=email_id,
            name=name,
            password=password,
            pkcs12=pkcs12,
        )

        return create_signing_profile_request
