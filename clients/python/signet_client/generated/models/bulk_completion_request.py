import datetime
from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from dateutil.parser import isoparse

from ..types import UNSET, Unset

T = TypeVar("T", bound="BulkCompletionRequest")


@_attrs_define
class BulkCompletionRequest:
    """The spec's `BulkCompletionRequest`: a finished job's record, as delivered to the tenant's
    webhooks (`bulk.completed`).

        Attributes:
            failed (int):
            menu_id (int):
            parent_id (int): The lot signed (or the template sent).
            skipped (int):
            subscriber_id (int): The user who started the job.
            succeeded (int):
            total_rows (int):
            finished_at (Union[None, Unset, datetime.datetime]):
            job_id (Union[None, Unset, str]):
            report_url (Union[None, Unset, str]):
            started_at (Union[None, Unset, datetime.datetime]):
            status (Union[None, Unset, str]): `completed`, `completed_with_errors` or `cancelled`.
    """

    failed: int
    menu_id: int
    parent_id: int
    skipped: int
    subscriber_id: int
    succeeded: int
    total_rows: int
    finished_at: Union[None, Unset, datetime.datetime] = UNSET
    job_id: Union[None, Unset, str] = UNSET
    report_url: Union[None, Unset, str] = UNSET
    started_at: Union[None, Unset, datetime.datetime] = UNSET
    status: Union[None, Unset, str] = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        failed = self.failed

        menu_id = self.menu_id

        parent_id = self.parent_id

        skipped = self.skipped

        subscriber_id = self.subscriber_id

        succeeded = self.succeeded

        total_rows = self.total_rows

        finished_at: Union[None, Unset, str]
        if isinstance(self.finished_at, Unset):
            finished_at = UNSET
        elif isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        job_id: Union[None, Unset, str]
        if isinstance(self.job_id, Unset):
            job_id = UNSET
        else:
            job_id = self.job_id

        report_url: Union[None, Unset, str]
        if isinstance(self.report_url, Unset):
            report_url = UNSET
        else:
            report_url = self.report_url

        started_at: Union[None, Unset, str]
        if isinstance(self.started_at, Unset):
            started_at = UNSET
        elif isinstance(self.started_at, datetime.datetime):
            started_at = self.started_at.isoformat()
        else:
            started_at = self.started_at

        status: Union[None, Unset, str]
        if isinstance(self.status, Unset):
            status = UNSET
        else:
            status = self.status

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "failed": failed,
                "menuId": menu_id,
                "parentId": parent_id,
                "skipped": skipped,
                "subscriberId": subscriber_id,
                "succeeded": succeeded,
                "totalRows": total_rows,
            }
        )
        if finished_at is not UNSET:
            field_dict["finishedAt"] = finished_at
        if job_id is not UNSET:
            field_dict["jobId"] = job_id
        if report_url is not UNSET:
            field_dict["reportUrl"] = report_url
        if started_at is not UNSET:
            field_dict["startedAt"] = started_at
        if status is not UNSET:
            field_dict["status"] = status

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        failed = d.pop("failed")

        menu_id = d.pop("menuId")

        parent_id = d.pop("parentId")

        skipped = d.pop("skipped")

        subscriber_id = d.pop("subscriberId")

        succeeded = d.pop("succeeded")

        total_rows = d.pop("totalRows")

        def _parse_finished_at(data: object) -> Union[None, Unset, datetime.datetime]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = isoparse(data)

                return finished_at_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, Unset, datetime.datetime], data)

        finished_at = _parse_finished_at(d.pop("finishedAt", UNSET))

        def _parse_job_id(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        job_id = _parse_job_id(d.pop("jobId", UNSET))

        def _parse_report_url(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        report_url = _parse_report_url(d.pop("reportUrl", UNSET))

        def _parse_started_at(data: object) -> Union[None, Unset, datetime.datetime]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                started_at_type_0 = isoparse(data)

                return started_at_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, Unset, datetime.datetime], data)

        started_at = _parse_started_at(d.pop("startedAt", UNSET))

        def _parse_status(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        status = _parse_status(d.pop("status", UNSET))

        bulk_completion_request = cls(
            failed=failed,
            menu_id=menu_id,
            parent_id=parent_id,
            skipped=skipped,
            subscriber_id=subscriber_id,
            succeeded=succeeded,
            total_rows=total_rows,
            finished_at=finished_at,
            job_id=job_id,
            report_url=report_url,
            started_at=started_at,
            status=status,
        )

        bulk_completion_request.additional_properties = d
        return bulk_completion_request

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
