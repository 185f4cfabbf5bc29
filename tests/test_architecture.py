"""The shape of the code (docs/architecture.md): the layers import only downwards, no import circle, every module
says what it owns, short functions and modules, loggers that redact, faces that decide no permission."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "referee"
MAX_FUNCTION_LINES = 60
# Lines of code (not blank, comment or docstring lines): past this a module is doing more than one thing.
MAX_MODULE_CODE_LINES = 800

# The layers, lowest first, and the layers each may import (besides its own). docs/architecture.md draws them.
LAYERS: dict[str, tuple[str, ...]] = {
    "engine": (),
    "rulebook": ("engine",),
    "store": (),
    "service": ("store", "rulebook", "engine"),
    "web": ("service", "rulebook", "engine"),
    "app": ("web", "service", "store", "rulebook", "engine"),
    "server": ("app", "web", "service", "store", "rulebook", "engine"),
    "tools": ("server", "app", "web", "service", "store", "rulebook", "engine"),
}
# The two layers that see requests: what they log may quote a request's path, so their loggers redact.
REQUEST_LAYERS = ("web", "server")


def layer_of(module: str) -> str:
    """The layer a dotted module name belongs to."""
    parts = module.split(".")
    if parts[0] == "tools":
        return "tools"
    if len(parts) > 1 and parts[1] in LAYERS:
        return parts[1]
    if module == "referee.__main__":
        return "server"
    return "app"  # referee itself (create_app) and referee.config


def _modules(*tops: str) -> dict[str, Path]:
    """Every module of the package (and of `tops`, if given) by dotted name (a package by its __init__.py)."""
    found = {}
    for top in tops or ("referee",):
        for path in sorted((ROOT / top).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The package's modules that `name` imports (relative or absolute, type-checking imports included)."""
    is_package = path.name == "__init__.py"
    base = name.split(".") if is_package else name.split(".")[:-1]
    targets: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = base[: len(base) - (node.level - 1)]
                module = ".".join([*anchor, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            for alias in node.names:
                # `from . import api` imports the submodule; `from . import create_app` the package itself.
                submodule = f"{module}.{alias.name}"
                targets.add(submodule if submodule in known else module)
    return {target for target in targets if target in known and target != name}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """Return one import circle in `graph`, or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for target in sorted(graph[node]):
            if state.get(target) == 1:
                return stack[stack.index(target) :] + [target]
            if target not in state and (found := visit(target)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_no_module_imports_one_that_imports_it_back() -> None:
    modules = _modules()
    graph = {name: _imports(name, path, set(modules)) for name, path in modules.items()}
    # A package importing its own submodules (to register them) is not a circle unless they import it back.
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


def test_the_circle_check_finds_a_circle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_every_module_opens_with_a_docstring_saying_what_it_owns() -> None:
    missing = [name for name, path in _modules().items() if not ast.get_docstring(ast.parse(path.read_text()))]
    assert missing == []


def test_no_function_is_longer_than_sixty_lines() -> None:
    long = []
    for name, path in _modules().items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    long.append(f"{name}.{node.name}: {length} lines")
    assert long == []


def test_each_layer_imports_only_the_layers_below_it() -> None:
    modules = _modules("referee", "tools")
    known = set(modules)
    wrong = []
    for name, path in modules.items():
        layer = layer_of(name)
        for target in sorted(_imports(name, path, known)):
            other = layer_of(target)
            if other != layer and other not in LAYERS[layer]:
                wrong.append(f"{name} ({layer}) -> {target} ({other})")
    assert wrong == []


def test_the_layer_check_finds_an_import_upwards(tmp_path: Path) -> None:
    module = tmp_path / "referee" / "store" / "rows.py"
    module.parent.mkdir(parents=True)
    module.write_text("from ..web import pages\n")
    assert _imports("referee.store.rows", module, {"referee.web.pages"}) == {"referee.web.pages"}
    assert layer_of("referee.web.pages") not in LAYERS[layer_of("referee.store.rows")]


def _code_lines(path: Path) -> int:
    """Lines of code in a module: not blank, not comments, not docstrings."""
    tree = ast.parse(path.read_text())
    docstring_lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                docstring_lines.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    return sum(
        1
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if line.strip() and not line.strip().startswith("#") and number not in docstring_lines
    )


def test_no_module_is_over_eight_hundred_lines_of_code() -> None:
    long = {
        name: lines
        for name, path in _modules("referee", "tools").items()
        if (lines := _code_lines(path)) > MAX_MODULE_CODE_LINES
    }
    assert long == {}


def test_the_loggers_of_the_layers_that_see_requests_redact_secrets() -> None:
    """A log line there may quote a request's path (join secrets, table codes): every logger in web/ and server/
    is made by redacted_logger (referee serve also redacts at its one handler, which covers every other logger)."""
    makers = {PACKAGE / "web" / "redaction.py", PACKAGE / "web" / "logs.py"}
    bare = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for layer in REQUEST_LAYERS
        for path in sorted((PACKAGE / layer).rglob("*.py"))
        if path not in makers
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Attribute) and node.attr == "getLogger"
    ]
    assert bare == []


# The service reads that hand out what only the host's phone (or the table's token) may see, without asking who
# reads: the host's list of join requests and of phones. A face reads them through their actor-checked twins
# (Referee.requests_for_host, Referee.phones), which refuse with Forbidden.
UNCHECKED_READS = ("join_requests", "devices")
# A template compares a phone's role (`d.role == 'host'`, `role in (...)`).
TEMPLATE_ROLE_TEST = re.compile(r"\.role\s*(==|!=|\bin\b|\bnot\s+in\b)")


def _access_predicates() -> set[str]:
    """The functions of referee/service/access.py that decide something about one phone: every public one but
    `permissions`, which hands a face all its flags at once."""
    tree = ast.parse((PACKAGE / "service" / "access.py").read_text())
    public = {node.name for node in tree.body if isinstance(node, ast.FunctionDef) and not node.name.startswith("_")}
    return public - {"permissions"}


def _name_of(node: ast.expr) -> str:
    """The name a call calls: `f` for `f(...)` and `x.f(...)`."""
    return node.id if isinstance(node, ast.Name) else getattr(node, "attr", "")


def _is_role(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "role"


def permission_decisions(source: str, *, compares_tokens: bool = False) -> list[tuple[int, str]]:
    """Where a face's Python decides who may do what itself: (line, what), empty if nowhere.

    It compares a phone's role; calls (or imports) one of access.py's predicates; reads what only the host may see
    without the actor check; checks a token (unless `compares_tokens`: web/security.py compares CSRF tokens, a
    forged form, not who may do what); or acts as the Operator (who may do anything).
    """
    predicates = _access_predicates()
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare) and any(_is_role(side) for side in [node.left, *node.comparators]):
            found.append((node.lineno, "compares a role"))
        elif isinstance(node, ast.ImportFrom):
            found += [(node.lineno, f"imports {a.name}") for a in node.names if a.name in predicates]
        elif isinstance(node, ast.Call) and _name_of(node.func) in predicates:
            found.append((node.lineno, f"calls {_name_of(node.func)}"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in UNCHECKED_READS:
            found.append((node.lineno, f"reads {node.func.attr} unchecked"))
        elif isinstance(node, ast.Call) and _name_of(node.func) == "compare_digest" and not compares_tokens:
            found.append((node.lineno, "checks a token"))
        elif isinstance(node, ast.Name) and node.id == "Operator":
            found.append((node.lineno, "acts as the Operator"))
    return sorted(found)


def test_the_faces_decide_no_permission() -> None:
    """Who may do what is decided in referee/service/access.py: a page, an API route or a template never tells the
    host's phone from another itself, nor reads the host's lists unchecked; it branches on the flags of
    `Permissions` or words the service's refusal (a new face that forgot a check would give write access)."""
    found = [
        f"{path.relative_to(ROOT)}:{line}: {what}"
        for path in sorted((PACKAGE / "web").rglob("*.py"))
        for line, what in permission_decisions(
            path.read_text(), compares_tokens=path == PACKAGE / "web" / "security.py"
        )
    ]
    found += [
        f"{path.relative_to(ROOT)}:{number}: compares a role"
        for path in sorted((PACKAGE / "templates").rglob("*.html"))
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if TEMPLATE_ROLE_TEST.search(line)
    ]
    assert found == []


def test_the_permission_check_finds_each_kind_of_decision() -> None:
    source = """
from ...service import is_host_phone
if device.role == "host": pass
if "host" != d.role: pass
if may_enter(view, device): pass
rows = get_referee().join_requests(view)
phones = referee.devices(view)
hmac.compare_digest(a, b)
referee.act(code, command, actor=Operator())
"""
    assert [what for _, what in permission_decisions(source)] == [
        "imports is_host_phone",
        "compares a role",
        "compares a role",
        "calls may_enter",
        "reads join_requests unchecked",
        "reads devices unchecked",
        "checks a token",
        "acts as the Operator",
    ]
    flags = "may = permissions(view, device)\nif may.is_host: rows = referee.requests_for_host(view, Phone(device))\n"
    assert permission_decisions(flags) == []
    assert TEMPLATE_ROLE_TEST.search("{% if d.role != 'host' %}")
    assert not TEMPLATE_ROLE_TEST.search('<p role="status">')
