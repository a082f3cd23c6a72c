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
    from ..models.loan import Loan


T = TypeVar("T", bound="EstampPayload")


@_attrs_define
class EstampPayload:
    """The spec's `EstampPayload`: the loan record a stamp provider issues the certificates for.

    Attributes:
        loan (Union['Loan', None, Unset]):
    """

    loan: Union["Loan", None, Unset] = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.loan import Loan

        loan: Union[None, Unset, dict[str, Any]]
        if isinstance(self.loan, Unset):
            loan = UNSET
        elif isinstance(self.loan, Loan):
            loan = self.loan.to_dict()
        else:
            loan = self.loan

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if loan is not UNSET:
            field_dict["loan"] = loan

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.loan import Loan

        d = dict(src_dict)

        def _parse_loan(data: object) -> Union["Loan", None, Unset]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                loan_type_0 = Loan.from_dict(data)

                return loan_type_0
            except:  # noqa: E722
                pass
            return cast(Union["Loan", None, Unset], data)

        loan = _parse_loan(d.pop("loan", UNSET))

        estamp_payload = cls(
            loan=loan,
        )

        return estamp_payload
