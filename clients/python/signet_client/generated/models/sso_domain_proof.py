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

T = TypeVar("T", bound="SsoDomainProof")


@_attrs_define
class SsoDomainProof:
    """A tenant's proof that it owns an e-mail domain: publish `recordValue` as a TXT record at
    `recordName`, then check it. Only a proven domain's providers serve sign-ins.

        Attributes:
            created_at (int):
            domain (str):
            record_name (str): Where the TXT record goes: `_signet-challenge.<domain>`.
            record_value (str): What the TXT record holds: `signet-domain-proof=<value>`.
            status (str): `pending` until the TXT record was found, then `proven`.
            proven_at (Union[None, Unset, int]):
    """

    created_at: int
    domain: str
    record_name: str
    record_value: str
    status: str
    proven_at: Union[None, Unset, int] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at

        domain = self.domain

        record_name = self.record_name

        record_value = self.record_value

        status = self.status

        proven_at: Union[None, Unset, int]
        if isinstance(self.proven_at, Unset):
            proven_at = UNSET
        else:
            proven_at = self.proven_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "domain": domain,
                "recordName": record_name,
                "recordValue": record_value,
                "status": status,
            }
        )
        if proven_at is not UNSET:
            field_dict["provenAt"] = proven_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = d.pop("createdAt")

        domain = d.pop("domain")

        record_name = d.pop("recordName")

        record_value = d.pop("recordValue")

        status = d.pop("status")

        def _parse_proven_at(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        proven_at = _parse_proven_at(d.pop("provenAt", UNSET))

        sso_domain_proof = cls(
            created_at=created_at,
            domain=domain,
            record_name=record_name,
            record_value=record_value,
            status=status,
            proven_at=proven_at,
        )

        sso_domain_proof.additional_properties = d
        return sso_domain_proof

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
