from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="GatewayTransaction")


@_attrs_define
class GatewayTransaction:
    """A gateway transaction as its tenant sees it. `returnvalue` is present while a stored result
    (`Storetodb`) is kept: the signed data encrypted with the request's session key, exactly as
    it was posted to the return address.

        Attributes:
            created_at (int): Milliseconds since the Unix epoch.
            expires_at (int):
            file_type (str):
            reference_number (str):
            status (str): Initiated, Completed, Failed, Cancelled or Expired.
            transaction_number (str):
            updated_at (int):
            error_message (Union[None, Unset, str]):
            result_available_until (Union[None, Unset, int]):
            returnvalue (Union[None, Unset, str]):
            signature_level (Union[None, Unset, str]): For a completed transaction, the ETSI baseline level its signature
                reached:
                `PAdES-B-LT` or `CAdES-B-LT` when a time-stamp authority is configured and every CA
                answered (the signature validates after its certificates expire), `-B-T` when a CA did
                not answer, `-B-B` without a time-stamp authority; `XML-DSig` for XML. An Aadhaar eSign
                PDF whose ESP's CMS is not PAdES baseline (SubFilter `adbe.pkcs7.detached`) is no PAdES
                level: `PKCS7-LT`, `PKCS7-T` or `PKCS7-B` (docs/esign.md, "The PDF signature's label").
    """

    created_at: int
    expires_at: int
    file_type: str
    reference_number: str
    status: str
    transaction_number: str
    updated_at: int
    error_message: Union[None, Unset, str] = UNSET
    result_available_until: Union[None, Unset, int] = UNSET
    returnvalue: Union[None, Unset, str] = UNSET
    signature_level: Union[None, Unset, str] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at

        expires_at = self.expires_at

        file_type = self.file_type

        reference_number = self.reference_number

        status = self.status

        transaction_number = self.transaction_number

        updated_at = self.updated_at

        error_message: Union[None, Unset, str]
        if isinstance(self.error_message, Unset):
            error_message = UNSET
        else:
            error_message = self.error_message

        result_available_until: Union[None, Unset, int]
        if isinstance(self.result_available_until, Unset):
            result_available_until = UNSET
        else:
            result_available_until = self.result_available_until

        returnvalue: Union[None, Unset, str]
        if isinstance(self.returnvalue, Unset):
            returnvalue = UNSET
        else:
            returnvalue = self.returnvalue

        signature_level: Union[None, Unset, str]
        if isinstance(self.signature_level, Unset):
            signature_level = UNSET
        else:
            signature_level = self.signature_level

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "expiresAt": expires_at,
                "fileType": file_type,
                "referenceNumber": reference_number,
                "status": status,
                "transactionNumber": transaction_number,
                "updatedAt": updated_at,
            }
        )
        if error_message is not UNSET:
            field_dict["errorMessage"] = error_message
        if result_available_until is not UNSET:
            field_dict["resultAvailableUntil"] = result_available_until
        if returnvalue is not UNSET:
            field_dict["returnvalue"] = returnvalue
        if signature_level is not UNSET:
            field_dict["signatureLevel"] = signature_level

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = d.pop("createdAt")

        expires_at = d.pop("expiresAt")

        file_type = d.pop("fileType")

        reference_number = d.pop("referenceNumber")

        status = d.pop("status")

        transaction_number = d.pop("transactionNumber")

        updated_at = d.pop("updatedAt")

        def _parse_error_message(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        error_message = _parse_error_message(d.pop("errorMessage", UNSET))

        def _parse_result_available_until(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        result_available_until = _parse_result_available_until(
            d.pop("resultAvailableUntil", UNSET)
        )

        def _parse_returnvalue(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        returnvalue = _parse_returnvalue(d.pop("returnvalue", UNSET))

        def _parse_signature_level(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        signature_level = _parse_signature_level(d.pop("signatureLevel", UNSET))

        gateway_transaction = cls(
            created_at=created_at,
            expires_at=expires_at,
            file_type=file_type,
            reference_number=reference_number,
            status=status,
            transaction_number=transaction_number,
            updated_at=updated_at,
            error_message=error_message,
            result_available_until=result_available_until,
            returnvalue=returnvalue,
            signature_level=signature_level,
        )

        gateway_transaction.additional_properties = d
        return gateway_transaction

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
