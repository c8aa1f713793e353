"""Krumme20's team game in the browser: two people in their own browser contexts (English at a
desktop's size, German at a phone's) and two bots, teams of two sitting alternately. Each
page marks every seat with its team (colour, letter, band, "Team A" for screen readers),
shows the teams with their points and the reader's own team, and at the end the team result
(on the end screen and in the log) that matches the stored game's returns; axe-core finds
nothing serious. The lobby refuses a team option that does not fit the player count, in
words."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from tests.browser.conftest import README_SHOTS, Server, save_shot
from tests.browser.look import axe_violations, collect_messages, notation_in, shown_messages
from tests.browser.play import TIMEOUT, play_one, table_state

PAIRS = {"teams": "pairs", "turn_limit": 6}
BOT = {"kind": "bot", "bot": "heuristic"}
PEOPLE = (("Anna", "en-GB", {"width": 1200, "height": 950}),
          ("Bert", "de-DE", {"width": 390, "height": 844}))
"""Seat 0 and seat 1: partners of the bots in seats 2 and 3."""

_MINE_OR_END = """() => {
  const s = document.querySelector('section.table-view');
  if (!s) return false;
  if (s.dataset.status === 'finished') return 'finished';
  return document.querySelector('.turn.mine') &&
    document.querySelector('.moves button.move') ? 'turn' : false;
}"""


def open_seats(browser: Any, answer: dict[str, Any]) -> list[Any]:
    pages = []
    for seat, (name, locale, viewport) in enumerate(PEOPLE):
        context = browser.new_context(viewport=viewport, locale=locale)
        context.add_init_script(
            f"try {{ localStorage.setItem('kartentisch.name', '{name}'); }} catch (e) {{}}")
        collect_messages(context)
        page = context.new_page()
        page.goto(answer["seats"][seat]["link"])
        page.wait_for_selector("section.table-view .felt")
        page.wait_for_function(
            "(n) => document.querySelector('.seats-me .seat-name')?.textContent.startsWith(n)",
            arg=name, timeout=TIMEOUT)
        pages.append(page)
    return pages


def seat_marks(page: Any) -> dict[int, tuple[str | None, str, str]]:
    """Every seat's team (data attribute), its tag's letter and its label for readers."""
    marks: list[list[Any]] = page.eval_on_selector_all(
        ".felt li.seat", """els => els.map(e => [Number(e.dataset.seat), e.dataset.team ?? null,
          e.querySelector('.team-tag [aria-hidden]')?.textContent ?? '',
          e.getAttribute('aria-label')])""")
    return {seat: (team, letter, label) for seat, team, letter, label in marks}


def play_both(pages: list[Any], limit: int = 300) -> int:
    """Both people play their seats (the bots theirs) until the game is over."""
    made = 0
    while True:
        states = [page.evaluate(_MINE_OR_END) for page in pages]
        if "finished" in states:
            break
        if "turn" not in states:  # a bot is to move: wait for anyone's turn
            _wait_any(pages)
            continue
        seat = states.index("turn")
        play_one(pages[seat], "krumme20", seat)
        made += 1
        assert made < limit, "the game did not end"
    for page in pages:
        page.wait_for_function(
            "() => document.querySelector('section.table-view')?.dataset.status === 'finished'",
            timeout=TIMEOUT)
    return made


def _wait_any(pages: list[Any]) -> None:
    """Wait (a short while on each page in turn) until one page may move or the game ends."""
    for page in pages:
        try:
            page.wait_for_function(_MINE_OR_END, timeout=500)
            return
        except PlaywrightTimeout:  # not this page's turn yet: ask the other
            continue


def end_shot(page: Any, shots: Path, name: str) -> None:
    """The end screen alone (for docs/page.md with ``KARTENTISCH_README_SHOTS=1``)."""
    end = page.locator("#end")
    end.screenshot(path=str(shots / f"{name}-end.png"))
    if os.environ.get("KARTENTISCH_README_SHOTS") == "1":
        end.screenshot(path=str(README_SHOTS / f"{name}.png"))


def test_a_team_game_between_two_people_and_two_bots(server: Server, browser: Any,
                                                     shots: Path) -> None:
    answer = server.create("krumme20", [{"kind": "human"}, {"kind": "human"}, BOT, BOT],
                           players=4, options=PAIRS)
    assert answer["teams"] == [[0, 2], [1, 3]]
    pages = open_seats(browser, answer)
    anna, bert = pages
    errors: list[str] = []
    for page in pages:
        page.on("pageerror", lambda e: errors.append(str(e)))
    # every seat carries its team's letter, colour class and words for screen readers
    for page, word in ((anna, "Team"), (bert, "Team")):
        marks = seat_marks(page)
        assert {s: (m[0], m[1]) for s, m in marks.items()} == {
            0: ("0", "A"), 1: ("1", "B"), 2: ("0", "A"), 3: ("1", "B")}
        assert all(f"{word} {m[1]}" in m[2] for m in marks.values()), marks
        assert page.locator(".felt li.seat.team-1").count() == 2
    bar = anna.locator("#teams li")
    assert bar.count() == 2
    assert "Anna" in bar.nth(0).inner_text() and "(your team)" in bar.nth(0).inner_text()
    assert "Bert" in bar.nth(1).inner_text() and "point" in bar.nth(1).inner_text()
    german = bert.locator("#teams li")
    assert "(dein Team)" in german.nth(1).inner_text() and "Punkt" in german.nth(1).inner_text()
    assert "(dein Team)" not in german.nth(0).inner_text()
    assert not axe_violations(anna), axe_violations(anna)
    assert not axe_violations(bert), axe_violations(bert)
    # every name is whole on both pages, the phone's three seats in a row too ("Platz 2"
    # was cut to "Pl…" beside the team badge and the bot mark)
    for page in pages:
        cut = page.eval_on_selector_all(
            ".felt .seat-name", "els => els.filter(e => e.scrollWidth > e.clientWidth + 1)"
            ".map(e => e.textContent)")
        assert cut == [], cut
    for _ in range(4):  # a few moves, then the pictures of a team game under way
        if table_state(anna)["status"] == "finished":
            break
        _wait_any(pages)
        states = [page.evaluate(_MINE_OR_END) for page in pages]
        if "turn" in states:
            play_one(pages[states.index("turn")], "krumme20", states.index("turn"))
    save_shot(anna, shots, "teams-table-desktop", readme=True)
    save_shot(bert, shots, "teams-table-phone", readme=True)

    watcher = browser.new_context(viewport={"width": 1000, "height": 900}).new_page()
    watcher.goto(answer["watch"]["link"])
    watcher.wait_for_selector("section.table-view .felt")
    assert {s: m[1] for s, m in seat_marks(watcher).items()} == {0: "A", 1: "B", 2: "A", 3: "B"}
    assert watcher.locator("#teams li").count() == 2
    assert watcher.locator("#teams li.my-team").count() == 0  # a watcher has no team

    play_both(pages)
    result = watcher.locator("#team-result")
    result.wait_for(timeout=TIMEOUT)
    assert result.locator(".verdict").count() == 0 and "Team" in result.inner_text()
    watcher.context.close()
    with httpx.Client(timeout=10) as http:
        record = http.get(f"{server.url}/api/tables/{answer['table']}/record").json()
    returns = record["returns"]
    assert returns[0] == returns[2] and returns[1] == returns[3]
    winner = 0 if returns[0] > returns[1] else 1 if returns[1] > returns[0] else None
    for seat, page in enumerate(pages):
        result = page.locator("#team-result")
        result.wait_for(timeout=TIMEOUT)
        text = result.inner_text()
        log = page.locator("#log li.ev-team-result").inner_text()
        if winner is None:
            assert ("The teams draw." if seat == 0 else "Die Teams spielen unentschieden.") in text
        else:
            letter = "AB"[winner]
            names = ("Anna",) if winner == 0 else ("Bert",)
            said = (f"Team {letter} wins: " if seat == 0 else f"Team {letter} gewinnt: ")
            assert said in text and said in log and all(n in log for n in names), (text, log)
            verdict = ("Your team wins!", "Your team loses.") if seat == 0 else (
                "Dein Team gewinnt!", "Dein Team verliert.")
            assert verdict[0 if winner == seat else 1] in text
        # each team's points: the sum of its players' (the game's own table of points)
        seats = page.eval_on_selector_all(
            ".summary table.scores tbody tr", "rs => rs.map(r => Number(r.cells[1].textContent))")
        teams = page.eval_on_selector_all(
            "#team-result tbody tr", "rs => rs.map(r => Number(r.cells[2].textContent))")
        assert teams == [seats[0] + seats[2], seats[1] + seats[3]], (teams, seats)
        assert not axe_violations(page), axe_violations(page)
        assert not notation_in(shown_messages(page), "krumme20")
    for page, name in ((anna, "teams-end-desktop"), (bert, "teams-end-phone")):
        save_shot(page, shots, name)
        end_shot(page, shots, name)

    # a rematch keeps the teams, and the series counts wins by team
    first_win = winner
    anna.click("#play-again")
    bert.locator("#accept-rematch").wait_for(timeout=TIMEOUT)
    bert.click("#accept-rematch")
    for page in pages:
        page.wait_for_function(
            "(old) => { const s = document.querySelector('section.table-view');"
            " return s && s.dataset.table !== old && s.dataset.status === 'playing'"
            " && !document.querySelector('#waiting'); }",
            arg=answer["table"], timeout=TIMEOUT)
        assert page.locator("#teams li").count() == 2
        assert {s: m[1] for s, m in seat_marks(page).items()} == {0: "A", 1: "B", 2: "A", 3: "B"}
    second = anna.eval_on_selector("section.table-view", "s => s.dataset.table")
    play_both(pages)
    with httpx.Client(timeout=10) as http:
        again = http.get(f"{server.url}/api/tables/{second}/record").json()["returns"]
    second_win = 0 if again[0] > again[1] else 1 if again[1] > again[0] else None
    expected = [sum(w == team for w in (first_win, second_win)) for team in (0, 1)]
    for page in pages:
        page.locator("#series table").wait_for(timeout=TIMEOUT)
        rows = page.eval_on_selector_all(
            "#series tbody tr", "rs => rs.map(r => [r.dataset.team, r.cells[1].textContent,"
            " Number(r.cells[2].textContent)])")
        assert [(team, wins) for team, _who, wins in rows] == [("0", expected[0]),
                                                               ("1", expected[1])], rows
        assert "Anna" in rows[0][1] and "Bert" in rows[1][1]
        assert "2" in page.locator("#series h3").inner_text()
        assert not axe_violations(page), axe_violations(page)
    end_shot(anna, shots, "teams-series-desktop")
    # the replay shows the teams too, and the team result at its end
    anna.click("#replay-link")
    anna.locator("section.replay").wait_for(timeout=TIMEOUT)
    assert {s: m[1] for s, m in seat_marks(anna).items()} == {0: "A", 1: "B", 2: "A", 3: "B"}
    anna.click("#last")
    anna.locator("section.replay #team-result").wait_for(timeout=TIMEOUT)
    said = ("The teams draw." if second_win is None else
            f"Team {'AB'[second_win]} wins: ")
    assert said in anna.locator("section.replay li.ev-team-result").inner_text()
    assert not axe_violations(anna), axe_violations(anna)
    assert errors == []
    for page in pages:
        page.context.close()


def test_the_lobby_refuses_teams_that_do_not_fit_the_players(server: Server, browser: Any,
                                                              shots: Path) -> None:
    # a listed team table says who plays with whom, so a free seat's partner is known
    listed = server.create("krumme20", [BOT, {"kind": "human", "open": True}, BOT, BOT],
                           players=4, options=PAIRS)
    for locale, words in (("en-GB", "Team play (teams of two (4 or 6 players))"),
                          ("de-DE", "Das Teamspiel (Zweierteams (4 oder 6 Spieler))")):
        context = browser.new_context(viewport={"width": 1100, "height": 950}, locale=locale)
        context.add_init_script(
            "try { localStorage.setItem('kartentisch.name', 'Anna'); } catch (e) {}")
        page = context.new_page()
        page.goto(server.url + "/")
        page.wait_for_selector("#create")
        entry = page.locator(f"#open-tables li[data-table='{listed['table']}']")
        entry.wait_for(timeout=TIMEOUT)
        team_b = "Team B: " + ("free seat" if locale == "en-GB" else "freier Platz")
        assert "Team A: " in entry.inner_text() and team_b in entry.inner_text()
        page.check("input[name=game][value=krumme20]")
        page.select_option("#players", "5")
        page.select_option("#opt-teams", "pairs")
        page.click("#create")
        error = page.locator("#create-error")
        page.wait_for_function(
            "() => document.querySelector('#create-error')?.textContent.trim().length > 0",
            timeout=TIMEOUT)
        text = error.inner_text()
        # the option's value in the form's words, never its notation ("pairs")
        assert words in text and "pairs" not in text and "k20." not in text, text
        assert text.rstrip().endswith("5."), text
        if locale == "de-DE":
            save_shot(page, shots, "teams-lobby-refused-de")
        context.close()


def test_casino_partnerships_show_as_teams(server: Server, browser: Any, shots: Path) -> None:
    answer = server.create("casino", [{"kind": "human"}, BOT, BOT, BOT], players=4,
                           options={"partnerships": True})
    context = browser.new_context(viewport={"width": 1200, "height": 950}, locale="de-DE")
    page = context.new_page()
    page.goto(answer["seats"][0]["link"])
    page.wait_for_selector("section.table-view .felt")
    page.locator("#teams li").nth(1).wait_for(timeout=TIMEOUT)
    assert {s: m[1] for s, m in seat_marks(page).items()} == {0: "A", 1: "B", 2: "A", 3: "B"}
    mine = page.locator("#teams li.my-team")
    assert mine.count() == 1 and "(dein Team)" in mine.inner_text()
    assert "Punkt" in mine.inner_text()  # the partnership's points, as the game counts them
    assert not axe_violations(page), axe_violations(page)
    save_shot(page, shots, "teams-casino-de")
    context.close()
