from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
)

from attrs import define as _attrs_define

from ..models.gateway_settings_file_types_item import GatewaySettingsFileTypesItem
from ..models.gateway_settings_signature_types_item import (
    GatewaySettingsSignatureTypesItem,
)

T = TypeVar("T", bound="GatewaySettings")


@_attrs_define
class GatewaySettings:
    """Which gateway features the tenant may use; a request outside them fails with error 105.

    Attributes:
        file_types (list[GatewaySettingsFileTypesItem]): Any of PDF, XML, DATA, HASH (repeats are folded).
        legacy_profile_enabled (bool): Accept the legacy envelope (RSA PKCS#1 v1.5 + AES-ECB) besides the modern one.
        signature_types (list[GatewaySettingsSignatureTypesItem]): Any of 2 (crypto token), 3 (Aadhaar eSign), 4
            (electronic signature).
    """

    file_types: list[GatewaySettingsFileTypesItem]
    legacy_profile_enabled: bool
    signature_types: list[GatewaySettingsSignatureTypesItem]

    def to_dict(self) -> dict[str, Any]:
        file_types = []
        for file_types_item_data in self.file_types:
            file_types_item = file_types_item_data.value
            file_types.append(file_types_item)

        legacy_profile_enabled = self.legacy_profile_enabled

        signature_types = []
        for signature_types_item_data in self.signature_types:
            signature_types_item = signature_types_item_data.value
            signature_types.append(signature_types_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "fileTypes": file_types,
                "legacyProfileEnabled": legacy_profile_enabled,
                "signatureTypes": signature_types,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        file_types = []
        _file_types = d.pop("fileTypes")
        for file_types_item_data in _file_types:
            file_types_item = GatewaySettingsFileTypesItem(file_types_item_data)

            file_types.append(file_types_item)

        legacy_profile_enabled = d.pop("legacyProfileEnabled")

        signature_types = []
        _signature_types = d.pop("signatureTypes")
        for signature_types_item_data in _signature_types:
            signature_types_item = GatewaySettingsSignatureTypesItem(
                signature_types_item_data
            )

            signature_types.append(signature_types_item)

        gateway_settings = cls(
            file_types=file_types,
            legacy_profile_enabled=legacy_profile_enabled,
            signature_types=signature_types,
        )

        return gateway_settings
