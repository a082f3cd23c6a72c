from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="BulkSendRequest")


@_attrs_define
class BulkSendRequest:
    """A bulk send: one template and its documents to every row of a CSV file.

    Attributes:
        document_ids (list[int]): Uploaded documents (`POST /api/v1/documents`), copied into every row's workflow.
        file_data (str): The CSV file, base64 (UTF-8, at most 5 MiB and 5000 rows): a header row with
            `workflowName`, `referenceNo`, `signer1.email`, `signer1.name`, `signer1.order`,
            `signer1.mode`, ... up to `signer10.*`; `signer1.email` is required.
        dry_run (Union[Unset, bool]): Check the file only: nothing is sent.
        template_id (Union[Unset, int]): The template whose signature fields the workflows take (0: the default places).
    """

    document_ids: list[int]
    file_data: str
    dry_run: Union[Unset, bool] = UNSET
    template_id: Union[Unset, int] = UNSET

    def to_dict(self) -> dict[str, Any]:
        document_ids = self.document_ids

        file_data = self.file_data

        dry_run = self.dry_run

        template_id = self.template_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "documentIds": document_ids,
                "fileData": file_data,
            }
        )
        if dry_run is not UNSET:
            field_dict["dryRun"] = dry_run
        if template_id is not UNSET:
            field_dict["templateId"] = template_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        document_ids = cast(list[int], d.pop("documentIds"))

        file_data = d.pop("fileData")

        dry_run = d.pop("dryRun", UNSET)

        template_id = d.pop("templateId", UNSET)

        bulk_send_request = cls(
            document_ids=document_ids,
            file_data=file_data,
            dry_run=dry_run,
            template_id=template_id,
        )

        return bulk_send_request
