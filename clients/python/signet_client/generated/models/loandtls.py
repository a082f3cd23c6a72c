from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="Loandtls")


@_attrs_define
class Loandtls:
    """The spec's `Loandtls`.

    Attributes:
        amtovrdue (Union[None, Unset, str]):
        bu (Union[None, Unset, str]):
        chgamt (Union[None, Unset, str]):
        crdtsubtyp (Union[None, Unset, str]):
        currofsanc (Union[None, Unset, str]):
        dp (Union[None, Unset, str]):
        dpd (Union[None, Unset, str]):
        dtofdbrs (Union[None, Unset, str]):
        dtofsnctn (Union[None, Unset, str]):
        emiamt (Union[None, Unset, str]):
        fcltynm (Union[None, Unset, str]):
        fundtyp (Union[None, Unset, str]):
        intamt (Union[None, Unset, str]):
        isacctclosed (Union[None, Unset, str]):
        lndngarrg (Union[None, Unset, str]):
        loanno (Union[None, Unset, str]):
        loc (Union[None, Unset, str]):
        ntrofcrdt (Union[None, Unset, str]):
        oldaccno (Union[None, Unset, str]):
        priamt (Union[None, Unset, str]):
        remarkparta (Union[None, Unset, str]):
        rpyfrq (Union[None, Unset, str]):
        rtofint (Union[None, Unset, str]):
        snctnamt (Union[None, Unset, str]):
        snctnno (Union[None, Unset, str]):
        tenure (Union[None, Unset, str]):
        toutstndamt (Union[None, Unset, str]):
    """

    amtovrdue: Union[None, Unset, str] = UNSET
    bu: Union[None, Unset, str] = UNSET
    chgamt: Union[None, Unset, str] = UNSET
    crdtsubtyp: Union[None, Unset, str] = UNSET
    currofsanc: Union[None, Unset, str] = UNSET
    dp: Union[None, Unset, str] = UNSET
    dpd: Union[None, Unset, str] = UNSET
    dtofdbrs: Union[None, Unset, str] = UNSET
    dtofsnctn: Union[None, Unset, str] = UNSET
    emiamt: Union[None, Unset, str] = UNSET
    fcltynm: Union[None, Unset, str] = UNSET
    fundtyp: Union[None, Unset, str] = UNSET
    intamt: Union[None, Unset, str] = UNSET
    isacctclosed: Union[None, Unset, str] = UNSET
    lndngarrg: Union[None, Unset, str] = UNSET
    loanno: Union[None, Unset, str] = UNSET
    loc: Union[None, Unset, str] = UNSET
    ntrofcrdt: Union[None, Unset, str] = UNSET
    oldaccno: Union[None, Unset, str] = UNSET
    priamt: Union[None, Unset, str] = UNSET
    remarkparta: Union[None, Unset, str] = UNSET
    rpyfrq: Union[None, Unset, str] = UNSET
    rtofint: Union[None, Unset, str] = UNSET
    snctnamt: Union[None, Unset, str] = UNSET
    snctnno: Union[None, Unset, str] = UNSET
    tenure: Union[None, Unset, str] = UNSET
    toutstndamt: Union[None, Unset, str] = UNSET

    def to_dict(self) -> dict[str, Any]:
        amtovrdue: Union[None, Unset, str]
        if isinstance(self.amtovrdue, Unset):
            amtovrdue = UNSET
        else:
            amtovrdue = self.amtovrdue

        bu: Union[None, Unset, str]
        if isinstance(self.bu, Unset):
            bu = UNSET
        else:
            bu = self.bu

        chgamt: Union[None, Unset, str]
        if isinstance(self.chgamt, Unset):
            chgamt = UNSET
        else:
            chgamt = self.chgamt

        crdtsubtyp: Union[None, Unset, str]
        if isinstance(self.crdtsubtyp, Unset):
            crdtsubtyp = UNSET
        else:
            crdtsubtyp = self.crdtsubtyp

        currofsanc: Union[None, Unset, str]
        if isinstance(self.currofsanc, Unset):
            currofsanc = UNSET
        else:
            currofsanc = self.currofsanc

        dp: Union[None, Unset, str]
        if isinstance(self.dp, Unset):
            dp = UNSET
        else:
            dp = self.dp

        dpd: Union[None, Unset, str]
        if isinstance(self.dpd, Unset):
            dpd = UNSET
        else:
            dpd = self.dpd

        dtofdbrs: Union[None, Unset, str]
        if isinstance(self.dtofdbrs, Unset):
            dtofdbrs = UNSET
        else:
            dtofdbrs = self.dtofdbrs

        dtofsnctn: Union[None, Unset, str]
        if isinstance(self.dtofsnctn, Unset):
            dtofsnctn = UNSET
        else:
            dtofsnctn = self.dtofsnctn

        emiamt: Union[None, Unset, str]
        if isinstance(self.emiamt, Unset):
            emiamt = UNSET
        else:
            emiamt = self.emiamt

        fcltynm: Union[None, Unset, str]
        if isinstance(self.fcltynm, Unset):
            fcltynm = UNSET
        else:
            fcltynm = self.fcltynm

        fundtyp: Union[None, Unset, str]
        if isinstance(self.fundtyp, Unset):
            fundtyp = UNSET
        else:
            fundtyp = self.fundtyp

        intamt: Union[None, Unset, str]
        if isinstance(self.intamt, Unset):
            intamt = UNSET
        else:
            intamt = self.intamt

        isacctclosed: Union[None, Unset, str]
        if isinstance(self.isacctclosed, Unset):
            isacctclosed = UNSET
        else:
            isacctclosed = self.isacctclosed

        lndngarrg: Union[None, Unset, str]
        if isinstance(self.lndngarrg, Unset):
            lndngarrg = UNSET
        else:
            lndngarrg = self.lndngarrg

        loanno: Union[None, Unset, str]
        if isinstance(self.loanno, Unset):
            loanno = UNSET
        else:
            loanno = self.loanno

        loc: Union[None, Unset, str]
        if isinstance(self.loc, Unset):
            loc = UNSET
        else:
            loc = self.loc

        ntrofcrdt: Union[None, Unset, str]
        if isinstance(self.ntrofcrdt, Unset):
            ntrofcrdt = UNSET
        else:
            ntrofcrdt = self.ntrofcrdt

        oldaccno: Union[None, Unset, str]
        if isinstance(self.oldaccno, Unset):
            oldaccno = UNSET
        else:
            oldaccno = self.oldaccno

        priamt: Union[None, Unset, str]
        if isinstance(self.priamt, Unset):
            priamt = UNSET
        else:
            priamt = self.priamt

        remarkparta: Union[None, Unset, str]
        if isinstance(self.remarkparta, Unset):
            remarkparta = UNSET
        else:
            remarkparta = self.remarkparta

        rpyfrq: Union[None, Unset, str]
        if isinstance(self.rpyfrq, Unset):
            rpyfrq = UNSET
        else:
            rpyfrq = self.rpyfrq

        rtofint: Union[None, Unset, str]
        if isinstance(self.rtofint, Unset):
            rtofint = UNSET
        else:
            rtofint = self.rtofint

        snctnamt: Union[None, Unset, str]
        if isinstance(self.snctnamt, Unset):
            snctnamt = UNSET
        else:
            snctnamt = self.snctnamt

        snctnno: Union[None, Unset, str]
        if isinstance(self.snctnno, Unset):
            snctnno = UNSET
        else:
            snctnno = self.snctnno

        tenure: Union[None, Unset, str]
        if isinstance(self.tenure, Unset):
            tenure = UNSET
        else:
            tenure = self.tenure

        toutstndamt: Union[None, Unset, str]
        if isinstance(self.toutstndamt, Unset):
            toutstndamt = UNSET
        else:
            toutstndamt = self.toutstndamt

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if amtovrdue is not UNSET:
            field_dict["amtovrdue"] = amtovrdue
        if bu is not UNSET:
            field_dict["bu"] = bu
        if chgamt is not UNSET:
            field_dict["chgamt"] = chgamt
        if crdtsubtyp is not UNSET:
            field_dict["crdtsubtyp"] = crdtsubtyp
        if currofsanc is not UNSET:
            field_dict["currofsanc"] = currofsanc
        if dp is not UNSET:
            field_dict["dp"] = dp
        if dpd is not UNSET:
            field_dict["dpd"] = dpd
        if dtofdbrs is not UNSET:
            field_dict["dtofdbrs"] = dtofdbrs
        if dtofsnctn is not UNSET:
            field_dict["dtofsnctn"] = dtofsnctn
        if emiamt is not UNSET:
            field_dict["emiamt"] = emiamt
        if fcltynm is not UNSET:
            field_dict["fcltynm"] = fcltynm
        if fundtyp is not UNSET:
            field_dict["fundtyp"] = fundtyp
        if intamt is not UNSET:
            field_dict["intamt"] = intamt
        if isacctclosed is not UNSET:
            field_dict["isacctclosed"] = isacctclosed
        if lndngarrg is not UNSET:
            field_dict["lndngarrg"] = lndngarrg
        if loanno is not UNSET:
            field_dict["loanno"] = loanno
        if loc is not UNSET:
            field_dict["loc"] = loc
        if ntrofcrdt is not UNSET:
            field_dict["ntrofcrdt"] = ntrofcrdt
        if oldaccno is not UNSET:
            field_dict["oldaccno"] = oldaccno
        if priamt is not UNSET:
            field_dict["priamt"] = priamt
        if remarkparta is not UNSET:
            field_dict["remarkparta"] = remarkparta
        if rpyfrq is not UNSET:
            field_dict["rpyfrq"] = rpyfrq
        if rtofint is not UNSET:
            field_dict["rtofint"] = rtofint
        if snctnamt is not UNSET:
            field_dict["snctnamt"] = snctnamt
        if snctnno is not UNSET:
            field_dict["snctnno"] = snctnno
        if tenure is not UNSET:
            field_dict["tenure"] = tenure
        if toutstndamt is not UNSET:
            field_dict["toutstndamt"] = toutstndamt

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_amtovrdue(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        amtovrdue = _parse_amtovrdue(d.pop("amtovrdue", UNSET))

        def _parse_bu(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        bu = _parse_bu(d.pop("bu", UNSET))

        def _parse_chgamt(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        chgamt = _parse_chgamt(d.pop("chgamt", UNSET))

        def _parse_crdtsubtyp(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        crdtsubtyp = _parse_crdtsubtyp(d.pop("crdtsubtyp", UNSET))

        def _parse_currofsanc(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        currofsanc = _parse_currofsanc(d.pop("currofsanc", UNSET))

        def _parse_dp(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        dp = _parse_dp(d.pop("dp", UNSET))

        def _parse_dpd(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        dpd = _parse_dpd(d.pop("dpd", UNSET))

        def _parse_dtofdbrs(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        dtofdbrs = _parse_dtofdbrs(d.pop("dtofdbrs", UNSET))

        def _parse_dtofsnctn(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        dtofsnctn = _parse_dtofsnctn(d.pop("dtofsnctn", UNSET))

        def _parse_emiamt(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        emiamt = _parse_emiamt(d.pop("emiamt", UNSET))

        def _parse_fcltynm(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        fcltynm = _parse_fcltynm(d.pop("fcltynm", UNSET))

        def _parse_fundtyp(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        fundtyp = _parse_fundtyp(d.pop("fundtyp", UNSET))

        def _parse_intamt(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        intamt = _parse_intamt(d.pop("intamt", UNSET))

        def _parse_isacctclosed(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        isacctclosed = _parse_isacctclosed(d.pop("isacctclosed", UNSET))

        def _parse_lndngarrg(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        lndngarrg = _parse_lndngarrg(d.pop("lndngarrg", UNSET))

        def _parse_loanno(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        loanno = _parse_loanno(d.pop("loanno", UNSET))

        def _parse_loc(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        loc = _parse_loc(d.pop("loc", UNSET))

        def _parse_ntrofcrdt(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        ntrofcrdt = _parse_ntrofcrdt(d.pop("ntrofcrdt", UNSET))

        def _parse_oldaccno(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        oldaccno = _parse_oldaccno(d.pop("oldaccno", UNSET))

        def _parse_priamt(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        priamt = _parse_priamt(d.pop("priamt", UNSET))

        def _parse_remarkparta(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        remarkparta = _parse_remarkparta(d.pop("remarkparta", UNSET))

        def _parse_rpyfrq(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        rpyfrq = _parse_rpyfrq(d.pop("rpyfrq", UNSET))

        def _parse_rtofint(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        rtofint = _parse_rtofint(d.pop("rtofint", UNSET))

        def _parse_snctnamt(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        snctnamt = _parse_snctnamt(d.pop("snctnamt", UNSET))

        def _parse_snctnno(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        snctnno = _parse_snctnno(d.pop("snctnno", UNSET))

        def _parse_tenure(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        tenure = _parse_tenure(d.pop("tenure", UNSET))

        def _parse_toutstndamt(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        toutstndamt = _parse_toutstndamt(d.pop("toutstndamt", UNSET))

        loandtls = cls(
            amtovrdue=amtovrdue,
            bu=bu,
            chgamt=chgamt,
            crdtsubtyp=crdtsubtyp,
            currofsanc=currofsanc,
            dp=dp,
            dpd=dpd,
            dtofdbrs=dtofdbrs,
            dtofsnctn=dtofsnctn,
            emiamt=emiamt,
            fcltynm=fcltynm,
            fundtyp=fundtyp,
            intamt=intamt,
            isacctclosed=isacctclosed,
            lndngarrg=lndngarrg,
            loanno=loanno,
            loc=loc,
            ntrofcrdt=ntrofcrdt,
            oldaccno=oldaccno,
            priamt=priamt,
            remarkparta=remarkparta,
            rpyfrq=rpyfrq,
            rtofint=rtofint,
            snctnamt=snctnamt,
            snctnno=snctnno,
            tenure=tenure,
            toutstndamt=toutstndamt,
        )

        return loandtls
