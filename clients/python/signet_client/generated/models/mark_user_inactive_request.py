from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="MarkUserInactiveRequest")


@_attrs_define
class MarkUserInactiveRequest:
    """
    Attributes:
        user_id (int):
        invalidate_tokens (Union[Unset, bool]): Accepted for compatibility (absent: false): marking a user inactive
            always ends their
            sessions at once.
        reason (Union[None, Unset, str]): Kept with the status, at most 500 characters.
    """

    user_id: int
    invalidate_tokens: Union[Unset, bool] = UNSET
    reason: Union[None, Unset, str] = UNSET

    def to_dict(self) -> dict[str, Any]:
        user_id = self.user_id

        invalidate_tokens = self.invalidate_tokens

        reason: Union[None, Unset, str]
        if isinstance(self.reason, Unset):
            reason = UNSET
        else:
            reason = self.reason

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "userId": user_id,
            }
        )
        if invalidate_tokens is not UNSET:
            field_dict["invalidateTokens"] = invalidate_tokens
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        user_id = d.pop("userId")

        invalidate_tokens = d.pop("invalidateTokens", UNSET)

        def _parse_reason(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        reason = _parse_reason(d.pop("reason", UNSET))

        mark_user_inactive_request = cls(
            user_id=user_id,
            invalidate_tokens=invalidate_tokens,
            reason=reason,
        )

        return mark_user_inactive_request
