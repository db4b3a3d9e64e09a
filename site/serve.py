"""``rulecraft site serve``: build the site, serve it on 127.0.0.1 and rebuild on every change.

The watcher polls the modification times of every game's spec, scenarios and text files and of
the site's own templates, texts and assets; a change rebuilds the whole site (a failed rebuild is
reported and the last good site stays up). Files are served from the build folder by the
standard library's HTTP server, with ``site_url`` set to the served address so that Material's
instant navigation (which checks the sitemap's host and port) works.
"""

from __future__ import annotations

import errno
from functools import partial
import http.server
import logging
from pathlib import Path
import threading

from rulecraft.errors import RulecraftError, SiteError
from rulecraft.site.book import game_folders
from rulecraft.site.build import build_site
from rulecraft.site.texts import site_languages

SITE_SOURCES = Path(__file__).parent
log = logging.getLogger(__name__)


def watched_files(folders) -> dict[Path, float]:
    """Every file whose change should rebuild the site (the games in ``folders`` and the
    site's own templates, texts and assets), with its modification time."""
    paths = []
    for folder in folders:
        paths += [p for p in folder.rglob("*.yaml")]
    for folder in ("templates", "text", "assets"):
        paths += [p for p in (SITE_SOURCES / folder).rglob("*") if p.is_file()]
    return {p: p.stat().st_mtime for p in paths if p.exists()}


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the built site; requests are logged at debug level, not printed."""

    def log_message(self, format, *args):  # noqa: A002 - the standard library's signature
        log.debug(format, *args)


def bind_server(directory: Path, host: str, port: int) -> http.server.ThreadingHTTPServer:
    """A server for ``directory`` bound to ``host:port`` (not serving yet).

    Raises :class:`RulecraftError` (RC812) when the port is taken, not allowed or not a port.
    """
    try:
        return http.server.ThreadingHTTPServer((host, port), partial(QuietHandler, directory=str(directory)))
    except OverflowError:
        raise SiteError(f"{port} is not a port: ports go from 1 to 65535", code="RC812") from None
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            reason = "is already in use (is another server running there?): choose another with --port"
        elif error.errno == errno.EACCES:
            reason = "may not be used by this user (ports below 1024 need root): choose another with --port"
        else:
            reason = f"cannot be listened on: {error.strerror or error}"
        raise SiteError(f"port {port} on {host} {reason}", code="RC812") from None


def serve(root: Path | None = None, *, host: str = "127.0.0.1", port: int = 8000,
          out: Path = Path("build/site"), source: Path = Path("build/site-src"), languages=None,
          report=print, stop: threading.Event | None = None, interval: float = 0.5, games=None) -> None:
    """Build, serve and rebuild on change until ``stop`` is set (or the process is interrupted).

    The port is taken before the first build, so that a busy port is reported at once (RC812)
    and nothing claims to serve before the server listens. ``report`` receives one line per
    build (its time, or the error of a failed rebuild). ``root`` and ``games`` choose the games
    as :func:`~rulecraft.site.build.build_site` does.
    """
    stop = stop or threading.Event()
    site_url = f"http://{host}:{port}/"
    options = {"out": out, "source": source, "site_url": site_url, "games": games,
               "languages": site_languages(languages)}
    folders = game_folders(root, games)
    server = bind_server(Path(out).resolve(), host, port)
    serving = None
    try:
        result = build_site(root, **options)
        serving = threading.Thread(target=server.serve_forever, daemon=True)
        serving.start()
        report(f"built {', '.join(result.games)} in {len(result.languages)} languages in "
               f"{result.seconds:.1f} s; serving {site_url}")
        seen = watched_files(folders)
        while not stop.wait(interval):
            now = watched_files(folders)
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
        if serving is not None:
            server.shutdown()
        server.server_close()
