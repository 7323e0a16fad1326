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
from firmware.cli.cli_words import CliWords
from firmware.cli.language import add_lang_argument, output_language
from firmware.screen.oled_words import OledWords
from firmware.screen.rulestext import changes_text, describe_changes
from firmware.store.rulesfile import load_rules

#: Shown in the header, not in the option list.
_HEADER_FIELDS = ("name", "description", "source")

#: Each preset's description in the command line's words (the German is the preset file's own).
DESCRIPTION_KEYS = {
    "boerde": "cli_preset_boerde", "bvb": "cli_preset_bvb", "dsm": "cli_preset_dsm",
    "standard": "cli_preset_standard", "westfalen": "cli_preset_westfalen",
}  # fmt: skip
#: The header's labels (padded to the longest of the language, plus a space).
_LABEL_KEYS = (
    "cli_rules_name", "cli_rules_file", "cli_rules_based_on", "cli_rules_description",
    "cli_rules_source",
)  # fmt: skip


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="every preset with its description")
    listing.add_argument("--json", action="store_true", help="print JSON instead of text")
    add_lang_argument(listing, "the descriptions")
    show = actions.add_parser("show", help="every option of a preset or a rules file")
    show.add_argument("rules", metavar="NAME|FILE", help="a preset name or a rules TOML file")
    show.add_argument("--json", action="store_true", help="print JSON instead of text")
    add_lang_argument(show, "the headings and a preset's description")


def describe(rules: Rules, text: CliWords) -> str:
    """The rules' description in ``text``'s language: a preset's from the command line's words;
    a file's that :func:`load_rules` worded ("wie standard, aber 15 Deckel") worded again in
    that language, as the rules screen words it; a file's own as the file words it."""
    key = DESCRIPTION_KEYS.get(rules.name)
    if key is not None:
        return text.t(key)
    base_name = rules.name.removesuffix("+")
    if rules.name.endswith("+") and base_name in preset_names():
        base = load_preset(base_name)
        changed = differences(base, rules)
        if changed and rules.description == describe_changes(base, rules, changed):
            return changes_text(base, rules, changed, OledWords(text.language))
    return rules.description


def run(args: argparse.Namespace) -> int:
    text = CliWords(output_language(args))
    if args.action == "list":
        presets = [load_preset(name) for name in preset_names()]
        if args.json:  # for scripts: the preset files' own words
            rows = [{"name": r.name, "description": r.description} for r in presets]
            print(json.dumps(rows, ensure_ascii=False))
        else:
            width = max(len(r.name) for r in presets)
            for r in presets:
                print(f"{r.name.ljust(width)}  {describe(r, text)}")
        return 0
    rules = load_rules(args.rules)
    if args.json:
        print(json.dumps(rules.to_mapping(), ensure_ascii=False))
    else:
        origin = None if args.rules in preset_names() else args.rules
        print(format_rules(rules, origin, text))
    return 0


def format_rules(rules: Rules, origin: str | None = None, text: CliWords | None = None) -> str:
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
    text = text or CliWords()
    width = max(len(text.t(key)) for key in _LABEL_KEYS) + 1

    def label(key: str) -> str:
        return text.t(key).ljust(width)

    lines = [f"{label('cli_rules_name')}{rules.name}"]
    if origin is not None:
        lines.append(f"{label('cli_rules_file')}{origin}")
    if extended:
        changed = ", ".join(differences(base, rules))
        based = text.t("cli_rules_changed", base=base.name, changed=changed)
        lines.append(f"{label('cli_rules_based_on')}{based}")
    lines += [
        f"{label('cli_rules_description')}{describe(rules, text) or '-'}",
        f"{label('cli_rules_source')}{rules.source or '-'}",
        "",
    ]
    for key, value in options.items():
        line = f"{key.ljust(key_width)}  {toml_value(value)}"
        if value != reference[key]:
            note = f"({base.name}: {toml_value(reference[key])})"
            line = f"{line.ljust(key_width + 2 + value_width)}  {note}"
        lines.append(line)
    return "\n".join(lines)
