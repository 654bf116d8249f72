"""A competitor signs up, creates an agent, copies its key once and revokes it — in Chromium."""

import re

import pytest
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from competition.models import AgentKey
from tests.support import http_json

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def _wait(browser, condition, what):
    # A click that submits a form navigates asynchronously: wait for the new page, never
    # read the old one.
    return WebDriverWait(browser, 15, ignored_exceptions=[StaleElementReferenceException]).until(
        condition, message=f"waiting for {what}")


def test_signup_create_agent_and_revoke(live_server, browser):
    browser.get(f"{live_server.url}/signup/")
    browser.find_element(By.NAME, "username").send_keys("mara")
    browser.find_element(By.NAME, "email").send_keys("mara@example.org")
    browser.find_element(By.NAME, "password1").send_keys("a very long passphrase 7")
    browser.find_element(By.NAME, "password2").send_keys("a very long passphrase 7")
    browser.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    _wait(browser, lambda d: d.current_url.endswith("/agents/"), "the agents page")

    browser.find_element(By.NAME, "name").send_keys("patcher")
    browser.find_element(By.CSS_SELECTOR, "#agent-create button[type=submit]").click()
    _wait(browser, lambda d: d.current_url.endswith("/keys/new/"), "the key page")
    raw_key = browser.find_element(By.ID, "raw-key").text.strip()
    assert re.fullmatch(r"gk_[0-9a-f]{8}_[A-Za-z0-9_-]{43}", raw_key)

    headers = {"Authorization": f"Bearer {raw_key}"}
    assert http_json(f"{live_server.url}/api/v1/agent", headers=headers)[2]["name"] == "patcher"

    browser.find_element(By.LINK_TEXT, "Back to patcher").click()
    _wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "a[data-revoke]"), "the agent page")
    assert raw_key not in browser.page_source
    browser.find_element(By.CSS_SELECTOR, "a[data-revoke]").click()
    _wait(browser, lambda d: d.find_elements(By.ID, "confirm-revoke"), "the revoke confirmation")
    browser.find_element(By.ID, "confirm-revoke").click()
    _wait(browser, lambda d: "revoked" in d.find_element(By.ID, "keys").text, "the key to show as revoked")
    assert AgentKey.objects.get(prefix=raw_key.split("_")[1]).revoked_at is not None
    status, _, body = http_json(f"{live_server.url}/api/v1/agent", headers=headers)
    assert status == 401 and body["code"] == "invalid_key"
