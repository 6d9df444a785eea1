"""Headless Chromium (Debian's chromium and chromium-driver) driven by Selenium, for the web
client's tests and scripts/web_screenshots.py. ``browser()`` starts one with the flags this
needs in a container and a fresh profile; ``missing()`` says what is not installed (the tests
are then skipped with that line, or fail under CI=true)."""
from __future__ import annotations

import shutil
import tempfile
from typing import Any

CHROMIUM = ("chromium", "chromium-browser", "google-chrome")
HINT = ("the browser tests need headless Chromium and its driver: apt-get install chromium "
        "chromium-driver (and pip install selenium)")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--disable-extensions", "--disable-default-apps",
         "--metrics-recording-only", "--no-default-browser-check", "--mute-audio"]


def _binary() -> str | None:
    for name in CHROMIUM:
        path = shutil.which(name)
        if path:
            return path
    return None


def missing() -> str | None:
    """None when a browser can be started, else the line that says what to install."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return HINT
    if _binary() is None or shutil.which("chromedriver") is None:
        return HINT
    return None


def browser(width: int = 1280, height: int = 800) -> Any:
    """A new headless Chromium (its own empty profile, deleted when ``quit()``)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    profile = tempfile.mkdtemp(prefix="tichu-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = _binary() or "chromium"
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument(f"--window-size={width},{height}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(executable_path=shutil.which("chromedriver") or "chromedriver")
    driver = webdriver.Chrome(options=options, service=service)
    driver.set_window_size(width, height)
    original_quit = driver.quit

    def quit() -> None:
        try:
            original_quit()
        finally:
            shutil.rmtree(profile, ignore_errors=True)
    driver.quit = quit
    driver.set_script_timeout(20)
    return driver


def viewport(driver: Any, width: int, height: int) -> None:
    """Make the page's viewport (not the window) ``width`` x ``height`` CSS pixels."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})


def overflow(driver: Any) -> list[str]:
    """The visible elements that reach past the viewport's right edge (nothing may: no
    sideways scrolling), and whether the document itself is wider than the viewport."""
    return list(driver.execute_script("""
        const w = document.documentElement.clientWidth, out = [];
        const doc = document.documentElement.scrollWidth;
        if (doc > w) out.push('document ' + doc + ' > ' + w);
        for (const e of document.querySelectorAll('body *')) {
          const r = e.getBoundingClientRect();
          if (r.width === 0 || r.height === 0) continue;
          if (getComputedStyle(e).visibility === 'hidden') continue;
          if (e.closest('.log, #dialog-box')) continue;   // their own scroll areas
          if (r.right > w + 0.5 || r.left < -0.5)
            out.push((e.id || e.tagName) + ' ' + Math.round(r.left) + '..' + Math.round(r.right));
        }
        return out.slice(0, 20);"""))
