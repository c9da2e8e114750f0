"""moreau: the Python client of the Moreau simulation service (moreaud).

* :class:`Client` — every RPC of moreau.v1.Simulator, numpy in and out,
  errors as :class:`MoreauError` (gRPC code + the server's message),
  deadlines as ``timeout=``, TLS as ``tls=`` (see :func:`tls_credentials`),
  bearer tokens as ``token=`` or ``$MOREAU_TOKEN``.
* :class:`Env` — one environment with Gymnasium's API shape.
* :class:`VectorEnv` — many environments in this process (the default) or
  over one or more servers, stepped with StepBatch, NEXT_STEP autoreset.
* :class:`LocalServer` — a moreaud inside this process (:mod:`moreau.local`).
* :class:`ReplicaSet` — instances spread over several servers (a list of
  addresses or a ``dns:///NAME:PORT`` target), each call sent to its owner.

Tasks (``stand``, ``walk``, ``reach``) are defined in :mod:`moreau.tasks`.
"""

import pkgutil
from pathlib import Path

# An installed package (pip install ./clients/python) carries its generated
# stubs in moreau/v1. The source tree does not: they are generated into the
# build tree (build/clients/python/moreau/v1), so there this package spans
# every `moreau` folder on sys.path.
if not (Path(__file__).parent / "v1").is_dir():
    __path__ = pkgutil.extend_path(__path__, __name__)

from moreau.client import (  # noqa: E402
    DEFAULT_TIMEOUT_S,
    BodyPose,
    Client,
    Instances,
    MoreauError,
    QueryResult,
    Session,
    State,
    StepBatch,
    Watch,
    WatchFrame,
    channel_credentials,
    make_settings,
    model_source,
    tls_credentials,
)
from moreau.env import Env  # noqa: E402
from moreau.local import LocalServer, default_server  # noqa: E402
from moreau.observation import Observation, ObservationBatch  # noqa: E402
from moreau.replicas import ReplicaSet, resolve_servers  # noqa: E402
from moreau.spaces import Box  # noqa: E402
from moreau.tasks import TASKS, ReachTask, StandTask, Task, WalkTask, make_task  # noqa: E402
from moreau.vector_env import EnvState, VectorEnv  # noqa: E402

__all__ = [
    "DEFAULT_TIMEOUT_S", "BodyPose", "Box", "Client", "Env", "EnvState", "Instances",
    "LocalServer", "default_server",
    "MoreauError", "Observation", "ObservationBatch", "QueryResult", "ReachTask", "ReplicaSet",
    "Session", "StandTask", "State", "StepBatch", "TASKS", "Task", "VectorEnv", "WalkTask",
    "Watch", "WatchFrame", "channel_credentials", "make_settings", "make_task", "model_source",
    "resolve_servers", "tls_credentials",
]
