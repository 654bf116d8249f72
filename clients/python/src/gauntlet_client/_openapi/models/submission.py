from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.test_counts import TestCounts


T = TypeVar("T", bound="Submission")


@_attrs_define
class Submission:
    """
    Attributes:
        id (str):
        attempt (str):
        state (str):
        result (str):
        reason (str):
        tests (TestCounts):
        received_at (datetime.datetime):
        evaluated_at (datetime.datetime | None):
    """

    id: str
    attempt: str
    state: str
    result: str
    reason: str
    tests: TestCounts
    received_at: datetime.datetime
    evaluated_at: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        attempt = self.attempt

        state = self.state

        result = self.result

        reason = self.reason

        tests = self.tests.to_dict()

        received_at = self.received_at.isoformat()

        evaluated_at: None | str
        if isinstance(self.evaluated_at, datetime.datetime):
            evaluated_at = self.evaluated_at.isoformat()
        else:
            evaluated_at = self.evaluated_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "attempt": attempt,
                "state": state,
                "result": result,
                "reason": reason,
                "tests": tests,
                "received_at": received_at,
                "evaluated_at": evaluated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.test_counts import TestCounts  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        attempt = d.pop("attempt")

        state = d.pop("state")

        result = d.pop("result")

        reason = d.pop("reason")

        tests = TestCounts.from_dict(d.pop("tests"))

        received_at = datetime.datetime.fromisoformat(d.pop("received_at"))

        def _parse_evaluated_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                evaluated_at_type_0 = datetime.datetime.fromisoformat(data)

                return evaluated_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        evaluated_at = _parse_evaluated_at(d.pop("evaluated_at"))

        submission = cls(
            id=id,
            attempt=attempt,
            state=state,
            result=result,
            reason=reason,
            tests=tests,
            received_at=received_at,
            evaluated_at=evaluated_at,
        )

        submission.additional_properties = d
        return submission

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
