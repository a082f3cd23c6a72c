#!/usr/bin/env python3
"""Issue 38 item 3: three `signet serve` instances behind HAProxy on one PostgreSQL database and
one S3 server (moto behind a TCP proxy that can cut it off), under a mixed load, while a chaos
loop kills instances with SIGKILL, restarts PostgreSQL once and cuts S3 off for 30 s. Then it
checks that nothing was lost or done twice. Run through scripts/fault-run.sh, which checks the
prerequisites and builds the binary.

The load (each worker in a loop, all through HAProxy):
  * workflows: upload a PDF, initiate with three sequential signers, each signs through the
    signer page's form, download the final PDF (as `signet bench workflows` does);
  * webhooks: the tenant has one endpoint for `workflow.completed` on a local receiver.
Gateway transactions and bulk jobs are not part of this load (see docs/performance.md).

A client-visible failure is one of: 503 with Retry-After (allowed only while PostgreSQL or S3
is away, plus a short settling time), 502/504 or a dropped connection from HAProxy while an
instance was being killed (allowed only in a window around a kill: the request was in flight
on the killed process), or anything else (a violation). The client retries what is safe to
retry. A workflow whose initiate answer was lost cannot be signed (its links were never seen):
it is counted, and must stay in progress.
"""

import argparse
import base64
import http.server
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter

SETTLE = 8.0  # seconds after a fault during which its errors are still expected
KILL_WINDOW = 3.0  # seconds around a kill in which a dropped request is that kill's


def log(message):
    print(f"[fault-run {time.strftime('%H:%M:%S')}] {message}", flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(predicate, seconds, what):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            if predicate():
                return
        except Exception:  # noqa: BLE001 - not up yet
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{what} did not come up within {seconds} s")


def http_status(url, timeout=3):
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


# ---------------------------------------------------------------- faults: the timeline


class Timeline:
    """When each fault was on, so that an error can be judged by when it happened."""

    def __init__(self):
        self.lock = threading.Lock()
        self.outages = []  # (start, end or None, kind)  kind: postgres | s3
        self.kills = []  # times of SIGKILLs
        self.injected = Counter()

    def outage_start(self, kind):
        with self.lock:
            self.outages.append([time.time(), None, kind])
            self.injected[kind] += 1

    def outage_end(self, kind):
        with self.lock:
            for o in self.outages:
                if o[2] == kind and o[1] is None:
                    o[1] = time.time()

    def kill(self):
        with self.lock:
            self.kills.append(time.time())
            self.injected["instance_kill"] += 1

    def in_outage(self, started, ended):
        with self.lock:
            for s, e, _ in self.outages:
                if started <= (e if e is not None else time.time()) + SETTLE and ended >= s:
                    return True
        return False

    def near_kill(self, started, ended):
        with self.lock:
            return any(started - KILL_WINDOW <= k <= ended + KILL_WINDOW for k in self.kills)


# ---------------------------------------------------------------- S3 behind a switchable proxy


class CuttableProxy:
    """A TCP proxy in front of moto (or PostgreSQL). `cut()` drops every connection and refuses new ones (the
    S3 server is unreachable); `restore()` forwards again, to the same moto and its state."""

    def __init__(self, target_port, target_host="127.0.0.1"):
        self.target = (target_host, target_port)
        self.port = free_port()
        self.up = True
        self.lock = threading.Lock()
        self.open = set()
        self.server = socket.socket()
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(("127.0.0.1", self.port))
        self.server.listen(256)
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            if not self.up:
                self._reset(client)
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
                upstream.settimeout(None)
            except OSError:
                self._reset(client)
                continue
            with self.lock:
                self.open.update((client, upstream))
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _reset(sock):
        """Resets the connection. `shutdown` first: a bare `close` while the other direction's
        thread is blocked in `recv` on the same socket leaves the connection open (the blocked
        call keeps it alive), and both ends then wait on each other silently for ever."""
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        try:
            sock.close()
        except OSError:
            pass

    def _pipe(self, src, dst):
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                dst.sendall(data)
        except OSError:
            pass
        finally:
            with self.lock:
                self.open.discard(src)
                self.open.discard(dst)
            for s in (src, dst):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def cut(self):
        self.up = False
        with self.lock:
            victims, self.open = list(self.open), set()
        for s in victims:
            self._reset(s)

    def restore(self):
        self.up = True


# ---------------------------------------------------------------- webhook receiver


class Receiver:
    """Records every delivery: (webhook-id, event type, workflow id)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.deliveries = []
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 - the stdlib's name
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                try:
                    event = json.loads(body)
                except ValueError:
                    event = {}
                with receiver.lock:
                    receiver.deliveries.append((self.headers.get("webhook-id"), event))
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


# ---------------------------------------------------------------- the cluster


class Cluster:
    def __init__(self, args, work):
        self.args, self.work = args, work
        self.procs = {}  # name -> Popen
        self.instances = {}  # index -> (port, Popen)
        self.db = f"fault_run_{os.getpid()}_{random.randint(0, 99999)}"
        # The instances reach PostgreSQL through a proxy that can cut them off: on a machine
        # where PostgreSQL may not be restarted (shared by others), that is the database fault.
        pg = urllib.parse.urlsplit(args.postgres)
        self.pg = CuttableProxy(pg.port or 5432, pg.hostname or "127.0.0.1")
        self.direct_url = urllib.parse.urlunsplit(pg._replace(path="/" + self.db))
        self.db_url = urllib.parse.urlunsplit(
            pg._replace(path="/" + self.db, netloc=pg.netloc.replace(f":{pg.port}", f":{self.pg.port}")))
        # Links in answers (signing URLs, redirects) name the balancer, not an instance.
        self.lb_port = free_port()
        self.base = f"http://127.0.0.1:{self.lb_port}"
        # One data folder for the three, as a shared volume would be: it holds the key vault
        # (the platform's data keys), which every instance must read alike.
        self.data_dir = os.path.join(work, "data")
        os.makedirs(self.data_dir)

    def psql(self, sql, url=None):
        out = subprocess.run(
            ["psql", url or self.direct_url, "-XAtqc", sql], capture_output=True, text=True, timeout=60
        )
        if out.returncode != 0:
            raise RuntimeError(f"psql: {out.stderr.strip()}")
        return out.stdout.strip()

    def start_moto(self):
        port = free_port()
        log_file = open(os.path.join(self.work, "moto.log"), "w")
        self.procs["moto"] = subprocess.Popen(
            ["moto_server", "-H", "127.0.0.1", "-p", str(port)], stdout=log_file, stderr=log_file
        )
        wait_for(lambda: http_status(f"http://127.0.0.1:{port}/moto-api/data.json") == 200, 60, "moto_server")
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/signet", method="PUT",
            headers={"Authorization": "AWS4-HMAC-SHA256 Credential=testing/20240101/us-east-1/s3/aws4_request, "
                     "SignedHeaders=host, Signature=0"},
        )
        urllib.request.urlopen(request, timeout=10).read()
        self.s3 = CuttableProxy(port)

    def blob_url(self):
        return (f"s3://signet/fault-run?endpoint=http://127.0.0.1:{self.s3.port}&allow_http=true"
                "&region=us-east-1&access_key_id=testing&secret_access_key=testing")

    def env(self):
        env = dict(os.environ)
        env.update({
            "SIGNET_LOG": "warn",
            "SIGNET_OUTBOUND_ALLOW_PRIVATE": "true",
            "SIGNET_GATEWAY_KEY_BITS": "2048",
            "SIGNET_PUBLIC_URL": self.base,
        })
        return env

    def start_instance(self, i):
        port = self.instances[i][0] if i in self.instances else free_port()
        log_file = open(os.path.join(self.work, f"signet-{i}.log"), "a")
        proc = subprocess.Popen(
            [self.args.bin, "serve", "--data-dir", self.data_dir, "--listen", f"127.0.0.1:{port}",
             "--database-url", self.db_url, "--blob-url", self.blob_url()],
            stdout=log_file, stderr=log_file, env=self.env(),
        )
        self.instances[i] = (port, proc)
        return port

    def wait_instance(self, i, seconds=120):
        port = self.instances[i][0]
        wait_for(lambda: http_status(f"http://127.0.0.1:{port}/readyz") == 200, seconds, f"instance {i}")

    def start_haproxy(self):
        servers = "\n".join(
            f"    server s{i} 127.0.0.1:{port} check inter 500ms fall 2 rise 2"
            for i, (port, _) in sorted(self.instances.items())
        )
        # With no instance ready (PostgreSQL or S3 away) the balancer answers itself: as the
        # instances do, a 503 problem with Retry-After, so that clients wait and retry.
        problem = os.path.join(self.work, "503.json")
        with open(problem, "w") as f:
            f.write(json.dumps({"type": "https://signet.dev/problems/service_unavailable",
                                "title": "Service unavailable", "status": 503, "code": "service_unavailable",
                                "detail": "no instance is ready; try again shortly"}))
        config = f"""global
    maxconn 2000
defaults
    mode http
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    retries 3
    option redispatch
    http-error status 503 content-type application/problem+json file {problem} hdr Retry-After 2
frontend signet
    bind 127.0.0.1:{self.lb_port}
    default_backend instances
backend instances
    balance roundrobin
    option httpchk GET /readyz
    http-check expect status 200
{servers}
"""
        path = os.path.join(self.work, "haproxy.cfg")
        with open(path, "w") as f:
            f.write(config)
        log_file = open(os.path.join(self.work, "haproxy.log"), "w")
        self.procs["haproxy"] = subprocess.Popen(["haproxy", "-f", path, "-db"], stdout=log_file, stderr=log_file)
        wait_for(lambda: http_status(f"{self.base}/readyz") == 200, 30, "haproxy")

    def stop(self):
        for _, proc in self.instances.values():
            proc.kill()
        for proc in self.procs.values():
            proc.kill()
        for proc in [p for _, p in self.instances.values()] + list(self.procs.values()):
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass


# ---------------------------------------------------------------- the client


class Outcome(Exception):
    pass


class Client:
    """HTTP through HAProxy; every failure is classified and recorded with its time."""

    def __init__(self, base, timeline):
        self.base, self.timeline = base, timeline
        self.lock = threading.Lock()
        self.errors = Counter()  # kind -> count
        self.violations = []
        self.token = None

    def record(self, kind, started, detail=""):
        ended = time.time()
        if kind == "503":
            if not self.timeline.in_outage(started, ended):
                kind = "503_outside_outage"
        elif kind in ("502", "504", "dropped"):
            if not self.timeline.near_kill(started, ended):
                kind = f"{kind}_outside_kill"
        with self.lock:
            self.errors[kind] += 1
            if kind not in ("503", "502", "504", "dropped"):
                self.violations.append(f"{kind}: {detail}"[:400])

    def request(self, method, path, body=None, form=None, token=True, raw=False):
        """One attempt. Returns (status, headers, bytes) or raises Outcome(kind)."""
        url = path if path.startswith("http") else self.base + path
        headers = {}
        data = None
        if body is not None:
            data, headers["Content-Type"] = json.dumps(body).encode(), "application/json"
        if form is not None:
            data = urllib.parse.urlencode(form).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        if token and self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        started = time.time()
        request = urllib.request.Request(url, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=90) as r:
                return r.status, r.headers, r.read()
        except urllib.error.HTTPError as e:
            payload = e.read()
            if e.code == 503:
                if not e.headers.get("Retry-After"):
                    self.record("503_without_retry_after", started, f"{method} {path}: {payload[:200]!r}")
                else:
                    self.record("503", started)
                raise Outcome("503") from None
            if e.code in (502, 504):
                self.record(str(e.code), started)
                raise Outcome(str(e.code)) from None
            return e.code, e.headers, payload
        except (urllib.error.URLError, ConnectionError, TimeoutError, OSError) as e:
            self.record("dropped", started, f"{method} {path}: {e}")
            raise Outcome("dropped") from None

    def call(self, method, path, expect=(200, 201), tries=40, **kw):
        """Retries outages and lost answers (only for requests that are safe to repeat)."""
        for _ in range(tries):
            started = time.time()
            try:
                status, headers, payload = self.request(method, path, **kw)
            except Outcome:
                time.sleep(1.0)
                continue
            if status in expect:
                return status, payload
            self.record(f"http_{status}", started, f"{method} {path}: {payload[:300]!r}")
            raise Outcome(f"http_{status}")
        raise Outcome("gave_up")


class Load:
    def __init__(self, client, pdf, timeline):
        self.client, self.pdf_b64, self.timeline = client, base64.b64encode(pdf).decode(), timeline
        self.lock = threading.Lock()
        self.started = []  # (name, workflow id)
        self.signed = []  # workflow ids the client saw through to the download
        self.ambiguous = []  # names whose initiate answer was lost and not found afterwards
        self.next = 0

    def name(self):
        with self.lock:
            self.next += 1
            return f"fault-{os.getpid()}-{self.next}"

    def one(self):
        c = self.client
        name = self.name()
        # An upload repeated after a lost answer leaves an unused document; harmless.
        _, payload = c.call("POST", "/api/v1/documents", body={"documentName": "fault.pdf", "fileData": self.pdf_b64})
        document_id = json.loads(payload)["documentId"]
        signatories = [{"subscriberId": 0, "emailId": f"signer{i}@fault.test", "name": f"Signer {i}",
                        "signingOrder": i} for i in (1, 2, 3)]
        body = {"templateId": 0, "workflowName": name, "documentIds": [document_id], "signatories": signatories}
        # Not repeated blindly: a lost answer may mean the workflow exists. One attempt per
        # outage wait; a 503 means nothing was done.
        started = None
        for _ in range(40):
            try:
                status, _, payload = c.request("POST", "/api/v1/workflows", body=body)
            except Outcome as o:
                if str(o) == "503":
                    time.sleep(1.0)
                    continue
                with self.lock:
                    self.ambiguous.append(name)
                return
            if status not in (200, 201):
                c.record(f"http_{status}", time.time(), f"initiate: {payload[:300]!r}")
                return
            started = json.loads(payload)
            break
        if started is None:
            return
        workflow_id = started["workflowId"]
        with self.lock:
            self.started.append((name, workflow_id))
        urls = sorted((u["sequenceNumber"], u["url"]) for u in started["signingUrls"])
        for i, (_, url) in enumerate(urls):
            url = self.through_lb(url)
            c.call("GET", url, token=False, expect=(200, 410))
            form = {"mode": "typed", "typedName": f"Signer {i + 1}", "font": "handwriting", "consent": "on"}
            # Signing again after a lost answer finds the signature taken: the page says the
            # link is used (a 200 page or a 409/410), never a second signature.
            c.call("POST", url + "/sign", form=form, token=False, expect=(200, 303, 409, 410))
        _, pdf = c.call("POST", "/api/v1/documents/download", body={"workflowid": workflow_id})
        with self.lock:
            self.signed.append(workflow_id)
        return pdf

    def through_lb(self, url):
        parsed = urllib.parse.urlsplit(url)
        return self.client.base + parsed.path + (("?" + parsed.query) if parsed.query else "")

    def worker(self, deadline):
        while time.time() < deadline:
            try:
                self.one()
            except Outcome:
                pass
            except Exception as e:  # noqa: BLE001 - a bug in the driver or an odd answer
                self.client.record("driver_error", time.time(), repr(e))


# ---------------------------------------------------------------- chaos


def chaos(cluster, timeline, deadline, stop, can_restart_pg):
    """Kills a random instance every few seconds and starts it again; once, PostgreSQL is
    restarted (or, where that is not allowed, cut off for 10 s); once, S3 is cut off for 30 s
    (a fifth of the run in a short run)."""
    length = deadline - time.time()
    pg_at = time.time() + length * 0.3
    s3_at = time.time() + length * 0.6
    s3_for = min(30.0, length * 0.2)
    pg_done = s3_done = False
    rng = random.Random(38)
    while time.time() < deadline - 10 and not stop.is_set():
        now = time.time()
        if not pg_done and now >= pg_at:
            pg_done = True
            if can_restart_pg:
                log("fault: restarting PostgreSQL")
                timeline.outage_start("postgres")
                restart_postgres()
                wait_for(lambda: subprocess.run(["pg_isready", "-h", "127.0.0.1", "-q"]).returncode == 0, 120,
                         "PostgreSQL")
                timeline.outage_end("postgres")
                log("PostgreSQL is back")
            else:
                log("fault: PostgreSQL unreachable for 10 s (connections cut)")
                timeline.outage_start("postgres_cut")
                cluster.pg.cut()
                time.sleep(10)
                cluster.pg.restore()
                timeline.outage_end("postgres_cut")
                log("PostgreSQL is reachable again")
            continue
        if not s3_done and now >= s3_at:
            s3_done = True
            log(f"fault: S3 unreachable for {s3_for:.0f} s")
            timeline.outage_start("s3")
            cluster.s3.cut()
            time.sleep(s3_for)
            cluster.s3.restore()
            timeline.outage_end("s3")
            log("S3 is back")
            continue
        i = rng.choice(sorted(cluster.instances))
        _, proc = cluster.instances[i]
        log(f"fault: kill -9 instance {i}")
        timeline.kill()
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        time.sleep(rng.uniform(1.0, 3.0))
        cluster.start_instance(i)
        try:
            cluster.wait_instance(i, 120)
        except RuntimeError as e:
            log(f"instance {i} did not come back: {e}")
        time.sleep(rng.uniform(3.0, 8.0))


def restart_postgres():
    clusters = subprocess.run(["pg_lsclusters", "-h"], capture_output=True, text=True)
    line = clusters.stdout.split("\n")[0].split() if clusters.returncode == 0 else []
    if len(line) >= 2:
        subprocess.run(["pg_ctlcluster", line[0], line[1], "restart", "-m", "fast"], check=True, timeout=120)
    else:
        subprocess.run(["service", "postgresql", "restart"], check=True, timeout=120)


def postgres_restartable():
    """Whether this run restarts PostgreSQL: only when asked (`SIGNET_FAULT_PG_RESTART=1`, a
    restart drops every other user's connections too) and allowed (root or the cluster's owner,
    with pg_ctlcluster or a service script). Otherwise the database fault is a cut connection."""
    if os.environ.get("SIGNET_FAULT_PG_RESTART") != "1":
        return False, "not asked to (SIGNET_FAULT_PG_RESTART=1 restarts the server)"
    if shutil.which("pg_ctlcluster") and shutil.which("pg_lsclusters"):
        clusters = subprocess.run(["pg_lsclusters", "-h"], capture_output=True, text=True)
        fields = clusters.stdout.split()
        if clusters.returncode == 0 and len(fields) >= 6 and fields[3] == "online":
            owner = fields[4]
            if os.geteuid() == 0 or owner == os.environ.get("USER"):
                return True, ""
            return False, f"the cluster belongs to {owner} and this is not root"
    if os.geteuid() == 0 and shutil.which("service"):
        return True, ""
    return False, "no pg_ctlcluster/service rights here"


# ---------------------------------------------------------------- checks


def pdf_check(pdf_bytes, work):
    """Three signatures, each valid (the bytes they cover are intact)."""
    path = os.path.join(work, "check.pdf")
    with open(path, "wb") as f:
        f.write(pdf_bytes)
    out = subprocess.run(["pdfsig", path], capture_output=True, text=True, timeout=60).stdout
    total = out.count("Signature #")
    valid = out.count("Signature is Valid")
    return total == 3 and valid == 3, f"{total} signatures, {valid} valid"


def checks(cluster, load, client, receiver, work):
    problems = []
    # Let the workers finish what the last faults left (webhooks, completion jobs).
    deadline = time.time() + 120
    while time.time() < deadline:
        pending = cluster.psql("SELECT count(*) FROM jobs WHERE state IN ('ready','running') AND run_at < "
                               "(extract(epoch from now())*1000)::bigint + 60000")
        undelivered = cluster.psql("SELECT count(*) FROM webhook_deliveries WHERE state <> 'succeeded'")
        if pending == "0" and undelivered == "0":
            break
        time.sleep(2)

    started_ids = [w for _, w in load.started]
    completed = dict(
        (int(r.split("|")[0]), r.split("|")[1])
        for r in cluster.psql("SELECT id, state FROM workflows").splitlines() if r
    )
    # Every workflow the client saw through: completed, once, with three signatures. Each
    # workflow's own event chain says what happened to it, once per happening.
    events = Counter(
        tuple(r.split("|")) for r in cluster.psql(
            "SELECT workflow_id, action FROM workflow_events "
            "WHERE action IN ('workflow.completed', 'signatory.signed')").splitlines() if r
    )
    completions = {int(w): n for (w, a), n in events.items() if a == "workflow.completed"}
    signatures = {int(w): n for (w, a), n in events.items() if a == "signatory.signed"}
    for wid in load.signed:
        if completed.get(wid) != "completed":
            problems.append(f"workflow {wid} was signed by all three but is {completed.get(wid)}")
    twice = {w: n for w, n in completions.items() if n > 1}
    if twice:
        problems.append(f"workflows completed more than once: {sorted(twice.items())[:10]}")
    over = {w: n for w, n in signatures.items() if n > 3}
    if over:
        problems.append(f"workflows with more than three signatures recorded: {sorted(over.items())[:10]}")
    n_completed = sum(1 for s in completed.values() if s == "completed")
    if len(completions) != n_completed:
        problems.append(f"{len(completions)} workflows have a completion event, {n_completed} are completed")
    # Workflows the client started but did not finish (the run ended in between) stay open;
    # none may be half-way in a state other than in_progress/completed.
    for wid in started_ids:
        if completed.get(wid) not in ("in_progress", "completed"):
            problems.append(f"workflow {wid} is {completed.get(wid)}")
    # Every workflow the database holds as completed was one of ours and downloads intact.
    ours = set(started_ids)
    done_ids = sorted(w for w, s in completed.items() if s == "completed")
    strays = [w for w in done_ids if w not in ours]
    # A stray is a workflow whose initiate answer was lost (the client gave it up); it cannot
    # be completed, since its signing links were never seen.
    if strays:
        problems.append(f"completed workflows the client never started: {strays[:10]}")
    bad_pdfs = 0
    for wid in done_ids:
        try:
            _, pdf = client.call("POST", "/api/v1/documents/download", body={"workflowid": wid})
        except Outcome as o:
            problems.append(f"workflow {wid}: the final PDF did not download ({o})")
            continue
        ok, said = pdf_check(pdf, work)
        if not ok:
            bad_pdfs += 1
            problems.append(f"workflow {wid}: final PDF {said}")
    # Jobs: none failed, none left behind.
    job_states = dict(
        (r.split("|")[0], int(r.split("|")[1]))
        for r in cluster.psql("SELECT state, count(*) FROM jobs GROUP BY state").splitlines() if r
    )
    if job_states.get("failed"):
        failed = cluster.psql("SELECT kind || ': ' || coalesce(last_error, '') FROM jobs WHERE state = 'failed' LIMIT 5")
        problems.append(f"{job_states['failed']} jobs failed: {failed}")
    stuck = cluster.psql("SELECT count(*) FROM jobs WHERE state IN ('ready','running') AND run_at < "
                         "(extract(epoch from now())*1000)::bigint")
    if stuck != "0":
        problems.append(f"{stuck} jobs due and not done")
    # Webhooks: each completion event arrived at least once, under one message id.
    expected = dict(
        (r.split("|")[0], r.split("|")[1]) for r in cluster.psql(
            "SELECT message_id, state FROM webhook_deliveries WHERE event_type = 'workflow.completed'").splitlines() if r
    )
    with receiver.lock:
        received = list(receiver.deliveries)
    ids_by_workflow = {}
    for message_id, event in received:
        wid = str((event.get("data") or {}).get("workflowId", event.get("workflowId", "?")))
        ids_by_workflow.setdefault(wid, set()).add(message_id)
    got = {m for m, _ in received}
    missing = [m for m in expected if m not in got]
    if missing:
        problems.append(f"{len(missing)} webhook messages never arrived: {missing[:5]}")
    several = {w: ids for w, ids in ids_by_workflow.items() if len(ids) > 1}
    if several:
        problems.append(f"workflows with more than one message id: {list(several.items())[:5]}")
    if len(expected) != len(done_ids):
        problems.append(f"{len(done_ids)} completed workflows but {len(expected)} completion webhooks")
    summary = {
        "workflows_started": len(started_ids),
        "workflows_completed_by_client": len(load.signed),
        "workflows_completed_in_db": len(done_ids),
        "initiates_with_lost_answer": len(load.ambiguous),
        "final_pdfs_checked": len(done_ids), "final_pdfs_bad": bad_pdfs,
        "jobs": job_states,
        # Run again after a kill or an outage (at least once by design; the checks above show
        # that no effect happened twice).
        "jobs_run_more_than_once": int(cluster.psql("SELECT count(*) FROM jobs WHERE attempts > 1")),
        "webhook_messages": len(expected), "webhook_posts_received": len(received),
        "webhook_redeliveries": len(received) - len(got),
    }
    return problems, summary


# ---------------------------------------------------------------- main


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=int, default=600)
    parser.add_argument("--bin", required=True)
    parser.add_argument("--workers", type=int, default=6)
    parser.add_argument("--postgres", default=os.environ.get(
        "SIGNET_TEST_POSTGRES_URL", "postgres://postgres:postgres@127.0.0.1:5432/test"))
    parser.add_argument("--keep", action="store_true", help="keep the work folder (logs)")
    args = parser.parse_args()

    # `timeout` (scripts/test.sh) ends the run with SIGTERM: clean up as on any exit.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    work = tempfile.mkdtemp(prefix="signet-fault-run-")
    timeline = Timeline()
    cluster = Cluster(args, work)
    cluster.psql(f"CREATE DATABASE {cluster.db}", url=args.postgres)
    violations = []
    try:
        cluster.start_moto()
        receiver = Receiver()
        cluster.start_instance(0)
        cluster.wait_instance(0)  # migrates alone, then the others join
        for i in (1, 2):
            cluster.start_instance(i)
        for i in (1, 2):
            cluster.wait_instance(i)
        cluster.start_haproxy()
        tenant = json.loads(subprocess.run(
            [args.bin, "tenant", "create", "--name", "Faults", "--admin-email", "faults@example.test",
             "--data-dir", cluster.data_dir, "--database-url", cluster.db_url],
            capture_output=True, text=True, check=True, env=cluster.env()).stdout)
        client = Client(cluster.base, timeline)
        _, payload = client.call("POST", "/api/v1/auth/token", token=False, body={
            "grant_type": "client_credentials", "client_id": tenant["client_id"],
            "client_secret": tenant["client_secret"]})
        client.token = json.loads(payload)["access_token"]
        client.call("POST", "/api/v1/webhooks", body={
            "url": f"http://127.0.0.1:{receiver.port}/hook", "eventTypes": ["workflow.completed"]})
        pdf = subprocess.run([sys.executable, "-c", (
            "import io,sys;from reportlab.pdfgen import canvas;b=io.BytesIO();c=canvas.Canvas(b);"
            "c.drawString(72,720,'Fault run agreement');c.save();sys.stdout.buffer.write(b.getvalue())")],
            capture_output=True, check=True).stdout

        can_pg, why = postgres_restartable()
        if not can_pg:
            log(f"PostgreSQL restart SKIPPED ({why}); cutting its connections instead")
        load = Load(client, pdf, timeline)
        deadline = time.time() + args.seconds
        stop = threading.Event()
        log(f"load: {args.workers} workers for {args.seconds} s through HAProxy at {cluster.base}")
        workers = [threading.Thread(target=load.worker, args=(deadline,), daemon=True) for _ in range(args.workers)]
        for w in workers:
            w.start()
        chaos(cluster, timeline, deadline, stop, can_pg)
        # A worker still retrying long after the end is stuck: the checks say what on.
        join_by = time.time() + 300
        for w in workers:
            w.join(timeout=max(1.0, join_by - time.time()))
        if any(w.is_alive() for w in workers):
            violations.append("load workers still busy 300 s after the end (a request hangs)")
        # Every instance back for the checks.
        for i, (_, proc) in list(cluster.instances.items()):
            if proc.poll() is not None:
                cluster.start_instance(i)
            cluster.wait_instance(i)
        log("load over; checking")
        problems, summary = checks(cluster, load, client, receiver, work)
        violations = violations + problems + client.violations
        summary["client_errors"] = dict(client.errors)
        summary["faults_injected"] = dict(timeline.injected)
        if not can_pg:
            summary["postgres_restart_skipped"] = why
        print(json.dumps(summary, indent=2, sort_keys=True), flush=True)
    except Exception as e:  # noqa: BLE001 - the harness itself failed: say where the logs are
        violations.append(f"the fault run could not run: {e!r}")
        args.keep = True
    finally:
        if violations:
            # What the database's sessions were doing: a stuck lock or transaction shows here.
            try:
                activity = cluster.psql(
                    "SELECT pid, state, wait_event_type, wait_event, now() - xact_start, left(query, 160) "
                    f"FROM pg_stat_activity WHERE datname = '{cluster.db}'", url=args.postgres)
                with open(os.path.join(work, "pg_activity.txt"), "w") as f:
                    f.write(activity)
            except Exception:  # noqa: BLE001 - a diagnostic only
                pass
        cluster.stop()
        args.keep = args.keep or bool(violations)  # the instances' logs say why
        subprocess.run(["psql", args.postgres, "-qc", f"DROP DATABASE IF EXISTS {cluster.db} WITH (FORCE)"],
                       capture_output=True)
        if args.keep:
            log(f"logs kept in {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    if violations:
        print(f"FAULT RUN FAILED: {len(violations)} violations", flush=True)
        for v in violations[:40]:
            print(f"  - {v}", flush=True)
        sys.exit(1)
    print("FAULT RUN PASSED", flush=True)


if __name__ == "__main__":
    main()
