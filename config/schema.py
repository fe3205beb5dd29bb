"""The OpenAPI schema of the API: in English whatever the request's language, its token as an
http bearer scheme, and every error answer a route can give declared with the one error body.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.utils import translation
from drf_spectacular.extensions import (
    OpenApiAuthenticationExtension,
    OpenApiSerializerExtension,
    OpenApiSerializerFieldExtension,
)
from drf_spectacular.views import SpectacularAPIView
from rest_framework.response import Response

from rules import contract

ERROR_REF = {"$ref": "#/components/schemas/Error"}

# Answers any operation may give before or around its view: (status, description, applies).
COMMON_ERRORS: list[tuple[str, str]] = [
    ("401", "The token or session given is not valid."),
    ("403", "Not allowed for this user (anonymous users read, never write)."),
    ("404", "No such object, or one this user may not see."),
    ("405", "The route does not answer this method."),
    ("406", "The Accept header asks for something other than JSON."),
    ("429", "Too many requests; `params.wait` says how many seconds to wait."),
    ("503", "The database is unavailable; retry after the Retry-After header's seconds."),
]
BODY_ERRORS: list[tuple[str, str]] = [
    ("400", "Invalid input: `fields` names each refused field."),
    ("413", "The body is larger than the server accepts."),
    ("415", "The body is not JSON."),
]
QUERY_ERRORS: list[tuple[str, str]] = [("400", "Invalid query parameters or headers.")]


def _error_response(description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": ERROR_REF}}}


# Reads that need an organiser of the tournament; every other read is public (anonymous users
# read public tournaments), its authentication optional.
MANAGER_READS = ("/registrations/totals/", "/audit/", "/draw-preview/")
TOKEN_EXCHANGE = "/auth/token/"  # noqa: S105 - a path, not a secret


def document_optional_auth(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular hook: a public read declares its authentication optional (`{}`), so
    that clients and checkers do not expect a 401 without a token."""
    for path, operations in result.get("paths", {}).items():
        exchange = operations.get("post") if path.endswith(TOKEN_EXCHANGE) else None
        if exchange is not None and {} not in exchange.setdefault("security", []):
            exchange["security"].append({})  # a password for a token: no token yet
        read = operations.get("get")
        if read is None or path.endswith(MANAGER_READS) or "/schema/" in path:
            continue
        security = read.setdefault("security", [])
        if {} not in security:
            security.append({})
    return result


def document_errors(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular hook: every operation declares each error status it can answer, all
    with the one error body (config.errors); clients and schemathesis rely on the list."""
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            responses = operation["responses"]
            errors = list(COMMON_ERRORS)
            if "requestBody" in operation:
                errors += BODY_ERRORS
            if any(p.get("in") in ("query", "header") for p in operation.get("parameters", [])):
                errors += QUERY_ERRORS
            for code, description in errors:
                responses.setdefault(code, _error_response(description))
            for code, response in responses.items():
                # An error declared without a body (or with a look-alike) has the one body.
                if code[0] in "45" and "$ref" not in response:
                    content = response.setdefault("content", {}).setdefault("application/json", {})
                    schema = content.get("schema")
                    if schema is None or schema.get("$ref") in (None, ERROR_REF["$ref"]):
                        content["schema"] = ERROR_REF
    return result


IDEMPOTENCY_PARAMETER: dict[str, Any] = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "description": "Any unique string (1 to 100 printable characters). Sent again with the "
    "same request, the first answer comes back (with `Idempotent-Replayed: true`) and the "
    "write is made once; with another request, 422 `idempotency_key_reused`. Send one with "
    "every write you may retry.",
    "schema": {"type": "string", "minLength": 1, "maxLength": 100, "pattern": "^[!-~]+$"},
}
WRITE_METHODS = ("post", "put", "patch", "delete")


def document_idempotency(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular hook: every write takes an Idempotency-Key (config.idempotency) and
    may answer 422 when the key was used for another request. Before document_errors, which
    gives the 422 its error body."""
    for operations in result.get("paths", {}).values():
        for method, operation in operations.items():
            if method not in WRITE_METHODS or not isinstance(operation, dict):
                continue
            parameters = operation.setdefault("parameters", [])
            if not any(p.get("name") == IDEMPOTENCY_PARAMETER["name"] for p in parameters):
                parameters.append(dict(IDEMPOTENCY_PARAMETER))
            operation.setdefault("responses", {}).setdefault(
                "422",
                {
                    "description": "Refused: the rules forbid it, or the Idempotency-Key was used "
                    "for another request (`idempotency_key_reused`)."
                },
            )
    return result


class BearerTokenScheme(OpenApiAuthenticationExtension):
    target_class = "config.drf.TokenAuthentication"
    name = "bearerAuth"
    priority = 1

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "An API token: `Authorization: Bearer <token>` "
            "(`Authorization: Token <token>` is accepted too).",
        }


class SchemaView(SpectacularAPIView):
    """The schema, always in English: clients generated from it must not change with the
    language of whoever downloaded it. Rendered inside the override (help texts are lazy)."""

    def _get_schema_response(self, request: Any) -> Response:
        with translation.override("en"):
            # drf-spectacular leaves this method unannotated.
            response = super()._get_schema_response(request)  # type: ignore[no-untyped-call]
            data = json.loads(json.dumps(response.data, cls=DjangoJSONEncoder))
        answer = Response(data=data, headers={"Content-Language": "en"})
        if "Content-Disposition" in response:
            answer["Content-Disposition"] = response["Content-Disposition"]
        return answer


class StrictSerializerSchema(OpenApiSerializerExtension):
    """A StrictSerializer refuses unknown keys: its schema says so."""

    target_class = "config.serializers.StrictSerializer"
    match_subclasses = True

    def map_serializer(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        schema: dict[str, Any] = auto_schema._map_serializer(
            self.target, direction, bypass_extensions=True
        )
        schema["additionalProperties"] = False
        return schema


# --- the rules engine's contract ----------------------------------------------------------------

NOT_YET: dict[str, Any] = {
    "type": "object",
    "maxProperties": 0,
    "description": "Empty while the match waits for its players.",
}


# What an entry of a match's log holds: an engine event, or for an undo the entry it cancels.
UNDONE_ENTRY: dict[str, Any] = {
    "type": "object",
    "properties": {"seq": {"type": "integer", "minimum": 1, "maximum": 2147483647}},
    "required": ["seq"],
    "additionalProperties": False,
    "description": "An undo's entry: the seq of the entry it cancels.",
}
LOG_ENTRY_EVENT: dict[str, Any] = {
    "oneOf": [
        {"$ref": "#/components/schemas/EngineEvent"},
        {"$ref": "#/components/schemas/UndoneEntry"},
    ],
    "description": "An engine event (kind `event`), or the entry an undo cancels (kind `undo`).",
}


def _contract_components() -> dict[str, Any]:
    def or_empty(union: dict[str, Any]) -> dict[str, Any]:
        # A pending match has {} as its state and ruleset: not a discipline's object.
        return {"oneOf": [*union["oneOf"], NOT_YET]}

    return {
        **contract.event_schemas(),
        **contract.state_schemas(),
        **contract.ruleset_schemas(),
        "EngineEvent": contract.event_union(),
        "UndoneEntry": UNDONE_ENTRY,
        "LogEntryEvent": LOG_ENTRY_EVENT,
        "MatchState": or_empty(contract.union("State")),
        "Ruleset": contract.union("Ruleset"),
        "RulesetChange": contract.ruleset_change_schema(),
        "MatchRuleset": or_empty(contract.union("Ruleset")),
    }


def document_contract(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular hook: the events, states and rulesets of the rules engine, described by
    the engine itself (rules.contract), as components the match fields refer to."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    added = _contract_components()
    clash = set(added) & set(schemas)
    if clash:  # a serializer of the same name would be overwritten silently
        raise ValueError(f"schema components defined twice: {sorted(clash)}")
    schemas.update(added)
    return result


class DecimalFieldSchema(OpenApiSerializerFieldExtension):
    """Money and percents as the server reads them: at least one digit, at most the field's,
    and no sign where the field refuses negatives (drf-spectacular's pattern lets "" and "-"
    through)."""

    target_class = "rest_framework.fields.DecimalField"
    match_subclasses = True

    def map_serializer_field(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        field = self.target
        places = field.decimal_places or 0
        digits = (field.max_digits or 30) - places
        sign = "" if field.min_value is not None and field.min_value >= 0 else "-?"
        fraction = rf"(?:\.\d{{1,{places}}})?" if places else ""
        return {
            "type": "string",
            "format": "decimal",
            "pattern": rf"^{sign}\d{{1,{digits}}}{fraction}$",
        }


# --- OpenAPI 3.1 ------------------------------------------------------------------------------

_ANNOTATIONS = ("description", "title", "readOnly", "writeOnly", "default", "deprecated")


def _nullable_31(node: Any) -> Any:
    """OpenAPI 3.0's `nullable: true` (left by hand-written schemas, e.g. rules.contract) as
    3.1's JSON Schema: a null type, or a oneOf with null for references and unions."""
    if isinstance(node, list):
        return [_nullable_31(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _nullable_31(value) for key, value in node.items()}
    if not out.pop("nullable", False):
        return out
    if "enum" in out and None not in out["enum"]:
        out["enum"] = [*out["enum"], None]
    kind = out.get("type")
    if isinstance(kind, str):
        out["type"] = [kind, "null"]
        return out
    if isinstance(kind, list):
        out["type"] = [*kind, "null"] if "null" not in kind else kind
        return out
    notes = {key: out.pop(key) for key in _ANNOTATIONS if key in out}
    if list(out) == ["allOf"] and len(out["allOf"]) == 1:
        out = out["allOf"][0]
    return {"oneOf": [out, {"type": "null"}], **notes}


def _union_refs_31(node: Any, unions: frozenset[str]) -> Any:
    """`allOf: [{$ref: <a discriminated union>}]` (how a described field refers to a component)
    as a plain `$ref` beside its description, as 3.1 allows: generators read an allOf around a
    union with a discriminator as inheritance from it and drop the discriminator (TypeScript's
    openapi-typescript typed an event as `Omit<EngineEvent, "type">`, any type accepted)."""
    if isinstance(node, list):
        return [_union_refs_31(item, unions) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _union_refs_31(value, unions) for key, value in node.items()}
    wrapped = out.get("allOf")
    if isinstance(wrapped, list) and len(wrapped) == 1 and wrapped[0].get("$ref") in unions:
        out = {**wrapped[0], **{key: value for key, value in out.items() if key != "allOf"}}
    return out


def openapi_31(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular hook, the last: no `nullable` is left (3.1 has none)."""
    if str(result.get("openapi", "")).startswith("3.1"):
        result["components"] = _nullable_31(result.get("components", {}))
        result["paths"] = _nullable_31(result.get("paths", {}))
        unions = frozenset(
            f"#/components/schemas/{name}"
            for name, schema in result["components"].get("schemas", {}).items()
            if "discriminator" in schema or name == "LogEntryEvent"
        )
        result["components"] = _union_refs_31(result["components"], unions)
        result["paths"] = _union_refs_31(result["paths"], unions)
    return result


# --- one named enum per enum ------------------------------------------------------------------

NULL_ENUM = "#/components/schemas/NullEnum"
_REF = "#/components/schemas/"
# Two serializers' choices with the same values are one enum: its name here, not whichever
# field drf-spectacular met first (a generated client would have two identical classes).
ENUM_ALIASES = {
    "MethodEnum": "DrawMethodEnum",
    "EventEnum": "WebhookEventEnum",
    "EventsEnum": "WebhookEventEnum",
}
_SPECIAL_ENUMS = ("NullEnum", "BlankEnum")
# Clearer names than "<property>Enum" for the engine's inline enums (two kinds of foul, of
# option and of cue ball place exist).
INLINE_ENUM_NAMES = {
    "FoulEnum": "ShotFoulEnum",
    "FoulEventFoulEnum": "CalledFoulEnum",
    "OptionEnum": "ChoiceOptionEnum",
    "RerackEventOptionEnum": "RerackOptionEnum",
    "OptionsEnum": "OfferedOptionEnum",
    "CombinedPyramidStateCueBallEnum": "CueBallPlaceEnum",
    "CueBallEnum": "CueBallOutcomeEnum",
    "ByEnum": "PairRaceByEnum",
}


def _enum_values(node: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(value for value in node["enum"] if value not in (None, ""))


def _camel(key: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in key.split("_"))


class _EnumNamer:
    """Names each set of enum values once: an existing component, else a new one."""

    def __init__(self, schemas: dict[str, Any]) -> None:
        self.schemas = schemas
        self.by_values: dict[frozenset[Any], str] = {}
        for name, schema in list(schemas.items()):
            if "enum" not in schema or name in _SPECIAL_ENUMS:
                continue
            values = frozenset(_enum_values(schema))
            known = self.by_values.get(values)
            canonical = ENUM_ALIASES.get(name, name)
            if known is not None and known != canonical:
                raise ValueError(f"enums {known} and {canonical} have the same values")
            self.by_values[values] = canonical
            if canonical != name:
                schemas.pop(name)
                schemas.setdefault(canonical, schema)

    def name(self, node: dict[str, Any], owner: str, key: str) -> str:
        values = _enum_values(node)
        known = self.by_values.get(frozenset(values))
        if known is not None:
            return known
        name = f"{_camel(key)}Enum"
        if INLINE_ENUM_NAMES.get(name, name) in self.schemas:
            name = f"{owner}{_camel(key)}Enum"
        name = INLINE_ENUM_NAMES.get(name, name)
        if name in self.schemas:
            raise ValueError(f"two enums named {name}")
        kind = node.get("type", "string")
        if isinstance(kind, list):
            kind = next(k for k in kind if k != "null")
        self.schemas[name] = {"type": kind, "enum": list(values)}
        self.by_values[frozenset(values)] = name
        return name


def _as_reference(node: dict[str, Any], name: str) -> dict[str, Any]:
    notes = {key: value for key, value in node.items() if key not in ("type", "enum")}
    nullable = None in node["enum"] or "null" in (node.get("type") or [])
    if nullable:
        return {"oneOf": [{"$ref": _REF + name}, {"$ref": NULL_ENUM}], **notes}
    return {"$ref": _REF + name, **notes}


def _name_inline_enums(node: Any, namer: _EnumNamer, owner: str, key: str, create: bool) -> Any:
    if isinstance(node, list):
        return [_name_inline_enums(item, namer, owner, key, create) for item in node]
    if not isinstance(node, dict):
        return node
    if isinstance(node.get("enum"), list) and len(_enum_values(node)) > 1:
        # One value is a tag (a discriminator's `type`): it stays a constant where it is.
        known = namer.by_values.get(frozenset(_enum_values(node)))
        if known is not None or create:
            return _as_reference(node, namer.name(node, owner, key))
        return node
    out: dict[str, Any] = {}
    for child_key, value in node.items():
        # A property's enum is named after the property; an array's items after the array.
        name_key = key if child_key in ("items", "oneOf", "anyOf", "allOf", "schema") else child_key
        if child_key == "properties" and isinstance(value, dict):
            out[child_key] = {
                prop: _name_inline_enums(schema, namer, owner, prop, create)
                for prop, schema in value.items()
            }
        else:
            out[child_key] = _name_inline_enums(value, namer, owner, name_key, create)
    return out


def _rename_refs(node: Any) -> Any:
    if isinstance(node, list):
        return [_rename_refs(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _rename_refs(value) for key, value in node.items()}
    ref = out.get("$ref")
    if isinstance(ref, str) and ref.startswith(_REF) and ref[len(_REF) :] in ENUM_ALIASES:
        out["$ref"] = _REF + ENUM_ALIASES[ref[len(_REF) :]]
    return out


def name_enums(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular hook, after openapi_31: every enum of two values or more is one named
    component, referred to by every field that takes it; a nullable one as `oneOf` [the enum,
    NullEnum]. The engine's contract writes its enums inline (`turn`, `awaiting`, ...), and a
    generator made a class of each of them per state and event."""
    components = result.setdefault("components", {})
    schemas = components.setdefault("schemas", {})
    namer = _EnumNamer(schemas)
    for name in list(schemas):
        if "enum" in schemas[name]:
            continue
        schemas[name] = _name_inline_enums(schemas[name], namer, name, name, create=True)
    schemas.setdefault(NULL_ENUM[len(_REF) :], {"type": "null"})
    # A query parameter's enum refers to a component only when one has its values.
    result["paths"] = _name_inline_enums(result.get("paths", {}), namer, "", "", create=False)
    result["components"] = _rename_refs(components)
    result["paths"] = _rename_refs(result["paths"])
    return result
