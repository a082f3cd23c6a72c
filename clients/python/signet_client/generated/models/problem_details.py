from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.problem_details_errors_type_0 import ProblemDetailsErrorsType0


T = TypeVar("T", bound="ProblemDetails")


@_attrs_define
class ProblemDetails:
    """The error body of every API failure (RFC 9457), with Signet's extensions.

    Attributes:
        code (str): Stable machine-readable error code.
        detail (str):
        instance (str):
        request_id (str): The id of the request, also in the `x-request-id` response header and the logs.
        status (int):
        title (str):
        type_ (str):
        errors (Union['ProblemDetailsErrorsType0', None, Unset]): Field name -> messages, for validation failures.
    """

    code: str
    detail: str
    instance: str
    request_id: str
    status: int
    title: str
    type_: str
    errors: Union["ProblemDetailsErrorsType0", None, Unset] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.problem_details_errors_type_0 import ProblemDetailsErrorsType0

        code = self.code

        detail = self.detail

        instance = self.instance

        request_id = self.request_id

        status = self.status

        title = self.title

        type_ = self.type_

        errors: Union[None, Unset, dict[str, Any]]
        if isinstance(self.errors, Unset):
            errors = UNSET
        elif isinstance(self.errors, ProblemDetailsErrorsType0):
            errors = self.errors.to_dict()
        else:
            errors = self.errors

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "code": code,
                "detail": detail,
                "instance": instance,
                "requestId": request_id,
                "status": status,
                "title": title,
                "type": type_,
            }
        )
        if errors is not UNSET:
            field_dict["errors"] = errors

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.problem_details_errors_type_0 import ProblemDetailsErrorsType0

        d = dict(src_dict)
        code = d.pop("code")

        detail = d.pop("detail")

        instance = d.pop("instance")

        request_id = d.pop("requestId")

        status = d.pop("status")

        title = d.pop("title")

        type_ = d.pop("type")

        def _parse_errors(
            data: object,
        ) -> Union["ProblemDetailsErrorsType0", None, Unset]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                errors_type_0 = ProblemDetailsErrorsType0.from_dict(data)

                return errors_type_0
            except:  # noqa: E722
                pass
            return cast(Union["ProblemDetailsErrorsType0", None, Unset], data)

        errors = _parse_errors(d.pop("errors", UNSET))

        problem_details = cls(
            code=code,
            detail=detail,
            instance=instance,
            request_id=request_id,
            status=status,
            title=title,
            type_=type_,
            errors=errors,
        )

        problem_details.additional_properties = d
        return problem_details

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
