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

T = TypeVar("T", bound="ExportJob")


@_attrs_define
class ExportJob:
    """An export job: a large export written in the background.

    Attributes:
        created_at (int): Milliseconds since the epoch.
        dataset (str): `workflows`, `signatories`, `audit-events` or `users`.
        export_id (str):
        format_ (str): `csv`, `xlsx` or `jsonl`.
        rows (int): Rows counted when asked for; while running, rows written so far; once completed, the
            rows of the file.
        status (str): `queued`, `running`, `completed` or `failed`.
        status_url (str):
        error (Union[None, Unset, str]):
        file_url (Union[None, Unset, str]): Where the file is, once completed.
        finished_at (Union[None, Unset, int]):
        size_bytes (Union[None, Unset, int]):
        started_at (Union[None, Unset, int]):
    """

    created_at: int
    dataset: str
    export_id: str
    format_: str
    rows: int
    status: str
    status_url: str
    error: Union[None, Unset, str] = UNSET
    file_url: Union[None, Unset, str] = UNSET
    finished_at: Union[None, Unset, int] = UNSET
    size_bytes: Union[None, Unset, int] = UNSET
    started_at: Union[None, Unset, int] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at

        dataset = self.dataset

        export_id = self.export_id

        format_ = self.format_

        rows = self.rows

        status = self.status

        status_url = self.status_url

        error: Union[None, Unset, str]
        if isinstance(self.error, Unset):
            error = UNSET
        else:
            error = self.error

        file_url: Union[None, Unset, str]
        if isinstance(self.file_url, Unset):
            file_url = UNSET
        else:
            file_url = self.file_url

        finished_at: Union[None, Unset, int]
        if isinstance(self.finished_at, Unset):
            finished_at = UNSET
        else:
            finished_at = self.finished_at

        size_bytes: Union[None, Unset, int]
        if isinstance(self.size_bytes, Unset):
            size_bytes = UNSET
        else:
            size_bytes = self.size_bytes

        started_at: Union[None, Unset, int]
        if isinstance(self.started_at, Unset):
            started_at = UNSET
        else:
            started_at = self.started_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "dataset": dataset,
                "exportId": export_id,
                "format": format_,
                "rows": rows,
                "status": status,
                "statusUrl": status_url,
            }
        )
        if error is not UNSET:
            field_dict["error"] = error
        if file_url is not UNSET:
            field_dict["fileUrl"] = file_url
        if finished_at is not UNSET:
            field_dict["finishedAt"] = finished_at
        if size_bytes is not UNSET:
            field_dict["sizeBytes"] = size_bytes
        if started_at is not UNSET:
            field_dict["startedAt"] = started_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = d.pop("createdAt")

        dataset = d.pop("dataset")

        export_id = d.pop("exportId")

        format_ = d.pop("format")

        rows = d.pop("rows")

        status = d.pop("status")

        status_url = d.pop("statusUrl")

        def _parse_error(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        error = _parse_error(d.pop("error", UNSET))

        def _parse_file_url(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        file_url = _parse_file_url(d.pop("fileUrl", UNSET))

        def _parse_finished_at(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        finished_at = _parse_finished_at(d.pop("finishedAt", UNSET))

        def _parse_size_bytes(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        size_bytes = _parse_size_bytes(d.pop("sizeBytes", UNSET))

        def _parse_started_at(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        started_at = _parse_started_at(d.pop("startedAt", UNSET))

        export_job = cls(
            created_at=created_at,
            dataset=dataset,
            export_id=export_id,
            format_=format_,
            rows=rows,
            status=status,
            status_url=status_url,
            error=error,
            file_url=file_url,
            finished_at=finished_at,
            size_bytes=size_bytes,
            started_at=started_at,
        )

        export_job.additional_properties = d
        return export_job

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
