import datetime
from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define
from dateutil.parser import isoparse

from ..types import UNSET, Unset

T = TypeVar("T", bound="ExportRequest")


@_attrs_define
class ExportRequest:
    """The spec's `ExportRequest`: which rows, in which format.

    Attributes:
        format_ (str): `csv`, `xlsx` or `jsonl` (any case).
        filter_criteria (Union[None, Unset, str]): `key=value` conditions separated by `;`, e.g.
            `status=completed;createdBy=user:3`; the
            keys of each dataset are in docs/exports.md.
        from_date (Union[None, Unset, datetime.datetime]): Rows created (events: that occurred) at or after this time.
        max_records (Union[None, Unset, int]): At most this many rows (the first by id); all, up to 1,000,000, when
            absent.
        to_date (Union[None, Unset, datetime.datetime]): Rows created (events: that occurred) at or before this time;
            not before `fromDate`.
    """

    format_: str
    filter_criteria: Union[None, Unset, str] = UNSET
    from_date: Union[None, Unset, datetime.datetime] = UNSET
    max_records: Union[None, Unset, int] = UNSET
    to_date: Union[None, Unset, datetime.datetime] = UNSET

    def to_dict(self) -> dict[str, Any]:
        format_ = self.format_

        filter_criteria: Union[None, Unset, str]
        if isinstance(self.filter_criteria, Unset):
            filter_criteria = UNSET
        else:
            filter_criteria = self.filter_criteria

        from_date: Union[None, Unset, str]
        if isinstance(self.from_date, Unset):
            from_date = UNSET
        elif isinstance(self.from_date, datetime.datetime):
            from_date = self.from_date.isoformat()
        else:
            from_date = self.from_date

        max_records: Union[None, Unset, int]
        if isinstance(self.max_records, Unset):
            max_records = UNSET
        else:
            max_records = self.max_records

        to_date: Union[None, Unset, str]
        if isinstance(self.to_date, Unset):
            to_date = UNSET
        elif isinstance(self.to_date, datetime.datetime):
            to_date = self.to_date.isoformat()
        else:
            to_date = self.to_date

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "format": format_,
            }
        )
        if filter_criteria is not UNSET:
            field_dict["filterCriteria"] = filter_criteria
        if from_date is not UNSET:
            field_dict["fromDate"] = from_date
        if max_records is not UNSET:
            field_dict["maxRecords"] = max_records
        if to_date is not UNSET:
            field_dict["toDate"] = to_date

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        format_ = d.pop("format")

        def _parse_filter_criteria(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        filter_criteria = _parse_filter_criteria(d.pop("filterCriteria", UNSET))

        def _parse_from_date(data: object) -> Union[None, Unset, datetime.datetime]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                from_date_type_0 = isoparse(data)

                return from_date_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, Unset, datetime.datetime], data)

        from_date = _parse_from_date(d.pop("fromDate", UNSET))

        def _parse_max_records(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        max_records = _parse_max_records(d.pop("maxRecords", UNSET))

        def _parse_to_date(data: object) -> Union[None, Unset, datetime.datetime]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                to_date_type_0 = isoparse(data)

                return to_date_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, Unset, datetime.datetime], data)

        to_date = _parse_to_date(d.pop("toDate", UNSET))

        export_request = cls(
            format_=format_,
            filter_criteria=filter_criteria,
            from_date=from_date,
            max_records=max_records,
            to_date=to_date,
        )

        return export_request
