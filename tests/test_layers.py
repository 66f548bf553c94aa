"""The layers of DESIGN §2 point one way. Every import in src/memql — at module level, inside a function,
or under TYPE_CHECKING — is read from the source, and

- no module imports from a layer it may not depend on (ALLOWED below);
- no two modules import each other, directly or through others (no cycle, type-only imports included);
- `import memql.lang` loads no other memql layer and no third-party package but pydantic and dateutil.

`find_violations` and `find_cycles` take any source root, so the tests below also show them failing on
a small tree with a deliberate upward import and a deliberate cycle.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"

# layer -> the module prefixes it holds. The package root `memql` holds only __version__ and lazy names.
LAYERS: dict[str, tuple[str, ...]] = {
    "kernel": ("memql", "memql.errors"),
    "ports": ("memql.ports",),
    "lang": ("memql.lang",),
    "services": ("memql.services",),
    "index": ("memql.index",),
    "store": ("memql.store",),
    "engine": ("memql.engine",),
    "cognition": ("memql.cognition",),
    "api": ("memql.memory",),
    "shells": ("memql.interfaces", "memql.bench", "memql.testing", "memql.integrations", "memql.adapters"),
}
BELOW_ENGINE = {"kernel", "ports", "lang", "services", "index"}
# layer -> the layers it may import. The engine and the cognitive layers reach storage only through the
# Store port, never a backend; `lang` is pure and stands on nothing but the kernel.
ALLOWED: dict[str, set[str]] = {
    "kernel": set(),
    "ports": {"kernel"},
    "lang": {"kernel"},
    "services": {"kernel", "ports", "lang"},
    "index": {"kernel", "ports", "lang", "services"},
    "store": {"kernel", "ports", "lang", "services", "index"},
    "engine": BELOW_ENGINE,
    "cognition": BELOW_ENGINE | {"engine"},
    "api": BELOW_ENGINE | {"store", "engine", "cognition"},
    "shells": set(LAYERS),
}


def layer_of(module: str) -> str | None:
    best = None
    for layer, prefixes in LAYERS.items():
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and (
                best is None or len(prefix) > len(best[1])
            ):
                best = (layer, prefix)
    return best[0] if best else None


def modules(src: Path) -> dict[str, Path]:
    out = {}
    for path in src.rglob("*.py"):
        parts = path.relative_to(src).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _lazy_names(tree: ast.Module) -> dict[str, str]:
    """A package root's `LAZY = {"Name": "module"}` table (names it loads on first use)."""
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "LAZY" for t in node.targets):
            return ast.literal_eval(node.value)
    return {}


def imports(src: Path) -> dict[str, set[str]]:
    """module -> the memql modules it imports (every import statement, wherever it stands). An import of a
    name a package root loads lazily counts as an import of the module that defines it."""
    found = modules(src)
    # the layer and cycle checks read the same tree: parsed once while no file of it changes
    stats = {str(path): path.stat() for path in found.values()}
    state = tuple(sorted((path, stat.st_mtime_ns, stat.st_size) for path, stat in stats.items()))
    if state not in _imports_of:
        _imports_of[state] = _imports(found)
    return {module: set(targets) for module, targets in _imports_of[state].items()}


_imports_of: dict[tuple, dict[str, set[str]]] = {}


def _imports(found: dict[str, Path]) -> dict[str, set[str]]:
    trees = {name: ast.parse(path.read_text(encoding="utf-8")) for name, path in found.items()}
    lazy = {pkg: _lazy_names(tree) for pkg, tree in trees.items() if found[pkg].name == "__init__.py"}
    edges: dict[str, set[str]] = {}
    for name, tree in trees.items():
        is_package = found[name].name == "__init__.py"
        targets: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    package = name.split(".") if is_package else name.split(".")[:-1]
                    package = package[: len(package) - (node.level - 1)]
                    base = ".".join([*package, base] if base else package)
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    if full in found:
                        targets.add(full)
                    elif alias.name in lazy.get(base, {}):
                        targets.add(lazy[base][alias.name])
                    else:
                        targets.add(base)
        if is_package and name in lazy:  # the root's lazy loader is not a dependency of the kernel
            targets -= set(lazy[name].values())
        edges[name] = {t for t in targets if t in found and t != name}
    return edges


def find_violations(src: Path) -> list[str]:
    out = []
    for module, targets in sorted(imports(src).items()):
        mine = layer_of(module)
        if mine is None:
            continue
        for target in sorted(targets):
            theirs = layer_of(target)
            if theirs is not None and theirs != mine and theirs not in ALLOWED[mine]:
                out.append(f"{module} ({mine}) imports {target} ({theirs})")
    return out


def find_cycles(src: Path) -> list[list[str]]:
    """The import graph's strongly connected components with more than one module (Tarjan)."""
    graph = imports(src)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    counter = [0]

    def visit(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(cycles)


def test_every_module_has_a_layer():
    assert [m for m in modules(SRC) if layer_of(m) is None] == []


def test_no_import_points_up_the_layers():
    assert find_violations(SRC) == []


def test_no_import_cycle():
    assert find_cycles(SRC) == []


# what pydantic and dateutil bring with them
LANG_DEPENDENCIES = {
    "pydantic",
    "pydantic_core",
    "annotated_types",
    "typing_extensions",
    "typing_inspection",
    "dateutil",
    "six",
}


def _loaded_by(statement: str) -> set[str]:
    """The modules a fresh interpreter has loaded after `statement`: memql's by layer package
    (memql.lang), others by top-level name, standard library and private modules left out."""
    code = (
        f"import sys\n{statement}\n"
        "for m in sys.modules:\n"
        "    top = m.split('.')[0]\n"
        "    if top not in sys.stdlib_module_names and not top.startswith('_'):\n"
        "        print('.'.join(m.split('.')[:2]) if top == 'memql' else top)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(done.stdout.split())


def test_the_language_loads_alone():
    """`import memql.lang` loads the language (and the kernel it stands on), pydantic and dateutil: no
    other memql layer and no other third-party package than the interpreter loads by itself."""
    loaded = _loaded_by("import memql.lang") - _loaded_by("pass")
    memql_modules = {m for m in loaded if m.startswith("memql")}
    assert memql_modules <= {"memql", "memql.lang", "memql.errors"}, memql_modules
    assert loaded - memql_modules <= LANG_DEPENDENCIES, loaded - memql_modules - LANG_DEPENDENCIES


def test_the_python_api_loads_conversations_and_grammars_when_first_used():
    """`from memql import Memory` loads the engine and the store, not the conversations (Memory.conversation
    imports them) nor the extractor's grammars (its first interpretation does): most of a cold start."""
    code = "import sys\nfrom memql import Memory\nprint(' '.join(sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = set(done.stdout.split())
    assert {"memql.memory", "memql.engine.executor", "memql.store"} <= loaded
    assert not {"memql.cognition.conversation.session", "memql.services.extract.rules"} & loaded


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path


@pytest.fixture
def small_tree(tmp_path: Path) -> Path:
    return _tree(
        tmp_path,
        {
            "memql/__init__.py": "",
            "memql/lang/__init__.py": "",
            "memql/lang/ops.py": "X = 1\n",
            "memql/engine/__init__.py": "",
            "memql/engine/executor.py": "from memql.lang.ops import X\n",
        },
    )


def test_the_checks_pass_a_clean_tree(small_tree: Path):
    assert find_violations(small_tree) == [] and find_cycles(small_tree) == []


def test_an_upward_import_is_named(small_tree: Path):
    (small_tree / "memql/lang/ops.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from memql.engine.executor import Y\n"
    )
    assert find_violations(small_tree) == ["memql.lang.ops (lang) imports memql.engine.executor (engine)"]
    assert find_cycles(small_tree) == [["memql.engine.executor", "memql.lang.ops"]]


def test_an_import_inside_a_function_counts(small_tree: Path):
    (small_tree / "memql/lang/ops.py").write_text("def f():\n    from memql.engine import executor\n")
    assert find_violations(small_tree) == ["memql.lang.ops (lang) imports memql.engine.executor (engine)"]


def test_a_lazy_root_name_counts_as_its_module(small_tree: Path):
    _tree(
        small_tree,
        {
            "memql/__init__.py": 'LAZY = {"Memory": "memql.memory"}\n',
            "memql/memory.py": "from memql.engine.executor import X\n",
            "memql/engine/facts.py": "from memql import Memory\n",
        },
    )
    assert find_violations(small_tree) == ["memql.engine.facts (engine) imports memql.memory (api)"]
