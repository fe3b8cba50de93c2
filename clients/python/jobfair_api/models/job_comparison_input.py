from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.job_comparison_input_provider import JobComparisonInputProvider

T = TypeVar("T", bound="JobComparisonInput")


@_attrs_define
class JobComparisonInput:
    """
    Attributes:
        job_id (UUID):
        provider (JobComparisonInputProvider): `builtin`: words from the explainable scorer; `openai_compatible`: a chat
            model answered within a strict JSON schema
        model (None | str): The model asked; null for builtin
        match_score (float): The explainable score (docs/match-score.md), computed by the service either way
        score_version (str):
        summary (str):
        strengths (list[str]):
        gaps (list[str]):
        talking_points (list[str]): What to raise in the interview
        generated_at (datetime.datetime):
    """

    job_id: UUID
    provider: JobComparisonInputProvider
    model: None | str
    match_score: float
    score_version: str
    summary: str
    strengths: list[str]
    gaps: list[str]
    talking_points: list[str]
    generated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        job_id = str(self.job_id)

        provider = self.provider.value

        model: None | str
        model = self.model

        match_score = self.match_score

        score_version = self.score_version

        summary = self.summary

        strengths = self.strengths

        gaps = self.gaps

        talking_points = self.talking_points

        generated_at = self.generated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "job_id": job_id,
                "provider": provider,
                "model": model,
                "match_score": match_score,
                "score_version": score_version,
                "summary": summary,
                "strengths": strengths,
                "gaps": gaps,
                "talking_points": talking_points,
                "generated_at": generated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        job_id = UUID(d.pop("job_id"))

        provider = JobComparisonInputProvider(d.pop("provider"))

        def _parse_model(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        model = _parse_model(d.pop("model"))

        match_score = d.pop("match_score")

        score_version = d.pop("score_version")

        summary = d.pop("summary")

        strengths = cast(list[str], d.pop("strengths"))

        gaps = cast(list[str], d.pop("gaps"))

        talking_points = cast(list[str], d.pop("talking_points"))

        generated_at = datetime.datetime.fromisoformat(d.pop("generated_at"))

        job_comparison_input = cls(
            job_id=job_id,
            provider=provider,
            model=model,
            match_score=match_score,
            score_version=score_version,
            summary=summary,
            strengths=strengths,
            gaps=gaps,
            talking_points=talking_points,
            generated_at=generated_at,
        )

        job_comparison_input.additional_properties = d
        return job_comparison_input

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
