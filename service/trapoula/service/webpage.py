"""The web page (the lobby, the tables) served at ``/`` of the Connect endpoint (docs/browser.md).

The page is built from ``clients/web`` by Vite (``make web``) into :data:`WEB_ROOT`, a directory
of this package that the wheel carries; the server serves its files as they are, from the same
origin as the Connect calls, so the page needs no CORS.  Every path under the service's prefix
(``/trapoula.api.v1.TableService/``) goes to the Connect application; any other ``GET`` or
``HEAD`` is a file of the page (``/`` is ``index.html``).  Without a built page, ``/`` answers 404
with a line saying how to build it.

app = with_web_page(connect_application, WEB_ROOT)
"""

from __future__ import annotations

from pathlib import Path

from starlette.exceptions import HTTPException
from starlette.responses import PlainTextResponse
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

WEB_ROOT = Path(__file__).with_name("web")
"""Where ``make web`` puts the built page (``index.html`` and its ``assets/``)."""
SERVICE_PREFIX = "/trapoula.api.v1."
"""Paths of the Connect calls (``/trapoula.api.v1.TableService/<Method>``): never a file of the page."""
NOT_BUILT = "the web page is not built into this installation: run `make web` (it needs Node.js 20 or newer)\n"
"""The answer at ``/`` when the page is not built."""
SECURITY_HEADERS = (
    (
        b"content-security-policy",
        b"default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; "
        b"frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)
"""Headers of every file of the page: it loads nothing but its own files and calls only its own origin."""


def is_built(root: Path = WEB_ROOT) -> bool:
    """True when ``root`` holds a built page (its ``index.html``)."""
    return (root / "index.html").is_file()


class WebPage:
    """An ASGI application: the files of the built page at ``root`` for ``GET`` and ``HEAD`` outside
    :data:`SERVICE_PREFIX`, everything else to ``app`` (the Connect application)."""

    def __init__(self, app: ASGIApp, root: Path = WEB_ROOT) -> None:
        self.app = app
        self.root = root
        self.files = StaticFiles(directory=root, html=True, check_dir=False)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve a file of the page, or hand the request to the Connect application."""
        path = str(scope.get("path", ""))
        if scope["type"] != "http" or path.startswith(SERVICE_PREFIX) or scope.get("method") not in ("GET", "HEAD"):
            await self.app(scope, receive, send)
            return
        if not is_built(self.root):
            await PlainTextResponse(NOT_BUILT, status_code=404)(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", ()), *SECURITY_HEADERS]}
            await send(message)

        try:
            await self.files(scope, receive, send_with_headers)
        except HTTPException as exc:  # no such file (StaticFiles raises, outside a Starlette app)
            await PlainTextResponse(str(exc.detail), status_code=exc.status_code)(scope, receive, send)


def with_web_page(app: ASGIApp, root: Path = WEB_ROOT) -> ASGIApp:
    """``app`` with the page of ``root`` served beside it (:class:`WebPage`)."""
    return WebPage(app, root)
