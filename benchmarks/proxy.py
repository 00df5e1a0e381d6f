"""A reverse proxy in front of the production layout, as docs/deploy.md advises.

nginx (Debian's package: ``apt-get install -y nginx``) terminates TLS with a
throwaway self-signed certificate, speaks HTTP/2 to the browser, keeps the
browser's connection 75 s (its default) and its own connections to gunicorn
alive (``keepalive`` in the upstream block, HTTP/1.1, an empty
``Connection`` header), and overwrites ``X-Forwarded-Proto``. It buffers, and
compresses nothing: the respondent's page and the static files arrive
compressed from Django and WhiteNoise already (docs/deploy.md,
"Compression"). The browser is told to accept the certificate
(``ignore_https_errors``), which changes nothing else it does.

Used by ``benchmarks/load_time.py --proxy`` to measure what the proxy changes
for a respondent: one connection for the page, its scripts and the submission,
and no limit of six requests at a time.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

from benchmarks.layout import free_port, stop

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"

CONFIG = """
worker_processes 1;
daemon off;
pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
events {{ worker_connections 512; }}
http {{
  access_log off;
  client_body_temp_path {dir}/body;
  proxy_temp_path {dir}/proxy;
  fastcgi_temp_path {dir}/fastcgi;
  uwsgi_temp_path {dir}/uwsgi;
  scgi_temp_path {dir}/scgi;
  upstream app {{ server {upstream}; keepalive 16; }}
  server {{
    listen 127.0.0.1:{port} ssl http2;
    ssl_certificate {dir}/cert.pem;
    ssl_certificate_key {dir}/key.pem;
    ssl_protocols TLSv1.3;
    keepalive_timeout 75s;
    location / {{
      proxy_pass http://app;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-Proto https;
    }}
  }}
}}
"""


def available() -> bool:
    return Path(NGINX).exists()


@contextmanager
def tls_proxy(upstream_url: str, timeout: float = 30.0) -> Iterator[str]:
    """nginx on a free loopback port in front of ``upstream_url``; yields the
    proxy's ``https://127.0.0.1:<port>`` and stops it on the way out."""
    if not available():
        raise RuntimeError(
            f"nginx is not installed ({NGINX}): apt-get install -y nginx"
        )
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="bench-proxy-") as tmp:
        directory = Path(tmp)
        subprocess.run(
            [
                "openssl", "req", "-x509", "-newkey", "ec",
                "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", str(directory / "key.pem"),
                "-out", str(directory / "cert.pem"),
                "-days", "1", "-subj", "/CN=127.0.0.1",
            ],
            check=True,
            capture_output=True,
        )  # fmt: skip
        config = directory / "nginx.conf"
        config.write_text(
            CONFIG.format(
                dir=directory, port=port, upstream=urlsplit(upstream_url).netloc
            )
        )
        process = subprocess.Popen(
            [
                NGINX,
                "-c",
                str(config),
                "-p",
                str(directory),
                "-e",
                str(directory / "error.log"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        try:
            _wait_for_port(port, process, timeout, directory)
            yield f"https://127.0.0.1:{port}"
        finally:
            stop(process)


def _wait_for_port(
    port: int, process: subprocess.Popen[bytes], timeout: float, directory: Path
) -> None:
    import socket

    deadline = time.monotonic() + timeout
    while True:
        if process.poll() is not None:
            log = (directory / "error.log").read_text(errors="replace")
            raise RuntimeError(f"nginx exited ({process.returncode}):\n{log}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"nginx did not listen on {port} in {timeout:.0f} s"
                ) from None
            time.sleep(0.1)
