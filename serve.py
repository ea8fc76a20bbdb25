#!/usr/bin/env python3
"""wsync's development server: static files with cross-origin isolation.

    python3 serve.py [DIR] [--host H] [--port P] [--coep require-corp|credentialless]

Without cross-origin isolation a page has no SharedArrayBuffer, so no shared
WebAssembly.Memory and no wasm threads. Every response this server sends,
errors included, carries

    Cross-Origin-Opener-Policy: same-origin
    Cross-Origin-Embedder-Policy: require-corp     (or credentialless)
    Cross-Origin-Resource-Policy: same-origin
    Cache-Control: no-store                        (never a stale build)

It serves only files inside DIR (default: the current folder): "..", its
percent-encoded forms, backslashes, absolute paths and symlinks that lead out
of DIR all get 404. Only GET and HEAD are served; other methods get 405 and
malformed requests 400, request lines over 8 KiB 414, headers over 64 KiB
431. A client that sends nothing for 10 s is dropped, holding up nobody
else (a thread per connection, a listen queue of 256). It binds 127.0.0.1:8000 by default (localhost is a
secure context, which isolation needs); --port 0 picks a free port. Python's
standard library only.
"""

import argparse
import errno
import html
import http.server
import ipaddress
import os
import posixpath
import shutil
import socket
import sys
import urllib.parse

# Content types by extension, independent of the host's mime database (which
# on some systems maps .js to text/plain or .wasm to nothing, and then the
# browser refuses the module or the streaming compile).
MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".htm": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".map": "application/json",
    ".wasm": "application/wasm",
    ".txt": "text/plain; charset=utf-8",
    ".md": "text/markdown; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
    ".avif": "image/avif",
    ".bmp": "image/bmp",
    ".ico": "image/x-icon",
    ".ppm": "image/x-portable-pixmap",
    ".data": "application/octet-stream",
}
DEFAULT_TYPE = "application/octet-stream"

MAX_URL_BYTES = 8192  # longer request lines get 414
MAX_HEADER_BYTES = 65536  # more header bytes in all get 431 (Python caps one line at 64 KiB, and 100 lines)
TIMEOUT_S = 10  # a client that sends nothing loses its own thread, nobody else's


def isolation_headers(coep):
    if coep is None:  # --no-isolation: what a page gets from a plain server
        return [("Cache-Control", "no-store")]
    return [
        ("Cross-Origin-Opener-Policy", "same-origin"),
        ("Cross-Origin-Embedder-Policy", coep),
        ("Cross-Origin-Resource-Policy", "same-origin"),
        ("Cache-Control", "no-store"),
    ]


class Handler(http.server.BaseHTTPRequestHandler):
    server_version = "wsync-serve"
    protocol_version = "HTTP/1.1"
    timeout = TIMEOUT_S
    root = "."  # set per server: the real path of DIR
    headers_to_add = []
    quiet = False

    def version_string(self):
        return self.server_version

    # Every response, error pages included, goes through end_headers().
    def end_headers(self):
        for name, value in self.headers_to_add:
            self.send_header(name, value)
        super().end_headers()

    def log_message(self, format, *args):
        if not self.quiet:
            sys.stderr.write("%s %s\n" % (self.address_string(), format % args))

    def parse_request(self):
        if len(self.raw_requestline) > MAX_URL_BYTES:
            self.requestline = ""
            self.request_version = "HTTP/1.1"
            self.command = ""
            self.close_connection = True
            self.send_error(414, "Request line too long")
            return False
        if not super().parse_request():
            return False  # a header line over 64 KiB or over 100 headers: the base class sent 431
        if sum(len(k) + len(v) + 4 for k, v in self.headers.items()) > MAX_HEADER_BYTES:
            self.close_connection = True
            self.send_error(431, "Request headers too large")
            return False
        if self.request_version == "HTTP/0.9":  # "GET /path" with no version: no browser sends it
            self.send_error(400, "HTTP/0.9 is not supported")
            return False
        return True

    def do_GET(self):
        self.serve(send_body=True)

    def do_HEAD(self):
        self.serve(send_body=False)

    def __getattr__(self, name):
        # BaseHTTPRequestHandler looks up do_<METHOD>; anything but GET and
        # HEAD is refused with 405 and an Allow header.
        if name.startswith("do_"):
            return self.refuse_method
        raise AttributeError(name)

    def refuse_method(self):
        self.close_connection = True
        self.send_response(405, "Method Not Allowed")
        body = b"405 Method Not Allowed: this server only answers GET and HEAD\n"
        self.send_header("Allow", "GET, HEAD")
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def resolve(self, url_path):
        """The real file path for a URL path, or None if it is not inside root."""
        path = urllib.parse.unquote(url_path, errors="strict")
        if "\x00" in path or "\\" in path:
            return None
        parts = []
        for part in path.split("/"):
            if part in ("", "."):
                continue
            if part == "..":
                return None  # never climb, not even inside root
            parts.append(part)
        real = os.path.realpath(os.path.join(self.root, *parts))
        if real != self.root and not real.startswith(self.root + os.sep):
            return None  # a symlink that leads out of root
        return real

    def send_error(self, code, message=None, explain=None):
        if code == 505:  # a well-formed line with a version we do not speak
            code, message = 400, "Unsupported HTTP version"
        # A request line that did not parse leaves the version at HTTP/0.9,
        # for which the base class writes a bare body: no status line and no
        # headers. Answer in HTTP/1.1 instead, so errors carry the headers too.
        if self.request_version == "HTTP/0.9":
            self.request_version = "HTTP/1.1"
            self.close_connection = True
        super().send_error(code, message, explain)

    def serve(self, send_body):
        target = self.path
        if target.startswith(("http://", "https://")):  # absolute form: keep the path
            target = urllib.parse.urlsplit(target).path or "/"
        url_path, _, query = target.partition("#")[0].partition("?")
        if not url_path.startswith("/"):
            return self.send_error(400, "Bad request target")
        try:
            path = self.resolve(url_path)
        except UnicodeDecodeError:
            path = None
        if path is None or not os.path.exists(path):
            return self.send_error(404, "Not found")
        if os.path.isdir(path):
            if not url_path.endswith("/"):
                self.send_response(301)
                location = url_path + "/" + ("?" + query if query else "")
                self.send_header("Location", location)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            index = os.path.join(path, "index.html")
            if os.path.isfile(index):
                path = index
            else:
                return self.send_listing(path, url_path, send_body)
        try:
            f = open(path, "rb")
        except OSError:
            return self.send_error(404, "Not found")
        with f:
            size = os.fstat(f.fileno()).st_size
            ext = posixpath.splitext(path)[1].lower()
            self.send_response(200)
            self.send_header("Content-Type", MIME_TYPES.get(ext, DEFAULT_TYPE))
            self.send_header("Content-Length", str(size))
            self.end_headers()
            if send_body:
                shutil.copyfileobj(f, self.wfile)

    def send_listing(self, path, url_path, send_body):
        names = sorted(os.listdir(path))
        title = html.escape(urllib.parse.unquote(url_path))
        items = []
        for name in names:
            shown = name + ("/" if os.path.isdir(os.path.join(path, name)) else "")
            href = urllib.parse.quote(shown)
            items.append('<li><a href="%s">%s</a></li>' % (href, html.escape(shown)))
        body = (
            "<!doctype html><meta charset=utf-8><title>%s</title><h1>%s</h1><ul>%s</ul>\n"
            % (title, title, "".join(items))
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if send_body:
            self.wfile.write(body)

    def handle_one_request(self):
        try:
            super().handle_one_request()
        except (BrokenPipeError, ConnectionResetError, socket.timeout):
            self.close_connection = True  # the client went away: nothing to answer


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True  # Ctrl-C does not wait for idle keep-alive clients
    request_queue_size = 256  # many simultaneous connects are queued, not refused

    def handle_error(self, request, client_address):
        # One line, not a traceback, for anything a single client caused.
        sys.stderr.write("serve.py: error answering %s: %s\n" % (client_address[0], sys.exc_info()[1]))


def is_loopback(host):
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="serve.py",
        description="Serve DIR with the COOP/COEP headers that SharedArrayBuffer and wasm threads need.",
    )
    parser.add_argument("dir", nargs="?", default=".", help="folder to serve (default: .)")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (default: 8000; 0 picks a free one)")
    parser.add_argument(
        "--coep",
        choices=["require-corp", "credentialless"],
        default="require-corp",
        help="Cross-Origin-Embedder-Policy value (default: require-corp)",
    )
    parser.add_argument(
        "--no-isolation",
        action="store_true",
        help="send no COOP/COEP/CORP headers (to see what a page gets without them)",
    )
    parser.add_argument("--quiet", action="store_true", help="do not log requests")
    args = parser.parse_args(argv)

    if not 0 <= args.port <= 65535:
        parser.error("--port must be between 0 and 65535")
    root = os.path.realpath(args.dir)
    if not os.path.isdir(root):
        print("serve.py: %s is not a folder" % args.dir, file=sys.stderr)
        return 2

    Handler.root = root
    Handler.headers_to_add = isolation_headers(None if args.no_isolation else args.coep)
    Handler.quiet = args.quiet
    Server.address_family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    try:
        server = Server((args.host, args.port), Handler)
    except OSError as e:
        if e.errno == errno.EADDRINUSE:
            print(
                "serve.py: port %d on %s is in use; stop the other server or pick another port "
                "with --port N (--port 0 picks a free one)" % (args.port, args.host),
                file=sys.stderr,
            )
        elif e.errno == errno.EACCES:
            print("serve.py: no permission to bind port %d; use a port above 1023" % args.port, file=sys.stderr)
        else:
            print("serve.py: cannot listen on %s port %d: %s" % (args.host, args.port, e.strerror), file=sys.stderr)
        return 2

    # From here on Ctrl-C means stop, even while the banner is printing.
    try:
        port = server.server_address[1]
        shown_host = "[%s]" % args.host if ":" in args.host else args.host
        if args.host in ("0.0.0.0", "::"):
            shown_host = "127.0.0.1"
        banner = ["serve.py: serving %s at http://%s:%d/" % (root, shown_host, port)]
        if not is_loopback(args.host):
            banner.append(
                "serve.py: warning: listening on %s, reachable from other machines; browsers treat plain "
                "http:// from an address other than localhost as insecure, so pages opened that way are "
                "not cross-origin isolated" % args.host
            )
        # The isolation line ends the banner; the whole banner is one write,
        # so whoever reads that line (a script, the tests) has all of it.
        if args.no_isolation:
            banner.append("serve.py: --no-isolation: pages will NOT be cross-origin isolated (no SharedArrayBuffer)")
        else:
            banner.append("serve.py: pages will be cross-origin isolated (COOP same-origin, COEP %s)" % args.coep)
        sys.stdout.write("\n".join(banner) + "\n")
        sys.stdout.flush()
        server.serve_forever()
    except KeyboardInterrupt:
        print("\nserve.py: stopped", flush=True)
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # Ctrl-C before the server was listening
        print("\nserve.py: stopped", file=sys.stderr)
        sys.exit(130)
