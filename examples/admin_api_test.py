"""A Python test of an MCP client, against `npx mcpmock serve` driven through its admin API.

The code under test speaks MCP with the official `mcp` client (`pip install mcp`); the test
stubs and verifies with `curl`, as a shell script or any language would. Run it where
`npx mcpmock` resolves (a project with mcpmock installed):
    python3 -m unittest admin_api_test.py
The admin API's answers are described by mcpmock's admin-api.schema.json.
"""
import asyncio
import json
import os
import re
import signal
import subprocess
import tempfile
import unittest

from mcp import Client

DESIGN = {"tools": [{"name": "get_weather", "inputSchema": {"type": "object",
    "properties": {"city": {"type": "string"}}, "required": ["city"]}}]}


async def forecast_async(mcp_url, city):
    """The code under test: an MCP client that reads a temperature, or says there is none."""
    async with Client(mcp_url) as client:
        result = await client.call_tool("get_weather", {"city": city})
        if result.is_error:
            return "no forecast"
        return json.loads(result.content[0].text)["temp"]


def forecast(mcp_url, city):
    return asyncio.run(forecast_async(mcp_url, city))


def curl(method, url, body=None):
    """One admin API request with curl: (HTTP status, parsed JSON body or None)."""
    command = ["curl", "--silent", "--show-error", "--request", method, "--write-out", "\n%{http_code}", url]
    if body is not None:
        command += ["--header", "content-type: application/json", "--data", json.dumps(body)]
    out = subprocess.run(command, capture_output=True, text=True, check=True, timeout=10).stdout
    text, _, status = out.rpartition("\n")
    return int(status), json.loads(text) if text else None


class ForecastTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with tempfile.NamedTemporaryFile("w", suffix=".mock.json", delete=False) as design:
            json.dump(DESIGN, design)
        cls.design = design.name
        # A session of its own: npx does not pass a signal on to the server it starts, so the
        # whole process group is stopped at the end.
        cls.server = subprocess.Popen(["npx", "--no-install", "mcpmock", "serve", cls.design],
                                      stdout=subprocess.PIPE, text=True, start_new_session=True)
        first_line = cls.server.stdout.readline()  # "mcpmock serving <file> at http://127.0.0.1:<port>/mcp"
        started = re.search(r" at (http://\S+)", first_line)
        if not started:
            os.killpg(cls.server.pid, signal.SIGTERM)
            raise RuntimeError(f"mcpmock serve did not start: {first_line!r}")
        cls.mcp_url = started.group(1)
        cls.admin = cls.mcp_url.rsplit("/", 1)[0] + "/__admin"

    @classmethod
    def tearDownClass(cls):
        os.killpg(cls.server.pid, signal.SIGTERM)
        cls.server.wait(timeout=10)
        cls.server.stdout.close()
        os.unlink(cls.design)

    def tearDown(self):
        curl("POST", self.admin + "/reset")  # back to the definition's stubs; journal cleared

    def stub(self, *responses):
        status, body = curl("POST", self.admin + "/stubs", {"responses": list(responses)})
        self.assertEqual(status, 201, body)  # {"ids": ["stub-1"]}

    def verify(self, pattern, count):
        status, body = curl("POST", self.admin + "/verify", {"pattern": pattern, "count": count})
        self.assertEqual(status, 200, body)  # a 422's "message" is the near-miss report
        return body["matched"]

    def test_forecast_reads_the_temperature(self):
        self.stub({"tool": "get_weather", "args": {"city": "Oslo"}, "result": {"temp": -3}})
        self.assertEqual(forecast(self.mcp_url, "Oslo"), -3)
        self.assertEqual(self.verify({"tool": "get_weather", "args": {"city": "Oslo"}}, 1), 1)
        self.verify({"tool": "get_weather", "args": {"city": "Bergen"}}, "never")

    def test_forecast_survives_a_tool_error(self):
        self.stub({"tool": "get_weather", "result": "Service unavailable", "isError": True})
        self.assertEqual(forecast(self.mcp_url, "Oslo"), "no forecast")
        self.verify({"tool": "get_weather"}, {"atMost": 1})
        _, calls = curl("GET", self.admin + "/requests")
        self.assertIn("tools/call", [entry["method"] for entry in calls])


if __name__ == "__main__":
    unittest.main()
