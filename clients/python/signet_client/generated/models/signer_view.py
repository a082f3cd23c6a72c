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
    from ..models.coordinate import Coordinate


T = TypeVar("T", bound="SignerView")


@_attrs_define
class SignerView:
    """
    Attributes:
        anchor (Union[None, Unset, str]):
        contact_no (Union[None, Unset, str]): The signer's phone. A mobile number also gets the invitation and reminders
            by SMS
            where this service has an SMS provider; any other number is no reason to refuse.
        coordinates (Union[None, Unset, list['Coordinate']]):
        email_id (Union[None, Unset, str]):
        mail_sending_options (Union[Unset, int]):
        mode_of_signature (Union[None, Unset, str]): How this signatory signs: `electronic` (or `4`, the default) or
            `aadhaar_esign` (or
            `3`, Aadhaar eSign through the configured ESP) or `dsc_token` (or `2`, the signer's own
            crypto token through the signer utility).
        name (Union[None, Unset, str]):
        notification_email (Union[None, Unset, str]):
        search_text (Union[None, Unset, str]): Text in the document below which this signer's signature goes.
        signature_image (Union[None, Unset, str]): The first signer's signature (PNG or JPEG, base64): applied when the
            workflow starts.
        signer_type (Union[Unset, int]):
    """

    anchor: Union[None, Unset, str] = UNSET
    contact_no: Union[None, Unset, str] = UNSET
    coordinates: Union[None, Unset, list["Coordinate"]] = UNSET
    email_id: Union[None, Unset, str] = UNSET
    mail_sending_options: Union[Unset, int] = UNSET
    mode_of_signature: Union[None, Unset, str] = UNSET
    name: Union[None, Unset, str] = UNSET
    notification_email: Union[None, Unset, str] = UNSET
    search_text: Union[None, Unset, str] = UNSET
    signature_image: Union[None, Unset, str] = UNSET
    signer_type: Union[Unset, int] = UNSET

    def to_dict(self) -> dict[str, Any]:
        anchor: Union[None, Unset, str]
        if isinstance(self.anchor, Unset):
            anchor = UNSET
        else:
            anchor = self.anchor

        contact_no: Union[None, Unset, str]
        if isinstance(self.contact_no, Unset):
            contact_no = UNSET
        else:
            contact_no = self.contact_no

        coordinates: Union[None, Unset, list[dict[str, Any]]]
        if isinstance(self.coordinates, Unset):
            coordinates = UNSET
        elif isinstance(self.coordinates, list):
            coordinates = []
            for coordinates_type_0_item_data in self.coordinates:
                coordinates_type_0_item = coordinates_type_0_item_data.to_dict()
                coordinates.append(coordinates_type_0_item)

        else:
            coordinates = self.coordinates

        email_id: Union[None, Unset, str]
        if isinstance(self.email_id, Unset):
            email_id = UNSET
        else:
            email_id = self.email_id

        mail_sending_options = self.mail_sending_options

        mode_of_signature: Union[None, Unset, str]
        if isinstance(self.mode_of_signature, Unset):
            mode_of_signature = UNSET
        else:
            mode_of_signature = self.mode_of_signature

        name: Union[None, Unset, str]
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        notification_email: Union[None, Unset, str]
        if isinstance(self.notification_email, Unset):
            notification_email = UNSET
        else:
            notification_email = self.notification_email

        search_text: Union[None, Unset, str]
        if isinstance(self.search_text, Unset):
            search_text = UNSET
        else:
            search_text = self.search_text

        signature_image: Union[None, Unset, str]
        if isinstance(self.signature_image, Unset):
            signature_image = UNSET
        else:
            signature_image = self.signature_image

        signer_type = self.signer_type

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if anchor is not UNSET:
            field_dict["anchor"] = anchor
        if contact_no is not UNSET:
            field_dict["contactNo"] = contact_no
        if coordinates is not UNSET:
            field_dict["coordinates"] = coordinates
        if email_id is not UNSET:
            field_dict["emailId"] = email_id
        if mail_sending_options is not UNSET:
            field_dict["mailSendingOptions"] = mail_sending_options
        if mode_of_signature is not UNSET:
            field_dict["modeOfSignature"] = mode_of_signature
        if name is not UNSET:
            field_dict["name"] = name
        if notification_email is not UNSET:
            field_dict["notificationEmail"] = notification_email
        if search_text is not UNSET:
            field_dict["searchText"] = search_text
        if signature_image is not UNSET:
            field_dict["signatureImage"] = signature_image
        if signer_type is not UNSET:
            field_dict["signerType"] = signer_type

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.coordinate import Coordinate

        d = dict(src_dict)

        def _parse_anchor(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        anchor = _parse_anchor(d.pop("anchor", UNSET))

        def _parse_contact_no(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        contact_no = _parse_contact_no(d.pop("contactNo", UNSET))

        def _parse_coordinates(data: object) -> Union[None, Unset, list["Coordinate"]]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                coordinates_type_0 = []
                _coordinates_type_0 = data
                for coordinates_type_0_item_data in _coordinates_type_0:
                    coordinates_type_0_item = Coordinate.from_dict(
                        coordinates_type_0_item_data
                    )

                    coordinates_type_0.append(coordinates_type_0_item)

                return coordinates_type_0
            except:  # noqa: E722
                pass
            return cast(Union[None, Unset, list["Coordinate"]], data)

        coordinates = _parse_coordinates(d.pop("coordinates", UNSET))

        def _parse_email_id(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        email_id = _parse_email_id(d.pop("emailId", UNSET))

        mail_sending_options = d.pop("mailSendingOptions", UNSET)

        def _parse_mode_of_signature(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        mode_of_signature = _parse_mode_of_signature(d.pop("modeOfSignature", UNSET))

        def _parse_name(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        name = _parse_name(d.pop("name", UNSET))

        def _parse_notification_email(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        notification_email = _parse_notification_email(
            d.pop("notificationEmail", UNSET)
        )

        def _parse_search_text(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        search_text = _parse_search_text(d.pop("searchText", UNSET))

        def _parse_signature_image(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        signature_image = _parse_signature_image(d.pop("signatureImage", UNSET))

        signer_type = d.pop("signerType", UNSET)

        signer_view = cls(
            anchor=anchor,
            contact_no=contact_no,
            coordinates=coordinates,
            email_id=email_id,
            mail_sending_options=mail_sending_options,
            mode_of_signature=mode_of_signature,
            name=name,
            notification_email=notification_email,
            search_text=search_text,
            signature_image=signature_image,
            signer_type=signer_type,
        )

        return signer_view
