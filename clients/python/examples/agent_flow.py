"""The agent flow with the Python client: discover → search → join → poll → matches.

    JOBFAIR_BASE_URL=http://localhost:3000 JOBFAIR_TOKEN=svc_… \\
        python clients/python/examples/agent_flow.py Python,PostgreSQL

Run it from clients/python (or with clients/python on PYTHONPATH). The token needs queue:read,
queue:write and matches:read (the "Agent for a job seeker" preset).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from jobfair_api.api.discovery import list_public_live_events, search_jobs
from jobfair_api.api.matches import list_matches
from jobfair_api.api.queue import get_queue_status, join_queue
from jobfair_api.models.join_queue_body_type_0 import JoinQueueBodyType0
from jobfair_client import create_client, must, paginate


@dataclass
class FlowResult:
    events: list[Any]
    jobs: list[Any]
    joined: Any
    entry: Any
    match: Any


def run_agent_flow(
    base_url: str,
    token: str,
    skills: list[str],
    *,
    poll_interval: float = 5.0,
    timeout: float = 600.0,
    say: Callable[[str], None] = print,
    **client_options: Any,
) -> FlowResult:
    client = create_client(base_url, token=token, **client_options)

    # 1. Discover: which events are live (no token needed, but it does no harm).
    events = list(paginate(list_public_live_events, client=client, limit=50))
    slugs = ", ".join(e.slug for e in events) or "none"
    say(f"{len(events)} public live event(s): {slugs}")

    # 2. Search jobs for the human's skills.
    jobs = must(search_jobs.sync_detailed(client=client, skills=",".join(skills))).jobs
    if not jobs:
        raise RuntimeError(f"no open job matches {', '.join(skills)}")
    best = jobs[0]
    say(f"best job: {best.title} at {best.company_name} (event {best.event_slug})")

    # 3. Join that event's queue; the human follows it at join_url (the match is accepted
    #    later, at its details_url).
    joined = must(
        join_queue.sync_detailed(
            client=client, body=JoinQueueBodyType0(live_event_slug=best.event_slug)
        )
    )
    position = joined.position if joined.position is not None else "—"
    say(
        f"joined the queue ({joined.status}, position {position}); "
        f"the human follows it at: {joined.join_url}"
    )

    # 4. Poll the status until matched, as often as each answer says is useful
    #    (poll_after_seconds; poll_interval is the wait for its short 5 s, longer hints stretch it).
    deadline = time.monotonic() + timeout
    entry = must(get_queue_status.sync_detailed(client=client)).queue_entry
    while entry is not None and entry.status == "waiting":
        if time.monotonic() > deadline:
            raise RuntimeError("still waiting at the deadline")
        hint = entry.poll_after_seconds if isinstance(entry.poll_after_seconds, int) else 5
        time.sleep(min(poll_interval * max(5, hint) / 5, max(0.0, deadline - time.monotonic())))
        entry = must(get_queue_status.sync_detailed(client=client)).queue_entry
    if entry is None or entry.status != "matched":
        raise RuntimeError(f"the queue entry ended as {entry.status if entry else 'missing'}")
    say(
        f"matched: {entry.match_id}; hand this to the human, who accepts or declines "
        f"there: {entry.details_url}"
    )

    # 5. The match, from the matches list (it can trail the queue status by a moment: both
    #    are projections of workflows, so look again until the deadline).
    while True:
        matches = must(list_matches.sync_detailed(client=client)).matches
        match = next((m for m in matches if m.id == entry.match_id), None)
        if match is not None:
            break
        if time.monotonic() > deadline:
            raise RuntimeError(f"match {entry.match_id} is not in the list")
        time.sleep(poll_interval)
    say(f"match {match.id}: {match.status}; the human accepts it in the web app")
    return FlowResult(events, jobs, joined, entry, match)


if __name__ == "__main__":
    run_agent_flow(
        os.environ.get("JOBFAIR_BASE_URL", "http://localhost:3000"),
        os.environ["JOBFAIR_TOKEN"],
        (sys.argv[1] if len(sys.argv) > 1 else "Python").split(","),
        agent_identity="jobfair/example-agent (dev@jobfair.local)",
    )
