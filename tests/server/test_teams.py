"""Teams at a real table server: Krumme20's team game (option ``teams``) and Casino's
partnerships as the protocol carries them (the create answer, the welcome, the lobby's
list, a finished game's returns, the replay), and a team option that does not fit the
player count refused with the game's reason code, in words in English and German."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from kartentisch.core.registry import all_reasons
from kartentisch.server.client import TableClient

HUMAN = {"kind": "human"}
BOT = {"kind": "bot", "bot": "heuristic"}
QUICK = {"turn_limit": 8}
"""A short draw pile: whole games of a few dozen moves."""


def team_table(server: Any, **options: Any) -> dict[str, Any]:
    return server.create(  # type: ignore[no-any-return]
        game="krumme20", players=4, options={"teams": "pairs", **QUICK, **options},
        seats=[{"kind": "human", "name": "Anna"}, {"kind": "human", "name": "Bert"}, BOT, BOT])


def test_a_team_table_tells_its_teams_to_everyone(sqlite_server: Any) -> None:
    made = team_table(sqlite_server)
    assert made["teams"] == [[0, 2], [1, 3]]
    alone = sqlite_server.create(game="krumme20", players=4, options=QUICK,
                                 seats=[HUMAN, BOT, BOT, BOT])
    assert alone["teams"] == []
    six = sqlite_server.create(game="krumme20", players=6, options={"teams": "trios"},
                               seats=[HUMAN, BOT, BOT, BOT, BOT, BOT])
    assert six["teams"] == [[0, 2, 4], [1, 3, 5]]
    partners = sqlite_server.create(game="casino", players=4, options={"partnerships": True},
                                    seats=[HUMAN, BOT, BOT, BOT])
    assert partners["teams"] == [[0, 2], [1, 3]]
    with sqlite_server.http() as http:
        listed = {t["id"]: t for t in http.get("/api/tables").json()["tables"]}
    assert listed[made["table"]]["teams"] == [[0, 2], [1, 3]]
    assert listed[alone["table"]]["teams"] == []

    async def run() -> None:
        anna = await TableClient.join(sqlite_server.ws, made["seats"][0]["token"])
        watcher = await TableClient.join(sqlite_server.ws, made["watch"]["token"])
        for client in (anna, watcher):
            assert client.welcome is not None
            assert client.welcome["table"]["teams"] == [[0, 2], [1, 3]]
            assert client.welcome["table"]["options"]["teams"] == "pairs"
        for client in (anna, watcher):
            await client.close()

    asyncio.run(run())


def test_a_finished_team_game_gives_partners_one_result(sqlite_server: Any) -> None:
    made = team_table(sqlite_server)

    async def run() -> None:
        anna = await TableClient.join(sqlite_server.ws, made["seats"][0]["token"])
        bert = await TableClient.join(sqlite_server.ws, made["seats"][1]["token"])
        first = lambda legal: legal[0]  # noqa: E731 - any legal move will do
        ends = await asyncio.gather(anna.play(first, timeout=120), bert.play(first, timeout=120))
        for end in ends:
            assert end["status"] == "finished"
            returns = end["returns"]
            assert returns[0] == returns[2] and returns[1] == returns[3]
            assert returns[0] != returns[1] or returns[0] == 0  # one team wins, or nobody
        await anna.close()
        await bert.close()

    asyncio.run(run())
    with sqlite_server.http() as http:  # the replay tells the teams as the table did
        replay = http.get(f"/api/web/replay/{made['table']}", params={"view": "all"}).json()
    assert replay["teams"] == [[0, 2], [1, 3]]


def test_a_team_option_that_does_not_fit_the_players_is_refused_in_words(
        sqlite_server: Any) -> None:
    with httpx.Client(base_url=sqlite_server.url, timeout=30) as http:
        for players, teams in ((5, "pairs"), (3, "pairs"), (4, "trios")):
            answer = http.post("/api/tables", json={
                "game": "krumme20", "players": players, "options": {"teams": teams}})
            assert answer.status_code == 400, answer.text
            error = answer.json()
            assert error["code"] == "k20.team_players", error
            assert str(players) in error["message"]
        catalogue = http.get("/api/web/catalogue", params={"lang": "de"}).json()
    template = all_reasons()["k20.team_players"]
    assert catalogue["reasons"]["k20.team_players"] == template
    german = catalogue["messages"][template]
    assert german != template and "Team" in german
