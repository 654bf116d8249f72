"""A new competitor goes from sign-up to a verdict in the portal with only the quickstart and the CLI.

Headless Chromium does the portal part (sign up, create an agent, copy the key with the
copy button, read the quickstart); the installed `gauntlet` script does the rest against
the same live server and a real q2 cluster. Each page visited is checked for console
errors and horizontal overflow at phone and desktop widths.
"""

from __future__ import annotations

import re
import shutil
from datetime import timedelta
from urllib.parse import urlsplit

import pytest
from django.utils import timezone
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from competition.models import AgentKey, Attempt, Submission
from competition.services.bouts import bout_create
from tests import instance_factory as f
from tests.e2e.test_cli_end_to_end import Cli

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

KEY_RE = re.compile(r"gk_[0-9a-f]{8}_[A-Za-z0-9_-]{43}")
WIDTHS = (390, 1400)


@pytest.fixture
def chromium():
    """Headless Chromium that keeps its console log and network events."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
                 "--no-first-run", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--window-size=1400,1000"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"),
                              options=options)
    driver.implicitly_wait(5)
    try:
        yield driver
    finally:
        driver.quit()


def wait(driver, condition, what):
    return WebDriverWait(driver, 20, ignored_exceptions=[StaleElementReferenceException]).until(
        condition, message=f"waiting for {what}")


def console_errors(driver) -> list[str]:
    return [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def assert_fits(driver, page: str) -> None:
    """No horizontal overflow at a phone's and a desktop's width, and a clean console."""
    for width in WIDTHS:
        driver.set_window_size(width, 900)
        overflow = driver.execute_script(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"{page} overflows by {overflow}px at {width}px"
    driver.set_window_size(1400, 1000)
    assert console_errors(driver) == [], page


@pytest.fixture
def live_bout(transactional_db):
    now = timezone.now()
    return bout_create(name="Open bout", instances=[f.make_instance()], starts_at=now - timedelta(minutes=1),
                       ends_at=now + timedelta(hours=1), by=None)


def test_sign_up_to_verdict_with_the_quickstart_and_the_cli(live_server, q_cluster, live_bout, chromium, tmp_path):
    browser = chromium
    browser.execute_cdp_cmd("Browser.grantPermissions", {
        "origin": live_server.url, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})

    browser.get(f"{live_server.url}/signup/")
    for name, value in (("username", "mara"), ("email", "mara@example.org"),
                        ("password1", "a very long passphrase 7"), ("password2", "a very long passphrase 7")):
        browser.find_element(By.NAME, name).send_keys(value)
    browser.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    wait(browser, lambda d: d.current_url.endswith("/agents/"), "the agents page")

    browser.find_element(By.NAME, "name").send_keys("patcher")
    browser.find_element(By.CSS_SELECTOR, "#agent-create button[type=submit]").click()
    wait(browser, lambda d: d.current_url.endswith("/keys/new/"), "the key page (after a redirect)")
    shown = browser.find_element(By.ID, "raw-key").text.strip()
    assert KEY_RE.fullmatch(shown)
    assert_fits(browser, "key page")

    browser.find_element(By.ID, "copy-key").click()
    wait(browser, lambda d: d.find_element(By.ID, "copy-key").get_attribute("data-copied") == "true",
         "the copy button to confirm")
    key = browser.execute_async_script(
        "const done = arguments[0]; navigator.clipboard.readText().then(done, e => done('failed: ' + e));")
    assert key == shown
    curl = browser.find_element(By.ID, "curl-example").text
    assert f"{live_server.url}/api/v1/agent" in curl and key not in curl

    # A reload shows no key and mints none.
    browser.refresh()
    wait(browser, lambda d: d.find_elements(By.ID, "key-already-shown"), "the 'already shown' notice")
    assert not KEY_RE.search(browser.page_source) and AgentKey.objects.count() == 1

    browser.find_element(By.ID, "quickstart-link").click()
    wait(browser, lambda d: d.current_url.endswith("/quickstart/"), "the quickstart")
    assert_fits(browser, "quickstart")
    commands = "\n".join(e.text for e in browser.find_elements(By.CSS_SELECTOR, "pre[data-cli]"))

    # Follow the quickstart with the CLI; every command run is one the page shows.
    cli = Cli(tmp_path / "home", tmp_path)
    challenge = live_bout.challenges.get().handle

    def run(command: str, *args: str, **kwargs):
        assert command in commands, f"the quickstart does not show {command!r}"
        return cli(*command.split()[1:], *args, **kwargs)

    run(f"gauntlet login --url {live_server.url}", "--key-stdin", stdin=key + "\n")
    assert challenge in run("gauntlet bouts").stdout
    run("gauntlet start", challenge)
    workspace = tmp_path / Attempt.objects.get().workspace_name
    (workspace / "rooms" / "ledger.py").write_text(f.LEDGER_FIXED)
    run("gauntlet submit --from-git", "--cost", "0.42", "--tokens", "48000", cwd=workspace)
    submission = Submission.objects.get().handle
    verdict = run("gauntlet wait", submission, "--interval", "0.5", "--timeout", "120")
    assert "Verdict: solved" in verdict.stdout
    assert "1  patcher" in run("gauntlet leaderboard", live_bout.handle).stdout

    # The verdict shows in the portal.
    browser.get(f"{live_server.url}/agents/")
    browser.find_element(By.LINK_TEXT, "patcher").click()
    agent_path = urlsplit(browser.current_url).path
    browser.get(f"{live_server.url}{agent_path}history/")
    wait(browser, lambda d: "Solved" in d.find_element(By.TAG_NAME, "main").text, "the verdict in the portal")
    assert console_errors(browser) == []


def test_revoke_asks_for_confirmation_in_the_browser(live_server, chromium, agent_with_key, competitor):
    browser = chromium
    browser.get(f"{live_server.url}/login/")
    browser.find_element(By.NAME, "username").send_keys("ada")
    browser.find_element(By.NAME, "password").send_keys("correct horse battery staple")
    browser.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    wait(browser, lambda d: not d.current_url.endswith("/login/"), "signing in")

    browser.get(f"{live_server.url}/agents/{agent_with_key.agent.public_id}/")
    browser.find_element(By.CSS_SELECTOR, "a[data-revoke]").click()
    wait(browser, lambda d: d.find_elements(By.ID, "confirm-revoke"), "the confirmation page")
    assert_fits(browser, "revoke confirmation")
    agent_with_key.key.refresh_from_db()
    assert agent_with_key.key.revoked_at is None

    browser.find_element(By.ID, "cancel-revoke").click()
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "a[data-revoke]"), "back on the agent page")
    agent_with_key.key.refresh_from_db()
    assert agent_with_key.key.revoked_at is None

    browser.find_element(By.CSS_SELECTOR, "a[data-revoke]").click()
    browser.find_element(By.ID, "confirm-revoke").click()
    wait(browser, lambda d: "revoked" in d.find_element(By.ID, "keys").text, "the key to show as revoked")
    agent_with_key.key.refresh_from_db()
    assert agent_with_key.key.revoked_at is not None


@pytest.mark.parametrize("path, ready", [("/api/docs/", ".swagger-ui .info"), ("/api/redoc/", "h1")])
def test_api_docs_load_nothing_from_another_origin(live_server, chromium, path, ready):
    import json

    chromium.get(f"{live_server.url}{path}")
    wait(chromium, lambda d: d.find_elements(By.CSS_SELECTOR, ready), f"{path} to render")
    wait(chromium, lambda d: "The workflow" in d.find_element(By.TAG_NAME, "body").text, "the workflow text")
    requested, blocked = set(), set()
    for entry in chromium.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            requested.add((message["params"]["requestId"], message["params"]["request"]["url"]))
        elif message["method"] == "Network.loadingFailed" and message["params"].get("blockedReason") == "csp":
            blocked.add(message["params"]["requestId"])
    origin = urlsplit(live_server.url).netloc
    foreign = {(rid, u) for rid, u in requested
               if urlsplit(u).scheme in {"http", "https"} and urlsplit(u).netloc != origin}
    # Nothing left this origin: a request the bundle tries elsewhere is stopped by the page's CSP.
    assert requested and {u for rid, u in foreign if rid not in blocked} == set()
