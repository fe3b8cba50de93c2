from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.job_comparison import JobComparison


T = TypeVar("T", bound="CreateJobComparisonResponse200")


@_attrs_define
class CreateJobComparisonResponse200:
    """
    Attributes:
        comparison (JobComparison):
    """

    comparison: JobComparison

    def to_dict(self) -> dict[str, Any]:
        comparison = self.comparison.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "comparison": comparison,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.job_comparison import JobComparison

        d = dict(src_dict)
        comparison = JobComparison.from_dict(d.pop("comparison"))

        create_job_comparison_response_200 = cls(
            comparison=comparison,
        )

        return create_job_comparison_response_200
