"""Write throughput over real HTTP: ``omoide serve`` processes on one new data folder, C clients
posting N distinct memories spread over P personas (round robin over the servers), job workers
off so only the write path is timed. Prints writes/s and how many were created (all of them:
the memories are distinct).

    PYTHONPATH=src python bench/write_throughput.py --embedder hash --writes 300 \
        --personas 1 --clients 16 --servers 2

The servers run the code the environment imports (``PYTHONPATH``), so the same command in
another checkout measures that checkout. Two servers writing one persona is where a write's
duplicate check can be overtaken by the other server's insert (it then checks again).
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

ADMIN = "omo_admin_write-throughput-bench"
WORDS = (
    "apple",
    "river",
    "violin",
    "glacier",
    "lantern",
    "pepper",
    "harbor",
    "meteor",
    "saddle",
    "tulip",
    "quartz",
    "walnut",
    "canyon",
    "dolphin",
    "ember",
    "falcon",
    "garnet",
    "iguana",
)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _serve(data: Path, env: dict[str, str], log: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    omoide = Path(sys.executable).parent / "omoide"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [str(omoide), "serve", "--port", str(port)],
            env={**env, "OMOIDE_DATA": str(data)},
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    proc.kill()
    raise SystemExit(f"server did not start: {log.read_text()}")


def _content(i: int) -> str:
    return f"The user keeps a {WORDS[i % 18]} and a {WORDS[(i * 7 + 3) % 18]} in box {i}."


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--embedder", default="hash")
    parser.add_argument("--writes", type=int, default=300)
    parser.add_argument("--personas", type=int, default=1)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--servers", type=int, default=1)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="omoide-write-bench-"))
    env = {
        **os.environ,
        "OMOIDE_EMBEDDER": args.embedder,
        "OMOIDE_ADMIN_KEY": ADMIN,
        "OMOIDE_WORKERS": "0",
    }
    procs: list[subprocess.Popen[bytes]] = []
    try:
        urls = []
        for n in range(args.servers):  # one after another: the first applies the migrations
            proc, url = _serve(folder / "data", env, folder / f"serve{n}.log")
            procs.append(proc)
            urls.append(url)
        names = [f"p{i}" for i in range(args.personas)]
        with httpx.Client(
            base_url=urls[0], headers={"Authorization": f"Bearer {ADMIN}"}, timeout=60
        ) as admin:
            keys = {
                name: admin.post("/api/personas", json={"name": name}).json()["api_key"]
                for name in names
            }

        def write(i: int) -> str:
            name = names[i % len(names)]
            with httpx.Client(
                base_url=urls[i % len(urls)],
                timeout=300,
                headers={"Authorization": f"Bearer {keys[name]}"},
            ) as client:
                reply = client.post(f"/api/memories/{name}", json={"content": _content(i)})
            reply.raise_for_status()
            return str(reply.json()["status"])

        for i in range(len(urls)):  # each server loads its embedder before the clock starts
            write(-1 - i)
        start = time.monotonic()
        with ThreadPoolExecutor(args.clients) as pool:
            statuses = list(pool.map(write, range(args.writes)))
        took = time.monotonic() - start
        print(
            f"{args.writes} writes, {args.personas} persona(s), {args.clients} clients, "
            f"{args.servers} server(s), embedder {args.embedder}: {took:.2f} s, "
            f"{args.writes / took:.1f} writes/s, {statuses.count('created')} created"
        )
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(20)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
