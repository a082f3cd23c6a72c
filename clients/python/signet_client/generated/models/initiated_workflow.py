from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    TypeVar,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.parallel_signing_url import ParallelSigningURL


T = TypeVar("T", bound="InitiatedWorkflow")


@_attrs_define
class InitiatedWorkflow:
    """
    Attributes:
        signing_urls (list['ParallelSigningURL']):
        workflow_id (int):
    """

    signing_urls: list["ParallelSigningURL"]
    workflow_id: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        signing_urls = []
        for signing_urls_item_data in self.signing_urls:
            signing_urls_item = signing_urls_item_data.to_dict()
            signing_urls.append(signing_urls_item)

        workflow_id = self.workflow_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "signingUrls": signing_urls,
                "workflowId": workflow_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.parallel_signing_url import ParallelSigningURL

        d = dict(src_dict)
        signing_urls = []
        _signing_urls = d.pop("signingUrls")
        for signing_urls_item_data in _signing_urls:
            signing_urls_item = ParallelSigningURL.from_dict(signing_urls_item_data)

            signing_urls.append(signing_urls_item)

        workflow_id = d.pop("workflowId")

        initiated_workflow = cls(
            signing_urls=signing_urls,
            workflow_id=workflow_id,
        )

        initiated_workflow.additional_properties = d
        return initiated_workflow

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
