#!/usr/bin/env python3
"""The corpus tests' expectations (tests/corpus/expected_rows.csv) and the tables made from them.

The file holds the status every backend's row must have for every corpus model, on each build
("1.13": Debian's LibTorch; "2.x": PyTorch 2.x from PyPI), in --performance and in --accuracy,
with a note where a row does not pass. The corpus tests fail on any difference; docs/backends.md
shows the same file as one table per build.

    scripts/corpus_table.py --markdown 1.13            # print a build's table
    scripts/corpus_table.py --check docs/backends.md   # fail if the doc's tables differ
    scripts/corpus_table.py --write docs/backends.md   # regenerate the doc's tables
    scripts/corpus_table.py --merge observed.csv       # take statuses a test run recorded

A recorded run: TRACEBENCH_RECORD_ROWS=/tmp/observed.csv ctest --test-dir build -L "corpus|hub"
appends "model,backend,build,mode,status" lines; --merge puts them into the table (notes kept), and
git diff shows what changed.
"""

import argparse
import csv
import io
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = os.path.join(ROOT, "tests", "corpus", "expected_rows.csv")
COLUMNS = ["model", "backend", "build", "performance", "accuracy", "note"]
BUILDS = ["1.13", "2.x"]
BLOCK = re.compile(r"(<!-- corpus-table (\S+) -->\n)(.*?)(<!-- end corpus-table -->)", re.S)


def read_table():
    """The header comment (kept as written) and the rows."""
    with open(TABLE) as file:
        lines = file.read().splitlines(keepends=True)
    comment = [line for line in lines if line.startswith("#")]
    data = [line for line in lines if not line.startswith("#")]
    return comment, list(csv.DictReader(data))


def write_table(comment, rows):
    out = io.StringIO()
    writer = csv.DictWriter(out, COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    with open(TABLE, "w") as file:
        file.write("".join(comment) + out.getvalue())


def cell(row):
    """What a reader needs of one row: its status, both when they differ."""
    if row["performance"] == "skipped":
        return "not run"
    performance, accuracy = (row[mode].replace("|", " or ") for mode in ("performance", "accuracy"))
    return performance if performance == accuracy else f"{performance} / {accuracy}"


def markdown(rows, build):
    # Columns in the file's order of backends, the same for every build's table.
    backends = list(dict.fromkeys(row["backend"] for row in rows))
    rows = [row for row in rows if row["build"] == build]
    models = list(dict.fromkeys(row["model"] for row in rows))
    backends = [backend for backend in backends if any(row["backend"] == backend for row in rows)]
    cells = {(row["model"], row["backend"]): cell(row) for row in rows}
    lines = ["| model | " + " | ".join(f"`{backend}`" for backend in backends) + " |",
             "|---" * (len(backends) + 1) + "|"]
    for model in models:
        lines.append(f"| {model} | " +
                     " | ".join(cells.get((model, backend), "") for backend in backends) + " |")
    # One line per (backend, note), naming its models: a note often holds for many.
    noted = {}
    for row in rows:
        if row["note"]:
            noted.setdefault((row["backend"], row["note"]), []).append(row["model"])
    notes = [f"- `{backend}` on {', '.join(models)}: {note}"
             for (backend, note), models in noted.items()]
    return "\n".join(lines) + "\n" + ("\n" + "\n".join(notes) + "\n" if notes else "") + "\n"


def regenerated(document, rows):
    return BLOCK.sub(lambda match: match.group(1) + markdown(rows, match.group(2)) + match.group(4),
                     document)


def merge(rows, observed_path):
    """Statuses from a recorded run replace the table's; pairs new to it are added."""
    index = {(row["model"], row["backend"], row["build"]): row for row in rows}
    with open(observed_path) as file:
        for model, backend, build, mode, status in csv.reader(file):
            row = index.get((model, backend, build))
            if row is None:
                row = {"model": model, "backend": backend, "build": build,
                       "performance": "", "accuracy": "", "note": ""}
                index[(model, backend, build)] = row
                rows.append(row)
            row[mode] = status
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--markdown", choices=BUILDS, help="print this build's table")
    group.add_argument("--check", metavar="DOC", help="fail if DOC's tables differ")
    group.add_argument("--write", metavar="DOC", help="regenerate DOC's tables")
    group.add_argument("--merge", metavar="OBSERVED", help="take a recorded run's statuses")
    args = parser.parse_args()
    comment, rows = read_table()
    if args.markdown:
        sys.stdout.write(markdown(rows, args.markdown))
    elif args.merge:
        write_table(comment, merge(rows, args.merge))
    else:
        path = args.check or args.write
        with open(path) as file:
            document = file.read()
        if not BLOCK.search(document):
            sys.exit(f"{path}: no '<!-- corpus-table BUILD -->' block to fill")
        expected = regenerated(document, rows)
        if args.write:
            with open(path, "w") as file:
                file.write(expected)
        elif expected != document:
            sys.exit(f"{path}: its corpus tables differ from {os.path.relpath(TABLE, ROOT)}; "
                     f"run scripts/corpus_table.py --write {path}")


if __name__ == "__main__":
    main()
