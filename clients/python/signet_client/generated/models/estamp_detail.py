from collections.abc import Mapping
from typing import (
    Any,
    TypeVar,
    Union,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="EstampDetail")


@_attrs_define
class EstampDetail:
    """The spec's `EstampDetail`: one certificate to issue.

    Attributes:
        article_code (Union[None, Unset, str]):
        consideration_price (Union[None, Unset, str]):
        descriptionof_document (Union[None, Unset, str]):
        document_id (Union[None, Unset, str]):
        first_party_ovd_type (Union[None, Unset, str]):
        first_party_ovd_value (Union[None, Unset, str]):
        first_party_pin (Union[Unset, int]): A six-digit PIN code, or 0.
        firstparty (Union[None, Unset, str]):
        second_party_ovd_type (Union[None, Unset, str]):
        second_party_ovd_value (Union[None, Unset, str]):
        second_party_pin (Union[Unset, int]):
        secondparty (Union[None, Unset, str]):
        stamp_duty_amount (Union[None, Unset, str]): Whole rupees.
        stampduty_paidby (Union[None, Unset, str]):
    """

    article_code: Union[None, Unset, str] = UNSET
    consideration_price: Union[None, Unset, str] = UNSET
    descriptionof_document: Union[None, Unset, str] = UNSET
    document_id: Union[None, Unset, str] = UNSET
    first_party_ovd_type: Union[None, Unset, str] = UNSET
    first_party_ovd_value: Union[None, Unset, str] = UNSET
    first_party_pin: Union[Unset, int] = UNSET
    firstparty: Union[None, Unset, str] = UNSET
    second_party_ovd_type: Union[None, Unset, str] = UNSET
    second_party_ovd_value: Union[None, Unset, str] = UNSET
    second_party_pin: Union[Unset, int] = UNSET
    secondparty: Union[None, Unset, str] = UNSET
    stamp_duty_amount: Union[None, Unset, str] = UNSET
    stampduty_paidby: Union[None, Unset, str] = UNSET

    def to_dict(self) -> dict[str, Any]:
        article_code: Union[None, Unset, str]
        if isinstance(self.article_code, Unset):
            article_code = UNSET
        else:
            article_code = self.article_code

        consideration_price: Union[None, Unset, str]
        if isinstance(self.consideration_price, Unset):
            consideration_price = UNSET
        else:
            consideration_price = self.consideration_price

        descriptionof_document: Union[None, Unset, str]
        if isinstance(self.descriptionof_document, Unset):
            descriptionof_document = UNSET
        else:
            descriptionof_document = self.descriptionof_document

        document_id: Union[None, Unset, str]
        if isinstance(self.document_id, Unset):
            document_id = UNSET
        else:
            document_id = self.document_id

        first_party_ovd_type: Union[None, Unset, str]
        if isinstance(self.first_party_ovd_type, Unset):
            first_party_ovd_type = UNSET
        else:
            first_party_ovd_type = self.first_party_ovd_type

        first_party_ovd_value: Union[None, Unset, str]
        if isinstance(self.first_party_ovd_value, Unset):
            first_party_ovd_value = UNSET
        else:
            first_party_ovd_value = self.first_party_ovd_value

        first_party_pin = self.first_party_pin

        firstparty: Union[None, Unset, str]
        if isinstance(self.firstparty, Unset):
            firstparty = UNSET
        else:
            firstparty = self.firstparty

        second_party_ovd_type: Union[None, Unset, str]
        if isinstance(self.second_party_ovd_type, Unset):
            second_party_ovd_type = UNSET
        else:
            second_party_ovd_type = self.second_party_ovd_type

        second_party_ovd_value: Union[None, Unset, str]
        if isinstance(self.second_party_ovd_value, Unset):
            second_party_ovd_value = UNSET
        else:
            second_party_ovd_value = self.second_party_ovd_value

        second_party_pin = self.second_party_pin

        secondparty: Union[None, Unset, str]
        if isinstance(self.secondparty, Unset):
            secondparty = UNSET
        else:
            secondparty = self.secondparty

        stamp_duty_amount: Union[None, Unset, str]
        if isinstance(self.stamp_duty_amount, Unset):
            stamp_duty_amount = UNSET
        else:
            stamp_duty_amount = self.stamp_duty_amount

        stampduty_paidby: Union[None, Unset, str]
        if isinstance(self.stampduty_paidby, Unset):
            stampduty_paidby = UNSET
        else:
            stampduty_paidby = self.stampduty_paidby

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if article_code is not UNSET:
            field_dict["articleCode"] = article_code
        if consideration_price is not UNSET:
            field_dict["considerationPrice"] = consideration_price
        if descriptionof_document is not UNSET:
            field_dict["descriptionofDocument"] = descriptionof_document
        if document_id is not UNSET:
            field_dict["documentID"] = document_id
        if first_party_ovd_type is not UNSET:
            field_dict["firstPartyOVDType"] = first_party_ovd_type
        if first_party_ovd_value is not UNSET:
            field_dict["firstPartyOVDValue"] = first_party_ovd_value
        if first_party_pin is not UNSET:
            field_dict["firstPartyPin"] = first_party_pin
        if firstparty is not UNSET:
            field_dict["firstparty"] = firstparty
        if second_party_ovd_type is not UNSET:
            field_dict["secondPartyOVDType"] = second_party_ovd_type
        if second_party_ovd_value is not UNSET:
            field_dict["secondPartyOVDValue"] = second_party_ovd_value
        if second_party_pin is not UNSET:
            field_dict["secondPartyPin"] = second_party_pin
        if secondparty is not UNSET:
            field_dict["secondparty"] = secondparty
        if stamp_duty_amount is not UNSET:
            field_dict["stampDutyAmount"] = stamp_duty_amount
        if stampduty_paidby is not UNSET:
            field_dict["stampdutyPaidby"] = stampduty_paidby

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_article_code(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        article_code = _parse_article_code(d.pop("articleCode", UNSET))

        def _parse_consideration_price(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        consideration_price = _parse_consideration_price(
            d.pop("considerationPrice", UNSET)
        )

        def _parse_descriptionof_document(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        descriptionof_document = _parse_descriptionof_document(
            d.pop("descriptionofDocument", UNSET)
        )

        def _parse_document_id(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        document_id = _parse_document_id(d.pop("documentID", UNSET))

        def _parse_first_party_ovd_type(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        first_party_ovd_type = _parse_first_party_ovd_type(
            d.pop("firstPartyOVDType", UNSET)
        )

        def _parse_first_party_ovd_value(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        first_party_ovd_value = _parse_first_party_ovd_value(
            d.pop("firstPartyOVDValue", UNSET)
        )

        first_party_pin = d.pop("firstPartyPin", UNSET)

        def _parse_firstparty(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        firstparty = _parse_firstparty(d.pop("firstparty", UNSET))

        def _parse_second_party_ovd_type(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        second_party_ovd_type = _parse_second_party_ovd_type(
            d.pop("secondPartyOVDType", UNSET)
        )

        def _parse_second_party_ovd_value(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        second_party_ovd_value = _parse_second_party_ovd_value(
            d.pop("secondPartyOVDValue", UNSET)
        )

        second_party_pin = d.pop("secondPartyPin", UNSET)

        def _parse_secondparty(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        secondparty = _parse_secondparty(d.pop("secondparty", UNSET))

        def _parse_stamp_duty_amount(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        stamp_duty_amount = _parse_stamp_duty_amount(d.pop("stampDutyAmount", UNSET))

        def _parse_stampduty_paidby(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        stampduty_paidby = _parse_stampduty_paidby(d.pop("stampdutyPaidby", UNSET))

        estamp_detail = cls(
            article_code=article_code,
            consideration_price=consideration_price,
            descriptionof_document=descriptionof_document,
            document_id=document_id,
            first_party_ovd_type=first_party_ovd_type,
            first_party_ovd_value=first_party_ovd_value,
            first_party_pin=first_party_pin,
            firstparty=firstparty,
            second_party_ovd_type=second_party_ovd_type,
            second_party_ovd_value=second_party_ovd_value,
            second_party_pin=second_party_pin,
            secondparty=secondparty,
            stamp_duty_amount=stamp_duty_amount,
            stampduty_paidby=stampduty_paidby,
        )

        return estamp_detail
