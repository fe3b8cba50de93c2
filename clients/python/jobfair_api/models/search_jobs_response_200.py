from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.job_search_hit import JobSearchHit


T = TypeVar("T", bound="SearchJobsResponse200")


@_attrs_define
class SearchJobsResponse200:
    """
    Attributes:
        jobs (list[JobSearchHit]):
        generated_at (datetime.datetime):
    """

    jobs: list[JobSearchHit]
    generated_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        jobs = []
        for jobs_item_data in self.jobs:
            jobs_item = jobs_item_data.to_dict()
            jobs.append(jobs_item)

        generated_at = self.generated_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "jobs": jobs,
                "generated_at": generated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.job_search_hit import JobSearchHit

        d = dict(src_dict)
        jobs = []
        _jobs = d.pop("jobs")
        for jobs_item_data in _jobs:
            jobs_item = JobSearchHit.from_dict(jobs_item_data)

            jobs.append(jobs_item)

        generated_at = datetime.datetime.fromisoformat(d.pop("generated_at"))

        search_jobs_response_200 = cls(
            jobs=jobs,
            generated_at=generated_at,
        )

        return search_jobs_response_200
