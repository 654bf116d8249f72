"""Request and response shapes of API v1. Serializers validate and shape; services decide."""

import math
import re
from decimal import ROUND_HALF_EVEN, Decimal

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers


class StrictInputSerializer(serializers.Serializer):
    """Request bodies refuse fields they do not know, naming each, instead of ignoring them."""

    def to_internal_value(self, data):
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError({field: ["Unknown field."] for field in unknown})
        return super().to_internal_value(data)


# Request fields take exactly the JSON type their schema names: DRF would turn 12 into "12"
# or "12" into 12, so a client's type mistake would pass silently and the OpenAPI would lie.

class StrictCharField(serializers.CharField):
    """A JSON string; numbers and booleans are refused, not turned into text."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictIntegerField(serializers.IntegerField):
    """A JSON integer (``3`` or ``3.0``); strings, booleans and fractions are refused."""

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, (int, float)) or (
                isinstance(data, float) and not (math.isfinite(data) and data.is_integer())):
            self.fail("invalid")
        return super().to_internal_value(int(data))


class FiniteFloatField(serializers.FloatField):
    """A JSON number that is a real number: strings, booleans, "inf", "nan" and overflows are refused."""

    default_error_messages = {"not_finite": "A finite number is required."}

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, (int, float)):
            self.fail("invalid")
        value = super().to_internal_value(data)
        if not math.isfinite(value):
            self.fail("not_finite")
        return value


_MONEY_TEXT = re.compile(r"^[0-9]{1,6}(\.[0-9]{1,6})?$")


@extend_schema_field({
    "oneOf": [
        {"type": "string", "pattern": _MONEY_TEXT.pattern, "description": "A decimal amount, e.g. \"0.4120\"."},
        {"type": "number", "minimum": 0, "maximum": 999999.999999, "description": "Rounded to 6 decimal places."},
    ],
    "nullable": True,
})
class MoneyField(serializers.Field):
    """An amount in US dollars, 0 to 999999.999999: a decimal string with at most 6 places, or a
    JSON number (rounded to 6 places)."""

    default_error_messages = {"invalid": "A decimal amount from 0 to 999999.999999 is required."}
    MAX = Decimal("999999.999999")

    def to_internal_value(self, data):
        if isinstance(data, str) and _MONEY_TEXT.match(data):
            return Decimal(data)
        if isinstance(data, (int, float)) and not isinstance(data, bool) and math.isfinite(data) \
                and 0 <= data <= float(self.MAX):
            return min(Decimal(repr(data)).quantize(Decimal("0.000001"), rounding=ROUND_HALF_EVEN), self.MAX)
        self.fail("invalid")

    def to_representation(self, value):
        return str(value)


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="A stable machine-readable error code.")
    message = serializers.CharField(help_text="A human-readable explanation.")
    extra = serializers.DictField(help_text="Details that depend on the code.")

    class Meta:
        ref_name = "Error"


class ComponentHealthSerializer(serializers.Serializer):
    ok = serializers.BooleanField()
    detail = serializers.CharField()
    extra = serializers.DictField()

    class Meta:
        ref_name = "ComponentHealth"


class HealthComponentsSerializer(serializers.Serializer):
    database = ComponentHealthSerializer()
    broker = ComponentHealthSerializer()
    worker = ComponentHealthSerializer()

    class Meta:
        ref_name = "HealthComponents"


class HealthSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=["ok", "degraded"])
    checked_at = serializers.DateTimeField()
    components = HealthComponentsSerializer()

    class Meta:
        ref_name = "Health"


class AgentOutputSerializer(serializers.Serializer):
    id = serializers.UUIDField(source="public_id")
    name = serializers.CharField()
    description = serializers.CharField()
    model_name = serializers.CharField()
    created_at = serializers.DateTimeField()

    class Meta:
        ref_name = "Agent"


class AgentUpdateSerializer(StrictInputSerializer):
    description = StrictCharField(required=False, allow_blank=True, max_length=2000)
    model_name = StrictCharField(required=False, allow_blank=True, max_length=120)

    class Meta:
        ref_name = "AgentUpdate"
