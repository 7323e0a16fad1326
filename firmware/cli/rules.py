"""List the house-rule presets, or show every option of a preset or a rules file.

Examples:

  schocken rules list
  schocken rules show bvb
  schocken rules show my-pub.toml --json

docs/rules.md explains each option.
"""

from __future__ import annotations

import argparse
import json

from engine.rules import Rules, differences, load_preset, preset_names, toml_value
from firmware.store.rulesfile import load_rules

#: Shown in the header, not in the option list.
_HEADER_FIELDS = ("name", "description", "source")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="every preset with its description")
    listing.add_argument("--json", action="store_true", help="print JSON instead of text")
    show = actions.add_parser("show", help="every option of a preset or a rules file")
    show.add_argument("rules", metavar="NAME|FILE", help="a preset name or a rules TOML file")
    show.add_argument("--json", action="store_true", help="print JSON instead of text")


def run(args: argparse.Namespace) -> int:
    if args.action == "list":
        presets = [load_preset(name) for name in preset_names()]
        if args.json:
            rows = [{"name": r.name, "description": r.description} for r in presets]
            print(json.dumps(rows, ensure_ascii=False))
        else:
            width = max(len(r.name) for r in presets)
            for r in presets:
                print(f"{r.name.ljust(width)}  {r.description}")
        return 0
    rules = load_rules(args.rules)
    if args.json:
        print(json.dumps(rules.to_mapping(), ensure_ascii=False))
    else:
        origin = None if args.rules in preset_names() else args.rules
        print(format_rules(rules, origin))
    return 0


def format_rules(rules: Rules, origin: str | None = None) -> str:
    """Header (name, file, what it is based on, description, source), then one line per option
    with a note where it differs from its base: the preset a ``NAME+`` extends, else
    ``standard``."""
    base_name = rules.name.removesuffix("+")
    extended = rules.name.endswith("+") and base_name in preset_names()
    base = load_preset(base_name if extended else "standard")
    reference = base.to_mapping()
    options = {k: v for k, v in rules.to_mapping().items() if k not in _HEADER_FIELDS}
    key_width = max(map(len, options))
    value_width = max(len(toml_value(v)) for v in options.values())
    lines = [f"rules:       {rules.name}"]
    if origin is not None:
        lines.append(f"file:        {origin}")
    if extended:
        changed = ", ".join(differences(base, rules))
        lines.append(f"based on:    {base.name}, changed: {changed}")
    lines += [
        f"description: {rules.description or '-'}",
        f"source:      {rules.source or '-'}",
        "",
    ]
    for key, value in options.items():
        line = f"{key.ljust(key_width)}  {toml_value(value)}"
        if value != reference[key]:
            note = f"({base.name}: {toml_value(reference[key])})"
            line = f"{line.ljust(key_width + 2 + value_width)}  {note}"
        lines.append(line)
    return "\n".join(lines)
