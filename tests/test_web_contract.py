"""One contract between the server and the page: the JSDoc typedefs of web/static/api.js against /openapi.json.

A typedef that mirrors a response model says so with ``@schema ModelName``; every model a route answers with
has one. Field by field (names, which are optional, which may be null, and the kind of each value, nested
objects included) the two must agree, so a field added on one side and not the other fails here. A missing
game is a typed GameNotFoundError, answered 404 by its type."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kalah.records import GameLibrary, GameNotFoundError, LibraryError
from kalah.web import create_app
from kalah.web.errors import ApiError, in_thread

API_JS = Path(__file__).resolve().parents[1] / "src" / "kalah" / "web" / "static" / "api.js"

# --- the JSDoc side: typedefs parsed into shapes ------------------------------------------------------
#
# A shape is: "number", "string", "boolean", "null", "any", ("literal", value), ("array", shape),
# ("object", {name: (shape, required)}) or ("object", None) for an object of any fields, ("union", frozenset).


def _balanced(text: str, start: int) -> tuple[str, int]:
    """The text inside the braces that open at `start`, and the index after them."""
    assert text[start] == "{", text[start : start + 40]
    depth = 0
    for i in range(start, len(text)):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        if depth == 0:
            return text[start + 1 : i], i + 1
    raise AssertionError(f"unbalanced braces at {text[start : start + 40]!r}")


TOKEN = re.compile(r'\s*(?:(?P<string>"[^"]*")|(?P<name>[A-Za-z_$][\w$.]*)|(?P<punct>\[\]|[{}()<>|&:,;?\[\]]))')


class TypeParser:
    """A JSDoc type expression (the subset api.js uses) into a shape; named types come from `typedefs`."""

    def __init__(self, text: str, typedefs: dict[str, Any]) -> None:
        self.tokens = []
        pos = 0
        while pos < len(text.rstrip()):
            match = TOKEN.match(text, pos)
            assert match, f"cannot read the type {text!r} at {text[pos:]!r}"
            self.tokens.append(match.group(match.lastgroup))
            pos = match.end()
        self.at = 0
        self.typedefs = typedefs

    def peek(self) -> str | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def take(self, expected: str | None = None) -> str:
        token = self.tokens[self.at]
        assert expected is None or token == expected, f"expected {expected!r}, found {token!r} in {self.tokens}"
        self.at += 1
        return token

    def parse(self) -> Any:
        shape = self.union()
        assert self.peek() is None, f"left over: {self.tokens[self.at :]}"
        return shape

    def union(self) -> Any:
        options = [self.intersection()]
        while self.peek() == "|":
            self.take("|")
            options.append(self.intersection())
        flat: set[Any] = set()
        for option in options:
            flat |= option[1] if isinstance(option, tuple) and option[0] == "union" else {option}
        return next(iter(flat)) if len(flat) == 1 else ("union", frozenset(flat))

    def intersection(self) -> Any:
        """``A & {...}``: an object with the fields of both (a model that extends another)."""
        shape = self.postfix()
        while self.peek() == "&":
            self.take("&")
            other = self.postfix()
            assert shape[0] == other[0] == "object" and None not in (shape[1], other[1]), (shape, other)
            shape = ("object", tuple(sorted({field[0]: field for field in (*shape[1], *other[1])}.values())))
        return shape

    def postfix(self) -> Any:
        shape = self.primary()
        while self.peek() == "[]":
            self.take("[]")
            shape = ("array", shape)
        return shape

    def primary(self) -> Any:
        token = self.take()
        if token == "(":
            shape = self.union()
            self.take(")")
            return shape
        if token.startswith('"'):
            return ("literal", token[1:-1])
        if token == "{":
            fields = {}
            while self.peek() != "}":
                name = self.take()
                optional = self.peek() == "?"
                if optional:
                    self.take("?")
                self.take(":")
                fields[name] = (self.union(), not optional)
                if self.peek() in (",", ";"):
                    self.take()
            self.take("}")
            return ("object", _frozen(fields))
        if self.peek() == "<":  # Record<K, V>, Partial<T>...: an object of any fields
            depth = 0
            while True:
                t = self.take()
                depth += {"<": 1, ">": -1}.get(t, 0)
                if depth == 0:
                    break
            return ("object", None)
        if token in ("number", "string", "boolean", "null"):
            return token
        if token in ("object", "Object"):
            return ("object", None)
        if token in ("any", "unknown"):
            return "any"
        assert token in self.typedefs, f"unknown type {token!r} (not a typedef of api.js)"
        return self.typedefs[token]()


def _frozen(fields: dict[str, tuple[Any, bool]]) -> tuple[tuple[str, Any, bool], ...]:
    return tuple(sorted((name, shape, required) for name, (shape, required) in fields.items()))


def jsdoc_typedefs(text: str) -> tuple[dict[str, Any], dict[str, str]]:
    """Every typedef of `text` as a shape (by name), and the OpenAPI model each `@schema` typedef mirrors."""
    raw: dict[str, tuple[str | None, dict[str, tuple[str, bool]]]] = {}
    schema_of: dict[str, str] = {}
    for block in re.findall(r"/\*\*(.*?)\*/", text, re.S):
        block = re.sub(r"^\s*\* ?", "", block, flags=re.M)
        at = block.find("@typedef")
        if at < 0:
            continue
        body, end = _balanced(block, block.index("{", at))
        name = re.match(r"\s*(\w+)", block[end:]).group(1)  # type: ignore[union-attr]
        fields: dict[str, tuple[str, bool]] = {}
        for prop in re.finditer(r"@property\s*(?=\{)", block):
            ptype, pend = _balanced(block, prop.end())
            field = re.match(r"\s*(\[?)(\w+)", block[pend:])
            assert field, block[pend : pend + 40]
            fields[field.group(2)] = (ptype, field.group(1) != "[")
        raw[name] = (None if body.strip() in ("object", "Object") and fields else body, fields)
        schema = re.search(r"@schema\s+(\w+)", block)
        if schema:
            schema_of[name] = schema.group(1)

    shapes: dict[str, Any] = {}

    def resolver(name: str) -> Any:
        def resolve() -> Any:
            if name not in shapes:
                body, fields = raw[name]
                if body is not None:
                    shapes[name] = TypeParser(body, resolvers).parse()
                else:
                    shapes[name] = (
                        "object",
                        _frozen({f: (TypeParser(t, resolvers).parse(), req) for f, (t, req) in fields.items()}),
                    )
            return shapes[name]

        return resolve

    resolvers = {name: resolver(name) for name in raw}
    return {name: resolvers[name]() for name in raw}, schema_of


# --- the OpenAPI side ---------------------------------------------------------------------------------


def openapi_shape(schema: dict[str, Any], components: dict[str, Any]) -> Any:
    """A JSON schema of /openapi.json as a shape."""
    if "$ref" in schema:
        return openapi_shape(components[schema["$ref"].rsplit("/", 1)[1]], components)
    if "anyOf" in schema:
        options: set[Any] = set()
        for option in (openapi_shape(option, components) for option in schema["anyOf"]):
            # a Literal that may be None: anyOf [enum, null], the enum itself a union
            options |= option[1] if isinstance(option, tuple) and option[0] == "union" else {option}
        return next(iter(options)) if len(options) == 1 else ("union", frozenset(options))
    if "const" in schema:
        return ("literal", schema["const"])
    if "enum" in schema:
        values = [("literal", value) for value in schema["enum"]]
        return values[0] if len(values) == 1 else ("union", frozenset(values))
    kind = schema.get("type")
    if kind in ("integer", "number"):
        return "number"
    if kind in ("string", "boolean", "null"):
        return kind
    if kind == "array":
        return ("array", openapi_shape(schema.get("items", {}), components))
    if kind == "object" or "properties" in schema:
        if "properties" not in schema:
            return ("object", None)
        required = set(schema.get("required", []))
        return (
            "object",
            _frozen(
                {name: (openapi_shape(sub, components), name in required) for name, sub in schema["properties"].items()}
            ),
        )
    return "any"


def disagreements(js: Any, api: Any, where: str) -> list[str]:
    """How the page's shape `js` and the server's `api` differ (empty when they agree)."""
    if js == api or js == "any":
        return []
    if js == "string" and isinstance(api, tuple) and api[0] == "literal" and isinstance(api[1], str):
        return []  # the page may read a closed set of names as any string
    if isinstance(js, tuple) and isinstance(api, tuple) and js[0] == api[0]:
        if js[0] == "array":
            return disagreements(js[1], api[1], where + "[]")
        if js[0] == "object":
            if api[1] is None:
                return []  # the server promises an object of any fields: the page's typedef may name them
            if js[1] is None:
                return [f"{where}: the page types an object of any fields, the server's model names them"]
            page = {name: (shape, required) for name, shape, required in js[1]}
            server = {name: (shape, required) for name, shape, required in api[1]}
            found = [
                f"{where}.{name}: in the server's model, not in the page's typedef"
                for name in server.keys() - page.keys()
            ]
            found += [
                f"{where}.{name}: in the page's typedef, not in the server's model"
                for name in page.keys() - server.keys()
            ]
            for name in sorted(page.keys() & server.keys()):
                if page[name][1] != server[name][1]:
                    found.append(
                        f"{where}.{name}: {'required' if server[name][1] else 'optional'} on the server,"
                        f" {'required' if page[name][1] else 'optional'} on the page"
                    )
                found += disagreements(page[name][0], server[name][0], f"{where}.{name}")
            return found
        if js[0] == "union":
            page_options, server_options = set(js[1]), set(api[1])
            missing = [o for o in server_options if not any(not disagreements(p, o, where) for p in page_options)]
            extra = [p for p in page_options if not any(not disagreements(p, o, where) for o in server_options)]
            return [f"{where}: the page's type lacks {o!r}" for o in missing] + [
                f"{where}: the server never sends {p!r}" for p in extra
            ]
    if isinstance(api, tuple) and api[0] == "union" and not (isinstance(js, tuple) and js[0] == "union"):
        return disagreements(("union", frozenset({js})), api, where)
    return [f"{where}: the page says {js!r}, the server {api!r}"]


def response_models(openapi: dict[str, Any]) -> set[str]:
    """The models the routes answer with (directly or as a list)."""
    found = set()
    for methods in openapi["paths"].values():
        for operation in methods.values():
            for status, response in operation.get("responses", {}).items():
                schema = response.get("content", {}).get("application/json", {}).get("schema", {})
                schema = schema.get("items", schema)
                if status.startswith("2") and "$ref" in schema:
                    found.add(schema["$ref"].rsplit("/", 1)[1])
    return found


def contract_problems(api_js: str, openapi: dict[str, Any]) -> list[str]:
    typedefs, schema_of = jsdoc_typedefs(api_js)
    components = openapi["components"]["schemas"]
    problems = [
        f"the server answers with {model}, and no typedef of api.js says @schema {model}"
        for model in sorted(response_models(openapi) - set(schema_of.values()))
    ]
    for name, model in sorted(schema_of.items()):
        if model not in components:
            problems.append(f"{name}: @schema {model} names no model of /openapi.json")
            continue
        problems += disagreements(typedefs[name], openapi_shape(components[model], components), name)
    return problems


@pytest.fixture(scope="module")
def openapi(tmp_path_factory) -> dict[str, Any]:
    return create_app(tmp_path_factory.mktemp("contract") / "games.sqlite", workers=1, pool="thread").openapi()


def test_the_pages_typedefs_are_the_servers_response_models(openapi):
    _, schema_of = jsdoc_typedefs(API_JS.read_text(encoding="utf-8"))
    assert {"GameState", "Effect", "Player", "Frame", "ReplayData", "GameSummary", "Info"} <= schema_of.keys()
    assert contract_problems(API_JS.read_text(encoding="utf-8"), openapi) == []


def test_a_field_on_one_side_only_fails_the_contract(openapi):
    text = API_JS.read_text(encoding="utf-8")
    # the page drops a field the server sends
    dropped = text.replace(" * @property {boolean} can_redo\n", "")
    assert dropped != text
    # (LiveOut holds a GameState too, and NewGameOut extends it: they fail as well)
    assert contract_problems(dropped, openapi) == [
        "GameState.can_redo: in the server's model, not in the page's typedef",
        "Live.state.can_redo: in the server's model, not in the page's typedef",
        "NewGameState.can_redo: in the server's model, not in the page's typedef",
    ]
    # the extension's own field, read through ``GameState & {...}``
    extended = text.replace("{GameState & {leave_token?: string | null}}", "{GameState & {}}")
    assert extended != text
    assert contract_problems(extended, openapi) == [
        "NewGameState.leave_token: in the server's model, not in the page's typedef"
    ]
    # the server's model gains a field the page does not know, deep inside a list of levels
    grown = {**openapi, "components": {"schemas": {**openapi["components"]["schemas"]}}}
    level = grown["components"]["schemas"]["LevelOut"]
    grown["components"]["schemas"]["LevelOut"] = {
        **level,
        "properties": {**level["properties"], "depth": {"type": "integer"}},
        "required": [*level["required"], "depth"],
    }
    assert contract_problems(text, grown) == ["Info.levels[].depth: in the server's model, not in the page's typedef"]
    # a value that may be null on the server but not on the page, or of another kind
    assert contract_problems(
        text.replace("@property {number | null} winner\n", "@property {number} winner\n", 1), openapi
    )
    assert contract_problems(text.replace("@property {number} moves ", "@property {string} moves ", 1), openapi)
    # a new route's model with no typedef
    routes = {
        **openapi,
        "paths": {
            **openapi["paths"],
            "/api/new": {
                "get": {
                    "responses": {
                        "200": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/LevelOut"}}}}
                    }
                }
            },
        },
    }
    assert contract_problems(text, routes) == [
        "the server answers with LevelOut, and no typedef of api.js says @schema LevelOut"
    ]


def test_analyses_and_variants_are_in_the_contract(openapi):
    text = API_JS.read_text(encoding="utf-8")
    _, schema_of = jsdoc_typedefs(text)
    assert {
        "Analysis": "AnalysisOut",
        "MoveValue": "MoveValueOut",
        "Variant": "VariantOut",
    }.items() <= schema_of.items()
    assert "AnalysisOut" in response_models(openapi)
    dropped = text.replace(", pie_rule: boolean}} Variant", "}} Variant")
    assert dropped != text
    assert "GameState.variant.pie_rule: in the server's model, not in the page's typedef" in contract_problems(
        dropped, openapi
    )
    required = text.replace("@property {Move[] | null} [best_moves]", "@property {Move[] | null} best_moves")
    assert required != text
    assert contract_problems(required, openapi) == ["Analysis.best_moves: optional on the server, required on the page"]


# --- a missing game, by its type ----------------------------------------------------------------------


def test_a_missing_game_is_a_game_not_found_error(tmp_path):
    library = GameLibrary(tmp_path / "games.sqlite")
    for read in (library.position, library.record, library.summary, library.delete_game):
        with pytest.raises(GameNotFoundError, match="no game 7"):
            read(7)
    assert issubclass(GameNotFoundError, LibraryError)


def test_the_service_answers_404_by_the_errors_type_not_its_text(tmp_path):
    """Every library call of the web goes through errors.in_thread, which answers by the error's type."""

    def failing(error: Exception) -> Any:
        def call() -> None:
            raise error

        return call

    def status(error: Exception) -> int:
        with pytest.raises(ApiError) as caught:
            asyncio.run(in_thread(failing(error)))
        return caught.value.status

    assert status(GameNotFoundError(7, tmp_path / "games.sqlite")) == 404
    assert status(LibraryError("no game library here: the disk is full")) == 503


def test_the_api_answers_404_for_a_missing_game(tmp_path):
    with TestClient(
        create_app(tmp_path / "games.sqlite", workers=1, pool="thread"),
        base_url="http://localhost",
        client=("127.0.0.1", 5000),  # on the server's machine: its DELETE reaches the library
    ) as client:
        for answer in (client.get("/api/games/41"), client.get("/api/games/41/replay"), client.delete("/api/games/41")):
            assert answer.status_code == 404 and "no game 41" in answer.json()["detail"]


def test_every_api_path_the_docs_name_is_a_route(tmp_path):
    """NewGame.players pointed at /api/levels, which is 404: a path in a description must be served."""
    with TestClient(
        create_app(tmp_path / "games.sqlite", workers=1, pool="thread"), base_url="http://localhost"
    ) as client:
        schema = client.get("/openapi.json").json()
    routes = {re.sub(r"\{[^}]*\}", "{}", path) for path in schema["paths"]}

    def texts(node: Any) -> list[str]:
        if isinstance(node, dict):
            said = [v for k, v in node.items() if k in ("description", "summary") and isinstance(v, str)]
            return said + [text for value in node.values() for text in texts(value)]
        return [text for value in node for text in texts(value)] if isinstance(node, list) else []

    named = {path for text in texts(schema) for path in re.findall(r"/api/[\w/{}.-]*[\w}]", text)}
    for path in named:
        assert re.sub(r"\{[^}]*\}|\bID\b", "{}", path) in routes, path
    assert "/api/info" in named, named
