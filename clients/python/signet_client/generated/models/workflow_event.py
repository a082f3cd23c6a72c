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

T = TypeVar("T", bound="WorkflowEvent")


@_attrs_define
class WorkflowEvent:
    """One event of the workflow's chain.

    Attributes:
        action (str):
        actor (str):
        at (int):
        detail (Any): Event details (JSON).
        hash_ (str):
        prev_hash (str):
        seq (int):
        target (str):
        ip (Union[None, Unset, str]): The client address the event came from, when known.
        ip_commitment (Union[None, Unset, str]): When set, what `hash` covers in place of `ip`: `ipc1:` + hex SHA-256 of
            the
            length-prefixed `ipNonce` and `ip` (addresses are kept sealed; docs/privacy.md).
        ip_nonce (Union[None, Unset, str]): The nonce of `ipCommitment`, when the address is known.
    """

    action: str
    actor: str
    at: int
    detail: Any
    hash_: str
    prev_hash: str
    seq: int
    target: str
    ip: Union[None, Unset, str] = UNSET
    ip_commitment: Union[None, Unset, str] = UNSET
    ip_nonce: Union[None, Unset, str] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        action = self.action

        actor = self.actor

        at = self.at

        detail = self.detail

        hash_ = self.hash_

        prev_hash = self.prev_hash

        seq = self.seq

        target = self.target

        ip: Union[None, Unset, str]
        if isinstance(self.ip, Unset):
            ip = UNSET
        else:
            ip = self.ip

        ip_commitment: Union[None, Unset, str]
        if isinstance(self.ip_commitment, Unset):
            ip_commitment = UNSET
        else:
            ip_commitment = self.ip_commitment

        ip_nonce: Union[None, Unset, str]
        if isinstance(self.ip_nonce, Unset):
            ip_nonce = UNSET
        else:
            ip_nonce = self.ip_nonce

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "action": action,
                "actor": actor,
                "at": at,
                "detail": detail,
                "hash": hash_,
                "prevHash": prev_hash,
                "seq": seq,
                "target": target,
            }
        )
        if ip is not UNSET:
            field_dict["ip"] = ip
        if ip_commitment is not UNSET:
            field_dict["ipCommitment"] = ip_commitment
        if ip_nonce is not UNSET:
            field_dict["ipNonce"] = ip_nonce

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        action = d.pop("action")

        actor = d.pop("actor")

        at = d.pop("at")

        detail = d.pop("detail")

        hash_ = d.pop("hash")

        prev_hash = d.pop("prevHash")

        seq = d.pop("seq")

        target = d.pop("target")

        def _parse_ip(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        ip = _parse_ip(d.pop("ip", UNSET))

        def _parse_ip_commitment(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        ip_commitment = _parse_ip_commitment(d.pop("ipCommitment", UNSET))

        def _parse_ip_nonce(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        ip_nonce = _parse_ip_nonce(d.pop("ipNonce", UNSET))

        workflow_event = cls(
            action=action,
            actor=actor,
            at=at,
            detail=detail,
            hash_=hash_,
            prev_hash=prev_hash,
            seq=seq,
            target=target,
            ip=ip,
            ip_commitment=ip_commitment,
            ip_nonce=ip_nonce,
        )

        workflow_event.additional_properties = d
        return workflow_event

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
