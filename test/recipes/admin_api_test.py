# recipe: test/recipes/admin_api_test.py
"""A Python test of an MCP client, against `npx mcpmock serve` driven through its admin API.
Standard library only; run with `python3 -m unittest admin_api_test.py`."""
import json
import os
import re
import signal
import subprocess
import tempfile
import unittest
import urllib.error
import urllib.request

DESIGN = {"tools": [{"name": "get_weather", "inputSchema": {"type": "object",
    "properties": {"city": {"type": "string"}}, "required": ["city"]}}]}
MCP_HEADERS = {"accept": "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18"}


def post(url, body=None, headers=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method="POST",
                                     headers={"content-type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            raw, status, response_headers = response.read(), response.status, response.headers
    except urllib.error.HTTPError as error:
        raw, status, response_headers = error.read(), error.code, error.headers
    return status, response_headers, json.loads(raw) if raw else None


def forecast(mcp_url, city):
    """The code under test: a minimal MCP client (yours may use the `mcp` package)."""
    _, headers, _ = post(mcp_url, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "py", "version": "1"}}}, MCP_HEADERS)
    session = {**MCP_HEADERS, "mcp-session-id": headers["mcp-session-id"]}
    post(mcp_url, {"jsonrpc": "2.0", "method": "notifications/initialized"}, session)
    _, _, answer = post(mcp_url, {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                                  "params": {"name": "get_weather", "arguments": {"city": city}}}, session)
    result = answer["result"]
    return "no forecast" if result.get("isError") else json.loads(result["content"][0]["text"])["temp"]


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
        post(self.admin + "/reset")  # back to the definition's stubs; journal cleared

    def stub(self, *responses):
        status, _, body = post(self.admin + "/stubs", {"responses": list(responses)})
        self.assertEqual(status, 201, body)

    def verify(self, pattern, count):
        status, _, body = post(self.admin + "/verify", {"pattern": pattern, "count": count})
        self.assertEqual(status, 200, body and body.get("message"))  # 422 carries the near-miss report

    def test_forecast_reads_the_temperature(self):
        self.stub({"tool": "get_weather", "args": {"city": "Oslo"}, "result": {"temp": -3}})
        self.assertEqual(forecast(self.mcp_url, "Oslo"), -3)
        self.verify({"tool": "get_weather", "args": {"city": "Oslo"}}, 1)

    def test_forecast_survives_a_tool_error(self):
        self.stub({"tool": "get_weather", "result": "Service unavailable", "isError": True})
        self.assertEqual(forecast(self.mcp_url, "Oslo"), "no forecast")
        self.verify({"tool": "get_weather"}, 1)


if __name__ == "__main__":
    unittest.main()
