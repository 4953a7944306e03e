"""The web board (agents/web.py): its JSON API over a real local server, and, where headless
Chromium and Selenium are installed (``.ci/run`` installs them), a whole game played by clicking."""
import json
import os
import shutil
import threading
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from agents.web import serve
from territory_envs import read_record, write_record

SVG = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture()
def server():
    server = serve("127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def call(base, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            raw = response.read()
            return response.status, (json.loads(raw) if response.headers.get_content_type() == "application/json" else raw.decode())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def cells(svg: str, kind: str) -> list:
    return [e for e in ET.fromstring(svg).iter() if kind in (e.get("class") or "").split()]


def test_a_whole_game_against_an_agent_through_the_api(server):
    status, page = call(server, "GET", "/")
    assert status == 200 and "<svg" not in page and "/api/move" in page
    status, view = call(server, "POST", "/api/new", {"game": "lin", "options": {"board_size": "5", "line_length": "3"},
                                                      "opponent": "random", "side": "second", "hint": "greedy"})
    assert status == 200 and view["your_turn"] and len(view["moves"]) == 1  # the agent opened
    while not view["over"]:
        legal = cells(view["svg"], "legal")
        assert legal and len(cells(view["svg"], "hit")) == 25
        status, view = call(server, "POST", "/api/move", {"move": int(legal[0].get("data-cell"))})
        assert status == 200
    assert "game over" in view["status"]
    status, record = call(server, "GET", "/api/record")
    assert read_record(record).terminal and len(read_record(record).history) == len(view["moves"])


def test_bad_requests_get_a_clear_error_and_change_nothing(server):
    call(server, "POST", "/api/new", {"game": "asli", "options": {"board_size": 5}, "opponent": "human"})
    status, before = call(server, "POST", "/api/move", {"move": "c3"})
    assert status == 200 and before["moves"] == ["c3"]
    for path, body, words in [("/api/move", {"move": "c3"}, "not legal"), ("/api/move", {"move": "z99"}, "not legal"),
                              ("/api/new", {"game": "chess"}, "game"), ("/api/new", {"game": "lin", "opponent": "mcts:-4"}, "opponent"),
                              ("/api/new", {"game": "lin", "options": {"board_size": 4}}, "board_size"),
                              ("/api/new", {"game": "lin", "options": {"pie": "strong"}}, "no option"),
                              ("/api/load", {"record": "# territory-envs record\ngame: lin\nmoves:\nzz9\n"}, "record line"),
                              ("/api/replay", {"index": 7}, "index")]:
        status, view = call(server, "POST", path, body)
        assert status == 400 and words in view["error"], (path, body, view.get("error"))
        assert view["moves"] == ["c3"] and view["svg"] == before["svg"]


def test_hint_undo_resign_and_replay(server):
    call(server, "POST", "/api/new", {"game": "lin", "options": {"board_size": 5}, "opponent": "greedy", "hint": "greedy"})
    status, view = call(server, "POST", "/api/hint")
    assert status == 200 and view["message"].startswith("hint (greedy)") and len(cells(view["svg"], "hint")) == 1
    status, view = call(server, "POST", "/api/move", {"move": "c3"})
    status, view = call(server, "POST", "/api/move", {"move": int(cells(view["svg"], "legal")[0].get("data-cell"))})
    moves = len(view["moves"])
    status, view = call(server, "POST", "/api/undo")
    assert status == 200 and len(view["moves"]) == moves - 2 and "took back" in view["message"]
    status, view = call(server, "POST", "/api/replay", {"index": 0})
    assert status == 200 and not cells(view["svg"], "stone") and not view["your_turn"]
    status, view = call(server, "POST", "/api/move", {"move": "e5"})
    assert status == 400 and "earlier position" in view["error"]
    call(server, "POST", "/api/replay", {"index": len(view["moves"])})
    status, view = call(server, "POST", "/api/resign")
    assert status == 200 and view["over"] and "resigned" in view["status"]
    status, view = call(server, "POST", "/api/move", {"move": "e5"})
    assert status == 400 and "over" in view["error"]


def test_a_record_loads_for_replay(server):
    from tests.positions import random_game
    import territory_envs
    state = random_game(territory_envs.make_game("lifeline", board_size=3), 100, seed=2)
    status, view = call(server, "POST", "/api/load", {"record": write_record(state)})
    assert status == 200 and view["index"] == 0 and view["moves"] == [state.game.action_to_notation(a) for a in state.history]
    status, view = call(server, "POST", "/api/replay", {"index": len(state.history)})
    assert len(cells(view["svg"], "stone")) == int((state._display_board() != 0).sum())


def _browser():
    webdriver = pytest.importorskip("selenium.webdriver")
    driver_path = shutil.which("chromedriver")
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not driver_path or not browser:
        if os.environ.get("TERRITORY_ENVS_REQUIRE_BROWSER"):  # .ci/run sets it: there the test must run
            pytest.fail("TERRITORY_ENVS_REQUIRE_BROWSER is set but chromium or chromedriver is missing")
        pytest.skip("headless Chromium is not installed (.ci/run installs chromium and chromium-driver)")
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1000,760", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(driver_path), options=options)


def test_a_person_plays_a_whole_game_by_clicking_in_a_real_browser(server, tmp_path):
    driver = _browser()
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as when
    from selenium.webdriver.support.ui import Select, WebDriverWait
    wait = WebDriverWait(driver, 30)
    try:
        driver.get(server)
        wait.until(when.presence_of_element_located((By.CSS_SELECTOR, "#game option")))
        Select(driver.find_element(By.ID, "game")).select_by_value("lin")
        driver.find_element(By.CSS_SELECTOR, "input[data-option=board_size]").send_keys("5")
        driver.find_element(By.CSS_SELECTOR, "input[data-option=line_length]").send_keys("3")
        opponent = driver.find_element(By.ID, "opponent")
        opponent.clear()
        opponent.send_keys("greedy")
        driver.find_element(By.ID, "new").click()
        wait.until(when.presence_of_element_located((By.CSS_SELECTOR, "#board .hit")))

        def moves():
            return driver.find_element(By.ID, "moves").text

        # an illegal click: an occupied cell is refused on the page and changes nothing
        driver.find_element(By.CSS_SELECTOR, "#board .hit[data-name=c3]").click()
        wait.until(lambda d: "1. c3" in moves())
        before = moves()
        stone = driver.find_element(By.CSS_SELECTOR, "#board .stone").get_attribute("data-name")
        driver.find_element(By.CSS_SELECTOR, f"#board .hit[data-name={stone}]").click()
        wait.until(lambda d: "not legal" in d.find_element(By.ID, "error").text)
        assert moves() == before
        for _ in range(40):  # then legal clicks to the end
            if "game over" in driver.find_element(By.ID, "status").text:
                break
            count = len(moves().split())
            legal = driver.find_elements(By.CSS_SELECTOR, "#board .legal")
            name = legal[0].get_attribute("data-cell")
            driver.find_element(By.CSS_SELECTOR, f"#board .hit[data-cell='{name}']").click()
            wait.until(lambda d: len(moves().split()) > count or "game over" in d.find_element(By.ID, "status").text)
        assert "game over" in driver.find_element(By.ID, "status").text
        driver.find_element(By.ID, "back").click()
        wait.until(lambda d: "position" in d.find_element(By.ID, "position").text)
        driver.find_element(By.ID, "last").click()
        wait.until(lambda d: "position" in d.find_element(By.ID, "position").text)
        driver.execute_script("window.scrollTo(0, 0)")
        # the docs' picture (docs/images/web-board.png) is this screenshot, taken with
        # TERRITORY_ENVS_SCREENSHOT=docs/images/web-board.png; otherwise it stays out of the repo
        shot = Path(os.environ.get("TERRITORY_ENVS_SCREENSHOT") or tmp_path / "web-board.png")
        driver.save_screenshot(str(shot if shot.is_absolute() else ROOT / shot))
        assert (shot if shot.is_absolute() else ROOT / shot).stat().st_size > 10_000
    finally:
        driver.quit()
