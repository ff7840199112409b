"""Accessibility checks of a page with axe-core, for any browser test: ``assert_accessible(page, "lobby-390x844")``.

axe-core comes with the ``axe-playwright-python`` package (its ``axe.min.js``; no npm), is injected into the page
by Playwright (``page.evaluate``, which the page's Content-Security-Policy does not apply to) and run with the rules
of WCAG 2.0, 2.1 and 2.2 at levels A and AA plus axe's best practices. The full JSON report is written to
``test-artifacts/axe-NAME.json``; the check fails on every violation of impact *serious* or *critical*, naming the
rule, its help text and the selectors of the failing elements. Lesser violations (*moderate*, *minor*) are in the
report and returned, not failed.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from .conftest import ARTIFACTS  # the screenshots' folder; the ``browser`` fixture clears old reports too

#: The axe-core rule tags run: WCAG 2.x A and AA, and axe's best practices.
TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice")
#: The impacts that fail the check.
FAILING = ("serious", "critical")


def _axe_script() -> str:
    try:
        from axe_playwright_python.base import AXE_SCRIPT
    except ImportError:
        pytest.fail("the accessibility checks need axe-playwright-python: pip install -e '.[test]'", pytrace=False)
    return AXE_SCRIPT


def run_axe(page: Any, name: str, *, context: Any = None, disable: tuple[str, ...] = ()) -> dict[str, Any]:
    """Runs axe-core on the page (sync Playwright ``Page``) as it is now; saves and returns the full results.

    ``context`` is axe's: a selector, or ``{"include": [...], "exclude": [...]}``; ``None`` is the whole page.
    ``disable`` names rules to leave out (say why where you do).
    """
    if not re.fullmatch(r"[\w.-]+", name):
        raise ValueError(f"a report name is letters, digits, '.', '_' or '-': {name!r}")
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(_axe_script())
    options: dict[str, Any] = {"runOnly": {"type": "tag", "values": list(TAGS)}}
    if disable:
        options["rules"] = {rule: {"enabled": False} for rule in disable}
    results: dict[str, Any] = page.evaluate(
        "([context, options]) => axe.run(context ?? document, options)", [context, options]
    )
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"axe-{name}.json").write_text(json.dumps(results, indent=1), encoding="utf-8")
    return results


def describe(violations: list[dict[str, Any]]) -> str:
    """One paragraph per violation: rule id, impact, help (and its URL), then each failing node's selector."""
    lines = []
    for violation in violations:
        lines.append(f"{violation['id']} ({violation['impact']}): {violation['help']} <{violation['helpUrl']}>")
        for node in violation["nodes"]:
            target = " ".join(" >> ".join(t) if isinstance(t, list) else str(t) for t in node["target"])
            summary = (node.get("failureSummary") or "").replace("\n", " ")
            lines.append(f"    {target}: {summary}" if summary else f"    {target}")
    return "\n".join(lines)


def assert_accessible(page: Any, name: str, *, context: Any = None, disable: tuple[str, ...] = ()) -> dict[str, Any]:
    """Fails listing every serious or critical axe-core violation on the page; returns the full results.

    The report is saved to ``test-artifacts/axe-NAME.json`` whatever the outcome (see :func:`run_axe`).
    """
    results = run_axe(page, name, context=context, disable=disable)
    failing = [v for v in results["violations"] if v.get("impact") in FAILING]
    if failing:
        pytest.fail(
            f"{name}: {len(failing)} serious or critical accessibility violation(s) "
            f"(full report in test-artifacts/axe-{name}.json):\n{describe(failing)}",
            pytrace=False,
        )
    return results
