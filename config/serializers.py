"""Serializer bases shared by the apps' APIs."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers


class StrictSerializer(serializers.Serializer):
    """A request body: a key the endpoint does not know is refused (400), not dropped, so that
    a misspelt optional field cannot pass unnoticed for its default."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            unknown = sorted(str(key) for key in set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError({key: [_("Unknown field.")] for key in unknown})
        return super().to_internal_value(data)
