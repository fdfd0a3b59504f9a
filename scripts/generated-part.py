#!/usr/bin/env python3
"""The generated part of a variant's page, for the reading check (docs/reading-check.md).

Prints what `carto doc` composes from the rules, without the author's prose: no header `doc`, no
rules-file comments (the first sentence of a row), no parameter meanings. From
`carto doc VARIANT --format json`, and the text map from `--format text`.

Usage: python3 scripts/generated-part.py CARTO VARIANT
"""
import json
import subprocess
import sys

carto, variant = sys.argv[1], sys.argv[2]


def run(fmt):
    return subprocess.run([carto, "doc", variant, "--format", fmt],
                          capture_output=True, text=True, check=True).stdout


page = json.loads(run("json"))
text = run("text")
out = [f"# {page['title']} ({page['name']})", ""]
out.append(f"Players {page['players'][0]}-{page['players'][1]}; followers each {page['followers']}; "
           f"tiles {page['tiles']} ({', '.join(page['tile_sets']) or 'base'})")
if page["chips"]:
    out.append(f"Chips {page['chips']} ({', '.join(page['chip_colours'])})")
if page["map"]:
    m = page["map"]
    out.append(f"Map {m['name']} {m['width']}x{m['height']}; start squares "
               f"{', '.join(m['start_squares'])} ({m['starts_used']} used)")
out += ["", "## The turn and the end of the game"] + page["turn"]
out += ["", "## Map"]
if page["map"] and "\nMap\n---\n" in text:
    # The text map, then its legend.
    section = text.split("\nMap\n---\n", 1)[1]
    picture = section.split("\n\n")
    out += picture[:2]
if not page["map"]:
    out.append("No map: the endless table.")
out += page["map_facts"]
out += ["", "## Parameters"] + [f"{p['name']} = {json.dumps(p['value'])}" for p in page["params"]]
for key, title in [("setup", "Setup"), ("rules", "Rules"), ("actions", "Player actions")]:
    out += ["", "## " + title]
    for it in page[key]:
        head = it["heading"] + (f" ({it['when']})" if it["when"] else "")
        out.append(f"- {head}: {it['sentence']}")
print("\n".join(out))
