from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.match_input_decline_reason_code_type_0 import (
    MatchInputDeclineReasonCodeType0,
)
from ..models.match_input_declined_by_role_type_0 import MatchInputDeclinedByRoleType0
from ..models.match_input_no_show_missing_type_0 import MatchInputNoShowMissingType0
from ..models.match_input_role_type_0 import MatchInputRoleType0
from ..models.match_input_status import MatchInputStatus

if TYPE_CHECKING:
    from ..models.match_input_score_breakdown_type_0 import (
        MatchInputScoreBreakdownType0,
    )


T = TypeVar("T", bound="MatchInput")


@_attrs_define
class MatchInput:
    """
    Attributes:
        id (UUID):
        status (MatchInputStatus): `matched` (waiting for both to accept) → `accepted` (the interview room is open) →
            `completed`; or `declined`, `expired`, or `no_show`: accepted, but the seeker, the recruiter or both did not
            come to the interview room in time (see `no_show_missing`); never an interview
        match_score (float | None): 0–100, explainable: see score_breakdown and docs/match-score.md
        score_version (None | str): Version of the score formula
        score_breakdown (MatchInputScoreBreakdownType0 | None): Per component: weight, score 0–1 (null = no data, left
            out), detail
        created_at (datetime.datetime):
        expires_at (datetime.datetime | None): End of the acceptance window
        role (MatchInputRoleType0 | None): The caller's role in the match
        job_id (None | UUID):
        job_title (None | str):
        live_event_slug (None | str):
        seeker_accepted (bool):
        recruiter_accepted (bool):
        accepted_at (datetime.datetime | None):
        declined_at (datetime.datetime | None):
        declined_by_role (MatchInputDeclinedByRoleType0 | None):
        decline_reason (None | str):
        decline_reason_code (MatchInputDeclineReasonCodeType0 | None): Why, from the fixed vocabulary (null: only free
            text, or not declined)
        recruiter_user_id (None | UUID): The match's recruiter. Until a recruiter accepts: the one it is offered to, the
            suggested interviewer (events where recruiters mark their availability; else null: the whole team). Once a
            recruiter of the team accepts: that recruiter, who interviews (with the team’s auto-accept: the one it was
            offered to). See recruiter_accepted.
        recruiter_name (None | str): Display name of `recruiter_user_id` (the interviewer once a recruiter accepted),
            else null
        joined_via_agent (bool): The seeker joined the queue through an API token (an agent)
        details_url (str): Web page where a human views and accepts the match
        no_show_missing (MatchInputNoShowMissingType0 | None): Who did not come to the interview room of a `no_show`
            match (null otherwise)
        no_show_at (datetime.datetime | None): When the match ended as `no_show` (null otherwise)
    """

    id: UUID
    status: MatchInputStatus
    match_score: float | None
    score_version: None | str
    score_breakdown: MatchInputScoreBreakdownType0 | None
    created_at: datetime.datetime
    expires_at: datetime.datetime | None
    role: MatchInputRoleType0 | None
    job_id: None | UUID
    job_title: None | str
    live_event_slug: None | str
    seeker_accepted: bool
    recruiter_accepted: bool
    accepted_at: datetime.datetime | None
    declined_at: datetime.datetime | None
    declined_by_role: MatchInputDeclinedByRoleType0 | None
    decline_reason: None | str
    decline_reason_code: MatchInputDeclineReasonCodeType0 | None
    recruiter_user_id: None | UUID
    recruiter_name: None | str
    joined_via_agent: bool
    details_url: str
    no_show_missing: MatchInputNoShowMissingType0 | None
    no_show_at: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.match_input_score_breakdown_type_0 import (
            MatchInputScoreBreakdownType0,
        )

        id = str(self.id)

        status = self.status.value

        match_score: float | None
        match_score = self.match_score

        score_version: None | str
        score_version = self.score_version

        score_breakdown: dict[str, Any] | None
        if isinstance(self.score_breakdown, MatchInputScoreBreakdownType0):
            score_breakdown = self.score_breakdown.to_dict()
        else:
            score_breakdown = self.score_breakdown

        created_at = self.created_at.isoformat()

        expires_at: None | str
        if isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at

        role: None | str
        if isinstance(self.role, MatchInputRoleType0):
            role = self.role.value
        else:
            role = self.role

        job_id: None | str
        if isinstance(self.job_id, UUID):
            job_id = str(self.job_id)
        else:
            job_id = self.job_id

        job_title: None | str
        job_title = self.job_title

        live_event_slug: None | str
        live_event_slug = self.live_event_slug

        seeker_accepted = self.seeker_accepted

        recruiter_accepted = self.recruiter_accepted

        accepted_at: None | str
        if isinstance(self.accepted_at, datetime.datetime):
            accepted_at = self.accepted_at.isoformat()
        else:
            accepted_at = self.accepted_at

        declined_at: None | str
        if isinstance(self.declined_at, datetime.datetime):
            declined_at = self.declined_at.isoformat()
        else:
            declined_at = self.declined_at

        declined_by_role: None | str
        if isinstance(self.declined_by_role, MatchInputDeclinedByRoleType0):
            declined_by_role = self.declined_by_role.value
        else:
            declined_by_role = self.declined_by_role

        decline_reason: None | str
        decline_reason = self.decline_reason

        decline_reason_code: None | str
        if isinstance(self.decline_reason_code, MatchInputDeclineReasonCodeType0):
            decline_reason_code = self.decline_reason_code.value
        else:
            decline_reason_code = self.decline_reason_code

        recruiter_user_id: None | str
        if isinstance(self.recruiter_user_id, UUID):
            recruiter_user_id = str(self.recruiter_user_id)
        else:
            recruiter_user_id = self.recruiter_user_id

        recruiter_name: None | str
        recruiter_name = self.recruiter_name

        joined_via_agent = self.joined_via_agent

        details_url = self.details_url

        no_show_missing: None | str
        if isinstance(self.no_show_missing, MatchInputNoShowMissingType0):
            no_show_missing = self.no_show_missing.value
        else:
            no_show_missing = self.no_show_missing

        no_show_at: None | str
        if isinstance(self.no_show_at, datetime.datetime):
            no_show_at = self.no_show_at.isoformat()
        else:
            no_show_at = self.no_show_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "status": status,
                "match_score": match_score,
                "score_version": score_version,
                "score_breakdown": score_breakdown,
                "created_at": created_at,
                "expires_at": expires_at,
                "role": role,
                "job_id": job_id,
                "job_title": job_title,
                "live_event_slug": live_event_slug,
                "seeker_accepted": seeker_accepted,
                "recruiter_accepted": recruiter_accepted,
                "accepted_at": accepted_at,
                "declined_at": declined_at,
                "declined_by_role": declined_by_role,
                "decline_reason": decline_reason,
                "decline_reason_code": decline_reason_code,
                "recruiter_user_id": recruiter_user_id,
                "recruiter_name": recruiter_name,
                "joined_via_agent": joined_via_agent,
                "details_url": details_url,
                "no_show_missing": no_show_missing,
                "no_show_at": no_show_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.match_input_score_breakdown_type_0 import (
            MatchInputScoreBreakdownType0,
        )

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        status = MatchInputStatus(d.pop("status"))

        def _parse_match_score(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        match_score = _parse_match_score(d.pop("match_score"))

        def _parse_score_version(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        score_version = _parse_score_version(d.pop("score_version"))

        def _parse_score_breakdown(
            data: object,
        ) -> MatchInputScoreBreakdownType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                score_breakdown_type_0 = MatchInputScoreBreakdownType0.from_dict(data)

                return score_breakdown_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MatchInputScoreBreakdownType0 | None, data)

        score_breakdown = _parse_score_breakdown(d.pop("score_breakdown"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_expires_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expires_at_type_0 = datetime.datetime.fromisoformat(data)

                return expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        expires_at = _parse_expires_at(d.pop("expires_at"))

        def _parse_role(data: object) -> MatchInputRoleType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                role_type_0 = MatchInputRoleType0(data)

                return role_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MatchInputRoleType0 | None, data)

        role = _parse_role(d.pop("role"))

        def _parse_job_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                job_id_type_0 = UUID(data)

                return job_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        job_id = _parse_job_id(d.pop("job_id"))

        def _parse_job_title(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        job_title = _parse_job_title(d.pop("job_title"))

        def _parse_live_event_slug(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        live_event_slug = _parse_live_event_slug(d.pop("live_event_slug"))

        seeker_accepted = d.pop("seeker_accepted")

        recruiter_accepted = d.pop("recruiter_accepted")

        def _parse_accepted_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                accepted_at_type_0 = datetime.datetime.fromisoformat(data)

                return accepted_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        accepted_at = _parse_accepted_at(d.pop("accepted_at"))

        def _parse_declined_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                declined_at_type_0 = datetime.datetime.fromisoformat(data)

                return declined_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        declined_at = _parse_declined_at(d.pop("declined_at"))

        def _parse_declined_by_role(
            data: object,
        ) -> MatchInputDeclinedByRoleType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                declined_by_role_type_0 = MatchInputDeclinedByRoleType0(data)

                return declined_by_role_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MatchInputDeclinedByRoleType0 | None, data)

        declined_by_role = _parse_declined_by_role(d.pop("declined_by_role"))

        def _parse_decline_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        decline_reason = _parse_decline_reason(d.pop("decline_reason"))

        def _parse_decline_reason_code(
            data: object,
        ) -> MatchInputDeclineReasonCodeType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                decline_reason_code_type_0 = MatchInputDeclineReasonCodeType0(data)

                return decline_reason_code_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MatchInputDeclineReasonCodeType0 | None, data)

        decline_reason_code = _parse_decline_reason_code(d.pop("decline_reason_code"))

        def _parse_recruiter_user_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                recruiter_user_id_type_0 = UUID(data)

                return recruiter_user_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        recruiter_user_id = _parse_recruiter_user_id(d.pop("recruiter_user_id"))

        def _parse_recruiter_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        recruiter_name = _parse_recruiter_name(d.pop("recruiter_name"))

        joined_via_agent = d.pop("joined_via_agent")

        details_url = d.pop("details_url")

        def _parse_no_show_missing(data: object) -> MatchInputNoShowMissingType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                no_show_missing_type_0 = MatchInputNoShowMissingType0(data)

                return no_show_missing_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MatchInputNoShowMissingType0 | None, data)

        no_show_missing = _parse_no_show_missing(d.pop("no_show_missing"))

        def _parse_no_show_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                no_show_at_type_0 = datetime.datetime.fromisoformat(data)

                return no_show_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        no_show_at = _parse_no_show_at(d.pop("no_show_at"))

        match_input = cls(
            id=id,
            status=status,
            match_score=match_score,
            score_version=score_version,
            score_breakdown=score_breakdown,
            created_at=created_at,
            expires_at=expires_at,
            role=role,
            job_id=job_id,
            job_title=job_title,
            live_event_slug=live_event_slug,
            seeker_accepted=seeker_accepted,
            recruiter_accepted=recruiter_accepted,
            accepted_at=accepted_at,
            declined_at=declined_at,
            declined_by_role=declined_by_role,
            decline_reason=decline_reason,
            decline_reason_code=decline_reason_code,
            recruiter_user_id=recruiter_user_id,
            recruiter_name=recruiter_name,
            joined_via_agent=joined_via_agent,
            details_url=details_url,
            no_show_missing=no_show_missing,
            no_show_at=no_show_at,
        )

        match_input.additional_properties = d
        return match_input

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
