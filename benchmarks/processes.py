"""Measurements in other processes: a Dask cluster, a cold compile, ``import mjr``, ``pip install .``.

Each runs in fresh processes, so nothing this process has loaded or cached helps
it: a compile gets an empty ``MJR_CACHE_DIR``, an install a new virtual
environment and a fresh copy of the sources.
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from timing import Measure, Suite

import mjr

REPO = Path(__file__).resolve().parents[1]
#: The ruleset of the cold-compile row.
COMPILED = REPO / "rulesets" / "guangdong.tuidaohu.mjr"


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _env(cache: str | None = None) -> dict[str, str]:
    env = dict(os.environ)
    if cache is not None:
        env["MJR_CACHE_DIR"] = cache
    return env


# --------------------------------------------------------------------------- Dask


def dask_available() -> str | None:
    """Why the Dask row cannot run, or None."""
    try:
        import distributed  # noqa: F401
    except Exception as error:  # noqa: BLE001
        return f"Dask distributed is not installed ({type(error).__name__}); pip install 'mahjong-rules[dask]'"
    return None


def run_dask(region: str, hand_lines: list[str], rounds: int, scratch: Path) -> Suite:
    """A JSONL file of ``hand_lines`` scored through ``mjr score --batch``'s executor,
    here (threads, every core) and on a LocalCluster of 2 worker processes, rounds
    interleaved; the cluster's start is not timed.  Both runs write the same rows."""
    import distributed

    from mjr.jobs import score_file as batchfile

    source = scratch / "hands.jsonl"
    source.write_text("\n".join(hand_lines) + "\n", encoding="utf-8")
    rs = mjr.load(region)
    outputs = {"local": scratch / "local.jsonl", "dask": scratch / "dask.jsonl"}

    def score(out: Path, scheduler: str | None) -> None:
        job = batchfile.Job(str(source), out, rs, region, scheduler=scheduler, progress=False)
        summary = batchfile.score_file(job)
        assert summary.hands == len(hand_lines), summary.line()

    suite = Suite("dask")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                                  silence_logs=50) as cluster:
        address = cluster.scheduler_address
        suite.add("dask_local", lambda: score(outputs["local"], None), len(hand_lines))
        suite.add("dask_cluster", lambda: score(outputs["dask"], address), len(hand_lines))
        suite.run(rounds, warm=False)
    same = outputs["local"].read_bytes() == outputs["dask"].read_bytes()
    suite.measures[1].note = "same rows as local" if same else "ROWS DIFFER from the local run"
    return suite


# --------------------------------------------------------------------------- compile and import


def cold_compile(walls: list[float], compiled: Path = COMPILED) -> float:
    """CPU seconds (this process's children and theirs) of ``mjr.load`` of the ``.mjr``
    file ``compiled`` in a new process with an empty build cache; its wall time goes to
    ``walls``.  The file is a copy with a comment added, so no build installed with mjr
    matches it."""
    code = "import sys, mjr; print(mjr.load(sys.argv[1]).backend)"
    with tempfile.TemporaryDirectory(prefix="mjr-bench-compile-") as scratch:
        source = Path(scratch) / compiled.name
        source.write_text(compiled.read_text(encoding="utf-8") + f"\n# cold compile {time.time_ns()}\n",
                          encoding="utf-8")
        before, start = _children_cpu(), time.perf_counter()
        done = subprocess.run([sys.executable, "-c", code, str(source)], env=_env(str(Path(scratch) / "cache")),
                              capture_output=True, text=True, check=False)
        cpu, wall = _children_cpu() - before, time.perf_counter() - start
    if done.returncode != 0 or done.stdout.strip() != "compiled":
        raise RuntimeError(f"the cold compile did not give a compiled module: {done.stdout}{done.stderr}")
    walls.append(wall)
    return cpu


def add_compile(suite: Suite) -> Measure:
    """The cold compile: CPU seconds, with the wall seconds of each pass aside."""
    measure = suite.add("compile", lambda: cold_compile(measure.aside), 1, reports_own_time=True)
    return measure


def _python_wall(code: str, cwd: str) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], cwd=cwd, env=_env(), check=True)
    return time.perf_counter() - start


def add_imports(suite: Suite, cwd: str) -> None:
    """``import mjr`` and a bare interpreter, each in a new process (wall time)."""
    suite.add("import", lambda: _python_wall("import mjr", cwd), 1, reports_own_time=True)
    suite.add("python", lambda: _python_wall("pass", cwd), 1, reports_own_time=True)


# --------------------------------------------------------------------------- install


def _sources(into: Path) -> None:
    """The repository's files (tracked, and untracked ones git does not ignore)
    copied to ``into``, so no earlier build directory speeds the install up."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=REPO,
                            capture_output=True, check=False)
    if listed.returncode != 0:  # not a git checkout: everything but what builds leave
        shutil.copytree(REPO, into, ignore=_left_by_builds)
        return
    for name in listed.stdout.decode().split("\0"):
        if name and (REPO / name).is_file():
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, into / name)


def _left_by_builds(folder: str, names: list[str]) -> set[str]:
    """What an install or a run leaves in ``folder``: the install's build folder is
    the repository's own ``build``, never a package of that name (compiler/build)."""
    left = set(shutil.ignore_patterns(".venv", "*.egg-info", "__pycache__", ".git")(folder, names))
    return left | {"build"} if Path(folder) == REPO and "build" in names else left


def _build_requirements() -> list[str]:
    try:
        import tomllib
    except ImportError:  # Python 3.10
        return ["setuptools>=69", "wheel", "cython>=3.0", "lark>=1.1", "jinja2>=3.1"]
    with open(REPO / "pyproject.toml", "rb") as f:
        return list(tomllib.load(f)["build-system"]["requires"])


def _pip(command: list[str], env: dict[str, str]) -> None:
    """Run pip quietly; its output is shown only if it fails."""
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"`pip {' '.join(command[3:])}` failed:\n{done.stdout}{done.stderr}")


def measure_install() -> tuple[float, float]:
    """Wall and CPU seconds of ``pip install --no-deps --no-build-isolation`` of a
    fresh copy of the repository into a new virtual environment, which gets the
    build requirements first (not timed)."""
    with tempfile.TemporaryDirectory(prefix="mjr-bench-install-") as scratch:
        root = Path(scratch)
        _sources(root / "src")
        subprocess.run([sys.executable, "-m", "venv", str(root / "venv")], check=True)
        python = str(root / "venv" / "bin" / "python")
        pip = [python, "-m", "pip", "install", "-q", "--disable-pip-version-check"]
        _pip([*pip, *_build_requirements()], _env())
        env = _env(str(root / "cache"))
        before, start = _children_cpu(), time.perf_counter()
        _pip([*pip, "--no-deps", "--no-build-isolation", str(root / "src")], env)
        wall, cpu = time.perf_counter() - start, _children_cpu() - before
        backend = subprocess.run([python, "-c", "import mjr; print(mjr.load('guangdong.jipinghu').backend)"],
                                 cwd=scratch, env=env, capture_output=True, text=True, check=True).stdout.strip()
        if backend != "compiled":
            raise RuntimeError(f"the installed package runs {backend!r}, not compiled")
    return wall, cpu
