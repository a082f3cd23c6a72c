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

T = TypeVar("T", bound="BulkJob")


@_attrs_define
class BulkJob:
    """A bulk job's status and progress.

    Attributes:
        cancel_requested (bool):
        created_at (int): Milliseconds since the epoch.
        failed (int):
        job_id (str):
        kind (str): `lot_sign` or `bulk_send`.
        pending (int): Items not yet done.
        report_url (str):
        skipped (int):
        status (str): `queued`, `running`, `completed`, `completed_with_errors` or `cancelled`.
        succeeded (int):
        total (int):
        finished_at (Union[None, Unset, int]):
        started_at (Union[None, Unset, int]):
    """

    cancel_requested: bool
    created_at: int
    failed: int
    job_id: str
    kind: str
    pending: int
    report_url: str
    skipped: int
    status: str
    succeeded: int
    total: int
    finished_at: Union[None, Unset, int] = UNSET
    started_at: Union[None, Unset, int] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        cancel_requested = self.cancel_requested

        created_at = self.created_at

        failed = self.failed

        job_id = self.job_id

        kind = self.kind

        pending = self.pending

        report_url = self.report_url

        skipped = self.skipped

        status = self.status

        succeeded = self.succeeded

        total = self.total

        finished_at: Union[None, Unset, int]
        if isinstance(self.finished_at, Unset):
            finished_at = UNSET
        else:
            finished_at = self.finished_at

        started_at: Union[None, Unset, int]
        if isinstance(self.started_at, Unset):
            started_at = UNSET
        else:
            started_at = self.started_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "cancelRequested": cancel_requested,
                "createdAt": created_at,
                "failed": failed,
                "jobId": job_id,
                "kind": kind,
                "pending": pending,
                "reportUrl": report_url,
                "skipped": skipped,
                "status": status,
                "succeeded": succeeded,
                "total": total,
            }
        )
        if finished_at is not UNSET:
            field_dict["finishedAt"] = finished_at
        if started_at is not UNSET:
            field_dict["startedAt"] = started_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        cancel_requested = d.pop("cancelRequested")

        created_at = d.pop("createdAt")

        failed = d.pop("failed")

        job_id = d.pop("jobId")

        kind = d.pop("kind")

        pending = d.pop("pending")

        report_url = d.pop("reportUrl")

        skipped = d.pop("skipped")

        status = d.pop("status")

        succeeded = d.pop("succeeded")

        total = d.pop("total")

        def _parse_finished_at(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        finished_at = _parse_finished_at(d.pop("finishedAt", UNSET))

        def _parse_started_at(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        started_at = _parse_started_at(d.pop("startedAt", UNSET))

        bulk_job = cls(
            cancel_requested=cancel_requested,
            created_at=created_at,
            failed=failed,
            job_id=job_id,
            kind=kind,
            pending=pending,
            report_url=report_url,
            skipped=skipped,
            status=status,
            succeeded=succeeded,
            total=total,
            finished_at=finished_at,
            started_at=started_at,
        )

        bulk_job.additional_properties = d
        return bulk_job

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
