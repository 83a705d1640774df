"""The pages as people see them: report.html, compare.html, the strategy report,
atlas.html and advice.html (from synthetic figures), rendered by headless Chromium at 1400 px (a desktop) and 400 px (a phone).

At each width, every page must: load every image (the phone its narrow layout), keep
everything inside the viewport but what scrolls inside a table's own box, open with its
summary (the first section, on the first screen), and use no text smaller than 12 CSS
pixels. Chromium and its driver are Debian's ``chromium`` and ``chromium-driver``
(``.ci/run`` installs them); without them the test is skipped on a developer's machine
and fails in CI (``PRESIDENT_CI=1``), where a skipped check would be a silent pass.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest

from reports import html
from reports.advice import AdviceTable, advice_page
from reports.atlas.page import write_atlas_page
from reports.atlas.words import label
from reports.compare.page import skill_section, skill_verdicts
from simulator.runs.advice.measure import Worth
from tests.conftest import run_cli
from tests.reports.atlas_frame import RULE_SETS, atlas_frame

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
WIDTHS = {"desktop": (1400, 900), "phone": (400, 800)}
MIN_FONT_PX = 12
CHROMIUM_FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
)  # fmt: skip


def _browser_or_skip() -> None:
    """Skip (or, in CI, fail) when Chromium, its driver or selenium is missing."""
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not Path(p).exists() and not shutil.which(p)]
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing.append("selenium (the test extra)")
    if not missing:
        return
    reason = f"no {', '.join(missing)}: apt-get install chromium chromium-driver"
    if os.environ.get("PRESIDENT_CI"):
        pytest.fail(f"CI must test the pages in a browser, but found {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser(tmp_path_factory) -> Iterator[object]:
    """One headless Chromium for the module, offline, with a new empty profile."""
    _browser_or_skip()
    os.environ["SE_AVOID_STATS"] = "true"  # selenium never phones home
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, Path]:
    """Small real runs of each page: a plain report, one under a target with duplicate
    deals and three strategies, a compare with a variant that drops the exchange, and a
    tournament's strategy report."""
    root = tmp_path_factory.mktemp("pages")
    out = {}
    for name, args in (
        ("report", ["--matches", "80", "--rounds-per-match", "5"]),
        ("report-spade-duplicate", ["--rules", "spade", "--matches", "60", "--duplicate",
                                    "--strategies", "rules-aware,lowest,random,lowest"]),
    ):  # fmt: skip
        result = run_cli("simulate", *args, "--quiet", "--out", str(root / name), "--report")
        assert result.exit_code == 0, result.stderr
        out[name] = root / name / "report.html"
    rules = root / "french-no-exchange.toml"
    rules.write_text('preset = "french"\nexchange = []\n')
    result = run_cli(
        "compare", "--rules", "french", "--rules", "spade", "--rules", str(rules),
        "--matches", "60", "--rounds-per-match", "4", "--quiet", "--out", str(root / "cmp"),
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    out["compare"] = root / "cmp" / "compare.html"
    result = run_cli(
        "tournament", "--strategies", "lowest,random,rules-aware", "--matches", "20",
        "--rounds-per-match", "3", "--out", str(root / "tour"), "--report",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    out["strategy"] = root / "tour" / "tournament.html"
    out["atlas"] = root / "atlas" / "atlas.html"
    write_atlas_page(atlas_frame(), out["atlas"])
    return out


def _open(driver: object, page: Path, width: int, height: int) -> None:
    """Load ``page`` in a viewport of exactly ``width`` × ``height`` CSS pixels (set
    before loading, so ``<picture>`` picks its layout for that width)."""
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
    )
    driver.get(page.as_uri())
    driver.execute_script("return document.fonts.ready")


IMAGES = """
return Array.from(document.images).map(img => ({
  id: img.closest('figure') ? img.closest('figure').id : '?',
  complete: img.complete, natural: img.naturalWidth, shown: img.getBoundingClientRect().width,
  narrow: img.currentSrc !== img.src,
}));
"""

OVERFLOW = """
const width = document.documentElement.clientWidth;
const out = [];
for (const el of document.body.querySelectorAll('*')) {
  const box = el.getBoundingClientRect();
  if (box.width === 0 && box.height === 0) continue;
  if (box.left >= -0.5 && box.right <= width + 0.5) continue;
  const scroller = el.parentElement && el.parentElement.closest('.scroll');
  if (scroller && getComputedStyle(scroller).overflowX === 'auto') continue;
  out.push(`${el.tagName}.${el.className} ${Math.round(box.left)}..${Math.round(box.right)} `
           + (el.textContent || '').trim().slice(0, 50));
}
return {width: width, scrollWidth: document.documentElement.scrollWidth, out: out};
"""

SMALL_TEXT = """
const out = [];
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
while (walker.nextNode()) {
  const node = walker.currentNode;
  if (!node.textContent.trim()) continue;
  const el = node.parentElement;
  const box = el.getBoundingClientRect();
  if (box.width === 0 && box.height === 0) continue;
  const size = parseFloat(getComputedStyle(el).fontSize);
  if (size < arguments[0]) out.push(`${el.tagName} ${size}px: ${node.textContent.trim().slice(0, 40)}`);
}
return out;
"""

FIRST_SECTION = """
const first = document.querySelector('section');
const before = Array.from(document.body.children).filter(
  el => el.compareDocumentPosition(first) & Node.DOCUMENT_POSITION_FOLLOWING);
return {id: first.id, top: first.getBoundingClientRect().top,
        before: before.map(el => el.tagName)};
"""


@pytest.mark.parametrize("width", list(WIDTHS))
@pytest.mark.parametrize(
    "name", ["report", "report-spade-duplicate", "compare", "strategy", "atlas"]
)
def test_page_reads_well(browser, pages, name, width):
    w, h = WIDTHS[width]
    _open(browser, pages[name], w, h)

    images = browser.execute_script(IMAGES)
    assert images, "every page has figures"
    for img in images:
        assert img["complete"] and img["natural"] > 0, f"{img['id']} did not load"
        assert img["shown"] <= w, f"{img['id']} is {img['shown']} px wide in a {w} px page"
        assert img["narrow"] == (width == "phone"), f"{img['id']}: wrong layout for {w} px"

    overflow = browser.execute_script(OVERFLOW)
    assert overflow["scrollWidth"] <= overflow["width"], "the page scrolls sideways"
    assert overflow["out"] == [], "outside the viewport, not in a scrolling table box"

    first = browser.execute_script(FIRST_SECTION)
    assert first["id"] == "summary", "the page opens with what it says"
    assert first["before"] == ["H1", "P", "NAV"], first["before"]  # title, lead, contents
    assert first["top"] < h, "the summary starts on the first screen"

    assert browser.execute_script(SMALL_TEXT, MIN_FONT_PX) == []


ROLE_CHAIN = """
const caption = Array.from(document.querySelectorAll('h3'))
  .find(h => h.textContent.startsWith('Role chain'));
const box = caption.nextElementSibling;
return {box: box.clientWidth, table: box.querySelector('table').scrollWidth,
        body: document.body.clientWidth};
"""


@pytest.mark.parametrize("name", ["report", "report-spade-duplicate"])
def test_the_role_chain_table_fits_a_desktop_page(browser, pages, name):
    """Five columns of estimates with intervals: each interval under its estimate, so the
    table fits the 1400 px page's column without scrolling (on a phone it scrolls in its
    own box, which test_page_reads_well checks)."""
    _open(browser, pages[name], *WIDTHS["desktop"])
    sizes = browser.execute_script(ROLE_CHAIN)
    assert sizes["table"] <= sizes["box"] <= sizes["body"], sizes


FIRST_COLUMN = (
    "return Array.from(document.querySelectorAll('table.sortable tbody tr'))"
    ".map(r => r.cells[0].textContent);"
)


def test_the_atlas_table_sorts_on_a_click(browser, pages):
    """A click on RS's header orders the rule sets by RS, a second the other way; the
    rule set's name sorts as text."""
    _open(browser, pages["atlas"], *WIDTHS["phone"])
    buttons = browser.find_elements("css selector", "table.sortable th button")
    rs = next(b for b in buttons if b.text.startswith(label("relative_skill")))
    by_rs = sorted(RULE_SETS, key=lambda n: RULE_SETS[n][2])
    rs.click()
    assert browser.execute_script(FIRST_COLUMN) == by_rs
    rs.click()
    assert browser.execute_script(FIRST_COLUMN) == by_rs[::-1]
    buttons[0].click()
    assert browser.execute_script(FIRST_COLUMN) == sorted(RULE_SETS, key=str.lower)


FITS = """
const box = document.querySelector(arguments[0]).closest('.scroll');
return {box: box.clientWidth, table: box.querySelector('table').scrollWidth,
        body: document.body.clientWidth};
"""


def test_the_skill_table_of_compare_fits_a_desktop_page(browser, tmp_path):
    """compare --skill's "By rule set" table (a synthetic atlas frame of seven rule sets):
    its cells wrap, so it fits the 1400 px page's column instead of running off it, as it
    did at 1,400 and 2,400 px."""
    frame = atlas_frame()
    page = tmp_path / "compare-skill.html"
    page.write_text(html.page("compare --skill", [
        ("summary", "What the comparison says", skill_verdicts(frame)),
        ("skill", "Skill or luck", skill_section(frame)),
    ]), "utf-8")  # fmt: skip
    _open(browser, page, *WIDTHS["desktop"])
    sizes = browser.execute_script(FITS, "#skill table")
    assert sizes["table"] <= sizes["box"] <= sizes["body"], sizes


def advice_table() -> AdviceTable:
    """The advice page's table as a run makes it: two tips, one of a table rule, with an
    example position (synthetic figures: the page's layout is under test, not a run)."""
    seen = {"seat": 2, "hand": "3 3 5 8 9 9 Q K A 2", "to_beat": "pair of 10s (seat 1)",
            "others": "seat 0: 9, seat 1: 7, seat 3: 11", "move": "pass",
            "where": "match 4, round 2", "replay": "advice/examples/tip-1.json"}  # fmt: skip
    rows = [
        {"tip": 1, "advice": "When the trick is of pairs or threes or fours and your weakest "
         "cards that can go are an A or stronger, pass.",
         "instead": "the simple player would play its weakest cards that can go, the whole "
         "group", "gain": 0.058, "gain_low": 0.049, "gain_high": 0.067, "per_round": 0.58, "changed": 0.09,
         "rule": "", "base": "Under the base game it gains +0.051 ± 0.008 too.",
         "example": seen, "key": "pass"},
        {"tip": 2, "advice": "When you hold 3 different ranks or fewer and your weakest cards "
         "that can go are a whole group, play cards that end the trick by a table rule (the "
         "weakest such).", "instead": "the simple player would play its weakest cards",
         "gain": 0.038, "gain_low": 0.033, "gain_high": 0.043, "per_round": 0.16, "changed": 0.03,
         "rule": "a table rule that ends the trick",
         "base": "Under the base game it gains +0.000 ± 0.001: a tip of these rules.",
         "example": {}, "key": "ender"},
    ]  # fmt: skip
    champion = Worth(-0.42, -0.447, -0.393, 300, 12000, 0.66)
    together = Worth(-0.135, -0.145, -0.125, 2000, 80000, 0.2)
    return AdviceTable(pd.DataFrame(rows), champion, together, "french")


@pytest.mark.parametrize("width", list(WIDTHS))
def test_the_advice_page_reads_well(browser, tmp_path, width):
    """The tips' table turns into one card per tip on a phone, nothing runs off the
    page, the page opens with its summary and no text is too small to read."""
    w, h = WIDTHS[width]
    page = tmp_path / "advice.html"
    page.write_text(advice_page(advice_table(), "advice/tips.toml"), encoding="utf-8")
    _open(browser, page, w, h)
    overflow = browser.execute_script(OVERFLOW)
    assert overflow["scrollWidth"] <= overflow["width"], "the page scrolls sideways"
    assert overflow["out"] == [], "outside the viewport, not in a scrolling table box"
    first = browser.execute_script(FIRST_SECTION)
    assert first["id"] == "summary" and first["top"] < h
    assert browser.execute_script(SMALL_TEXT, MIN_FONT_PX) == []
    browser.save_screenshot(str(tmp_path / f"advice-{width}.png"))
