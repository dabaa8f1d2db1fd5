"""Whole numbers and ids in the API's bodies, read by ``core.reading`` (for any app's serializers).

DRF's own fields read ``1.5`` as the id 1 (``PrimaryKeyRelatedField`` hands it to the database, which
truncates), ``1.0`` and ``"12"`` as 12 and ``"١٢"`` as 12. Here a whole number is a JSON integer in
range, or the field names what is wrong. No rules here: what an id may refer to is the services' to say.
"""

from rest_framework import serializers

from core import reading


class WholeNumberField(serializers.IntegerField):
    """A JSON integer (never a float, a boolean or text) from ``min_value`` to ``max_value``."""

    def to_internal_value(self, data):
        low = self.min_value if self.min_value is not None else -reading.MAX_ID
        high = self.max_value if self.max_value is not None else reading.MAX_ID
        try:
            return reading.json_number(data, low=low, high=high)
        except reading.NotANumber as exc:
            raise serializers.ValidationError(str(exc), code="invalid") from None


class IdField(serializers.PrimaryKeyRelatedField):
    """A stored object by its id, a JSON integer: a float, a boolean or text is refused before any lookup."""

    def to_internal_value(self, data):
        try:
            pk = reading.json_number(data, low=1)
        except reading.NotANumber as exc:
            raise serializers.ValidationError(f"an id is {exc}", code="incorrect_type") from None
        return super().to_internal_value(pk)
