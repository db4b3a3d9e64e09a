"""``rulecraft site serve``: build the site, serve it on 127.0.0.1 and rebuild on every change.

The watcher polls the modification times of every game's spec, scenarios and text files and of
the site's own templates, texts and assets; a change rebuilds the whole site (a failed rebuild is
reported and the last good site stays up). Files are served from the build folder by the
standard library's HTTP server, with ``site_url`` set to the served address so that Material's
instant navigation (which checks the sitemap's host and port) works.
"""

from __future__ import annotations

from functools import partial
import http.server
import logging
from pathlib import Path
import threading

from rulecraft.errors import RulecraftError
from rulecraft.site.book import game_folders
from rulecraft.site.build import build_site

SITE_SOURCES = Path(__file__).parent
log = logging.getLogger(__name__)


def watched_files(root: Path | None) -> dict[Path, float]:
    """Every file whose change should rebuild the site, with its modification time."""
    paths = []
    for folder in game_folders(root):
        paths += [p for p in folder.rglob("*.yaml")]
    for folder in ("templates", "text", "assets"):
        paths += [p for p in (SITE_SOURCES / folder).rglob("*") if p.is_file()]
    return {p: p.stat().st_mtime for p in paths if p.exists()}


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the built site; requests are logged at debug level, not printed."""

    def log_message(self, format, *args):  # noqa: A002 - the standard library's signature
        log.debug(format, *args)


def start_server(directory: Path, host: str, port: int) -> http.server.ThreadingHTTPServer:
    """Serve ``directory`` on ``host:port`` from a daemon thread; returns the server."""
    server = http.server.ThreadingHTTPServer((host, port), partial(QuietHandler, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def serve(root: Path | None = None, *, host: str = "127.0.0.1", port: int = 8000,
          out: Path = Path("build/site"), source: Path = Path("build/site-src"), languages=None,
          report=print, stop: threading.Event | None = None, interval: float = 0.5) -> None:
    """Build, serve and rebuild on change until ``stop`` is set (or the process is interrupted).

    ``report`` receives one line per build (its time, or the error of a failed rebuild).
    """
    stop = stop or threading.Event()
    site_url = f"http://{host}:{port}/"
    options = {"out": out, "source": source, "site_url": site_url}
    if languages:
        options["languages"] = tuple(languages)
    result = build_site(root, **options)
    report(f"built {', '.join(result.games)} in {len(result.languages)} languages in "
           f"{result.seconds:.1f} s; serving {site_url}")
    server = start_server(result.site_dir, host, port)
    seen = watched_files(root)
    try:
        while not stop.wait(interval):
            now = watched_files(root)
            if now == seen:
                continue
            changed = sorted(str(p) for p in set(now) ^ set(seen) | {p for p in now if seen.get(p) != now[p]})
            seen = now
            try:
                result = build_site(root, **options)
                report(f"{changed[0]}{' …' if len(changed) > 1 else ''} changed: rebuilt in {result.seconds:.1f} s")
            except RulecraftError as error:
                report(f"{changed[0]} changed, but the site could not be rebuilt:\n{error}")
    finally:
        server.shutdown()
        server.server_close()
