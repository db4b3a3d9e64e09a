"""What may reach a rulebook page: escaped spec text, safe ids, and allow-listed Markdown.

Spec strings and text files are untrusted, and MkDocs' Markdown (with ``attr_list`` and
``md_in_html``) turns raw HTML, ``{: onclick=… }`` attribute lists and ``javascript:`` links into
live HTML. So nothing reaches a page as the author typed it:

* :func:`markdown_escape` makes a spec string inert text (HTML, Markdown and attribute-list
  characters escaped, line starts that would open a block defused, newlines joined);
* :func:`slug` turns an id (rule, open question, scenario, table) into a heading id and link
  fragment that cannot leave ``{#…}`` or an HTML attribute;
* :func:`sanitize` reads a text's Markdown with markdown-it-py (CommonMark) and writes it anew in a
  canonical form from an allow-list (:data:`ALLOWED`): every piece of text is escaped, so only
  the structure rulecraft itself writes reaches MkDocs. Raw HTML, images and links other than
  ``http:``, ``https:`` and relative ones are refused with :class:`MarkdownRefused`.

:class:`Safe` marks a string that is already safe to put into a page (a sanitised text, an SVG
rulecraft drew); the page templates escape everything else.
"""

from __future__ import annotations

import hashlib
from html import escape as html_escape
import re

from markdown_it import MarkdownIt
from markdown_it.tree import SyntaxTreeNode

ALLOWED = ("paragraphs", "headings", "bullet and numbered lists", "block quotes", "tables",
           "horizontal rules", "code blocks", "emphasis", "strong emphasis", "inline code",
           "links to http(s) and relative addresses", "line breaks")
LINK_SCHEMES = ("http", "https")
INDENT = "    "            # Python-Markdown nests list content four spaces deep
LISTS = ("bullet_list", "ordered_list")
LIST_END = "<!-- -->"      # Python-Markdown would continue a list into a following list or code block

_MARKDOWN = MarkdownIt("commonmark", {"html": True}).enable("table")
_MARKDOWN.validateLink = lambda url: True      # every link is judged by _check_link instead
_SAFE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")
_ESCAPED = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "\n": " ", "\r": " "}
_BACKSLASHED = set("\\`*_[]{}|#")
_LINE_START = re.compile(r"^(?:[-+!]|\d+[.)]|=)")


class Safe(str):
    """Markdown or HTML that is safe to put into a page as it is (see the module docstring)."""

    def __markdown__(self) -> "Safe":
        return self


class MarkdownRefused(ValueError):
    """A text's Markdown uses something outside :data:`ALLOWED`; ``snippet`` is the offending
    source (to locate it in the text file), ``hint`` how to write it instead."""

    def __init__(self, message: str, snippet: str = "", hint: str | None = None):
        super().__init__(message)
        self.message, self.snippet, self.hint = message, snippet, hint


def markdown_escape(text) -> str:
    """Spec text made inert in Markdown and in HTML text: ``&<>`` as entities, Markdown and
    attribute-list characters backslashed, newlines as spaces, and a line start that would
    open a list, a heading or an admonition defused."""
    out = []
    for char in str(text):
        if char in _ESCAPED:
            out.append(_ESCAPED[char])
        elif char in _BACKSLASHED:
            out.append("\\" + char)
        else:
            out.append(char)
    return _defuse_line_start("".join(out).lstrip())


def attribute_escape(text) -> Safe:
    """Text for an HTML attribute value or element (quotes included)."""
    return Safe(html_escape(str(text), quote=True))


def slug(identifier) -> str:
    """A heading id and link fragment for ``identifier``: itself when it is already made of
    letters, digits, ``.``, ``_`` and ``-`` (rule ``4.4`` stays ``4.4``), else its readable part
    and a short hash of the whole (so that two ids never share a slug)."""
    text = str(identifier)
    if _SAFE_ID.fullmatch(text):
        return text
    readable = re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-._")
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]
    return f"{readable}-{digest}" if readable else f"id-{digest}"


def sanitize(markdown: str, *, inline: bool = False) -> Safe:
    """``markdown`` (a rendered text) rewritten from the allow-list; ``inline`` reads it as one
    line of inline Markdown (a title, a summary). Raises :class:`MarkdownRefused`."""
    if inline:
        tokens = _MARKDOWN.parseInline(str(markdown))
        return Safe(_inline(SyntaxTreeNode(tokens).children[0]))
    tree = SyntaxTreeNode(_MARKDOWN.parse(str(markdown)))
    return Safe(_blocks(tree.children))


def plain_text(markdown: str) -> str:
    """The words of one line of inline Markdown without its marks (for labels and titles)."""
    tokens = _MARKDOWN.parseInline(str(markdown))
    return " ".join(_words(SyntaxTreeNode(tokens).children[0]).split())


# ---------- blocks ----------
def _blocks(nodes) -> str:
    """Blocks one after another, a blank line apart (and a list ended before a list or code
    block that follows it)."""
    out = []
    for index, node in enumerate(nodes):
        if index and nodes[index - 1].type in LISTS and node.type in LISTS + ("code_block", "fence"):
            out.append(LIST_END)
        out.append(_block(node))
    return "\n\n".join(out)


def _block(node) -> str:  # noqa: C901 - one branch per allowed block
    kind = node.type
    if kind == "paragraph":
        return _inline(node.children[0])
    if kind == "heading":
        return "#" * int(node.tag[1]) + " " + _inline(node.children[0])
    if kind in ("bullet_list", "ordered_list"):
        start = int(node.attrs.get("start", 1)) if kind == "ordered_list" else 0
        tight = all(child.hidden for item in node.children for child in item.children
                    if child.type == "paragraph")
        items = [_list_item(f"{number}. " if kind == "ordered_list" else "- ", item, tight)
                 for number, item in enumerate(node.children, start)]
        return ("\n" if tight else "\n\n").join(items)
    if kind == "blockquote":
        return "\n".join(("> " + line).rstrip() for line in _blocks(node.children).split("\n"))
    if kind == "hr":
        return "* * *"
    if kind in ("code_block", "fence"):
        return _indented(node.content.rstrip("\n"))
    if kind == "table":
        return _table(node)
    if kind == "html_block":
        raise MarkdownRefused("raw HTML is not allowed in texts", node.content.strip().split("\n")[0],
                              hint="write Markdown: " + ", ".join(ALLOWED))
    raise MarkdownRefused(f"'{kind}' is not part of the Markdown texts may use", "",
                          hint="texts may use " + ", ".join(ALLOWED))


def _list_item(marker: str, item, tight: bool) -> str:
    """One list item: its first block after the marker, the others indented beneath it
    (a paragraph after a blank line, as Python-Markdown wants)."""
    if not item.children:
        return marker.rstrip()
    out = marker + _indented(_block(item.children[0]))[len(INDENT):]
    for child in item.children[1:]:
        gap = "\n" if tight and child.type != "paragraph" else "\n\n"
        out += gap + _indented(_block(child))
    return out


def _indented(text: str) -> str:
    return "\n".join((INDENT + line).rstrip() for line in text.split("\n"))


def _table(node) -> str:
    rows, aligns = [], []
    for section in node.children:
        for row in section.children:
            cells = [_inline(cell.children[0]) if cell.children else "" for cell in row.children]
            rows.append("| " + " | ".join(cells) + " |")
            if section.type == "thead":
                aligns = [_alignment(cell.attrs.get("style", "")) for cell in row.children]
    rows.insert(1, "|" + "|".join(aligns) + "|")
    return "\n".join(rows)


def _alignment(style: str) -> str:
    return {"text-align:left": ":---", "text-align:right": "---:",
            "text-align:center": ":---:"}.get(style, "---")


# ---------- inline ----------
def _inline(node) -> str:
    return _defuse_line_start("".join(_span(child) for child in node.children))


def _span(node) -> str:  # noqa: C901 - one branch per allowed inline element
    kind = node.type
    if kind in ("text", "text_special"):
        return markdown_escape_inline(node.content)
    if kind == "softbreak":
        return " "
    if kind == "hardbreak":
        return "  \n"
    if kind == "em":
        return "*" + "".join(_span(child) for child in node.children) + "*"
    if kind == "strong":
        return "**" + "".join(_span(child) for child in node.children) + "**"
    if kind == "code_inline":
        return _code(node.content)
    if kind == "link":
        href = _check_link(node.attrs.get("href", ""), node)
        title = node.attrs.get("title")
        words = "".join(_span(child) for child in node.children)
        shown_title = f' "{_title(title)}"' if title else ""
        return f"[{words}]({href}{shown_title})"
    if kind == "image":
        raise MarkdownRefused("images are not allowed in texts (the site draws boards from the spec)",
                              "![" + node.content, hint="link to the picture instead: [words](https://…)")
    if kind == "html_inline":
        raise MarkdownRefused("raw HTML is not allowed in texts", node.content,
                              hint="write Markdown (*emphasis*, **strong**, `code`, [link](page.md)); "
                                   "for a literal '<' write &lt;")
    raise MarkdownRefused(f"'{kind}' is not part of the Markdown texts may use", "",
                          hint="texts may use " + ", ".join(ALLOWED))


def markdown_escape_inline(text: str) -> str:
    """Like :func:`markdown_escape`, without defusing line starts (a piece inside a line)."""
    return "".join(_ESCAPED.get(char) or ("\\" + char if char in _BACKSLASHED else char) for char in text)


def code_span(text) -> Safe:
    """``text`` as inline code (a spec name in the rulebook), whatever backticks it holds."""
    return Safe(_code(" ".join(str(text).split())))


def _code(content: str) -> str:
    fence = "`" * (max((len(run) for run in re.findall(r"`+", content)), default=0) + 1)
    padding = " " if content.startswith("`") or content.endswith("`") else ""
    return f"{fence}{padding}{content}{padding}{fence}"


def _check_link(href: str, node) -> str:
    """``href`` when it is an http(s) or relative address, written so that it cannot leave the
    link; raises :class:`MarkdownRefused` for any other scheme (``javascript:``, ``data:``)."""
    compact = re.sub(r"[\x00-\x20\x7f]", "", href)
    scheme = _SCHEME.match(compact)
    if scheme and scheme.group(1).lower() not in LINK_SCHEMES:
        words = "".join(child.content for child in node.children if child.type == "text")
        raise MarkdownRefused(f"the link '{words}' goes to a '{scheme.group(1)}:' address; links "
                              "go to http(s) or relative addresses", scheme.group(1),
                              hint="link to https://… or to a page of the rulebook (rules.md#4.4)")
    return re.sub(r"[\x00-\x20\x7f()<>\"'\\`]", lambda m: f"%{ord(m.group(0)):02X}", href)


def _title(title: str) -> str:
    return html_escape(title, quote=True).replace("\\", "&#92;")


def _words(node) -> str:
    if node.type in ("text", "text_special", "code_inline"):
        return node.content
    if node.type in ("softbreak", "hardbreak"):
        return " "
    return "".join(_words(child) for child in node.children)


def _defuse_line_start(text: str) -> str:
    """Escape a first character that would open a list, a setext heading or an admonition on
    every line of ``text`` (``-``, ``+``, ``!``, ``1.``, ``=``)."""
    def defuse(line: str) -> str:
        stripped = line.lstrip(" ")
        found = _LINE_START.match(stripped)
        if not found:
            return stripped
        mark = found.group(0)
        if mark == "=":
            return "&#61;" + stripped[1:]
        if mark[-1] in ".)":
            return mark[:-1] + "\\" + mark[-1] + stripped[len(mark):]
        return "\\" + stripped
    return "\n".join(defuse(line) for line in text.split("\n"))
