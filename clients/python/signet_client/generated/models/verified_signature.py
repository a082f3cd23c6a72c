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

T = TypeVar("T", bound="VerifiedSignature")


@_attrs_define
class VerifiedSignature:
    """One signature's verdict.

    Attributes:
        covers_whole_document (bool):
        errors (list[str]):
        explanation (list[str]): Sentences for people, the most important first.
        hides_signed_content (list[str]): Changes after signing that lie over signed content: what, on which page,
            where, what it
            draws and the signed text it covers.
        index (int): 1-based position in the file.
        intact (bool):
        kind (str): `approval`, `certification`, `document-timestamp`, `cms`, `xml-dsig` or `xades`.
        later_revisions (int):
        long_term (bool): What is needed to check it for years is inside the document.
        method (str): `electronic` (sealed by Signet), `aadhaar_esign`, `digital_certificate` or `timestamp`.
        method_label (str):
        modifications (list[str]):
        modifications_allowed (bool):
        status (str): `valid`, `changed` (the document changed after it in a way it forbids), `covered` (the
            signature holds, but something added after signing lies over signed content), `revoked`
            (the certificate was revoked before a proven signing time, or with no proof of when),
            `untrusted` (intact, but from an authority not trusted here) or `broken`.
        trusted (bool):
        valid (bool):
        warnings (list[str]):
        indication (Union[None, Unset, str]): ETSI EN 319 102-1 main indication of the signature itself: `TOTAL-PASSED`,
            `TOTAL-FAILED` or `INDETERMINATE`.
        issuer (Union[None, Unset, str]):
        pades_level (Union[None, Unset, str]): `B-B`, `B-T`, `B-LT` or `B-LTA` for PDF signatures.
        signed_at (Union[None, Unset, str]): When: the time-stamp's time, else the time the signer claimed.
        signer (Union[None, Unset, str]): Who signed (for a Signet seal, the organisation).
        signer_subject (Union[None, Unset, str]): The certificate's full subject.
        sub_indication (Union[None, Unset, str]): Why, when not `TOTAL-PASSED`: `FORMAT_FAILURE`, `HASH_FAILURE`,
            `SIG_CRYPTO_FAILURE`,
            `REVOKED`, `REVOKED_NO_POE`, `EXPIRED`, `NOT_YET_VALID`, `OUT_OF_BOUNDS_NO_POE`,
            `NO_CERTIFICATE_CHAIN_FOUND`, `NO_SIGNING_CERTIFICATE_FOUND`, `CHAIN_CONSTRAINTS_FAILURE`
            or `TRY_LATER`.
        time_source (Union[None, Unset, str]): `time-stamp` or `claimed by the signer`.
    """

    covers_whole_document: bool
    errors: list[str]
    explanation: list[str]
    hides_signed_content: list[str]
    index: int
    intact: bool
    kind: str
    later_revisions: int
    long_term: bool
    method: str
    method_label: str
    modifications: list[str]
    modifications_allowed: bool
    status: str
    trusted: bool
    valid: bool
    warnings: list[str]
    indication: Union[None, Unset, str] = UNSET
    issuer: Union[None, Unset, str] = UNSET
    pades_level: Union[None, Unset, str] = UNSET
    signed_at: Union[None, Unset, str] = UNSET
    signer: Union[None, Unset, str] = UNSET
    signer_subject: Union[None, Unset, str] = UNSET
    sub_indication: Union[None, Unset, str] = UNSET
    time_source: Union[None, Unset, str] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        covers_whole_document = self.covers_whole_document

        errors = self.errors

        explanation = self.explanation

        hides_signed_content = self.hides_signed_content

        index = self.index

        intact = self.intact

        kind = self.kind

        later_revisions = self.later_revisions

        long_term = self.long_term

        method = self.method

        method_label = self.method_label

        modifications = self.modifications

        modifications_allowed = self.modifications_allowed

        status = self.status

        trusted = self.trusted

        valid = self.valid

        warnings = self.warnings

        indication: Union[None, Unset, str]
        if isinstance(self.indication, Unset):
            indication = UNSET
        else:
            indication = self.indication

        issuer: Union[None, Unset, str]
        if isinstance(self.issuer, Unset):
            issuer = UNSET
        else:
            issuer = self.issuer

        pades_level: Union[None, Unset, str]
        if isinstance(self.pades_level, Unset):
            pades_level = UNSET
        else:
            pades_level = self.pades_level

        signed_at: Union[None, Unset, str]
        if isinstance(self.signed_at, Unset):
            signed_at = UNSET
        else:
            signed_at = self.signed_at

        signer: Union[None, Unset, str]
        if isinstance(self.signer, Unset):
            signer = UNSET
        else:
            signer = self.signer

        signer_subject: Union[None, Unset, str]
        if isinstance(self.signer_subject, Unset):
            signer_subject = UNSET
        else:
            signer_subject = self.signer_subject

        sub_indication: Union[None, Unset, str]
        if isinstance(self.sub_indication, Unset):
            sub_indication = UNSET
        else:
            sub_indication = self.sub_indication

        time_source: Union[None, Unset, str]
        if isinstance(self.time_source, Unset):
            time_source = UNSET
        else:
            time_source = self.time_source

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "coversWholeDocument": covers_whole_document,
                "errors": errors,
                "explanation": explanation,
                "hidesSignedContent": hides_signed_content,
                "index": index,
                "intact": intact,
                "kind": kind,
                "laterRevisions": later_revisions,
                "longTerm": long_term,
                "method": method,
                "methodLabel": method_label,
                "modifications": modifications,
                "modificationsAllowed": modifications_allowed,
                "status": status,
                "trusted": trusted,
                "valid": valid,
                "warnings": warnings,
            }
        )
        if indication is not UNSET:
            field_dict["indication"] = indication
        if issuer is not UNSET:
            field_dict["issuer"] = issuer
        if pades_level is not UNSET:
            field_dict["padesLevel"] = pades_level
        if signed_at is not UNSET:
            field_dict["signedAt"] = signed_at
        if signer is not UNSET:
            field_dict["signer"] = signer
        if signer_subject is not UNSET:
            field_dict["signerSubject"] = signer_subject
        if sub_indication is not UNSET:
            field_dict["subIndication"] = sub_indication
        if time_source is not UNSET:
            field_dict["timeSource"] = time_source

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        covers_whole_document = d.pop("coversWholeDocument")

        errors = cast(list[str], d.pop("errors"))

        explanation = cast(list[str], d.pop("explanation"))

        hides_signed_content = cast(list[str], d.pop("hidesSignedContent"))

        index = d.pop("index")

        intact = d.pop("intact")

        kind = d.pop("kind")

        later_revisions = d.pop("laterRevisions")

        long_term = d.pop("longTerm")

        method = d.pop("method")

        method_label = d.pop("methodLabel")

        modifications = cast(list[str], d.pop("modifications"))

        modifications_allowed = d.pop("modificationsAllowed")

        status = d.pop("status")

        trusted = d.pop("trusted")

        valid = d.pop("valid")

        warnings = cast(list[str], d.pop("warnings"))

        def _parse_indication(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        indication = _parse_indication(d.pop("indication", UNSET))

        def _parse_issuer(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        issuer = _parse_issuer(d.pop("issuer", UNSET))

        def _parse_pades_level(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        pades_level = _parse_pades_level(d.pop("padesLevel", UNSET))

        def _parse_signed_at(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        signed_at = _parse_signed_at(d.pop("signedAt", UNSET))

        def _parse_signer(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        signer = _parse_signer(d.pop("signer", UNSET))

        def _parse_signer_subject(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        signer_subject = _parse_signer_subject(d.pop("signerSubject", UNSET))

        def _parse_sub_indication(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        sub_indication = _parse_sub_indication(d.pop("subIndication", UNSET))

        def _parse_time_source(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        time_source = _parse_time_source(d.pop("timeSource", UNSET))

        verified_signature = cls(
            covers_whole_document=covers_whole_document,
            errors=errors,
            explanation=explanation,
            hides_signed_content=hides_signed_content,
            index=index,
            intact=intact,
            kind=kind,
            later_revisions=later_revisions,
            long_term=long_term,
            method=method,
            method_label=method_label,
            modifications=modifications,
            modifications_allowed=modifications_allowed,
            status=status,
            trusted=trusted,
            valid=valid,
            warnings=warnings,
            indication=indication,
            issuer=issuer,
            pades_level=pades_level,
            signed_at=signed_at,
            signer=signer,
            signer_subject=signer_subject,
            sub_indication=sub_indication,
            time_source=time_source,
        )

        verified_signature.additional_properties = d
        return verified_signature

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
