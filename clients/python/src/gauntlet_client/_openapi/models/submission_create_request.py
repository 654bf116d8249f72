from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.submission_create_request_trace_type_0 import (
        SubmissionCreateRequestTraceType0,
    )


T = TypeVar("T", bound="SubmissionCreateRequest")


@_attrs_define
class SubmissionCreateRequest:
    """Request bodies refuse fields they do not know, naming each, instead of ignoring them.

    Attributes:
        patch (str): A unified diff against the workspace.
        trace (list[Any] | None | SubmissionCreateRequestTraceType0 | Unset): What the agent did, as steps: a JSON array
            of {action: read|search|run|edit|test, target, time} (or an object with such a `steps` array), bounded in size
            and nesting; see Traces (trace_too_large, trace_too_deep, trace_invalid).
        tokens (int | None | Unset):
        cost_usd (float | None | str | Unset):
        claimed_elapsed_seconds (float | None | Unset): Shown only; timing signals use the server's clock.
    """

    patch: str
    trace: list[Any] | None | SubmissionCreateRequestTraceType0 | Unset = UNSET
    tokens: int | None | Unset = UNSET
    cost_usd: float | None | str | Unset = UNSET
    claimed_elapsed_seconds: float | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.submission_create_request_trace_type_0 import (
            SubmissionCreateRequestTraceType0,  # noqa: PLC0415
        )

        patch = self.patch

        trace: dict[str, Any] | list[Any] | None | Unset
        if isinstance(self.trace, Unset):
            trace = UNSET
        elif isinstance(self.trace, SubmissionCreateRequestTraceType0):
            trace = self.trace.to_dict()
        elif isinstance(self.trace, list):
            trace = self.trace

        else:
            trace = self.trace

        tokens: int | None | Unset
        if isinstance(self.tokens, Unset):
            tokens = UNSET
        else:
            tokens = self.tokens

        cost_usd: float | None | str | Unset
        if isinstance(self.cost_usd, Unset):
            cost_usd = UNSET
        else:
            cost_usd = self.cost_usd

        claimed_elapsed_seconds: float | None | Unset
        if isinstance(self.claimed_elapsed_seconds, Unset):
            claimed_elapsed_seconds = UNSET
        else:
            claimed_elapsed_seconds = self.claimed_elapsed_seconds

        field_dict: dict[str, Any] = {}

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
        from ..models.submission_create_request_trace_type_0 import (
            SubmissionCreateRequestTraceType0,  # noqa: PLC0415
        )

        d = dict(src_dict)
        patch = d.pop("patch")

        def _parse_trace(
            data: object,
        ) -> list[Any] | None | SubmissionCreateRequestTraceType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                trace_type_0 = SubmissionCreateRequestTraceType0.from_dict(data)

                return trace_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, list):
                    raise TypeError()
                trace_type_1 = cast(list[Any], data)

                return trace_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                list[Any] | None | SubmissionCreateRequestTraceType0 | Unset, data
            )

        trace = _parse_trace(d.pop("trace", UNSET))

        def _parse_tokens(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        tokens = _parse_tokens(d.pop("tokens", UNSET))

        def _parse_cost_usd(data: object) -> float | None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | str | Unset, data)

        cost_usd = _parse_cost_usd(d.pop("cost_usd", UNSET))

        def _parse_claimed_elapsed_seconds(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        claimed_elapsed_seconds = _parse_claimed_elapsed_seconds(
            d.pop("claimed_elapsed_seconds", UNSET)
        )

        submission_create_request = cls(
            patch=patch,
            trace=trace,
            tokens=tokens,
            cost_usd=cost_usd,
            claimed_elapsed_seconds=claimed_elapsed_seconds,
        )

        return submission_create_request
