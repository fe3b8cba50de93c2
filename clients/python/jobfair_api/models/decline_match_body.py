from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.decline_match_body_reason_code import DeclineMatchBodyReasonCode
from ..types import UNSET, Unset

T = TypeVar("T", bound="DeclineMatchBody")


@_attrs_define
class DeclineMatchBody:
    """
    Attributes:
        reason (str): Why; shown to the other party (1–500 characters)
        reason_code (DeclineMatchBodyReasonCode | Unset): Optional category, shown to the other party; a seeker's
            `salary` or `location` lowers that component's weight for the rest of the queue entry
        leave_queue (bool | Unset): The seeker only (a recruiter → 403): also leave the queue. The queue entry ends
            `left` instead of going back to waiting, in one step, so no other match is offered in between; `reason_code`
            defaults to `left_queue`
    """

    reason: str
    reason_code: DeclineMatchBodyReasonCode | Unset = UNSET
    leave_queue: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        reason = self.reason

        reason_code: str | Unset = UNSET
        if not isinstance(self.reason_code, Unset):
            reason_code = self.reason_code.value

        leave_queue = self.leave_queue

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "reason": reason,
            }
        )
        if reason_code is not UNSET:
            field_dict["reason_code"] = reason_code
        if leave_queue is not UNSET:
            field_dict["leave_queue"] = leave_queue

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        reason = d.pop("reason")

        _reason_code = d.pop("reason_code", UNSET)
        reason_code: DeclineMatchBodyReasonCode | Unset
        if isinstance(_reason_code, Unset):
            reason_code = UNSET
        else:
            reason_code = DeclineMatchBodyReasonCode(_reason_code)

        leave_queue = d.pop("leave_queue", UNSET)

        decline_match_body = cls(
            reason=reason,
            reason_code=reason_code,
            leave_queue=leave_queue,
        )

        return decline_match_body
