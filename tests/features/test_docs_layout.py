"""The built docs show all their content at 1280 px: nothing runs off the page or is cut.

Every page of the HTML build (``sphinx-build -b html docs docs/_build/html``) is opened in
headless Chromium, in a frame 1280 px wide, and measured by ``docs_overflow.js``: every
element whose content runs past the right edge of a box that does not scroll, or past
the window (the whole page scrolling sideways), is content a reader can neither see nor
scroll to.  Code blocks and wide tables must scroll inside their own box instead.

The tests skip, saying why, where Chromium (Debian's ``chromium`` package) or a docs build
is missing, or where the build is older than the docs' sources; with
``MJR_REQUIRE_DOCS_VIEW=1`` (as in CI, after the docs are built) those are failures.
``MJR_DOCS_HTML`` names another build folder.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any, NoReturn

import pytest

#: one Chromium run measures every page: the tests of this file share one process
pytestmark = pytest.mark.xdist_group("docs_layout")

DOCS = Path(__file__).resolve().parents[2] / "docs"
PROBE = Path(__file__).with_name("docs_overflow.js")
WIDTH = 1280
#: one page of each kind, each its own test: the front page, prose with console blocks,
#: the tutorial, the language reference, the API (autodoc), the command line, the
#: regions' index (the table of all of them) and region pages (their fans' tables)
PAGES = (
    "index.html",
    "quickstart.html",
    "tutorial.html",
    "language.html",
    "api.html",
    "cli.html",
    "regions/index.html",
    "regions/mcr.html",
    "regions/guangdong.jipinghu.html",
)
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",  # CI runs as root
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",  # the same layout whether or not the machine draws scroll bars
    "--allow-file-access-from-files",  # the calling page reads the frame's page
    f"--window-size={WIDTH + 100},1000",
    "--virtual-time-budget=60000",
)
REPORT = re.compile(r'<script type="application/json" id="mjr-overflow">(.*?)</script>', re.S)
#: a page with one of each kind of finding, and content that must not be one
SAMPLE = """<!DOCTYPE html>
<html><head><style>body { margin: 0; font: 16px monospace; } .narrow { width: 300px; }</style></head><body>
<div id="clips" class="narrow" style="overflow: hidden"><p id="long" style="white-space: nowrap">{long}</p></div>
<pre id="scrolls" class="narrow" style="overflow-x: auto">{long}</pre>
<pre id="spills" class="narrow">{long}</pre>
<table id="wide" style="width: {wide}px"><tr><td>a cell</td></tr></table>
<div id="hidden" style="display: none; width: {wide}px">not shown</div>
<p id="fits">a line that fits</p>
</body></html>
""".replace("{long}", "x" * 200).replace("{wide}", str(2 * WIDTH))


def _unavailable(why: str) -> NoReturn:
    if os.environ.get("MJR_REQUIRE_DOCS_VIEW") == "1":
        pytest.fail(f"{why} (MJR_REQUIRE_DOCS_VIEW=1: the docs' layout must be checked here)")
    pytest.skip(why)


def _chromium() -> str:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    _unavailable("Chromium is not installed (Debian: apt-get install chromium)")


def _stale(built: Path) -> str | None:
    """Why the build in ``built`` does not show the docs' sources as they are: a page
    older than its source, or a style sheet unlike its source (Sphinx copies those anew
    but writes the pages again only where their source changed); None where it does."""
    for source in sorted(DOCS.rglob("*.rst")):
        name = source.relative_to(DOCS)
        if "_build" in name.parts or name.parts[0] == "tutorial":
            continue
        page = built / name.with_suffix(".html")
        if not page.is_file() or page.stat().st_mtime < source.stat().st_mtime:
            return f"its page of docs/{name.as_posix()} is missing or older"
    for source in sorted(path for path in (DOCS / "_static").iterdir() if path.is_file()):
        copy = built / "_static" / source.name
        if not copy.is_file() or copy.read_bytes() != source.read_bytes():
            return f"its copy of docs/_static/{source.name} is missing or differs"
    return None


def _built_docs() -> Path:
    built = Path(os.environ.get("MJR_DOCS_HTML") or DOCS / "_build" / "html")
    if not (built / "index.html").is_file():
        _unavailable(f"no docs build in {built} (sphinx-build -b html docs docs/_build/html)")
    stale = _stale(built)
    if stale:
        _unavailable(f"the docs build in {built} is out of date ({stale}): build the docs again")
    return built


def _pages(built: Path) -> list[Path]:
    """Every page of the build but Sphinx's own (the general index and search)."""
    own = {"genindex.html", "search.html"}
    return sorted(path for path in built.rglob("*.html") if path.relative_to(built).as_posix() not in own)


def overflow_reports(chromium: str, pages: list[Path]) -> dict[Path, dict[str, Any]]:
    """What docs_overflow.js finds on each of ``pages``, opened in one Chromium, in a
    frame ``WIDTH`` px wide."""
    urls = {page.resolve().as_uri(): page for page in pages}
    with tempfile.TemporaryDirectory() as scratch:
        driver = Path(scratch) / "measure.html"
        driver.write_text(
            "<!DOCTYPE html>\n<html><head><meta charset='utf-8'></head><body style='margin: 0'>\n"
            f"<iframe style='width: {WIDTH}px; height: 900px; border: 0'></iframe>\n"
            f"<script>{PROBE.read_text(encoding='utf-8')}</script>\n"
            f"<script>mjrMeasurePages({json.dumps(list(urls))});</script>\n</body></html>\n",
            encoding="utf-8",
        )
        profile = Path(scratch) / "profile"
        profile.mkdir()
        done = subprocess.run(
            [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--dump-dom", driver.as_uri()],
            capture_output=True,
            text=True,
            timeout=300,
        )
    found = REPORT.search(done.stdout)
    assert found, f"Chromium gave no measurement (exit {done.returncode}): {done.stderr[-2000:]}"
    reports: dict[str, dict[str, Any]] = json.loads(html.unescape(found.group(1)))
    return {urls[url]: report for url, report in reports.items()}


@pytest.fixture(scope="module")
def measured(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """The findings on every page of the docs build, by its name in the build ("regions/mcr.html"),
    and on ``SAMPLE``, named "sample"."""
    chromium = _chromium()
    built = _built_docs()
    sample = tmp_path_factory.mktemp("layout") / "sample.html"
    sample.write_text(SAMPLE, encoding="utf-8")
    reports = overflow_reports(chromium, [*_pages(built), sample])
    return {
        ("sample" if page == sample else page.relative_to(built).as_posix()): report for page, report in reports.items()
    }


def _problems(name: str, report: dict[str, Any]) -> str:
    """What a reader of ``name`` cannot see or scroll to, one line each; empty where nothing."""
    if "error" in report:
        return f"{name}: not measured: {report['error']}"
    lines = [_finding(finding) for finding in report["findings"]]
    size = report["page"]
    if size["scrollWidth"] > size["clientWidth"]:
        lines.append(f"  the page scrolls sideways: {size['scrollWidth']} px wide in a {size['clientWidth']} px window")
    return f"{name} at {WIDTH} px: content a reader cannot see or scroll to\n" + "\n".join(lines) if lines else ""


def _finding(finding: dict[str, Any]) -> str:
    where = {
        "clipped": "clips its own content",
        "cut": f"is cut by {finding.get('box')}",
        "page": "runs off the page",
    }[finding["kind"]]
    return f"  {finding['element']} {where} by {finding['by']} px: {finding['text']!r}"


def test_the_check_finds_content_cut_off(measured: dict[str, dict[str, Any]]) -> None:
    """The measure itself: each kind of finding on a page made to have it, and no other."""
    report = measured["sample"]
    assert report["window"] == WIDTH
    found = sorted((finding["kind"], finding["element"].rsplit(" > ", 1)[-1]) for finding in report["findings"])
    assert found == [
        ("clipped", "div#clips.narrow"),
        ("cut", "p#long"),
        ("page", "pre#spills.narrow"),
        ("page", "table#wide"),
    ]
    assert report["page"]["scrollWidth"] > WIDTH
    assert "the page scrolls sideways" in _problems("sample", report)


@pytest.mark.parametrize("name", PAGES)
def test_no_content_is_cut_off(measured: dict[str, dict[str, Any]], name: str) -> None:
    assert name in measured, f"the docs build has no {name}"
    problems = _problems(name, measured[name])
    assert not problems, problems


def test_no_content_is_cut_off_on_any_other_page(measured: dict[str, dict[str, Any]]) -> None:
    others = sorted(name for name in measured if name not in PAGES and name != "sample")
    assert len(others) > 10, others
    problems = [problem for name in others if (problem := _problems(name, measured[name]))]
    assert not problems, "\n".join(problems)
