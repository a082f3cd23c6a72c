from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.document_dtl import DocumentDtl
    from ..models.e_sign_coordinate import ESignCoordinate
    from ..models.entity_details import EntityDetails
    from ..models.estamp_detail import EstampDetail
    from ..models.loandtls import Loandtls
    from ..models.participant import Participant
    from ..models.security_detail import SecurityDetail


T = TypeVar("T", bound="Loan")


@_attrs_define
class Loan:
    """The spec's `Loan`. Dates are `YYYY-MM-DD` or `DD-MM-YYYY`, amounts rupees as digits with up
    to two decimals, flags `Y`/`N`; `state` is the duty's state (its ISO 3166-2:IN code or name).

        Attributes:
            documentdtls (Union[None, Unset, list['DocumentDtl']]): At most one document: `docData` may carry it instead of
                `fileData`.
            e_sign_cordinates (Union[None, Unset, list['ESignCoordinate']]): Where each participant signs: `coordinates`
                entries `page,left,top,width,height`
                (points from the page's top-left corner, pages of the document as sent).
            entty_dtls (Union['EntityDetails', None, Unset]):
            estamp_flag (Union[None, Unset, str]):
            estampdtls (Union[None, Unset, list['EstampDetail']]): One entry per certificate to issue (1 to 10); required
                unless fetching by reference.
            f2f (Union[None, Unset, str]):
            loandtls (Union['Loandtls', None, Unset]):
            loanno (Union[None, Unset, str]): Required.
            prtcptentty (Union[None, Unset, list['Participant']]): The parties who sign, `seqno` 1, 2, ... in signing order
                (1 to 10).
            reg_type (Union[None, Unset, str]):
            scrtydtls (Union[None, Unset, list['SecurityDetail']]):
            sign_flag (Union[None, Unset, str]):
            snctnno (Union[None, Unset, str]):
            state (Union[None, Unset, str]): The state whose stamp duty is paid (the request's `state` when both are given):
                its ISO 3166-2:IN code or name, as `StampBulk.state` takes it.
            txn_id (Union[None, Unset, str]):
    """

    documentdtls: Union[None, Unset, list["DocumentDtl"]] = UNSET
    e_sign_cordinates: Union[None, Unset, list["ESignCoordinate"]] = UNSET
    entty_dtls: Union["EntityDetails", None, Unset] = UNSET
    estamp_flag: Union[None, Unset, str] = UNSET
    estampdtls: Union[None, Unset, list["EstampDetail"]] = UNSET
    f2f: Union[None, Unset, str] = UNSET
    loandtls: Union["Loandtls", None, Unset] = UNSET
    loanno: Union[None, Unset, str] = UNSET
    prtcptentty: Union[None, Unset, list["Participant"]] = UNSET
    reg_type: Union[None, Unset, str] = UNSET
    scrtydtls: Union[None, Unset, list["SecurityDetail"]] = UNSET
    sign_flag: Union[None, Unset, str] = UNSET
    snctnno: Union[None, Unset, str] = UNSET
    state: Union[None, Unset, str] = UNSET
    txn_id: Union[None, Unset, str] = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.entity_details import EntityDetails
        from ..models.loandtls import Loandtls

        documentdtls: Union[None, Unset, list[dict[str, Any]]]
        if isinstance(self.documentdtls, Unset):
            documentdtls = UNSET
        elif isinstance(self.documentdtls, list):
            documentdtls = []
            for documentdtls_type_0_item_data in self.documentdtls:
                documentdtls_type_0_item = documentdtls_type_0_item_data.to_dict()
                documentdtls.append(documentdtls_type_0_item)

        else:
            documentdtls = self.documentdtls

        e_sign_cordinates: Union[None, Unset, list[dict[str, Any]]]
        if isinstance(self.e_sign_cordinates, Unset):
            e_sign_cordinates = UNSET
        elif isinstance(self.e_sign_cordinates, list):
            e_sign_cordinates = []
            for e_sign_cordinates_type_0_item_data in self.e_sign_cordinates:
                e_sign_cordinates_type_0_item = (
                    e_sign_cordinates_type_0_item_data.to_dict()
                )
                e_sign_cordinates.append(e_sign_cordinates_type_0_item)

        else:
            e_sign_cordinates = self.e_sign_cordinates

        entty_dtls: Union[None, Unset, dict[str, Any]]
        if isinstance(self.entty_dtls, Unset):
            entty_dtls = UNSET
        elif isinstance(self.entty_dtls, EntityDetails):
            entty_dtls = self.entty_dtls.to_dict()
        else:
            entty_dtls = self.entty_dtls

        estamp_flag: Union[None, Unset, str]
        if isinstance(self.estamp_flag, Unset):
            estamp_flag = UNSET
        else:
            estamp_flag = self.estamp_flag

        estampdtls: Union[None, Unset, list[dict[str, Any]]]
        if isinstance(self.estampdtls, Unset):
            estampdtls = UNSET
        elif isinstance(self.estampdtls, list):
            estampdtls = []
            for estampdtls_type_0_item_data in self.estampdtls:
                estampdtls_type_0_item = estampdtls_type_0_item_data.to_dict()
                estampdtls.append(estampdtls_type_0_item)

        else:
            estampdtls = self.estampdtls

        f2f: Union[None, Unset, str]
        if isinstance(self.f2f, Unset):
            f2f = UNSET
        else:
            f2f = self.f2f

        loandtls: Union[None, Unset, dict[str, Any]]
        if isinstance(self.loandtls, Unset):
            loandtls = UNSET
        elif isinstance(self.loandtls, Loandtls):
            loandtls = self.loandtls.to_dict()
        else:
            loandtls = self.loandtls

        loanno: Union[None, Unset, str]
        if isinstance(self.loanno, Unset):
            loanno = UNSET
        else:
            loanno = self.loanno

        prtcptentty: Union[None, Unset, list[dict[str, Any]]]
        if isinstance(self.prtcptentty, Unset):
            prtcptentty = UNSET
        elif isinstance(self.prtcptentty, list):
            prtcptentty = []
            for prtcptentty_type_0_item_data in self.prtcptentty:
                prtcptentty_type_0_item = prtcptentty_type_0_item_data.to_dict()
                prtcptentty.append(prtcptentty_type_0_item)

        else:
            prtcptentty = self.prtcptentty

        reg_type: Union[None, Unset, str]
        if isinstance(self.reg_type, Unset):
            reg_type = UNSET
        else:
            reg_type = self.reg_type

        scrtydtls: Union[None, Unset, list[dict[str, Any]]]
        if isinstance(self.scrtydtls, Unset):
            scrtydtls = UNSET
        elif isinstance(self.scrtydtls, list):
            scrtydtls = []
            for scrtydtls_type_0_item_data in self.scrtydtls:
                scrtydtls_type_0_item = scrtydtls_type_0_item_data.to_dict()
                scrtydtls.append(scrtydtls_type_0_item)

        else:
            scrtydtls = self.scrtydtls

        sign_flag: Union[None, Unset, str]
        if isinstance(self.sign_flag, Unset):
            sign_flag = UNSET
        else:
            sign_flag = self.sign_flag

        snctnno: Union[None, Unset, str]
        if isinstance(self.snctnno, Unset):
            snctnno = UNSET
        else:
            snctnno = self.snctnno

        state: Union[None, Unset, str]
        if isinstance(self.state, Unset):
            state = UNSET
        else:
            state = self.state

        txn_id: Union[None, Unset, str]
        if isinstance(self.txn_id, Unset):
            txn_id = UNSET
        else:
            txn_id = self.txn_id

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if documentdtls is not UNSET:
            field_dict["documentdtls"] = documentdtls
        if e_sign_cordinates is not UNSET:
            field_dict["eSignCordinates"] = e_sign_cordinates
        if entty_dtls is not UNSET:
            field_dict["entty_dtls"] = entty_dtls
        if estamp_flag is not UNSET:
            field_dict["estampFlag"] = estamp_flag
        if estampdtls is not UNSET:
            field_dict["estampdtls"] = estampdtls
        if f2f is not UNSET:
            field_dict["f2f"] = f2f
        if loandtls is not UNSET:
            field_dict["loandtls"] = loandtls
        if loanno is not UNSET:
            field_dict["loanno"] = loanno
        if prtcptentty is not UNSET:
            field_dict["prtcptentty"] = prtcptentty
        if reg_type is not UNSET:
            field_dict["regType"] = reg_type
        if scrtydtls is not UNSET:
            field_dict["scrtydtls"] = scrtydtls
        if sign_flag is not UNSET:
            field_dict["signFlag"] = sign_flag
        if snctnno is not UNSET:
            field_dict["snctnno"] = snctnno
        if state is not UNSET:
            field_dict["state"] = state
        if txn_id is not UNSET:
            field_dict["txnID"] = txn_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.document_dtl import DocumentDtl
        from ..models.e_sign_coordinate import ESignCoordinate
        from ..models.entity_details import EntityDetails
        from ..models.estamp_detail import EstampDetail
        from ..models.loandtls import Loandtls
        from ..models.participant import Participant
        from ..models.security_detail import SecurityDetail

        d = dict(src_dict)

        def _parse_documentdtls(
            data: object,
        ) -> Union[None, Unset, list["DocumentDtl"]]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                documentdtls_type_0 = []
                _documentdtls_type_0 = data
                for documentdtls_type_0_item_data in _documentdtls_type_0:
                    documentdtls_type_0_item = DocumentDtl.from_dict(
                        documentdtls_type_0_item_data
                    )

                    documentdtls_type_0.append(documentdtls_type_0_item)

                return documentdtls_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, Unset, list["DocumentDtl"]], data)

        documentdtls = _parse_documentdtls(d.pop("documentdtls", UNSET))

        def _parse_e_sign_cordinates(
            data: object,
        ) -> Union[None, Unset, list["ESignCoordinate"]]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                e_sign_cordinates_type_0 = []
                _e_sign_cordinates_type_0 = data
                for e_sign_cordinates_type_0_item_data in _e_sign_cordinates_type_0:
                    e_sign_cordinates_type_0_item = ESignCoordinate.from_dict(
                        e_sign_cordinates_type_0_item_data
                    )

                    e_sign_cordinates_type_0.append(e_sign_cordinates_type_0_item)

                return e_sign_cordinates_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, Unset, list["ESignCoordinate"]], data)

        e_sign_cordinates = _parse_e_sign_cordinates(d.pop("eSignCordinates", UNSET))

        def _parse_entty_dtls(data: object) -> Union["EntityDetails", None, Unset]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                entty_dtls_type_0 = EntityDetails.from_dict(data)

                return entty_dtls_type_0
            except:  # noqa: E722
                pass
            return cast(Union["EntityDetails", None, Unset], data)

        entty_dtls = _parse_entty_dtls(d.pop("entty_dtls", UNSET))

        def _parse_estamp_flag(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        estamp_flag = _parse_estamp_flag(d.pop("estampFlag", UNSET))

        def _parse_estampdtls(data: object) -> Union[None, Unset, list["EstampDetail"]]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                estampdtls_type_0 = []
                _estampdtls_type_0 = data
                for estampdtls_type_0_item_data in _estampdtls_type_0:
                    estampdtls_type_0_item = EstampDetail.from_dict(
                        estampdtls_type_0_item_data
                    )

                    estampdtls_type_0.append(estampdtls_type_0_item)

                return estampdtls_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, Unset, list["EstampDetail"]], data)

        estampdtls = _parse_estampdtls(d.pop("estampdtls", UNSET))

        def _parse_f2f(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        f2f = _parse_f2f(d.pop("f2f", UNSET))

        def _parse_loandtls(data: object) -> Union["Loandtls", None, Unset]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                loandtls_type_0 = Loandtls.from_dict(data)

                return loandtls_type_0
            except:  # noqa: E722
                pass
            return cast(Union["Loandtls", None, Unset], data)

        loandtls = _parse_loandtls(d.pop("loandtls", UNSET))

        def _parse_loanno(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        loanno = _parse_loanno(d.pop("loanno", UNSET))

        def _parse_prtcptentty(data: object) -> Union[None, Unset, list["Participant"]]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                prtcptentty_type_0 = []
                _prtcptentty_type_0 = data
                for prtcptentty_type_0_item_data in _prtcptentty_type_0:
                    prtcptentty_type_0_item = Participant.from_dict(
                        prtcptentty_type_0_item_data
                    )

                    prtcptentty_type_0.append(prtcptentty_type_0_item)

                return prtcptentty_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, Unset, list["Participant"]], data)

        prtcptentty = _parse_prtcptentty(d.pop("prtcptentty", UNSET))

        def _parse_reg_type(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        reg_type = _parse_reg_type(d.pop("regType", UNSET))

        def _parse_scrtydtls(
            data: object,
        ) -> Union[None, Unset, list["SecurityDetail"]]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                scrtydtls_type_0 = []
                _scrtydtls_type_0 = data
                for scrtydtls_type_0_item_data in _scrtydtls_type_0:
                    scrtydtls_type_0_item = SecurityDetail.from_dict(
                        scrtydtls_type_0_item_data
                    )

                    scrtydtls_type_0.append(scrtydtls_type_0_item)

                return scrtydtls_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, Unset, list["SecurityDetail"]], data)

        scrtydtls = _parse_scrtydtls(d.pop("scrtydtls", UNSET))

        def _parse_sign_flag(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        sign_flag = _parse_sign_flag(d.pop("signFlag", UNSET))

        def _parse_snctnno(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        snctnno = _parse_snctnno(d.pop("snctnno", UNSET))

        def _parse_state(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        state = _parse_state(d.pop("state", UNSET))

        def _parse_txn_id(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        txn_id = _parse_txn_id(d.pop("txnID", UNSET))

        loan = cls(
            documentdtls=documentdtls,
            e_sign_cordinates=e_sign_cordinates,
            entty_dtls=entty_dtls,
            estamp_flag=estamp_flag,
            estampdtls=estampdtls,
            f2f=f2f,
            loandtls=loandtls,
            loanno=loanno,
            prtcptentty=prtcptentty,
            reg_type=reg_type,
            scrtydtls=scrtydtls,
            sign_flag=sign_flag,
            snctnno=snctnno,
            state=state,
            txn_id=txn_id,
        )

        return loan
