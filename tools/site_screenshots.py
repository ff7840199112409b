"""Screenshots of the documentation site for docs/images: its home, an API page and the architecture page.

Build the site first (``make docs``, into site/), then, with Playwright installed (the ``test`` extra) and Debian's
chromium (Playwright never downloads a browser here):

    python tools/site_screenshots.py            # or: --site DIR --out DIR --width 1280 --height 900

It serves site/ on a free local port, opens each page in chromium, waits for the architecture page's Mermaid diagram
to be drawn (Mermaid runs in the browser: Material replaces each ``pre.mermaid`` block of diagram text with a
``div.mermaid`` holding the drawing, in a closed shadow root), and writes ``site-home.png``,
``site-api.png`` and ``site-architecture.png``. Not part of CI: remake them when the site's look changes.

Material for MkDocs loads Mermaid from a CDN (:data:`MERMAID_URL`) when a page has a diagram, and this machine may not
reach it: the script answers that request itself with ``dist/mermaid.min.js`` of the same major version from the npm
registry (``npm pack mermaid@11`` into build/site-screenshots/, once), so the screenshot shows what a reader online
sees.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import subprocess
import tarfile
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
#: What Material for MkDocs (9.x) loads for a page with a Mermaid diagram.
MERMAID_URL = "https://unpkg.com/mermaid@11/dist/mermaid.min.js"
CACHE = ROOT / "build" / "site-screenshots"
#: True once every Mermaid diagram of the page has its drawing (a box with no drawing yet is a few pixels high).
DRAWN = "[...document.querySelectorAll('div.mermaid')].every(e => e.getBoundingClientRect().height > 50)"

#: (file name, page path in the site, a selector to wait for, the element to scroll to the top first, or None): the
#: architecture page is shown at its second diagram, the path of one action.
SHOTS = [
    ("site-home.png", "", "article h1", None),
    ("site-api.png", "reference/engine/", "article .doc-heading", "[id='studpoker.engine.HandState']"),
    ("site-architecture.png", "architecture/", "div.mermaid", "div.mermaid >> nth=1"),
]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def mermaid_js() -> bytes:
    """``mermaid.min.js`` of the npm package mermaid@11, from a tarball ``npm pack`` fetched into :data:`CACHE`."""
    CACHE.mkdir(parents=True, exist_ok=True)
    packs = sorted(CACHE.glob("mermaid-11.*.tgz"))
    if not packs:
        subprocess.run(["npm", "pack", "mermaid@11", "--silent"], cwd=CACHE, check=True, stdout=subprocess.DEVNULL)
        packs = sorted(CACHE.glob("mermaid-11.*.tgz"))
    with tarfile.open(packs[-1]) as pack:
        member = pack.extractfile("package/dist/mermaid.min.js")
        assert member is not None
        return member.read()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--site", type=Path, default=ROOT / "site", help="the built site (default: site/)")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images", help="where the PNGs go")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=900)
    args = parser.parse_args()
    if not (args.site / "index.html").is_file():
        parser.error(f"{args.site} holds no built site: run `make docs` first")

    handler = functools.partial(_Quiet, directory=str(args.site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM)
            page = browser.new_page(viewport={"width": args.width, "height": args.height})
            script = mermaid_js()
            page.route(MERMAID_URL, lambda route: route.fulfill(body=script, content_type="text/javascript"))
            for name, path, ready, focus in SHOTS:
                page.goto(base + path, wait_until="networkidle")
                page.wait_for_selector(ready, timeout=30_000)
                if ready == "div.mermaid":  # every diagram drawn, not just its box made
                    page.wait_for_function(DRAWN)
                if focus is not None:
                    # to the element, less the sticky header and a little context (in one scroll down: a scroll
                    # up would show the "Back to top" button)
                    top = page.locator(focus).first.evaluate("e => e.getBoundingClientRect().top + window.scrollY")
                    page.evaluate(f"window.scrollTo(0, {max(0, top - 70)})")
                page.wait_for_timeout(500)  # the header's title changes as the page scrolls: let it settle
                out = args.out / name
                page.screenshot(path=str(out))
                print(f"{out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}")
            browser.close()
    finally:
        server.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
