"""An event-stream server built on sse-starlette, for Repose's interop tests.

`.ci/interop` runs it under uvicorn on loopback (`uvicorn --app-dir Tests/ReposeInteropTests/Servers sse_app:app`)
and passes its address as REPOSE_INTEROP_SSE. Routes:

- /events: three events and the end: `note` #1 with `retry: 250`, `note` #2 whose data has two lines, and `repo` #3
  whose data is JSON naming /repos/1.
- /resume: without Last-Event-ID, events #1 and #2 and the end; with it, one event "resumed after <id>" (id + 1),
  then the stream stays open, pinged (comment lines) every second, until the client goes.
- /refuse: 503, so that a client backs off.

And bodies that stream without being event streams, each a starlette `StreamingResponse`:

- /words?hold=NAME: `text/plain` words, a pause between each; with `hold`, the first word, then the rest once
  /release/NAME is asked for.
- /feed: `application/x-ndjson`, three stories `{"id": N, "title": ...}`, one line each, a pause between them.
- /broken: `text/plain`, two words, then the app raises: uvicorn drops the connection mid-body.
- /release/NAME: lets the stream held as NAME go on.
"""

import asyncio

from sse_starlette.sse import EventSourceResponse, ServerSentEvent
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse, StreamingResponse
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


holds = {}


def hold(name):
    return holds.setdefault(name, asyncio.Event())


async def words(request):
    name = request.query_params.get("hold")

    async def stream():
        yield "Hello "
        if name:
            await asyncio.wait_for(hold(name).wait(), 30)
        for word in ["from ", "a ", "streaming ", "server"]:
            await asyncio.sleep(0.01)
            yield word

    return StreamingResponse(stream(), media_type="text/plain; charset=utf-8")


async def feed(request):
    async def stream():
        for n, title in enumerate(["Swift 6", "Streams", "Repose"], start=1):
            yield '{"id": %d, "title": "%s"}\n' % (n, title)
            await asyncio.sleep(0.01)

    return StreamingResponse(stream(), media_type="application/x-ndjson")


async def broken(request):
    async def stream():
        yield "two "
        yield "words"
        await asyncio.sleep(0.01)
        raise RuntimeError("the app failed mid-body")

    return StreamingResponse(stream(), media_type="text/plain; charset=utf-8")


async def release(request):
    hold(request.path_params["name"]).set()
    return PlainTextResponse("released")


app = Starlette(
    routes=[
        Route("/events", events),
        Route("/resume", resume),
        Route("/refuse", refuse),
        Route("/words", words),
        Route("/feed", feed),
        Route("/broken", broken),
        Route("/release/{name}", release),
    ]
)
