"""The relative links of Markdown files, checked: doc_links.py ROOT FILE...

Prints one line per link whose target file (relative to the linking file)
does not exist under ROOT, or whose #anchor names no heading of its target
(headings as GitHub turns them into anchors: lower case, punctuation other
than - and _ dropped, spaces as -). Links with a scheme (https:, mailto:)
are not followed. Exit status 0 when every link resolves."""
import os
import re
import sys

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def anchors(path):
    out, fence = set(), False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("```"):
                fence = not fence
            m = None if fence else re.match(r"#{1,6} (.*)", line)
            if m:
                text = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower())
                out.add(text.replace(" ", "-"))
    return out


def main():
    root, files = sys.argv[1], sys.argv[2:]
    bad = 0
    for rel in files:
        path = os.path.join(root, rel)
        text = open(path, encoding="utf-8").read()
        text = re.sub(r"```.*?```", "", text, flags=re.S)
        for target in LINK.findall(text):
            if re.match(r"[a-z]+:", target):
                continue
            file, _, anchor = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(path), file)) if file else path
            if not os.path.isfile(dest):
                print(f"{rel}: {target}: no such file")
                bad += 1
            elif anchor and anchor not in anchors(dest):
                print(f"{rel}: {target}: no heading for #{anchor}")
                bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
