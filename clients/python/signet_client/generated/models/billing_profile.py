from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="BillingProfile")


@_attrs_define
class BillingProfile:
    r"""The tenant as the recipient of the platform's invoices. Its state is the place of supply.

    Attributes:
        address (str): The billing address; lines separated by `\n`.
        legal_name (str): The legal name invoices are made out to.
        state_code (str): An Indian state or union territory: its ISO 3166-2:IN code (MH, KA, DL, ...; the 2023
            edition's CG, OD, TS and UK too), with or without `IN-`, or its name (`&` for `and`; Orissa, Pondicherry,
            Uttaranchal and NCT of Delhi too), in any case. Answers give the code.
        gstin (Union[None, Unset, str]): The tenant's GSTIN, registered in `stateCode`; absent or null for an
            unregistered
            recipient.
    """

    address: str
    legal_name: str
    state_code: str
    gstin: Union[None, Unset, str] = UNSET

    def to_dict(self) -> dict[str, Any]:
        address = self.address

        legal_name = self.legal_name

        state_code = self.state_code

        gstin: Union[None, Unset, str]
        if isinstance(self.gstin, Unset):
            gstin = UNSET
        else:
            gstin = self.gstin

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "address": address,
                "legalName": legal_name,
                "stateCode": state_code,
            }
        )
        if gstin is not UNSET:
            field_dict["gstin"] = gstin

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        address = d.pop("address")

        legal_name = d.pop("legalName")

        state_code = d.pop("stateCode")

        def _parse_gstin(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        gstin = _parse_gstin(d.pop("gstin", UNSET))

        billing_profile = cls(
            address=address,
            legal_name=legal_name,
            state_code=state_code,
            gstin=gstin,
        )

        return billing_profile
