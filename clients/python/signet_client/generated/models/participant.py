from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="Participant")


@_attrs_define
class Participant:
    """The spec's `Participant`: a party to the loan who signs.

    Attributes:
        cntrprtyaddr (Union[None, Unset, str]):
        cntrprtycntmobno (Union[None, Unset, str]):
        cntrprtycntnm (Union[None, Unset, str]):
        doi (Union[None, Unset, str]):
        emlid (Union[None, Unset, str]): Required: the signing link goes there.
        fulnm (Union[None, Unset, str]):
        lglcnstn (Union[None, Unset, str]):
        ovdid (Union[None, Unset, str]):
        ovdtype (Union[None, Unset, str]):
        panno (Union[None, Unset, str]):
        partytyp (Union[None, Unset, str]):
        prtcptentty_id (Union[None, Unset, str]): Digits; `eSignCordinates` refer to it.
        reltocntrct (Union[None, Unset, str]):
        seqno (Union[Unset, int]): The signing order, from 1.
    """

    cntrprtyaddr: Union[None, Unset, str] = UNSET
    cntrprtycntmobno: Union[None, Unset, str] = UNSET
    cntrprtycntnm: Union[None, Unset, str] = UNSET
    doi: Union[None, Unset, str] = UNSET
    emlid: Union[None, Unset, str] = UNSET
    fulnm: Union[None, Unset, str] = UNSET
    lglcnstn: Union[None, Unset, str] = UNSET
    ovdid: Union[None, Unset, str] = UNSET
    ovdtype: Union[None, Unset, str] = UNSET
    panno: Union[None, Unset, str] = UNSET
    partytyp: Union[None, Unset, str] = UNSET
    prtcptentty_id: Union[None, Unset, str] = UNSET
    reltocntrct: Union[None, Unset, str] = UNSET
    seqno: Union[Unset, int] = UNSET

    def to_dict(self) -> dict[str, Any]:
        cntrprtyaddr: Union[None, Unset, str]
        if isinstance(self.cntrprtyaddr, Unset):
            cntrprtyaddr = UNSET
        else:
            cntrprtyaddr = self.cntrprtyaddr

        cntrprtycntmobno: Union[None, Unset, str]
        if isinstance(self.cntrprtycntmobno, Unset):
            cntrprtycntmobno = UNSET
        else:
            cntrprtycntmobno = self.cntrprtycntmobno

        cntrprtycntnm: Union[None, Unset, str]
        if isinstance(self.cntrprtycntnm, Unset):
            cntrprtycntnm = UNSET
        else:
            cntrprtycntnm = self.cntrprtycntnm

        doi: Union[None, Unset, str]
        if isinstance(self.doi, Unset):
            doi = UNSET
        else:
            doi = self.doi

        emlid: Union[None, Unset, str]
        if isinstance(self.emlid, Unset):
            emlid = UNSET
        else:
            emlid = self.emlid

        fulnm: Union[None, Unset, str]
        if isinstance(self.fulnm, Unset):
            fulnm = UNSET
        else:
            fulnm = self.fulnm

        lglcnstn: Union[None, Unset, str]
        if isinstance(self.lglcnstn, Unset):
            lglcnstn = UNSET
        else:
            lglcnstn = self.lglcnstn

        ovdid: Union[None, Unset, str]
        if isinstance(self.ovdid, Unset):
            ovdid = UNSET
        else:
            ovdid = self.ovdid

        ovdtype: Union[None, Unset, str]
        if isinstance(self.ovdtype, Unset):
            ovdtype = UNSET
        else:
            ovdtype = self.ovdtype

        panno: Union[None, Unset, str]
        if isinstance(self.panno, Unset):
            panno = UNSET
        else:
            panno = self.panno

        partytyp: Union[None, Unset, str]
        if isinstance(self.partytyp, Unset):
            partytyp = UNSET
        else:
            partytyp = self.partytyp

        prtcptentty_id: Union[None, Unset, str]
        if isinstance(self.prtcptentty_id, Unset):
            prtcptentty_id = UNSET
        else:
            prtcptentty_id = self.prtcptentty_id

        reltocntrct: Union[None, Unset, str]
        if isinstance(self.reltocntrct, Unset):
            reltocntrct = UNSET
        else:
            reltocntrct = self.reltocntrct

        seqno = self.seqno

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if cntrprtyaddr is not UNSET:
            field_dict["cntrprtyaddr"] = cntrprtyaddr
        if cntrprtycntmobno is not UNSET:
            field_dict["cntrprtycntmobno"] = cntrprtycntmobno
        if cntrprtycntnm is not UNSET:
            field_dict["cntrprtycntnm"] = cntrprtycntnm
        if doi is not UNSET:
            field_dict["doi"] = doi
        if emlid is not UNSET:
            field_dict["emlid"] = emlid
        if fulnm is not UNSET:
            field_dict["fulnm"] = fulnm
        if lglcnstn is not UNSET:
            field_dict["lglcnstn"] = lglcnstn
        if ovdid is not UNSET:
            field_dict["ovdid"] = ovdid
        if ovdtype is not UNSET:
            field_dict["ovdtype"] = ovdtype
        if panno is not UNSET:
            field_dict["panno"] = panno
        if partytyp is not UNSET:
            field_dict["partytyp"] = partytyp
        if prtcptentty_id is not UNSET:
            field_dict["prtcptenttyId"] = prtcptentty_id
        if reltocntrct is not UNSET:
            field_dict["reltocntrct"] = reltocntrct
        if seqno is not UNSET:
            field_dict["seqno"] = seqno

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_cntrprtyaddr(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        cntrprtyaddr = _parse_cntrprtyaddr(d.pop("cntrprtyaddr", UNSET))

        def _parse_cntrprtycntmobno(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        cntrprtycntmobno = _parse_cntrprtycntmobno(d.pop("cntrprtycntmobno", UNSET))

        def _parse_cntrprtycntnm(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        cntrprtycntnm = _parse_cntrprtycntnm(d.pop("cntrprtycntnm", UNSET))

        def _parse_doi(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        doi = _parse_doi(d.pop("doi", UNSET))

        def _parse_emlid(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        emlid = _parse_emlid(d.pop("emlid", UNSET))

        def _parse_fulnm(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        fulnm = _parse_fulnm(d.pop("fulnm", UNSET))

        def _parse_lglcnstn(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        lglcnstn = _parse_lglcnstn(d.pop("lglcnstn", UNSET))

        def _parse_ovdid(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        ovdid = _parse_ovdid(d.pop("ovdid", UNSET))

        def _parse_ovdtype(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        ovdtype = _parse_ovdtype(d.pop("ovdtype", UNSET))

        def _parse_panno(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        panno = _parse_panno(d.pop("panno", UNSET))

        def _parse_partytyp(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        partytyp = _parse_partytyp(d.pop("partytyp", UNSET))

        def _parse_prtcptentty_id(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        prtcptentty_id = _parse_prtcptentty_id(d.pop("prtcptenttyId", UNSET))

        def _parse_reltocntrct(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        reltocntrct = _parse_reltocntrct(d.pop("reltocntrct", UNSET))

        seqno = d.pop("seqno", UNSET)

        participant = cls(
            cntrprtyaddr=cntrprtyaddr,
            cntrprtycntmobno=cntrprtycntmobno,
            cntrprtycntnm=cntrprtycntnm,
            doi=doi,
            emlid=emlid,
            fulnm=fulnm,
            lglcnstn=lglcnstn,
            ovdid=ovdid,
            ovdtype=ovdtype,
            panno=panno,
            partytyp=partytyp,
            prtcptentty_id=prtcptentty_id,
            reltocntrct=reltocntrct,
            seqno=seqno,
        )

        return participant
