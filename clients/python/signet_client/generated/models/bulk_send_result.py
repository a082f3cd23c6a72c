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
    from ..models.bulk_job import BulkJob
    from ..models.bulk_send_row_problem import BulkSendRowProblem


T = TypeVar("T", bound="BulkSendResult")


@_attrs_define
class BulkSendResult:
    """What the file holds, and the job that sends it (none for a dry run).

    Attributes:
        invalid (int):
        problems (list['BulkSendRowProblem']):
        rows (int):
        valid (int):
        job (Union['BulkJob', None, Unset]):
    """

    invalid: int
    problems: list["BulkSendRowProblem"]
    rows: int
    valid: int
    job: Union["BulkJob", None, Unset] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.bulk_job import BulkJob

        invalid = self.invalid

        problems = []
        for problems_item_data in self.problems:
            problems_item = problems_item_data.to_dict()
            problems.append(problems_item)

        rows = self.rows

        valid = self.valid

        job: Union[None, Unset, dict[str, Any]]
        if isinstance(self.job, Unset):
            job = UNSET
        elif isinstance(self.job, BulkJob):
            job = self.job.to_dict()
        else:
            job = self.job

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "invalid": invalid,
                "problems": problems,
                "rows": rows,
                "valid": valid,
            }
        )
        if job is not UNSET:
            field_dict["job"] = job

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.bulk_job import BulkJob
        from ..models.bulk_send_row_problem import BulkSendRowProblem

        d = dict(src_dict)
        invalid = d.pop("invalid")

        problems = []
        _problems = d.pop("problems")
        for problems_item_data in _problems:
            problems_item = BulkSendRowProblem.from_dict(problems_item_data)

            problems.append(problems_item)

        rows = d.pop("rows")

        valid = d.pop("valid")

        def _parse_job(data: object) -> Union["BulkJob", None, Unset]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                job_type_0 = BulkJob.from_dict(data)

                return job_type_0
            except:  # noqa: E722
                pass
            return cast(Union["BulkJob", None, Unset], data)

        job = _parse_job(d.pop("job", UNSET))

        bulk_send_result = cls(
            invalid=invalid,
            problems=problems,
            rows=rows,
            valid=valid,
            job=job,
        )

        bulk_send_result.additional_properties = d
        return bulk_send_result

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
