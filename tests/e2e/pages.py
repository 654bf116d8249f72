"""Helpers for browser tests of pages: viewport widths, signing in, and the checks every
page must pass (no console errors, no horizontal overflow)."""

from __future__ import annotations

from django.conf import settings
from django.test import Client
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.support.ui import WebDriverWait

DESKTOP = 1400
PHONE = 390
WIDTHS = (DESKTOP, PHONE)


def set_width(driver, width: int) -> None:
    """Emulate a screen ``width`` CSS pixels wide (a phone, with its viewport rules, below 600)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": 900 if width >= 600 else 844, "deviceScaleFactor": 1, "mobile": width < 600,
    })


def sign_in(driver, live_server, user) -> None:
    """Put ``user``'s session cookie in the browser (the sign-in form has its own test)."""
    client = Client()
    client.force_login(user)
    driver.get(f"{live_server.url}/favicon.ico")
    driver.delete_all_cookies()
    driver.add_cookie({"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                       "path": "/"})


def sign_out(driver) -> None:
    driver.delete_all_cookies()


def wait(driver, condition, what: str, timeout: float = 15):
    return WebDriverWait(driver, timeout, ignored_exceptions=[StaleElementReferenceException]).until(
        condition, message=f"waiting for {what}")


def console_errors(driver, *, allow: tuple[str, ...] = ()) -> list[str]:
    """Console errors since the last call (reading clears them), except messages containing ``allow``."""
    return [entry["message"] for entry in driver.get_log("browser")
            if entry["level"] == "SEVERE" and not any(text in entry["message"] for text in allow)]


def overflow(driver) -> int:
    """How many CSS pixels the page is wider than the screen (0 when it fits)."""
    return driver.execute_script(
        "return Math.max(0, document.documentElement.scrollWidth - document.documentElement.clientWidth);")


def open_page(driver, url: str, *, ready: str | None = None) -> None:
    """Load ``url`` and wait until it is complete (and ``ready``, a CSS selector, is present)."""
    driver.get(url)
    wait(driver, lambda d: d.execute_script("return document.readyState") == "complete", f"{url} to load")
    if ready:
        wait(driver, lambda d: d.find_elements("css selector", ready), f"{ready} on {url}")


def check_page(driver, *, allow: tuple[str, ...] = ()) -> None:
    """The page fits the screen and logged no console error."""
    assert overflow(driver) == 0, f"{driver.current_url} is {overflow(driver)} px wider than the screen"
    errors = console_errors(driver, allow=allow)
    assert errors == [], f"console errors on {driver.current_url}: {errors}"
