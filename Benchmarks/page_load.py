#!/usr/bin/env python3
"""How long a report page takes to open in headless Chromium (Navigation Timing), and its size.

    python3 Benchmarks/page_load.py PAGE [PAGE ...] [--runs N] [--chromium PATH] [--virtual-time-budget MS] [--json]

Each page is copied to a temporary file with its Content-Security-Policy meta tag removed (the report forbids
inline script; the copy must run one) and a small script appended before `</body>`. After the load event, that
script writes the page's Navigation Timing (`performance.getEntriesByType('navigation')[0]`) and Paint Timing
(`performance.getEntriesByType('paint')`) into an attribute of `<body>`; `chromium --headless --no-sandbox
--disable-gpu --dump-dom` prints the DOM once the page has loaded, and the attribute is read back from it.

Figures, in milliseconds from the start of the navigation (medians of N runs, one Chromium process per run):

- `dcl`: domContentLoadedEventEnd (the HTML parsed, its synchronous work done)
- `load`: loadEventEnd
- `fcp`: first-contentful-paint, when Chromium reports one before the DOM is dumped (`-` otherwise: headless
  Chromium without virtual time reports paints only when one happened before the load event)
- `wall`: the whole `chromium --dump-dom` process, start-up and shut-down included (seconds); compare it with
  the trivial page that is measured first, in the same interleaved rounds, as the baseline

Runs are interleaved over the pages (trivial, PAGE1, PAGE2, …, then again), so drift on a shared machine hits
all alike. Without `--virtual-time-budget` (the default) the figures are real time: with it, Chromium runs the
page on virtual time, which skips idle waits and lets timers fire early, so it is offered only for comparison.

Standard library only. Exit status 1 when a run yields no figures (the attribute is missing from the dump).
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ATTRIBUTE = "data-stocktake-load"

# Runs after the load event's handlers (setTimeout 0 from a load listener), so loadEventEnd is set.
PROBE = """<script>
(function () {
  function paint(name) {
    var entries = performance.getEntriesByType('paint').filter(function (e) { return e.name === name; });
    return entries.length ? entries[0].startTime : null;
  }
  function record() {
    var n = performance.getEntriesByType('navigation')[0];
    var figures = n ? {
      responseEnd: n.responseEnd, domInteractive: n.domInteractive,
      dcl: n.domContentLoadedEventEnd, load: n.loadEventEnd,
      fp: paint('first-paint'), fcp: paint('first-contentful-paint'),
      recorded: performance.now(), elements: document.getElementsByTagName('*').length
    } : {error: 'no navigation entry'};
    document.body.setAttribute('%s', JSON.stringify(figures));
  }
  window.addEventListener('load', function () { setTimeout(record, 0); });
})();
</script>
""" % ATTRIBUTE

TRIVIAL = "<!doctype html><html><head><meta charset=\"utf-8\"><title>trivial</title></head><body><p>trivial</p></body></html>\n"

CSP_META = re.compile(rb"<meta\s+http-equiv=\"?Content-Security-Policy\"?[^>]*>", re.IGNORECASE)


def instrument(source: bytes) -> bytes:
    """The page without its CSP meta tag, with the probe before the last </body> (or at the end)."""
    page, removed = CSP_META.subn(b"", source, count=1)
    probe = PROBE.encode()
    at = page.rfind(b"</body>")
    return page[:at] + probe + page[at:] if at >= 0 else page + probe


def run_once(chromium: str, path: str, budget: int | None, timeout: float) -> dict:
    argv = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom"]
    if budget:
        argv.append("--virtual-time-budget=%d" % budget)
    argv.append("file://" + path)
    start = time.monotonic()
    done = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=timeout)
    wall = time.monotonic() - start
    match = re.search(rb'<body[^>]*\s' + ATTRIBUTE.encode() + rb'="([^"]*)"', done.stdout)
    if not match:
        return {"wall": wall, "error": "no figures in the dump (exit %d, %d bytes)" % (done.returncode, len(done.stdout))}
    text = match.group(1).decode().replace("&quot;", '"').replace("&amp;", "&")
    figures = json.loads(text)
    figures["wall"] = wall
    return figures


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pages", nargs="+", metavar="PAGE")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--chromium", default=os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser") or "chromium")
    parser.add_argument("--virtual-time-budget", type=int, default=None, metavar="MS",
                        help="run Chromium on virtual time (for comparison only: it distorts the figures)")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds before one Chromium run is abandoned")
    parser.add_argument("--json", action="store_true", help="print the medians as JSON instead of a table")
    args = parser.parse_args()
    if shutil.which(args.chromium) is None and not os.access(args.chromium, os.X_OK):
        print("page_load.py: no Chromium at %s" % args.chromium, file=sys.stderr)
        return 2

    with tempfile.TemporaryDirectory(prefix="page-load-") as folder:
        copies = [("(trivial page: the baseline)", 0, os.path.join(folder, "trivial.html"))]
        with open(copies[0][2], "w", encoding="utf-8") as out:
            out.write(TRIVIAL.replace("</body>", PROBE + "</body>"))
        for number, page in enumerate(args.pages):
            with open(page, "rb") as source:
                original = source.read()
            copy = os.path.join(folder, "page-%d.html" % number)
            with open(copy, "wb") as out:
                out.write(instrument(original))
            copies.append((page, len(original), copy))

        results = {index: [] for index in range(len(copies))}
        failed = False
        for run in range(args.runs):
            for index, (label, _, copy) in enumerate(copies):
                figures = run_once(args.chromium, copy, args.virtual_time_budget, args.timeout)
                if "error" in figures:
                    print("run %d, %s: %s" % (run + 1, label, figures["error"]), file=sys.stderr)
                    failed = True
                results[index].append(figures)
                print("run %d/%d %s: %s" % (run + 1, args.runs, label, json.dumps(figures)), file=sys.stderr)

    summary = []
    for index, (label, size, _) in enumerate(copies):
        runs = results[index]
        row = {"page": label, "bytes": size, "runs": len(runs)}
        for key in ("responseEnd", "domInteractive", "dcl", "load", "fp", "fcp", "wall", "elements"):
            row[key] = median([r.get(key) for r in runs])
        summary.append(row)

    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        mode = "virtual time budget %d ms" % args.virtual_time_budget if args.virtual_time_budget else "real time"
        print("| page | bytes | elements | DOMContentLoaded ms | load ms | first contentful paint ms | chromium wall s |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for row in summary:
            def ms(value):
                return "-" if value is None else "%.0f" % value
            print("| %s | %s | %s | %s | %s | %s | %.2f |" % (
                row["page"], "{:,}".format(row["bytes"]) if row["bytes"] else "-",
                "-" if row["elements"] is None else "{:,}".format(int(row["elements"])),
                ms(row["dcl"]), ms(row["load"]), ms(row["fcp"]), row["wall"]))
        print("\nMedians of %d interleaved runs (%s), %s." % (args.runs, mode, args.chromium))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
