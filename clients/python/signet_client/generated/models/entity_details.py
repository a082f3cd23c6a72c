from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="EntityDetails")


@_attrs_define
class EntityDetails:
    """The spec's `EntityDetails`: the borrowing entity.

    Attributes:
        cntct_no (Union[None, Unset, str]):
        comm_addr (Union[None, Unset, str]):
        comm_pin (Union[None, Unset, str]):
        doi (Union[None, Unset, str]):
        eml_id (Union[None, Unset, str]):
        entty_name (Union[None, Unset, str]):
        entty_pan (Union[None, Unset, str]):
        lgl_cnstn (Union[None, Unset, str]):
        reg_addr (Union[None, Unset, str]):
        reg_pin (Union[None, Unset, str]):
    """

    cntct_no: Union[None, Unset, str] = UNSET
    comm_addr: Union[None, Unset, str] = UNSET
    comm_pin: Union[None, Unset, str] = UNSET
    doi: Union[None, Unset, str] = UNSET
    eml_id: Union[None, Unset, str] = UNSET
    entty_name: Union[None, Unset, str] = UNSET
    entty_pan: Union[None, Unset, str] = UNSET
    lgl_cnstn: Union[None, Unset, str] = UNSET
    reg_addr: Union[None, Unset, str] = UNSET
    reg_pin: Union[None, Unset, str] = UNSET

    def to_dict(self) -> dict[str, Any]:
        cntct_no: Union[None, Unset, str]
        if isinstance(self.cntct_no, Unset):
            cntct_no = UNSET
        else:
            cntct_no = self.cntct_no

        comm_addr: Union[None, Unset, str]
        if isinstance(self.comm_addr, Unset):
            comm_addr = UNSET
        else:
            comm_addr = self.comm_addr

        comm_pin: Union[None, Unset, str]
        if isinstance(self.comm_pin, Unset):
            comm_pin = UNSET
        else:
            comm_pin = self.comm_pin

        doi: Union[None, Unset, str]
        if isinstance(self.doi, Unset):
            doi = UNSET
        else:
            doi = self.doi

        eml_id: Union[None, Unset, str]
        if isinstance(self.eml_id, Unset):
            eml_id = UNSET
        else:
            eml_id = self.eml_id

        entty_name: Union[None, Unset, str]
        if isinstance(self.entty_name, Unset):
            entty_name = UNSET
        else:
            entty_name = self.entty_name

        entty_pan: Union[None, Unset, str]
        if isinstance(self.entty_pan, Unset):
            entty_pan = UNSET
        else:
            entty_pan = self.entty_pan

        lgl_cnstn: Union[None, Unset, str]
        if isinstance(self.lgl_cnstn, Unset):
            lgl_cnstn = UNSET
        else:
            lgl_cnstn = self.lgl_cnstn

        reg_addr: Union[None, Unset, str]
        if isinstance(self.reg_addr, Unset):
            reg_addr = UNSET
        else:
            reg_addr = self.reg_addr

        reg_pin: Union[None, Unset, str]
        if isinstance(self.reg_pin, Unset):
            reg_pin = UNSET
        else:
            reg_pin = self.reg_pin

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if cntct_no is not UNSET:
            field_dict["cntct_no"] = cntct_no
        if comm_addr is not UNSET:
            field_dict["comm_addr"] = comm_addr
        if comm_pin is not UNSET:
            field_dict["comm_pin"] = comm_pin
        if doi is not UNSET:
            field_dict["doi"] = doi
        if eml_id is not UNSET:
            field_dict["eml_id"] = eml_id
        if entty_name is not UNSET:
            field_dict["entty_name"] = entty_name
        if entty_pan is not UNSET:
            field_dict["entty_pan"] = entty_pan
        if lgl_cnstn is not UNSET:
            field_dict["lgl_cnstn"] = lgl_cnstn
        if reg_addr is not UNSET:
            field_dict["reg_addr"] = reg_addr
        if reg_pin is not UNSET:
            field_dict["reg_pin"] = reg_pin

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_cntct_no(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        cntct_no = _parse_cntct_no(d.pop("cntct_no", UNSET))

        def _parse_comm_addr(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        comm_addr = _parse_comm_addr(d.pop("comm_addr", UNSET))

        def _parse_comm_pin(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        comm_pin = _parse_comm_pin(d.pop("comm_pin", UNSET))

        def _parse_doi(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        doi = _parse_doi(d.pop("doi", UNSET))

        def _parse_eml_id(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        eml_id = _parse_eml_id(d.pop("eml_id", UNSET))

        def _parse_entty_name(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        entty_name = _parse_entty_name(d.pop("entty_name", UNSET))

        def _parse_entty_pan(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        entty_pan = _parse_entty_pan(d.pop("entty_pan", UNSET))

        def _parse_lgl_cnstn(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        lgl_cnstn = _parse_lgl_cnstn(d.pop("lgl_cnstn", UNSET))

        def _parse_reg_addr(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        reg_addr = _parse_reg_addr(d.pop("reg_addr", UNSET))

        def _parse_reg_pin(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        reg_pin = _parse_reg_pin(d.pop("reg_pin", UNSET))

        entity_details = cls(
            cntct_no=cntct_no,
            comm_addr=comm_addr,
            comm_pin=comm_pin,
            doi=doi,
            eml_id=eml_id,
            entty_name=entty_name,
            entty_pan=entty_pan,
            lgl_cnstn=lgl_cnstn,
            reg_addr=reg_addr,
            reg_pin=reg_pin,
        )

        return entity_details
