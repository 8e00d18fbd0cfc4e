"""Schema validation: a compiled fast path, and jsonschema for the report.

``fastjsonschema`` compiles the schema to Python code and decides quickly that
a campaign is valid (the common case, and the one the benchmark measures).
Only when it says no does ``jsonschema`` -- the reference Draft 2020-12
implementation -- run, to give one precise, most-relevant message per problem.
The schemas use only keywords both implementations understand; a test holds
their verdicts equal over the whole test corpus.
"""

from __future__ import annotations

from functools import cache
from typing import Iterator

import fastjsonschema
import jsonschema
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry, Resource

from .diagnostics import Diagnostic, JsonPath
from .resources import SCHEMA_BASE, load_schema

SCHEMAS = ("campaign.schema.json", "cards.schema.json")

# Schema keyword -> diagnostic code.
KEYWORD_CODES = {
    "type": "CR101",
    "required": "CR102",
    "additionalProperties": "CR103",
    "enum": "CR104",
    "const": "CR104",
    "pattern": "CR105",
    "minimum": "CR106",
    "maximum": "CR106",
    "minItems": "CR107",
    "maxItems": "CR107",
    "minLength": "CR108",
    "maxLength": "CR108",
    "maxProperties": "CR107",
    "propertyNames": "CR109",
    "oneOf": "CR110",
}


@cache
def _registry() -> Registry:
    resources = [(SCHEMA_BASE + name, Resource.from_contents(load_schema(name))) for name in SCHEMAS]
    return Registry().with_resources(resources)


@cache
def reference_validator(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(load_schema(name), registry=_registry())


@cache
def fast_validator(name: str):
    handlers = {"https": lambda uri: load_schema(uri.rsplit("/", 1)[-1])}
    return fastjsonschema.compile(load_schema(name), handlers=handlers, use_formats=False)


def is_valid(data: object, name: str) -> bool:
    try:
        fast_validator(name)(data)
    except fastjsonschema.JsonSchemaException:
        return False
    return True


def _describe(error: ValidationError) -> tuple[str, JsonPath]:
    """A message an author can act on, and the path it is about."""
    path: JsonPath = tuple(error.absolute_path)
    kw = error.validator
    if kw == "additionalProperties":
        extra = sorted(set(error.instance) - set(error.schema.get("properties", {})))
        if extra:
            known = ", ".join(sorted(error.schema.get("properties", {})))
            return f"unknown property {extra[0]!r} (expected one of: {known})", path + (extra[0],)
    if kw == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        return f"missing required property {missing!r}", path
    if kw == "enum":
        options = ", ".join(repr(o) for o in error.validator_value)
        return f"{error.instance!r} is not one of {options}", path
    if kw == "pattern" and error.validator_value == "^N?E?S?W?$":
        return f"paths {error.instance!r} must be a subset of NESW in that order", path
    if kw == "pattern":
        return f"{error.instance!r} is not a valid id (lower-case letters, digits and dashes)", path
    if kw == "oneOf" and isinstance(error.instance, dict):
        return "a goal is exactly one of {\"slay\": card}, {\"open\": card} or {\"buy\": card}", path
    return error.message, path


def schema_diagnostics(data: object, name: str) -> Iterator[Diagnostic]:
    """One diagnostic per problem: the best match of each group of related errors."""
    validator = reference_validator(name)
    seen: set[JsonPath] = set()
    errors = sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
    for error in errors:
        best = best_match([error])
        message, path = _describe(best)
        if path in seen:
            continue
        seen.add(path)
        code = KEYWORD_CODES.get(best.validator, "CR100")
        yield Diagnostic(code, message, path=path)
