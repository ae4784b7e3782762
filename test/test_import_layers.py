"""tnpu's layers import downward only, and nothing in tnpu/ imports in a cycle.

The test reads every module under `tnpu/` with `ast` and collects every
import at any depth: at module level, inside functions (a lazy import),
under `if TYPE_CHECKING:`.  A lazy or type-only import is an edge all the
same: the code needs the module it names.  Then:

* every *unit* (a package directly under `tnpu/`, a top-level module, or
  `tnpu` itself for its `__init__`) has a layer in `LAYERS`;
* an import leaves its unit only for a unit of a lower layer (units that
  share a layer never import each other);
* no cycle between units, nor between modules;
* nothing imports a module by name at run time (`importlib.import_module`,
  `__import__`), which would be an edge no import statement shows.

docs/layers.md describes the layers.
"""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TNPU = ROOT / "tnpu"
HERE = Path(__file__).relative_to(ROOT)

LAYERS: tuple[tuple[str, ...], ...] = (
    ("diagnostics",),  # CompileError and one-line messages naming an op and its source
    ("dialects",),  # tt, ttg, tile; tnpu's extended arith, math, scf, llvm, gpu
    ("ir_helpers",),  # a module's kernel function and its parameters; applying passes
    ("context",),  # the xDSL context: xDSL's dialects with tnpu's in place of its own
    ("verifier",),  # each op's rules, SSA dominance, a kernel's arguments
    ("ttir_import",),  # TTIR text -> a verified module
    ("inductor_support",),  # Inductor's kernel modules importable with no GPU
    ("frontend",),  # a @triton.jit function -> TTIR text (Triton's make_ttir)
    ("interpreters",),  # numpy interpreters of arith/math, TTIR and tile IR
    ("passes",),  # TTIR -> TTIR rewrites before the lowering: strip-gpu-only, lower-libdevice, ...
    ("lowering",),  # TTIR -> tile: ttir-to-tile, its analyses and op lowerings
    ("transforms",),  # tile -> tile rewrites: fuse-tile-maps, expand-math, the RVV steps
    ("backend_riscv", "timing"),  # the two consumers of tile IR
    ("compiler",),  # the compile API, the tnpu-to-tile, tnpu-to-rvv and tnpu-to-npu pipelines
    ("scheduler",),  # several programs on one NPU: partitions, streams of requests, the shared DRAM
    ("execution", "triton_backend"),  # the harness (its rungs); Triton's `cpu` backend
    ("torch_backend",),  # the torch.compile route: the dynamo backend `tnpu`, Inductor's settings
    ("tnpu",),  # the package itself: re-exports the compile API, tnpu.profile, tnpu.compile
    ("models",),  # the model suite: entries, running one against eager, the suite's report, capturing launches
    ("serving",),  # LLM serving: a decoder's step times per bucket, the continuous-batching loop, its figures
    ("dse",),  # design-space exploration: spaces, workloads, the store, studies, plots
    ("ttir_frontend",),  # the `.ttir` frontend of xDSL drivers
    ("registry",),  # the names of every dialect, pass, target and frontend
    ("universe", "tools"),  # xDSL's entry point; tnpu-opt and tnpu
)
"""tnpu's units, lowest layer first.  A unit imports only from layers before its own."""


@dataclass(frozen=True)
class Import:
    path: Path
    """The importing file, relative to the directory holding `tnpu/`."""
    line: int
    module: str
    """The importing module, dotted."""
    target: str
    """The imported module: the longest prefix of the imported name that is a module."""

    def __str__(self) -> str:
        return f"{self.path}:{self.line} imports {self.target}"


def modules(package: Path) -> dict[str, Path]:
    """Every module under `package` by dotted name; a package is its `__init__.py`."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def unit_of(module: str) -> str:
    """`tnpu.a.b` -> `a`; `tnpu` -> `tnpu`."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def imports(package: Path) -> list[Import]:
    """Every import of a module of `package` by a module of `package`, at any depth."""
    known = modules(package)

    def longest_module(name: str) -> str:
        while name not in known and "." in name:
            name = name.rpartition(".")[0]
        return name

    found: dict[Import, None] = {}  # one edge per import statement and target, in order
    for name, path in known.items():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _absolute_base(node, name, is_package=path.name == "__init__.py")
                # `from p import m` imports the module p.m when there is one, else p.
                names = [f"{base}.{alias.name}" for alias in node.names]
                names = [n if n in known else base for n in names]
            else:
                continue
            for imported in names:
                if imported.split(".")[0] == package.name:
                    relative = path.relative_to(package.parent)
                    found[Import(relative, node.lineno, name, longest_module(imported))] = None
    return list(found)


def _absolute_base(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    if node.level == 0:
        return node.module or ""
    parts = module.split(".") if is_package else module.split(".")[:-1]
    parts = parts[: len(parts) - (node.level - 1)]
    return ".".join(parts + ([node.module] if node.module else []))


def layer_index(layers: Sequence[Sequence[str]]) -> dict[str, int]:
    return {unit: index for index, layer in enumerate(layers) for unit in layer}


def upward_imports(edges: Iterable[Import], layers: Sequence[Sequence[str]]) -> list[str]:
    """One message per import that does not go to a lower layer."""
    index = layer_index(layers)
    messages = []
    for edge in edges:
        source, target = unit_of(edge.module), unit_of(edge.target)
        if source == target or source not in index or target not in index:
            continue
        if index[target] >= index[source]:
            where = "beside it" if index[target] == index[source] else "above it"
            messages.append(
                f"{edge}: {source} may import only from the layers below its own, "
                f"and {target} is {where} (LAYERS in {HERE})"
            )
    return messages


def unplaced_units(package: Path, edges: Sequence[Import], layers: Sequence[Sequence[str]]) -> list[str]:
    """One message per unit of `package` that no layer holds, saying where it could go."""
    index = layer_index(layers)
    messages = []
    for unit in sorted({unit_of(module) for module in modules(package)} - set(index)):
        uses = {unit_of(e.target) for e in edges if unit_of(e.module) == unit} & set(index)
        users = {unit_of(e.module) for e in edges if unit_of(e.target) == unit} & set(index)
        above = max(uses, key=index.__getitem__, default=None)
        below = min(users, key=index.__getitem__, default=None)
        where = " and ".join(
            part
            for part in (
                above and f"above the layer of {above} (it imports {', '.join(sorted(uses))})",
                below and f"below the layer of {below} (which imports it)",
            )
            if part
        ) or "in any layer"
        kind = "/" if (package / unit).is_dir() else ".py"
        messages.append(f"{package.name}/{unit}{kind} is in no layer: add it to LAYERS in {HERE}, {where}")
    return messages


def cycles(edges: Iterable[Import], node_of: Callable[[str], str]) -> list[str]:
    """One message per strongly connected set of `node_of(module)` nodes, naming a cycle's imports."""
    graph: dict[str, dict[str, Import]] = {}
    for edge in edges:
        source, target = node_of(edge.module), node_of(edge.target)
        graph.setdefault(target, {})
        if source != target:
            graph.setdefault(source, {}).setdefault(target, edge)
    messages = []
    for component in _strongly_connected(graph):
        if len(component) > 1:
            path = _cycle_through(graph, component)
            messages.append("cycle: " + "; ".join(str(graph[a][b]) for a, b in zip(path, path[1:])))
    return messages


def _strongly_connected(graph: Mapping[str, Mapping[str, object]]) -> list[set[str]]:
    """Tarjan's algorithm."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    components = []

    def visit(node: str) -> None:
        order[node] = low[node] = len(order)
        stack.append(node)
        for successor in graph[node]:
            if successor not in order:
                visit(successor)
                low[node] = min(low[node], low[successor])
            elif successor in stack:
                low[node] = min(low[node], order[successor])
        if low[node] == order[node]:
            component = set()
            while True:
                member = stack.pop()
                component.add(member)
                if member == node:
                    break
            components.append(component)

    for node in sorted(graph):
        if node not in order:
            visit(node)
    return components


def _cycle_through(graph: Mapping[str, Mapping[str, object]], component: set[str]) -> list[str]:
    """The shortest cycle from the component's first node back to it, as nodes."""
    start = min(component)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        node = frontier.pop(0)
        for successor in sorted(graph[node]):
            if successor == start:
                return [*paths[node], start]
            if successor in component and successor not in paths:
                paths[successor] = [*paths[node], successor]
                frontier.append(successor)
    raise AssertionError(f"{start} is on no cycle of its component")


def imports_by_name(package: Path) -> list[str]:
    """One message per call of `importlib.import_module` or `__import__`."""
    messages = []
    for path in modules(package).values():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.Call):
                continue
            function = node.func
            name = function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", None)
            if name in ("import_module", "__import__"):
                messages.append(
                    f"{path.relative_to(package.parent)}:{node.lineno} imports a module by name "
                    "at run time, an edge the import graph cannot see: use an import statement"
                )
    return messages


# -- tnpu itself ---------------------------------------------------------------

EDGES = imports(TNPU)


def test_every_unit_has_a_layer():
    assert unplaced_units(TNPU, EDGES, LAYERS) == []


def test_imports_go_down_the_layers():
    assert upward_imports(EDGES, LAYERS) == []


def test_no_cycle_between_packages():
    assert cycles(EDGES, unit_of) == []


def test_no_cycle_between_modules():
    assert cycles(EDGES, str) == []


def test_nothing_imports_a_module_by_name():
    assert imports_by_name(TNPU) == []


def test_the_graph_holds_lazy_imports():
    """The registry imports every pass inside a function: those edges are read."""
    lazy = {e.target for e in EDGES if e.module == "tnpu.registry"}
    assert {"tnpu.transforms.expand_math", "tnpu.compiler.tnpu_to_rvv"} <= lazy


# -- the checks themselves, on small trees that break each rule ----------------


def write_tree(root: Path, files: Mapping[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return root / "tnpu"


BROKEN = {
    "tnpu/__init__.py": "",
    "tnpu/low/__init__.py": "",
    "tnpu/low/a.py": """\
        def helper():
            from tnpu.high import b
            return b
        """,
    "tnpu/high/__init__.py": "",
    "tnpu/high/b.py": """\
        from typing import TYPE_CHECKING

        if TYPE_CHECKING:
            from tnpu.high.c import C
        """,
    "tnpu/high/c.py": """\
        import importlib

        from . import b

        plugin = importlib.import_module("tnpu.stray")
        """,
    "tnpu/side.py": "import tnpu.low.a\n",
    "tnpu/stray/__init__.py": "from tnpu.low import a\n",
}
BROKEN_LAYERS = (("low", "side"), ("high",), ("tnpu",))


def test_an_import_up_or_sideways_is_named_even_inside_a_function(tmp_path):
    package = write_tree(tmp_path, BROKEN)
    assert upward_imports(imports(package), BROKEN_LAYERS) == [
        "tnpu/low/a.py:2 imports tnpu.high.b: low may import only from the layers below its own, "
        f"and high is above it (LAYERS in {HERE})",
        "tnpu/side.py:1 imports tnpu.low.a: side may import only from the layers below its own, "
        f"and low is beside it (LAYERS in {HERE})",
    ]


def test_a_cycle_behind_type_checking_and_a_relative_import_is_found(tmp_path):
    package = write_tree(tmp_path, BROKEN)
    assert cycles(imports(package), str) == [
        "cycle: tnpu/high/b.py:4 imports tnpu.high.c; tnpu/high/c.py:3 imports tnpu.high.b"
    ]


def test_a_unit_without_a_layer_is_told_where_to_go(tmp_path):
    package = write_tree(tmp_path, BROKEN)
    assert unplaced_units(package, imports(package), BROKEN_LAYERS) == [
        f"tnpu/stray/ is in no layer: add it to LAYERS in {HERE}, above the layer of low (it imports low)"
    ]


def test_an_import_by_name_is_refused(tmp_path):
    package = write_tree(tmp_path, BROKEN)
    assert imports_by_name(package) == [
        "tnpu/high/c.py:5 imports a module by name at run time, an edge the import graph "
        "cannot see: use an import statement"
    ]


def test_packages_in_a_cycle_whose_modules_are_not_are_found(tmp_path):
    package = write_tree(
        tmp_path,
        {
            "tnpu/__init__.py": "",
            "tnpu/p/__init__.py": "",
            "tnpu/p/x.py": "from tnpu.q import y\n",
            "tnpu/p/z.py": "",
            "tnpu/q/__init__.py": "",
            "tnpu/q/y.py": "def f():\n    from tnpu.p import z\n",
        },
    )
    edges = imports(package)
    assert cycles(edges, str) == []
    assert cycles(edges, unit_of) == [
        "cycle: tnpu/p/x.py:1 imports tnpu.q.y; tnpu/q/y.py:2 imports tnpu.p.z"
    ]
