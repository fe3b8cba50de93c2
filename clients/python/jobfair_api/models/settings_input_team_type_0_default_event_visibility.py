from enum import StrEnum


class SettingsInputTeamType0DefaultEventVisibility(StrEnum):
    OPEN_INVITE = "open_invite"
    PRIVATE = "private"

    def __str__(self) -> str:
        return str(self.value)
