from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.queue_entry_input_status import QueueEntryInputStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.match_outlook_input_type_0 import MatchOutlookInputType0
    from ..models.wait_estimate_input_type_0 import WaitEstimateInputType0


T = TypeVar("T", bound="QueueEntryInput")


@_attrs_define
class QueueEntryInput:
    """
    Attributes:
        id (UUID):
        status (QueueEntryInputStatus):
        entered_at (datetime.datetime):
        interview_mode (None | str):
        job_ids (list[UUID]):
        live_event_slug (None | str):
        join_url (str):
        joined_via_agent (bool):
        agent_identity (None | str):
        position (int | None): 1-based place among waiting entries of the same queue; null when not waiting
        estimated_wait_seconds (int | None): A figure only when the wait explanation says when: two matchmaker intervals
            when an offer is due, else (capacity blocks) position ÷ the recent rate of matches of the jobs passing the
            floor; null when unknown — see estimated_wait and match_outlook.blocked_by, never a made-up number
        match_id (None | UUID): The current match once matched; null until then
        match_outlook (MatchOutlookInputType0 | None): Why the entry is not matched yet; null when not waiting. Also why
            estimated_wait_seconds is null.
        details_url (None | str): The match's web page (the Match's details_url), once matched: the person accepts or
            declines the match there. Null while no match is named
        estimated_wait (None | Unset | WaitEstimateInputType0): The honest range behind estimated_wait_seconds, with its
            reason; null when not waiting
        poll_after_seconds (int | None | Unset): When to read GET /queue/status again, in seconds: wait at least this
            long before the next poll. 5 while something can change soon (an offer is due or being made; matched, the match
            awaiting the person's answer); a tenth of the estimated wait (5 to 60) while capacity or the quality floor
            blocks, 15 when nobody can say when; 60 while only something outside the queue can help (event paused or not
            live, no eligible job, no recruiter taking interviews). Null once the entry has ended (left, expired, match
            accepted): stop polling. From the same wait explanation as match_outlook
    """

    id: UUID
    status: QueueEntryInputStatus
    entered_at: datetime.datetime
    interview_mode: None | str
    job_ids: list[UUID]
    live_event_slug: None | str
    join_url: str
    joined_via_agent: bool
    agent_identity: None | str
    position: int | None
    estimated_wait_seconds: int | None
    match_id: None | UUID
    match_outlook: MatchOutlookInputType0 | None
    details_url: None | str
    estimated_wait: None | Unset | WaitEstimateInputType0 = UNSET
    poll_after_seconds: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.match_outlook_input_type_0 import MatchOutlookInputType0
        from ..models.wait_estimate_input_type_0 import WaitEstimateInputType0

        id = str(self.id)

        status = self.status.value

        entered_at = self.entered_at.isoformat()

        interview_mode: None | str
        interview_mode = self.interview_mode

        job_ids = []
        for job_ids_item_data in self.job_ids:
            job_ids_item = str(job_ids_item_data)
            job_ids.append(job_ids_item)

        live_event_slug: None | str
        live_event_slug = self.live_event_slug

        join_url = self.join_url

        joined_via_agent = self.joined_via_agent

        agent_identity: None | str
        agent_identity = self.agent_identity

        position: int | None
        position = self.position

        estimated_wait_seconds: int | None
        estimated_wait_seconds = self.estimated_wait_seconds

        match_id: None | str
        if isinstance(self.match_id, UUID):
            match_id = str(self.match_id)
        else:
            match_id = self.match_id

        match_outlook: dict[str, Any] | None
        if isinstance(self.match_outlook, MatchOutlookInputType0):
            match_outlook = self.match_outlook.to_dict()
        else:
            match_outlook = self.match_outlook

        details_url: None | str
        details_url = self.details_url

        estimated_wait: dict[str, Any] | None | Unset
        if isinstance(self.estimated_wait, Unset):
            estimated_wait = UNSET
        elif isinstance(self.estimated_wait, WaitEstimateInputType0):
            estimated_wait = self.estimated_wait.to_dict()
        else:
            estimated_wait = self.estimated_wait

        poll_after_seconds: int | None | Unset
        if isinstance(self.poll_after_seconds, Unset):
            poll_after_seconds = UNSET
        else:
            poll_after_seconds = self.poll_after_seconds

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "status": status,
                "entered_at": entered_at,
                "interview_mode": interview_mode,
                "job_ids": job_ids,
                "live_event_slug": live_event_slug,
                "join_url": join_url,
                "joined_via_agent": joined_via_agent,
                "agent_identity": agent_identity,
                "position": position,
                "estimated_wait_seconds": estimated_wait_seconds,
                "match_id": match_id,
                "match_outlook": match_outlook,
                "details_url": details_url,
            }
        )
        if estimated_wait is not UNSET:
            field_dict["estimated_wait"] = estimated_wait
        if poll_after_seconds is not UNSET:
            field_dict["poll_after_seconds"] = poll_after_seconds

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.match_outlook_input_type_0 import MatchOutlookInputType0
        from ..models.wait_estimate_input_type_0 import WaitEstimateInputType0

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        status = QueueEntryInputStatus(d.pop("status"))

        entered_at = datetime.datetime.fromisoformat(d.pop("entered_at"))

        def _parse_interview_mode(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        interview_mode = _parse_interview_mode(d.pop("interview_mode"))

        job_ids = []
        _job_ids = d.pop("job_ids")
        for job_ids_item_data in _job_ids:
            job_ids_item = UUID(job_ids_item_data)

            job_ids.append(job_ids_item)

        def _parse_live_event_slug(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        live_event_slug = _parse_live_event_slug(d.pop("live_event_slug"))

        join_url = d.pop("join_url")

        joined_via_agent = d.pop("joined_via_agent")

        def _parse_agent_identity(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        agent_identity = _parse_agent_identity(d.pop("agent_identity"))

        def _parse_position(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        position = _parse_position(d.pop("position"))

        def _parse_estimated_wait_seconds(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        estimated_wait_seconds = _parse_estimated_wait_seconds(
            d.pop("estimated_wait_seconds")
        )

        def _parse_match_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                match_id_type_0 = UUID(data)

                return match_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        match_id = _parse_match_id(d.pop("match_id"))

        def _parse_match_outlook(data: object) -> MatchOutlookInputType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_match_outlook_input_type_0 = (
                    MatchOutlookInputType0.from_dict(data)
                )

                return componentsschemas_match_outlook_input_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MatchOutlookInputType0 | None, data)

        match_outlook = _parse_match_outlook(d.pop("match_outlook"))

        def _parse_details_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        details_url = _parse_details_url(d.pop("details_url"))

        def _parse_estimated_wait(
            data: object,
        ) -> None | Unset | WaitEstimateInputType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_wait_estimate_input_type_0 = (
                    WaitEstimateInputType0.from_dict(data)
                )

                return componentsschemas_wait_estimate_input_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | WaitEstimateInputType0, data)

        estimated_wait = _parse_estimated_wait(d.pop("estimated_wait", UNSET))

        def _parse_poll_after_seconds(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        poll_after_seconds = _parse_poll_after_seconds(
            d.pop("poll_after_seconds", UNSET)
        )

        queue_entry_input = cls(
            id=id,
            status=status,
            entered_at=entered_at,
            interview_mode=interview_mode,
            job_ids=job_ids,
            live_event_slug=live_event_slug,
            join_url=join_url,
            joined_via_agent=joined_via_agent,
            agent_identity=agent_identity,
            position=position,
            estimated_wait_seconds=estimated_wait_seconds,
            match_id=match_id,
            match_outlook=match_outlook,
            details_url=details_url,
            estimated_wait=estimated_wait,
            poll_after_seconds=poll_after_seconds,
        )

        queue_entry_input.additional_properties = d
        return queue_entry_input

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
