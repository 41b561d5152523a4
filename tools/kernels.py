"""Kernels that cannot race for a port, and that start from a warm process.

jupyter_client gives a new kernel its five TCP ports by binding port 0 and closing the socket;
two kernels started at the same moment (two test workers, two refresh processes) can be handed
the same port before either binds it (jupyter_client issue 154), and one of them dies. These
managers use the "ipc" transport instead: each kernel talks over Unix sockets in a folder of its
own, so there is no shared namespace to race for, and nothing to retry.

A process that starts many kernels (nbval on the book's 144 notebooks, papermill's tests,
``make notebooks``) can use the Forked managers: each kernel after its first is then forked from
a "zygote", a process of the same Python and environment that has already imported what a
kernel imports as it starts (PRELOAD), instead of starting an interpreter that imports it all
again (about 0.3 CPU-seconds a kernel on this machine). The forked kernel is the kernel
``python -m ipykernel_launcher -f FILE`` would start: the same interpreter, environment, working
folder, ``sys.path`` and ``sys.argv``, a session of its own (tests/test_kernels.py compares
them); it finds those modules imported already, and its stdin is /dev/null where a started
kernel's is a pipe that nothing writes to.
"""
from __future__ import annotations

import atexit
import itertools
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

import zmq
from jupyter_client.asynchronous import AsyncKernelClient
from jupyter_client.blocking import BlockingKernelClient
from jupyter_client.manager import AsyncKernelManager, KernelManager
from jupyter_client.provisioning import LocalProvisioner
from jupyter_client.utils import run_sync
from traitlets import default

_FOLDER = None
_NUMBERS = itertools.count()


def private_socket_prefix() -> str:
    """A fresh socket prefix inside this process's private folder (short, for the 107-byte
    limit of a Unix socket path; removed when the process exits)."""
    global _FOLDER
    if _FOLDER is None:
        _FOLDER = tempfile.mkdtemp(prefix="kernels-")
        atexit.register(shutil.rmtree, _FOLDER, ignore_errors=True)
    return os.path.join(_FOLDER, f"k{next(_NUMBERS)}")


class PrivateSockets:
    """Mix-in: the ipc transport, with sockets under a prefix no other kernel uses."""

    @default("transport")
    def _transport_default(self) -> str:
        return "ipc"

    @default("ip")
    def _ip_default(self) -> str:
        return private_socket_prefix()


#: How long a new client's ``wait_for_ready`` waits for IOPub to fall quiet once the kernel has
#: answered, and how often a kernel being stopped is looked at, in seconds (jupyter_client: 0.2
#: and 0.1, which were most of the time nbval spent on each notebook besides running it: the 33
#: notebooks of one edition, one after another, took 20.6 s with them and 12.4 s without).
QUIET_S, POLL_S = 0.02, 0.005
#: How soon a client's socket tries again to reach a kernel that is not listening yet, in ms
#: (ZeroMQ: 100). A client connects as soon as its kernel is forked, before the kernel has bound
#: its sockets (some 70 ms later), so its first try always failed and the next came 100 ms on:
#: a forked kernel answered its first kernel_info after 0.21 s (median of ten), 0.08 s with 5.
RECONNECT_MS = 5


class Prompt:
    """Mix-in for a kernel client: its sockets try again every RECONNECT_MS to reach a kernel
    not yet listening, and ``wait_for_ready`` waits for the kernel's kernel_info reply as
    jupyter_client's does, then reads IOPub until it has been quiet for QUIET_S, not 0.2 s. What
    it drains are the status messages of its own kernel_info requests; nbval and nbclient read
    only the messages of the requests they send (by their parent's id), so one arriving later
    changes nothing."""

    @default("context")
    def _context_default(self):
        context = super()._context_default()
        context.setsockopt(zmq.RECONNECT_IVL, RECONNECT_MS)   # for every socket made from it
        return context

    async def _async_wait_for_ready(self, timeout: float | None = None) -> None:
        channel = self.iopub_channel
        get_msg, own = channel.get_msg, vars(channel).get("get_msg")
        channel.get_msg = lambda timeout=None: get_msg(
            timeout=None if timeout is None else min(timeout, QUIET_S))
        try:
            await super()._async_wait_for_ready(timeout)
        finally:
            if own is None:
                del channel.get_msg
            else:
                channel.get_msg = own


class PromptBlockingKernelClient(Prompt, BlockingKernelClient):
    """BlockingKernelClient (nbval's), ready as Prompt says."""

    wait_for_ready = run_sync(Prompt._async_wait_for_ready)


class PromptAsyncKernelClient(Prompt, AsyncKernelClient):
    """AsyncKernelClient (nbclient's and papermill's), ready as Prompt says."""

    wait_for_ready = Prompt._async_wait_for_ready


class PromptStopping:
    """Mix-in for a kernel manager: its clients (``prompt_client``) are ready as Prompt says, and
    a kernel it stops is looked at every POLL_S seconds."""

    prompt_client: type

    @default("client_factory")
    def _client_factory_default(self) -> type:
        return self.prompt_client

    async def _async_wait(self, pollinterval: float = 0.1) -> None:
        await super()._async_wait(pollinterval=min(pollinterval, POLL_S))


class PrivateSocketKernelManager(PromptStopping, PrivateSockets, KernelManager):
    """jupyter_client's KernelManager (used by nbval) on private Unix sockets, prompt as
    PromptStopping says."""

    prompt_client = PromptBlockingKernelClient


class AsyncPrivateSocketKernelManager(PromptStopping, PrivateSockets, AsyncKernelManager):
    """jupyter_client's AsyncKernelManager (used by nbclient and papermill) on private sockets,
    prompt as PromptStopping says."""

    prompt_client = PromptAsyncKernelClient


#: What the zygote imports before it forks any kernel: what every kernel imports as it starts:
#: ipykernel.kernelapp (and, through it, IPython, zmq, tornado and jupyter_client), then, as the
#: kernel is made, its debugger (debugpy and pydevd, about half of a kernel's start), sqlite3 (its
#: history) and pydoc; and numpy, which the book's code imports in every notebook. (Not
#: matplotlib: the kernel chooses its backend as it starts, through MPLBACKEND, which matplotlib
#: reads when imported.)
PRELOAD = ("ipykernel.kernelapp", "ipykernel.debugger", "sqlite3", "pydoc", "numpy")

#: The zygote's program (``python -c``; argv: the fd it answers on, then PRELOAD). It reads one
#: request a line on its stdin (the kernel's arguments, folder, environment and the file its
#: exit status is written to), forks, and answers the child's pid; a thread of its own waits for
#: each child and writes its status. The child is what ``python -m ipykernel_launcher`` runs
#: (that launcher takes the folder it was started in off sys.path; IPython puts '' back).
ZYGOTE = r"""
import atexit, contextlib, importlib, importlib.util, io, json, os, sys, threading, traceback
PATH, BEFORE = sys.path[1:], dict(os.environ)
with contextlib.redirect_stderr(io.StringIO()):   # pydevd's note on frozen modules, which a
    for module in sys.argv[2:]:                    # kernel prints where its errors go
        importlib.import_module(module)
# what those imports set in the environment (debugpy: PYDEVD_USE_FRAME_EVAL=NO where unset), as
# they would have set it in the kernel's: the zygote's environment is the kernel's (Zygote.serves)
SET = {key: value for key, value in os.environ.items() if BEFORE.get(key) != value}
UNSET = set(BEFORE) - set(os.environ)
from ipykernel import kernelapp
LAUNCHER = importlib.util.find_spec("ipykernel_launcher").origin
answers = os.fdopen(int(sys.argv[1]), "w")

def reap(pid, status_file):
    _, status = os.waitpid(pid, 0)
    with open(status_file + ".tmp", "w") as f:
        f.write(str(os.waitstatus_to_exitcode(status)))
    os.replace(status_file + ".tmp", status_file)

def kernel(request):
    os.setsid()
    for fd in [0, *request["devnull"]]:
        null = os.open(os.devnull, os.O_RDWR)
        os.dup2(null, fd)
        os.close(null)
    answers.close()
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    os.environ.update(SET)
    for key in UNSET:
        os.environ.pop(key, None)
    sys.argv, sys.path[:] = [LAUNCHER, *request["args"]], PATH
    code = 0
    try:
        # ipykernel.kernelapp.launch_new_instance, but for the one setting read from the
        # environment as the module is imported (before this kernel's environment existed)
        app = kernelapp.IPKernelApp.instance()
        app.parent_handle = int(os.environ.get("JPY_PARENT_PID") or 0)
        app.initialize()
        app.start()
    except SystemExit as exit:
        code = exit.code if isinstance(exit.code, int) else int(exit.code is not None)
    except BaseException:
        traceback.print_exc()
        code = 1
    finally:
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)

for line in sys.stdin:
    request = json.loads(line)
    pid = os.fork()
    if pid == 0:
        kernel(request)
    threading.Thread(target=reap, args=(pid, request["status"]), daemon=True).start()
    answers.write(f"{pid}\n")
    answers.flush()
"""


class ForkedKernel:
    """A kernel forked by the zygote, with what jupyter_client's provisioner uses of a Popen:
    ``pid``, ``poll``, ``wait``, ``send_signal``, ``kill``, ``terminate`` (its stdin, stdout and
    stderr are not pipes of this process). Its exit status is the one the zygote, its parent,
    writes to ``status_file``; if the zygote is gone before writing it, the status of a kernel
    that has ended is unknown and reads -1."""

    stdin = stdout = stderr = None

    def __init__(self, pid: int, status_file: str, zygote: "Zygote"):
        self.pid, self.status_file, self.zygote, self.returncode = pid, status_file, zygote, None

    def poll(self) -> int | None:
        if self.returncode is None:
            if os.path.exists(self.status_file):
                with open(self.status_file) as f:
                    self.returncode = int(f.read())
                os.unlink(self.status_file)
            elif not self.zygote.alive() and not _exists(self.pid):
                self.returncode = -1
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(f"kernel {self.pid}", timeout)
            time.sleep(0.01)
        return self.returncode

    def send_signal(self, signum: int) -> None:
        if self.poll() is None:
            os.kill(self.pid, signum)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)


def _exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _devnull(stream) -> bool:
    """Whether ``stream`` (a Popen stdout or stderr argument) is /dev/null."""
    return stream is subprocess.DEVNULL or getattr(stream, "name", None) == os.devnull


def _without_session(env: dict) -> dict:
    """An environment without the variables that change from one kernel to the next and that
    nothing reads before the kernel runs: those jupyter_client sets for each kernel (JPY_*;
    the kernel reads JPY_PARENT_PID as it starts, see ZYGOTE) and pytest's name of the test
    running (PYTEST_CURRENT_TEST, read by ipykernel's output streams)."""
    return {key: value for key, value in env.items()
            if not key.startswith("JPY_") and key != "PYTEST_CURRENT_TEST"}


class Zygote:
    """The process kernels are forked from (ZYGOTE), started with this process's Python and
    environment, in a session of its own as each kernel is; it ends when this process closes
    its stdin (at exit)."""

    def __init__(self):
        self.env = dict(os.environ)
        answers, self.answer_fd = os.pipe()
        self.process = subprocess.Popen([sys.executable, "-c", ZYGOTE, str(self.answer_fd), *PRELOAD],
                                        stdin=subprocess.PIPE, pass_fds=(self.answer_fd,),
                                        start_new_session=True)   # a terminal's Ctrl-C is not its
        os.close(self.answer_fd)
        self.answers = os.fdopen(answers)
        self.lock = threading.Lock()

    def alive(self) -> bool:
        return self.process.poll() is None

    def serves(self, cmd: list, kw: dict) -> bool:
        """Whether the kernel ``cmd`` with launch arguments ``kw`` is the one this zygote forks:
        ``python -m ipykernel_launcher`` of this Python, given a folder, an environment equal to
        the zygote's but for the variables _without_session leaves out (an interpreter reads
        others, such as PYTHONPATH, as it starts, and numpy some as it is imported) and at most
        an output or error stream sent to /dev/null (as nbval sends its kernels' errors)."""
        return (self.alive() and cmd[:3] == [sys.executable, "-m", "ipykernel_launcher"]
                and set(kw) <= {"cwd", "env", "stdout", "stderr"}
                and all(kw.get(stream) is None or _devnull(kw[stream]) for stream in ("stdout", "stderr"))
                and _without_session(kw.get("env") or os.environ) == _without_session(self.env))

    def launch(self, args: list, cwd: str, env: dict, devnull: list) -> ForkedKernel:
        """Fork the kernel ``python -m ipykernel_launcher ARGS`` in ``cwd`` with ``env``, its
        file descriptors ``devnull`` (1 for its output, 2 for its errors) sent to /dev/null."""
        status_file = private_socket_prefix() + ".status"
        request = {"args": args, "cwd": cwd, "env": env, "status": status_file, "devnull": devnull}
        with self.lock:
            self.process.stdin.write(json.dumps(request).encode() + b"\n")
            self.process.stdin.flush()
            pid = int(self.answers.readline())
        return ForkedKernel(pid, status_file, self)


_ZYGOTE: list = []


def zygote() -> Zygote:
    """This process's zygote, started on first use (again if it has ended)."""
    if not _ZYGOTE or not _ZYGOTE[0].alive():
        _ZYGOTE[:] = [Zygote()]
    return _ZYGOTE[0]


#: How many kernels this process has started as usual (Forked starts the zygote for the second).
_STARTED = itertools.count()


class Forked:
    """Mix-in: the kernel forked from this process's zygote when the zygote serves it (see
    Zygote.serves), started as usual otherwise. A process's first kernel is started as usual
    and the zygote only for its second, so that a process that runs one notebook (nbval on one
    file, a reader's papermill) does not start two interpreters for it."""

    async def _async_launch_kernel(self, kernel_cmd: list, **kw) -> None:
        provisioner = self.provisioner
        if type(provisioner) is not LocalProvisioner or (not _ZYGOTE and next(_STARTED) == 0) \
                or not zygote().serves(kernel_cmd, kw):
            return await super()._async_launch_kernel(kernel_cmd, **kw)
        cwd = str(kw.get("cwd") or os.getcwd())
        env = dict(kw.get("env") or os.environ, JPY_PARENT_PID=str(os.getpid()))   # as launch_kernel
        devnull = [fd for fd, stream in ((1, "stdout"), (2, "stderr")) if kw.get(stream) is not None]
        provisioner.process = zygote().launch(kernel_cmd[3:], cwd, env, devnull)
        provisioner.pid = provisioner.pgid = provisioner.process.pid   # a session of its own
        provisioner.cwd = cwd
        self._reconcile_connection_info(provisioner.connection_info)


class ForkedKernelManager(Forked, PrivateSocketKernelManager):
    """PrivateSocketKernelManager, its kernels forked from the zygote (nbval's)."""


class AsyncForkedKernelManager(Forked, AsyncPrivateSocketKernelManager):
    """AsyncPrivateSocketKernelManager, its kernels forked from the zygote (papermill's, nbclient's)."""
