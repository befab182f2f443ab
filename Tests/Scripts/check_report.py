#!/usr/bin/env python3
"""Checks a report.json (or a diff written by `stocktake diff --format json`) the way a consumer would:
valid against its schema, Reports/report.schema.json or Reports/diff.schema.json (JSON Schema 2020-12,
with the reference validator), and every object's keys in sorted order.
Usage: check_report.py REPORT.json SCHEMA.json; exit 0 when both hold, 1 with the reasons otherwise, 3 when
jsonschema is not installed."""
import json
import sys

try:
    import jsonschema
except ImportError:
    # The Swift tests probe for jsonschema first (ExternalTools.hasJSONSchema); said plainly for a person running this.
    print("check_report.py: python3's jsonschema is not installed (pip install jsonschema)", file=sys.stderr)
    sys.exit(3)


def main(report_path, schema_path):
    problems = []

    def sorted_pairs(pairs):
        keys = [key for key, _ in pairs]
        if keys != sorted(keys):
            problems.append("keys not sorted: %s" % keys[:12])
        return dict(pairs)

    with open(report_path, encoding="utf-8") as handle:
        report = json.load(handle, object_pairs_hook=sorted_pairs)
    with open(schema_path, encoding="utf-8") as handle:
        schema = json.load(handle)
    validator = jsonschema.Draft202012Validator(schema)
    for error in sorted(validator.iter_errors(report), key=lambda e: list(e.path)):
        problems.append("schema: %s at %s" % (error.message[:200], "/".join(map(str, error.path))))
    for problem in problems[:20]:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
