"""A small headless-Chromium driver over the Chrome DevTools Protocol (a websocket, JSON).

Enough for the browser tests: open a page, evaluate JavaScript, click, take a screenshot. Uses
Debian's `chromium` (installed by `make test` when missing) and aiohttp's websocket client; nothing is
downloaded. DevTools listens on 127.0.0.1 only.
"""

from __future__ import annotations

import asyncio
import base64
import itertools
import json
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import aiohttp


def chromium_path() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    raise RuntimeError("no chromium on PATH (apt-get install chromium; `make test` does it)")


class Browser:
    def __init__(self, profile: Path, accept_language: str | None = None) -> None:
        self.profile = profile
        #: the browser's languages ("fr-FR,fr"): its Accept-Language header and navigator.language
        self.accept_language = accept_language
        self.proc: subprocess.Popen[bytes] | None = None
        self._session: aiohttp.ClientSession | None = None
        self._ws: aiohttp.ClientWebSocketResponse | None = None
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[Any]] = {}
        self._reader: asyncio.Task[None] | None = None

    async def start(self) -> "Browser":
        self.profile.mkdir(parents=True, exist_ok=True)
        self.proc = subprocess.Popen(
            [chromium_path(), "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-extensions", "--disable-background-networking", "--disable-sync",
             # no name lookups at all: the pages are on IP literals, and a browser inside a rig
             # namespace must send nothing outside it (its DNS queries to the machine's
             # resolver failed the rig's guard)
             "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE localhost , EXCLUDE 127.0.0.1",
             "--disable-features=AsyncDns,DnsOverHttps", "--dns-prefetch-disable",
             "--disable-component-update", "--disable-domain-reliability", "--no-pings",
             # several pages at once: a page behind another must keep running its timers and
             # rendering (else its screenshot waits for a frame that never comes)
             "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
             "--disable-backgrounding-occluded-windows",
             "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
             f"--user-data-dir={self.profile}", "--window-size=1300,950",
             *([f"--lang={self.accept_language.split(',')[0]}",
                f"--accept-lang={self.accept_language}"] if self.accept_language else []),
             "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = self.profile / "DevToolsActivePort"
        for _ in range(300):
            if port_file.exists() and len(port_file.read_text().splitlines()) >= 2:
                break
            await asyncio.sleep(0.1)
        port, path = port_file.read_text().splitlines()[:2]
        self._session = aiohttp.ClientSession()
        self._ws = await self._session.ws_connect(f"ws://127.0.0.1:{port}{path}", max_msg_size=0)
        self._reader = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        assert self._ws is not None
        async for msg in self._ws:
            data = json.loads(msg.data)
            fut = self._waiting.pop(data.get("id", -1), None)
            if fut is not None and not fut.done():
                if "error" in data:
                    fut.set_exception(RuntimeError(str(data["error"])))
                else:
                    fut.set_result(data.get("result", {}))
            elif data.get("method") == "Page.javascriptDialogOpening":
                asyncio.ensure_future(self.call("Page.handleJavaScriptDialog", {"accept": True},
                                                data.get("sessionId")))

    async def call(self, method: str, params: dict[str, Any] | None = None,
                   session: str | None = None) -> Any:
        assert self._ws is not None
        i = next(self._ids)
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting[i] = fut
        msg: dict[str, Any] = {"id": i, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        await self._ws.send_str(json.dumps(msg))
        return await asyncio.wait_for(fut, 60)

    async def page(self, url: str) -> "Page":
        target = await self.call("Target.createTarget", {"url": "about:blank"})
        attached = await self.call("Target.attachToTarget", {"targetId": target["targetId"], "flatten": True})
        page = Page(self, attached["sessionId"], target["targetId"])
        await page.call("Page.enable")
        await page.call("Runtime.enable")
        await page.call("Emulation.setDeviceMetricsOverride",
                        {"width": 1300, "height": 950, "deviceScaleFactor": 1, "mobile": False})
        await page.call("Page.navigate", {"url": url})
        if url.startswith("http"):
            await page.wait_for("document.readyState === 'complete' && location.href !== 'about:blank'")
        return page

    async def close(self) -> None:
        try:
            if self._ws is not None and not self._ws.closed:
                await asyncio.wait_for(self.call("Browser.close"), 5)
        except (asyncio.TimeoutError, RuntimeError, ConnectionError):
            pass
        if self._reader is not None:
            self._reader.cancel()
        if self._session is not None:
            await self._session.close()
        if self.proc is not None:
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class Page:
    def __init__(self, browser: Browser, session: str, target: str) -> None:
        self.browser, self.session, self.target = browser, session, target

    async def call(self, method: str, params: dict[str, Any] | None = None) -> Any:
        return await self.browser.call(method, params, self.session)

    async def js(self, expression: str) -> Any:
        """Evaluate `expression` in the page; its JSON value (exceptions raise)."""
        res = await self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                   "awaitPromise": True})
        if "exceptionDetails" in res:
            raise RuntimeError(str(res["exceptionDetails"]))
        return res.get("result", {}).get("value")

    async def wait_for(self, expression: str, timeout: float = 120.0, every: float = 0.1) -> Any:
        """Poll until `expression` is truthy; its value."""
        end = time.monotonic() + timeout
        while True:
            try:
                value = await self.js(expression)
            except RuntimeError:
                value = None
            if value:
                return value
            if time.monotonic() > end:
                raise TimeoutError(f"page never satisfied: {expression}")
            await asyncio.sleep(every)

    async def size(self, width: int, height: int, mobile: bool = False) -> None:
        """Show the page at `width` x `height` (a phone: 390 x 844, mobile)."""
        await self.call("Emulation.setDeviceMetricsOverride",
                        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
        await self.call("Emulation.setTouchEmulationEnabled", {"enabled": mobile})

    async def screenshot(self, path: Path, full: bool = True) -> Path:
        await self.call("Page.bringToFront")  # a background page may render no frame to capture
        shot = await self.call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": full})
        path.write_bytes(base64.b64decode(shot["data"]))
        return path

    async def close(self) -> None:
        await self.browser.call("Target.closeTarget", {"targetId": self.target})
