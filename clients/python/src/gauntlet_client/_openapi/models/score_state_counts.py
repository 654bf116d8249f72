from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ScoreStateCounts")


@_attrs_define
class ScoreStateCounts:
    """
    Attributes:
        provisional (int):
        final (int):
        under_review (int):
        invalidated (int):
    """

    provisional: int
    final: int
    under_review: int
    invalidated: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        provisional = self.provisional

        final = self.final

        under_review = self.under_review

        invalidated = self.invalidated

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "provisional": provisional,
                "final": final,
                "under_review": under_review,
                "invalidated": invalidated,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        provisional = d.pop("provisional")

        final = d.pop("final")

        under_review = d.pop("under_review")

        invalidated = d.pop("invalidated")

        score_state_counts = cls(
            provisional=provisional,
            final=final,
            under_review=under_review,
            invalidated=invalidated,
        )

        score_state_counts.additional_properties = d
        return score_state_counts

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
