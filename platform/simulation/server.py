"""A throwaway in-process HTTP server for the real WSGI application (loopback only).

Used when simulate_bout is not pointed at a running server: the simulated agents still
talk HTTP to the real API stack, through this server.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server


class _ThreadingServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, format, *args):  # noqa: A002  (the stdlib's name)
        return


@contextmanager
def loopback_server():
    from django.core.wsgi import get_wsgi_application

    server = make_server("127.0.0.1", 0, get_wsgi_application(), server_class=_ThreadingServer,
                         handler_class=_QuietHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
