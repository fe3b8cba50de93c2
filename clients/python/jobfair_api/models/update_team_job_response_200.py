from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.team_job import TeamJob


T = TypeVar("T", bound="UpdateTeamJobResponse200")


@_attrs_define
class UpdateTeamJobResponse200:
    """
    Attributes:
        job (TeamJob):
    """

    job: TeamJob

    def to_dict(self) -> dict[str, Any]:
        job = self.job.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "job": job,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.team_job import TeamJob

        d = dict(src_dict)
        job = TeamJob.from_dict(d.pop("job"))

        update_team_job_response_200 = cls(
            job=job,
        )

        return update_team_job_response_200
