#!/usr/bin/env python3
"""The corpus tests' expectations (tests/corpus/expected_rows.csv) and the tables made from them.

The file holds the status every backend's row must have for every corpus model, on each build
("1.13": Debian's LibTorch; "2.x": PyTorch 2.x from PyPI), in --performance and in --accuracy;
for a row that does not pass, the reason (a substring its error gives in either mode), and a note
where a reader needs more. The corpus tests fail on any difference; docs/backends.md shows the
same file as one table per build.

    scripts/corpus_table.py --markdown 1.13            # print a build's table
    scripts/corpus_table.py --check docs/backends.md   # fail if the doc's tables differ
    scripts/corpus_table.py --write docs/backends.md   # regenerate the doc's tables
    scripts/corpus_table.py --record DIR               # take what a test run saw

Every corpus test writes the rows it saw to observed-rows/ in its build folder; `make
record-expected-rows` runs the tests and then --record, which puts their statuses and reasons into
the table (notes kept, and a reason kept while the error still gives it), so git diff shows what
changed.
"""

import argparse
import csv
import io
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = os.path.join(ROOT, "tests", "corpus", "expected_rows.csv")
COLUMNS = ["model", "backend", "build", "performance", "accuracy", "reason", "note"]
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


# What changes from one run, machine or clone to the next: numbers (sizes, errors, versions; not
# the digits of a name such as bf16 or conv2d), paths and bracketed asides. A reason is taken from
# the words between them.
UNSTABLE = re.compile(r"(?<![A-Za-z_0-9])[0-9]|[/(\[]")
LONGEST_REASON = 140


def reason_in(detail):
    """The stable words of one error: its opening, or where that is too short to tell one
    failure from another ("[0]: max abs error 0.3"), its first stretch long enough to."""
    pieces = [piece.strip(" :;,.-])") for piece in UNSTABLE.split(detail)]
    long_enough = [piece for piece in pieces if len(piece) >= 12] or [max(pieces, key=len)]
    reason = pieces[0] if len(pieces[0]) >= 24 else long_enough[0]
    if len(reason) > LONGEST_REASON:
        reason = reason[:LONGEST_REASON].rsplit(" ", 1)[0]
    return reason


def reasons_for(details, kept):
    """One reason every error gives, or alternatives ("a|b") where the modes' errors differ;
    the table's own reason while every error still gives it."""
    if kept and all(any(part in detail for part in kept.split("|")) for detail in details):
        return kept
    reasons = list(dict.fromkeys(reason_in(detail) for detail in details))
    shared = [reason for reason in reasons if all(reason in detail for detail in details)]
    return shared[0] if shared else "|".join(reasons)


def record(rows, observed_dir):
    """Statuses and reasons from a test run's observed rows; pairs new to the table are added."""
    index = {(row["model"], row["backend"], row["build"]): row for row in rows}
    seen = {}
    for name in sorted(os.listdir(observed_dir)):
        with open(os.path.join(observed_dir, name)) as file:
            for line in csv.DictReader(file):
                key = (line["model"], line["backend"], line["build"])
                seen.setdefault(key, {})[line["mode"]] = (line["status"], line["detail"])
    for key, modes in seen.items():
        row = index.get(key)
        if row is None:
            row = dict(zip(COLUMNS, key + ("", "", "", "")))
            index[key] = row
            rows.append(row)
        for mode, (status, _) in modes.items():
            # A cell naming alternatives keeps them while the run gives one of them.
            if status not in row[mode].split("|"):
                row[mode] = status
        failing = [detail for status, detail in modes.values() if status != "pass"]
        if failing:
            row["reason"] = reasons_for(failing, row["reason"])
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--markdown", choices=BUILDS, help="print this build's table")
    group.add_argument("--check", metavar="DOC", help="fail if DOC's tables differ")
    group.add_argument("--write", metavar="DOC", help="regenerate DOC's tables")
    group.add_argument("--record", metavar="DIR", help="take the statuses and reasons a run saw")
    args = parser.parse_args()
    comment, rows = read_table()
    if args.markdown:
        sys.stdout.write(markdown(rows, args.markdown))
    elif args.record:
        write_table(comment, record(rows, args.record))
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
