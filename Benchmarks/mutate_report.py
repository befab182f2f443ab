#!/usr/bin/env python3
"""Make "the next version" of a report.json for the diff benchmark, streaming line by line.

    python3 Benchmarks/mutate_report.py OLD/report.json NEW/report.json

Stocktake writes one files[] row per line, so rows can be changed without loading 300 MB: every 10th
file grows by 4 KiB, every 50th is removed, every 97th moves to a new folder, and 20,000 files are added
(kept in path order, as the audit writes them). Totals are not re-added: the diff benchmark measures
reading and matching, and the figures it prints are not compared with anything.
"""
import json
import sys


def main(source: str, target: str) -> None:
    with open(source, encoding="utf-8") as old, open(target, "w", encoding="utf-8") as new:
        in_files, index = False, 0
        for line in old:
            stripped = line.strip()
            if stripped == '"files": [':
                in_files = True
                new.write(line)
                continue
            if in_files and stripped.startswith("{"):
                row = json.loads(stripped.rstrip(","))
                index += 1
                if index % 50 == 0:
                    continue
                if index % 10 == 0:
                    row["apparentBytes"] += 4096
                    row["allocatedBytes"] += 4096
                if index % 97 == 0:
                    head, _, name = row["path"].rpartition("/")
                    row["path"] = head + "/moved/" + name
                new.write("    " + json.dumps(row, separators=(",", ":"), sort_keys=True, ensure_ascii=False) + ",\n")
                continue
            if in_files and stripped.startswith("]"):
                in_files = False
                for extra in range(20000):
                    row = {"allocatedBytes": 8192, "apparentBytes": 5000, "backup": "excludedBySystem", "backupEvidence": "location",
                           "kind": "unknown", "location": "caches", "modified": 1795226400,
                           "path": "zz-new/%05d.bin" % extra, "systemManaged": False, "type": "file"}
                    separator = "," if extra < 19999 else ""
                    new.write("    " + json.dumps(row, separators=(",", ":"), sort_keys=True) + separator + "\n")
            new.write(line)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: mutate_report.py OLD/report.json NEW/report.json")
    main(sys.argv[1], sys.argv[2])
