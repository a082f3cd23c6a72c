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

T = TypeVar("T", bound="GatewayAuthtoken")


@_attrs_define
class GatewayAuthtoken:
    """A gateway Authtoken; the token value itself is only in the creation answer.

    Attributes:
        created_at (int): Milliseconds since the Unix epoch.
        created_by (str):
        id (int):
        label (str):
        token_hint (str): The last characters of the token, to tell tokens apart.
        revoked_at (Union[None, Unset, int]):
    """

    created_at: int
    created_by: str
    id: int
    label: str
    token_hint: str
    revoked_at: Union[None, Unset, int] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at

        created_by = self.created_by

        id = self.id

        label = self.label

        token_hint = self.token_hint

        revoked_at: Union[None, Unset, int]
        if isinstance(self.revoked_at, Unset):
            revoked_at = UNSET
        else:
            revoked_at = self.revoked_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "createdBy": created_by,
                "id": id,
                "label": label,
                "tokenHint": token_hint,
            }
        )
        if revoked_at is not UNSET:
            field_dict["revokedAt"] = revoked_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = d.pop("createdAt")

        created_by = d.pop("createdBy")

        id = d.pop("id")

        label = d.pop("label")

        token_hint = d.pop("tokenHint")

        def _parse_revoked_at(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        revoked_at = _parse_revoked_at(d.pop("revokedAt", UNSET))

        gateway_authtoken = cls(
            created_at=created_at,
            created_by=created_by,
            id=id,
            label=label,
            token_hint=token_hint,
            revoked_at=revoked_at,
        )

        gateway_authtoken.additional_properties = d
        return gateway_authtoken

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
