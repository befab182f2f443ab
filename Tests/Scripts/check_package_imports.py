#!/usr/bin/env python3
"""Fails when a target imports one of the package's modules (or a dependency's product) that Package.swift
does not declare for it (SwiftPM builds such code by accident, through another target's dependency), or declares
one that none of its files imports."""
import glob
import os
import re
import sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
package = open(os.path.join(root, 'Package.swift')).read()
declared = {}


def call_arguments(text, open_paren):
    """The text between the parenthesis at `open_paren` and its match (Package.swift has no parentheses in strings)."""
    depth = 0
    for index in range(open_paren, len(text)):
        depth += {'(': 1, ')': -1}.get(text[index], 0)
        if depth == 0:
            return text[open_paren + 1:index]
    raise SystemExit('Package.swift: unbalanced parentheses')


for match in re.finditer(r'\.(?:target|testTarget|executableTarget|systemLibrary)\(\s*name:\s*"(\w+)"', package):
    name = match.group(1)
    rest = call_arguments(package, match.start() + match.group(0).index('('))[len(match.group(0)) - match.group(0).index('(') - 1:]
    declared[name] = set(re.findall(r'"(\w+)"', rest.split('path:')[0])) | set(re.findall(r'\.product\(name: "(\w+)"', rest))
# The libFuzzer targets, declared only for Fuzz/run.sh: ("FuzzX", ["Module", ...]).
for name, rest in re.findall(r'\("(Fuzz\w+)", \[([^\]]*)\]\)', package):
    declared[name] = set(re.findall(r'"(\w+)"', rest))
known = set(declared) | set(re.findall(r'\.product\(name: "(\w+)"', package))
EXECUTABLES = set(re.findall(r'\.executableTarget\(\s*name:\s*"(\w+)"', package))
problems = []
for name, dependencies in declared.items():
    folder = next((os.path.join(root, base, name) for base in ('Sources', 'Tests', 'Fuzz/Targets') if os.path.isdir(os.path.join(root, base, name))), None)
    if folder is None:
        continue
    imported = set()
    for path in glob.glob(folder + '/**/*.swift', recursive=True):
        for module in re.findall(r'^[ \t]*(?:@testable )?import (\w+)', open(path).read(), re.M):
            imported.add(module)
            if module in known and module != name and module not in dependencies:
                problems.append(f'{os.path.relpath(path, root)}: imports {module}, which Package.swift does not declare for {name}')
    # A declared dependency nothing imports costs build time and hides the real edges. The executable a test target
    # runs is declared to get it built, never imported.
    for module in sorted(dependencies - imported):
        if module in known and module not in EXECUTABLES and glob.glob(folder + '/**/*.swift', recursive=True):
            problems.append(f'{name}: declares {module} in Package.swift but no file of it imports it')
print('\n'.join(sorted(set(problems))) or 'every import is declared')
sys.exit(1 if problems else 0)
