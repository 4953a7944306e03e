"""mkdocs hook: the repository's results page and changelog join the site as ``benchmarks.md`` and
``changelog.md``, read from the repository root at build time (no copy is kept in docs/).

The files keep the links that work on a code host: pages of docs/ link ``../BENCHMARKS.md`` (up to
the root), and the root files link ``docs/...``; both are rebased here onto the site's pages."""
import re
from pathlib import Path

from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parent.parent
PAGES = {"benchmarks.md": "BENCHMARKS.md", "changelog.md": "CHANGELOG.md"}
_ROOT_LINK = re.compile(r"\]\(((?:\.\./)+)(BENCHMARKS|CHANGELOG)\.md")


def on_files(files, config):
    for page, source in PAGES.items():
        text = (ROOT / source).read_text().replace("](docs/", "](")
        files.append(File.generated(config, page, content=text))
    return files


def on_page_markdown(markdown, page, config, files):
    # from docs/<dirs>/page.md, ``../`` * (depth + 1) reaches the root; the site page is ``../`` * depth away
    return _ROOT_LINK.sub(lambda m: f"]({m.group(1)[3:]}{m.group(2).lower()}.md", markdown)
