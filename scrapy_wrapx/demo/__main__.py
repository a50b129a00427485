"""``python -m scrapy_wrapx.demo serve [--port N] [--host H] [--seed S]``.

Serves the demo bookstore until interrupted. The first line printed is the
site's URL (tests and scripts started with ``--port 0`` read the port there).
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import threading

from scrapy_wrapx.demo.server import DemoServer


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scrapy_wrapx.demo")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="serve the demo bookstore over HTTP")
    serve.add_argument("--port", type=int, default=8000, help="0 picks a free port")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--seed", type=int, default=0)
    serve.add_argument("--books", type=int, default=30)
    args = parser.parse_args(argv)

    from scrapy_wrapx.demo.site import build_site

    server = DemoServer(build_site(args.seed, books=args.books), host=args.host, port=args.port)
    with server:
        print(server.url, flush=True)
        print(f"redesigned site: {server.url}v2/  (Ctrl-C stops)", file=sys.stderr, flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            threading.Event().wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
