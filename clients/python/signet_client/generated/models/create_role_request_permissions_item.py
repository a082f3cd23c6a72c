from enum import Enum


class CreateRoleRequestPermissionsItem(str, Enum):
    MANAGE_PEOPLE = "manage_people"
    MANAGE_SETTINGS = "manage_settings"
    READ_AUDIT = "read_audit"
    READ_DIRECTORY = "read_directory"
    READ_WORKFLOWS = "read_workflows"
    SEND_WORKFLOWS = "send_workflows"

    def __str__(self) -> str:
        return str(self.value)
