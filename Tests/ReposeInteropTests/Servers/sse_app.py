"""An event-stream server built on sse-starlette, for Repose's interop tests.

`.ci/interop` runs it under uvicorn on loopback (`uvicorn --app-dir Tests/ReposeInteropTests/Servers sse_app:app`)
and passes its address as REPOSE_INTEROP_SSE. Routes:

- /events: three events and the end: `note` #1 with `retry: 250`, `note` #2 whose data has two lines, and `repo` #3
  whose data is JSON naming /repos/1.
- /resume: without Last-Event-ID, events #1 and #2 and the end; with it, one event "resumed after <id>" (id + 1),
  then the stream stays open, pinged (comment lines) every second, until the client goes.
- /refuse: 503, so that a client backs off.
"""

import asyncio

from sse_starlette.sse import EventSourceResponse, ServerSentEvent
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route


async def events(request):
    async def stream():
        yield ServerSentEvent(data="first", id="1", event="note", retry=250)
        yield ServerSentEvent(data="line one\nline two", id="2", event="note")
        yield ServerSentEvent(data='{"url": "/repos/1", "stars": 5}', id="3", event="repo")

    return EventSourceResponse(stream())


async def resume(request):
    last = request.headers.get("last-event-id")

    async def stream():
        if last is None:
            yield ServerSentEvent(data="one", id="1", retry=250)
            yield ServerSentEvent(data="two", id="2")
            return
        following = int(last) + 1 if last.isdigit() else 0
        yield ServerSentEvent(data="resumed after %s" % last, id=str(following))
        while not await request.is_disconnected():
            await asyncio.sleep(0.2)

    return EventSourceResponse(stream(), ping=1)


async def refuse(request):
    return PlainTextResponse("busy", status_code=503)


app = Starlette(routes=[Route("/events", events), Route("/resume", resume), Route("/refuse", refuse)])
