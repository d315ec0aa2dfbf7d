#!/usr/bin/env python3
"""Write the code of an HTML page's inline scripts, as a browser's tokenizer reads it, to a
file, the scripts joined by a line with `;`: python3 scripts.py PAGE OUT.js
Exit 1 when the page holds no inline script."""
import sys
from html.parser import HTMLParser


class Scripts(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.codes = []
        self.inside = False

    def handle_starttag(self, tag, attrs):
        if tag == "script" and not any(name == "src" for name, _ in attrs):
            self.inside = True
            self.codes.append("")

    def handle_endtag(self, tag):
        if tag == "script":
            self.inside = False

    def handle_data(self, data):
        if self.inside:
            self.codes[-1] += data


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1], encoding="utf-8") as f:
        page = f.read()
    scripts = Scripts()
    scripts.feed(page)
    scripts.close()
    if not scripts.codes:
        sys.exit(1)
    with open(sys.argv[2], "w", encoding="utf-8") as f:
        f.write("\n;\n".join(scripts.codes))


if __name__ == "__main__":
    main()
