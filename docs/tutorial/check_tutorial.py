"""Check that every step of docs/tutorial.rst checks and passes its examples.

The tutorial builds its rulesets from ``.. code-block:: mjr`` snippets, each
preceded by an rST comment that says what to do with it::

    .. tutorial: start my.region.mjr     (the snippet is a whole new file)
    .. tutorial: add my.region.mjr       (insert it before the file's closing brace;
                                          it is written indented, as in the file,
                                          and an unindented one is refused)

After every snippet the files so far are written to a scratch folder and run
through ``mjr check`` and ``mjr test --backend python``.  At the end the
assembled files must equal the ones beside this script (``--write`` rewrites
them).  Run it from anywhere, with mjr installed::

    python docs/tutorial/check_tutorial.py [--write] [--show]

``--show`` prints the output of ``mjr check`` and ``mjr test`` at every step;
``--stages DIR`` keeps the files of every step in DIR/1, DIR/2, ... (to produce
the command output the tutorial quotes).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
TUTORIAL = HERE.parent / "tutorial.rst"
MARKER = re.compile(r"^\.\. tutorial: (start|add) (\S+\.mjr)\s*$")


def snippets(text: str) -> list[tuple[str, str, str, int]]:
    """(action, file name, code, line) for every marked code block, in order."""
    lines = text.split("\n")
    found = []
    for index, line in enumerate(lines):
        match = MARKER.match(line)
        if not match:
            continue
        at = index + 1
        while at < len(lines) and not lines[at].strip():
            at += 1
        if not lines[at].startswith(".. code-block:: mjr"):
            raise SystemExit(f"tutorial.rst:{index + 1}: a marker must be followed by '.. code-block:: mjr'")
        at += 1
        while at < len(lines) and lines[at].strip().startswith(":"):
            at += 1  # directive options
        body = []
        while at < len(lines) and (not lines[at].strip() or lines[at].startswith("   ")):
            body.append(lines[at][3:])
            at += 1
        code = "\n".join(body).strip("\n") + "\n"
        found.append((match.group(1), match.group(2), code, index + 1))
    return found


def run(folder: Path, *argv: str) -> tuple[int, str]:
    env = dict(os.environ, MJR_CACHE_DIR=str(folder / ".cache"))
    done = subprocess.run([sys.executable, "-m", "mjr.cli", *argv], cwd=folder, env=env,
                          capture_output=True, text=True)
    return done.returncode, done.stdout + done.stderr


def main(argv: list[str]) -> int:
    write, show = "--write" in argv, "--show" in argv
    stages = Path(argv[argv.index("--stages") + 1]) if "--stages" in argv else None
    files: dict[str, str] = {}
    failures = 0
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        for step, (action, name, code, line) in enumerate(snippets(TUTORIAL.read_text(encoding="utf-8")), 1):
            if action == "start":
                files[name] = code
            else:
                if any(row and not row.startswith("    ") for row in code.split("\n")):
                    raise SystemExit(f"tutorial.rst:{line}: a snippet added to {name} goes inside the ruleset's "
                                     "braces: indent every line of it four spaces, as in the file")
                text = files[name].rstrip("\n")
                if not text.endswith("}"):
                    raise SystemExit(f"tutorial.rst:{line}: {name} does not end with '}}'")
                files[name] = text[:-1].rstrip("\n") + "\n\n" + code.rstrip("\n") + "\n}\n"
            for each, content in files.items():
                (folder / each).write_text(content, encoding="utf-8")
                if stages is not None:
                    (stages / str(step)).mkdir(parents=True, exist_ok=True)
                    (stages / str(step) / each).write_text(content, encoding="utf-8")
            checked, check_out = run(folder, "check", name)
            tested, test_out = run(folder, "test", "--backend", "python", name)
            ok = checked == 0 and tested == 0
            failures += not ok
            print(f"tutorial.rst:{line}: {action} {name}: {'ok' if ok else 'FAILED'}")
            if show or not ok:
                print("    $ mjr check " + name, *check_out.splitlines(), sep="\n    ")
                print("    $ mjr test --backend python " + name, *test_out.splitlines(), sep="\n    ")
    for name, content in files.items():
        path = HERE / name
        if write:
            path.write_text(content, encoding="utf-8")
        elif not path.is_file() or path.read_text(encoding="utf-8") != content:
            print(f"{path.name} differs from the tutorial's snippets (run with --write)")
            failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
