# The Python `mcp` client (ClientSession over streamable HTTP) driven as an application would use
# it, for `mcpmock scenarios --command "python3 test/scenarios/clients/python-client.py"`: the
# scenario comes in MCP_CONFORMANCE_SCENARIO, the URL is the last argument; with
# `--transport stdio` the arguments are the server's command line instead, which it spawns.
import asyncio, os, sys
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp import types

SCENARIO = os.environ.get("MCP_CONFORMANCE_SCENARIO", "")
URL = sys.argv[-1]


async def attempt(work):
    try:
        await work
    except Exception:
        pass


async def elicit(context, params):
    # Empty content, as the official everything-client answers: the SDK must apply the defaults.
    return types.ElicitResult(action="accept", content={})


async def work(s: ClientSession):
    call = lambda name, args=None, timeout=5: s.call_tool(name, args or {}, read_timeout_seconds=timeout)
    if SCENARIO in ("initialize",):
        return
    if SCENARIO in ("tools_call",):
        await s.list_tools()
        await call("add_numbers", {"a": 2, "b": 3})
    elif SCENARIO == "sse-retry":
        await call("test_reconnection", timeout=10)
    elif SCENARIO == "elicitation-sep1034-client-defaults":
        await call("test_client_elicitation_defaults")
    elif SCENARIO in ("json-schema-ref-no-deref", "hostile/endless-cursor"):
        await s.list_tools()
    elif SCENARIO == "hostile/tool-list-changed":
        await s.list_tools(); await call("search", {"q": "mcp"}); await asyncio.sleep(0.3)
    elif SCENARIO == "hostile/canary-tool":
        await s.list_tools(); await call("get_weather", {"city": "Paris"})
    elif SCENARIO == "hostile/session-expired":
        await call("echo"); await attempt(call("echo")); await attempt(call("echo"))
    elif SCENARIO == "hostile/stream-dropped":
        await attempt(call("report", timeout=3))
    elif SCENARIO == "hostile/slow-answer":
        await attempt(call("slow_search", timeout=0.3)); await asyncio.sleep(0.2)
    elif SCENARIO == "hostile/malformed-json":
        for name in ("garbled", "misaddressed", "healthy"):
            await attempt(call(name, timeout=1))
    elif SCENARIO == "hostile/list-changed-storm":
        await s.list_tools(); await call("ping_tool"); await asyncio.sleep(0.5)
    elif SCENARIO == "hostile/huge-result":
        await attempt(call("dump", timeout=10)); await call("healthy")
    elif SCENARIO == "hostile/undeclared-capability":
        await attempt(call("summarize", timeout=3))
    elif SCENARIO.startswith("sep-2640-"):
        return  # ClientSession has no Skills API: an application on it never lists skills
    else:
        raise SystemExit(f"no drive for {SCENARIO}")


def connect():
    if URL.startswith("http://") or URL.startswith("https://"):
        return streamable_http_client(URL)
    return stdio_client(StdioServerParameters(command=sys.argv[1], args=sys.argv[2:]))


async def main():
    async with connect() as streams:
        read, write = streams[0], streams[1]
        kwargs = {"elicitation_callback": elicit} if SCENARIO.startswith("elicitation") else {}
        async with ClientSession(read, write, client_info=types.Implementation(name="python-client", version="1.0.0"), **kwargs) as s:
            await s.initialize()
            await work(s)


asyncio.run(main())
