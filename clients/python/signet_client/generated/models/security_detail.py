from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="SecurityDetail")


@_attrs_define
class SecurityDetail:
    """The spec's `SecurityDetail`.

    Attributes:
        assetid (Union[None, Unset, str]):
        asstyp (Union[None, Unset, str]):
        dscofscrty (Union[None, Unset, str]):
        dtofcrtn (Union[None, Unset, str]):
        dtofvltn (Union[None, Unset, str]):
        loanno (Union[None, Unset, str]):
        scrtyidcersai (Union[None, Unset, str]):
        scrtyidroc (Union[None, Unset, str]):
        typofchrg (Union[None, Unset, str]):
        vlofscrty (Union[None, Unset, str]):
    """

    assetid: Union[None, Unset, str] = UNSET
    asstyp: Union[None, Unset, str] = UNSET
    dscofscrty: Union[None, Unset, str] = UNSET
    dtofcrtn: Union[None, Unset, str] = UNSET
    dtofvltn: Union[None, Unset, str] = UNSET
    loanno: Union[None, Unset, str] = UNSET
    scrtyidcersai: Union[None, Unset, str] = UNSET
    scrtyidroc: Union[None, Unset, str] = UNSET
    typofchrg: Union[None, Unset, str] = UNSET
    vlofscrty: Union[None, Unset, str] = UNSET

    def to_dict(self) -> dict[str, Any]:
        assetid: Union[None, Unset, str]
        if isinstance(self.assetid, Unset):
            assetid = UNSET
        else:
            assetid = self.assetid

        asstyp: Union[None, Unset, str]
        if isinstance(self.asstyp, Unset):
            asstyp = UNSET
        else:
            asstyp = self.asstyp

        dscofscrty: Union[None, Unset, str]
        if isinstance(self.dscofscrty, Unset):
            dscofscrty = UNSET
        else:
            dscofscrty = self.dscofscrty

        dtofcrtn: Union[None, Unset, str]
        if isinstance(self.dtofcrtn, Unset):
            dtofcrtn = UNSET
        else:
            dtofcrtn = self.dtofcrtn

        dtofvltn: Union[None, Unset, str]
        if isinstance(self.dtofvltn, Unset):
            dtofvltn = UNSET
        else:
            dtofvltn = self.dtofvltn

        loanno: Union[None, Unset, str]
        if isinstance(self.loanno, Unset):
            loanno = UNSET
        else:
            loanno = self.loanno

        scrtyidcersai: Union[None, Unset, str]
        if isinstance(self.scrtyidcersai, Unset):
            scrtyidcersai = UNSET
        else:
            scrtyidcersai = self.scrtyidcersai

        scrtyidroc: Union[None, Unset, str]
        if isinstance(self.scrtyidroc, Unset):
            scrtyidroc = UNSET
        else:
            scrtyidroc = self.scrtyidroc

        typofchrg: Union[None, Unset, str]
        if isinstance(self.typofchrg, Unset):
            typofchrg = UNSET
        else:
            typofchrg = self.typofchrg

        vlofscrty: Union[None, Unset, str]
        if isinstance(self.vlofscrty, Unset):
            vlofscrty = UNSET
        else:
            vlofscrty = self.vlofscrty

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if assetid is not UNSET:
            field_dict["assetid"] = assetid
        if asstyp is not UNSET:
            field_dict["asstyp"] = asstyp
        if dscofscrty is not UNSET:
            field_dict["dscofscrty"] = dscofscrty
        if dtofcrtn is not UNSET:
            field_dict["dtofcrtn"] = dtofcrtn
        if dtofvltn is not UNSET:
            field_dict["dtofvltn"] = dtofvltn
        if loanno is not UNSET:
            field_dict["loanno"] = loanno
        if scrtyidcersai is not UNSET:
            field_dict["scrtyidcersai"] = scrtyidcersai
        if scrtyidroc is not UNSET:
            field_dict["scrtyidroc"] = scrtyidroc
        if typofchrg is not UNSET:
            field_dict["typofchrg"] = typofchrg
        if vlofscrty is not UNSET:
            field_dict["vlofscrty"] = vlofscrty

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_assetid(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        assetid = _parse_assetid(d.pop("assetid", UNSET))

        def _parse_asstyp(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        asstyp = _parse_asstyp(d.pop("asstyp", UNSET))

        def _parse_dscofscrty(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        dscofscrty = _parse_dscofscrty(d.pop("dscofscrty", UNSET))

        def _parse_dtofcrtn(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        dtofcrtn = _parse_dtofcrtn(d.pop("dtofcrtn", UNSET))

        def _parse_dtofvltn(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        dtofvltn = _parse_dtofvltn(d.pop("dtofvltn", UNSET))

        def _parse_loanno(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        loanno = _parse_loanno(d.pop("loanno", UNSET))

        def _parse_scrtyidcersai(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        scrtyidcersai = _parse_scrtyidcersai(d.pop("scrtyidcersai", UNSET))

        def _parse_scrtyidroc(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        scrtyidroc = _parse_scrtyidroc(d.pop("scrtyidroc", UNSET))

        def _parse_typofchrg(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        typofchrg = _parse_typofchrg(d.pop("typofchrg", UNSET))

        def _parse_vlofscrty(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        vlofscrty = _parse_vlofscrty(d.pop("vlofscrty", UNSET))

        security_detail = cls(
            assetid=assetid,
            asstyp=asstyp,
            dscofscrty=dscofscrty,
            dtofcrtn=dtofcrtn,
            dtofvltn=dtofvltn,
            loanno=loanno,
            scrtyidcersai=scrtyidcersai,
            scrtyidroc=scrtyidroc,
            typofchrg=typofchrg,
            vlofscrty=vlofscrty,
        )

        return security_detail
