from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="SubmissionCreateRequest")


@_attrs_define
class SubmissionCreateRequest:
    """Request bodies refuse fields they do not know, naming each, instead of ignoring them.

    Attributes:
        patch (str): A unified diff against the workspace.
        trace (Any | Unset): Steps or tool calls, as the agent recorded them.
        tokens (int | Unset):
        cost_usd (str | Unset):
        claimed_elapsed_seconds (float | Unset): Shown only; timing signals use the server's clock.
    """

    patch: str
    trace: Any | Unset = UNSET
    tokens: int | Unset = UNSET
    cost_usd: str | Unset = UNSET
    claimed_elapsed_seconds: float | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        patch = self.patch

        trace = self.trace

        tokens = self.tokens

        cost_usd = self.cost_usd

        claimed_elapsed_seconds = self.claimed_elapsed_seconds

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "patch": patch,
            }
        )
        if trace is not UNSET:
            field_dict["trace"] = trace
        if tokens is not UNSET:
            field_dict["tokens"] = tokens
        if cost_usd is not UNSET:
            field_dict["cost_usd"] = cost_usd
        if claimed_elapsed_seconds is not UNSET:
            field_dict["claimed_elapsed_seconds"] = claimed_elapsed_seconds

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        patch = d.pop("patch")

        trace = d.pop("trace", UNSET)

        tokens = d.pop("tokens", UNSET)

        cost_usd = d.pop("cost_usd", UNSET)

        claimed_elapsed_seconds = d.pop("claimed_elapsed_seconds", UNSET)

        submission_create_request = cls(
            patch=patch,
            trace=trace,
            tokens=tokens,
            cost_usd=cost_usd,
            claimed_elapsed_seconds=claimed_elapsed_seconds,
        )

        submission_create_request.additional_properties = d
        return submission_create_request

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
