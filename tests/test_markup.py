"""What reaches a rulebook page (site/markup.py): escaped spec text, safe ids, and the
allow-listed Markdown of the text files, read by MkDocs' own Markdown with the site's extensions."""

from __future__ import annotations

from html import unescape
from html.parser import HTMLParser
import re

from hypothesis import given, strategies as st
import markdown
import pytest

from rulecraft.site.book import Book
from rulecraft.site.examples import PLAY_TEMPLATES
from rulecraft.site.markup import MarkdownRefused, markdown_escape, plain_text, sanitize, slug
from rulecraft.site.pages import BLOCK_PARTS
from rulecraft.site.texts import texts_of

from helpers import REPO

EXTENSIONS = ["attr_list", "md_in_html", "tables", "admonition", "toc"]      # as mkdocs.yml.j2
SPECIALS = "<>&\"'`*_[](){}#|!\\-+.=:~ \n\t0123456789abc@/;"


def html(text: str) -> str:
    return markdown.markdown(text, extensions=EXTENSIONS)


@given(st.text(st.sampled_from(SPECIALS) | st.characters(blacklist_categories=("Cc", "Cs")), max_size=40))
def test_escaped_spec_text_reads_as_exactly_that_text(text):
    """Whatever a spec string holds, MkDocs' Markdown shows it as text: one paragraph, no tag,
    no attribute, no link (newlines become spaces; leading spaces go)."""
    shown = text.replace("\n", " ").replace("\r", " ").replace("\t", " ").strip()
    rendered = html(markdown_escape(text.replace("\t", " ")))
    if not shown:
        assert rendered == ""
        return
    inner = rendered.removeprefix("<p>").removesuffix("</p>")
    assert rendered == f"<p>{inner}</p>" and "<" not in inner, rendered
    assert unescape(inner).strip() == shown


@given(st.text(max_size=30))
def test_a_slug_is_a_safe_id_and_two_ids_never_share_one(text):
    assert re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", slug(text))
    assert slug(text) != slug(text + "x")


def test_a_slug_keeps_the_ids_rulebooks_use():
    assert [slug(i) for i in ("4.4", "3.1.2", "board-picture", "TAK-EX-01", "BALL_EX_2")] == \
        ["4.4", "3.1.2", "board-picture", "TAK-EX-01", "BALL_EX_2"]
    assert slug("q1 onmouseover=alert(1)").startswith("q1-onmouseover-alert-1-")


@pytest.mark.parametrize("text, words", [
    ("a <b>bold</b> word", "raw HTML"),
    ("<div>\nblock\n</div>", "raw HTML"),
    ('<img src="x" onerror="alert(1)">', "raw HTML"),
    ("<!-- a comment -->", "raw HTML"),
    ("[click](javascript:alert(1))", "'javascript:' address"),
    ("[click](  JaVaScRiPt:alert(1))", "'JaVaScRiPt:' address"),
    ("[click](jav&#x61;script:alert(1))", "'javascript:' address"),
    ("<javascript:alert(1)>", "'javascript:' address"),
    ("[d](data:text/html,x)", "'data:' address"),
    ("[m](mailto:someone@example.org)", "'mailto:' address"),
    ("[r][ref]\n\n[ref]: vbscript:x", "'vbscript:' address"),
    ("![a picture](https://example.org/p.png)", "images are not allowed"),
])
def test_markdown_outside_the_allow_list_is_refused(text, words):
    with pytest.raises(MarkdownRefused, match=re.escape(words)):
        sanitize(text)


@pytest.mark.parametrize("text, shown", [
    ("[rules](rules.md#4.4) and [web](https://example.org/a(b)?q=1)",
     '<p><a href="rules.md#4.4">rules</a> and <a href="https://example.org/a%28b%29?q=1">web</a></p>'),
    ("x {: onclick=alert(1) } and {#id onclick=alert(1)}",
     "<p>x {: onclick=alert(1) } and {#id onclick=alert(1)}</p>"),
    ("!!! danger \"title\"", "<p>!!! danger \"title\"</p>"),
    ("[ ]: javascript:alert(1)\n\n[ ][ ]", "<p>[ ]: javascript:alert(1)</p>\n<p>[ ][ ]</p>"),
    ("<a onmouseover=alert(1) \"x\"> &lt;b&gt;", "<p>&lt;a onmouseover=alert(1) \"x\"&gt; &lt;b&gt;</p>"),
    ("- one\n- two\n\n1. first\n2. second", "<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n<!-- -->\n\n"
                                            "<ol>\n<li>first</li>\n<li>second</li>\n</ol>"),
    ("`<script>` in code", "<p><code>&lt;script&gt;</code> in code</p>"),
])
def test_allowed_markdown_reads_as_written_and_nothing_more(text, shown):
    assert html(sanitize(text)) == shown


def test_a_title_is_one_line_of_inline_markdown_and_its_plain_words():
    assert html(sanitize("# not a heading *but* - text", inline=True)) == \
        "<p># not a heading <em>but</em> - text</p>"
    assert plain_text(sanitize("The *big* `x` [link](a.md)", inline=True)) == "The big x link"


@pytest.mark.parametrize("game", ["taktinen", "ball"])
def test_the_rulebooks_texts_read_the_same_through_the_allow_list(game):
    """Every English text of the real games renders to the same HTML whether MkDocs reads it
    as written or rewritten from the allow-list: the rewriting changes nothing a reader sees."""
    book = Book(REPO / "rulespecs" / game, ("en",))
    renderer = book.renderer("en")
    compared = 0
    for section in ("rules", "open_questions", "pages", "tables", "examples"):
        for key, entry in book.texts["en"].section(section).items():
            for part, value in entry.items():
                if part == "source_hash" or (section, str(key), str(part)) in PLAY_TEMPLATES:
                    continue
                for text in texts_of(value):
                    block = part in BLOCK_PARTS
                    safe = renderer.markdown(text) if block else renderer.inline(text)
                    assert _squeezed(html(safe)) == _squeezed(html(renderer.render(text))), (key, part)
                    compared += 1
    assert compared > 100


def _squeezed(rendered: str) -> str:
    return re.sub(r"\s+", " ", rendered).replace("> <", "><").strip()


ALLOWED_TAGS = {"p": set(), "em": set(), "strong": set(), "code": set(), "pre": set(), "br": set(),
                "ul": set(), "ol": set(), "li": set(), "blockquote": set(), "hr": set(),
                "a": {"href", "title"}, "table": set(), "thead": set(), "tbody": set(), "tr": set(),
                "th": {"style"}, "td": {"style"}, **{f"h{n}": {"id"} for n in range(1, 7)}}
MARKDOWN_PIECES = st.sampled_from([
    "<", ">", "&", "\"", "'", "`", "*", "_", "[", "]", "(", ")", "{", "}", "#", "|", "!", "\\", "-",
    "+", ".", "=", ":", " ", "\n", "\n\n", "    ", "1. ", "- ", "> ", "javascript:", "https://x",
    "<b>", "</b>", "<a href=", "onclick=", "{: ", "{#", "!!! ", "&#x61;", "&lt;", "a", "b", "|---|"])


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.found = []

    def handle_starttag(self, tag, attrs):
        self.found.append((tag, dict(attrs)))


@given(st.lists(MARKDOWN_PIECES, max_size=25).map("".join))
def test_whatever_a_text_holds_mkdocs_sees_only_allowed_markup(text):
    """Any text either is refused, or reaches MkDocs' Markdown as allow-listed elements with
    allow-listed attributes, links to http(s) or relative addresses only."""
    try:
        safe = sanitize(text)
    except MarkdownRefused:
        return
    parser = _Tags()
    parser.feed(html(safe))
    for tag, attrs in parser.found:
        assert tag in ALLOWED_TAGS and set(attrs) <= ALLOWED_TAGS[tag], (tag, attrs, safe)
        if "href" in attrs:
            assert not re.match(r"\s*[A-Za-z][A-Za-z0-9+.-]*:", attrs["href"]) or \
                re.match(r"https?:", attrs["href"]), attrs["href"]
        if "style" in attrs:
            assert re.fullmatch(r"text-align: (left|right|center);", attrs["style"]), attrs
