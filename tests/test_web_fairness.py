"""Fair shares of the engines (issue 26): one client's jobs wait behind each other, never in front of
everyone else's; a job's time starts when it runs; an overrunning job stops only its own worker; nothing
ponders after its move; no GET route starts engine work."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from typing import Any

import httpx
import pytest

from kalah.web import create_app
from kalah.web.clients import client_key as address_key
from kalah.web.scheduler import Refused, Scheduler, ThreadSlot, make_slots
from kalah.web.worker import capped_spec


def _game(players: list[str]) -> dict[str, Any]:
    return {"players": players}


async def _served(app: Any, test: Any) -> None:
    """Run ``test(at)`` with the app started; ``at(address)`` is an HTTP client coming from that address."""
    clients: list[httpx.AsyncClient] = []

    def at(address: str) -> httpx.AsyncClient:
        client = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app, client=(address, 40000)), base_url="http://localhost", timeout=60
        )
        clients.append(client)
        return client

    async with app.router.lifespan_context(app):
        try:
            await test(at)
        finally:
            for client in clients:
                await client.aclose()


async def _new_game(client: httpx.AsyncClient, players: list[str]) -> dict[str, Any]:
    response = await client.post("/api/games", json=_game(players))
    assert response.status_code == 201, response.text
    return response.json()


# --- fair shares, through the API ---------------------------------------------------------


def test_a_clients_jobs_wait_behind_each_other_not_in_front_of_another_clients(tmp_path):
    """A client with two long computer moves queued does not keep another client's move waiting behind both:
    the other's move runs next (before, it was refused 503: the one client held every job place)."""
    app = create_app(tmp_path / "games.sqlite", workers=1, pool="thread", move_seconds=1.0)
    finished: dict[str, float] = {}
    statuses: dict[str, int] = {}

    async def test(at: Any) -> None:
        greedy, honest = at("10.0.0.1"), at("10.0.0.2")
        slow = [await _new_game(greedy, ["pvs:time=20", "human"]) for _ in range(2)]
        quick = await _new_game(honest, ["random:seed=3", "human"])
        began = time.monotonic()

        async def move(name: str, client: httpx.AsyncClient, game: dict[str, Any], delay: float) -> None:
            await asyncio.sleep(delay)
            response = await client.post(f"/api/games/{game['id']}/computer-move", json={"moves": 0})
            statuses[name], finished[name] = response.status_code, time.monotonic() - began

        await asyncio.gather(
            move("greedy 1", greedy, slow[0], 0),
            move("greedy 2", greedy, slow[1], 0.05),
            move("honest", honest, quick, 0.2),
        )

    asyncio.run(_served(app, test))
    assert statuses == {"greedy 1": 200, "greedy 2": 200, "honest": 200}, statuses
    assert finished["honest"] < finished["greedy 2"], finished  # it did not wait behind both


def test_a_jobs_time_limit_starts_when_it_runs_not_when_it_is_queued(tmp_path):
    """Four clients ask for analyses as long as the limit on two engine slots: the last two wait a whole
    analysis before they run, and still answer (before, the wait counted: they got 503 "ran over")."""
    app = create_app(tmp_path / "games.sqlite", workers=2, pool="thread", move_seconds=2.5)
    answers: list[httpx.Response] = []

    async def test(at: Any) -> None:
        game = await _new_game(at("10.0.1.1"), ["human", "human"])

        async def analyse(address: str) -> None:
            answers.append(await at(address).post(f"/api/games/{game['id']}/analysis", json={"seconds": 2.5}))

        await asyncio.gather(*(analyse(f"10.0.1.{n}") for n in range(1, 5)))

    asyncio.run(_served(app, test))
    assert [answer.status_code for answer in answers] == [200] * 4, [answer.text for answer in answers]
    assert all(answer.json()["best_move"] is not None for answer in answers)


def test_nothing_ponders_after_the_server_has_answered(tmp_path):
    """A player spec with ponder=on runs without it: no thread is left thinking in the worker once the
    move is answered (before, each move left one thinking for up to 60 s)."""
    app = create_app(tmp_path / "games.sqlite", workers=1, pool="thread", move_seconds=1.0)
    left: list[list[str]] = []

    async def test(at: Any) -> None:
        client = at("10.0.2.1")
        game = await _new_game(client, ["pvs:time=0.2,ponder=on", "pvs:time=0.2,ponder=on"])
        for moves in range(4):
            response = await client.post(f"/api/games/{game['id']}/computer-move", json={"moves": moves})
            assert response.status_code == 200, response.text
            left.append([thread.name for thread in threading.enumerate() if "ponder" in thread.name])

    asyncio.run(_served(app, test))
    assert left == [[]] * 4
    assert capped_spec("pvs:time=3,ponder=on", 5) == "pvs:time=3"
    assert capped_spec("mtdf:time=9,ponder=on,eval=store", 5) == "mtdf:time=5,eval=store"


def test_no_get_route_starts_engine_work(tmp_path):
    """A page on another site can make a browser send GETs (an image, a link) without asking anyone: no GET
    route may reach the engines. The analysis of a game is a POST with a JSON body."""
    app = create_app(tmp_path / "games.sqlite", workers=1, pool="thread")
    jobs: list[str] = []
    statuses: dict[str, int] = {}

    async def test(at: Any) -> None:
        client = at("10.0.3.1")
        game = await _new_game(client, ["pvs:time=0.1", "human"])
        engines = app.state.service.engines
        run = engines.run

        async def counted(client_key: str, function: Any, *args: Any) -> Any:
            jobs.append(function.__name__)
            return await run(client_key, function, *args)

        engines.run = counted
        paths = [path for path, item in app.openapi()["paths"].items() if "get" in item]
        assert "/api/games/{game_id}/analysis" not in paths
        for path in paths + ["/api/games/{game_id}/analysis?seconds=0.5"]:
            url = path.replace("{game_id}", str(game["id"]))
            response = await client.get(url, params={"board": "[[4,4,4,4,4,4,0],[4,4,4,4,4,4,0]]"})
            statuses[path] = response.status_code
        assert jobs == []
        response = await client.post(f"/api/games/{game['id']}/analysis", json={"seconds": 0.1})
        assert response.status_code == 200 and response.json()["best_move"] is not None
        assert jobs == ["analyse"]

    asyncio.run(_served(app, test))
    assert statuses["/api/games/{game_id}/analysis?seconds=0.5"] == 405


# --- the scheduler itself --------------------------------------------------------------------


def _blocked_slot_scheduler(**options: Any) -> tuple[Scheduler, Any]:
    import concurrent.futures

    pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    return Scheduler([ThreadSlot(pool)], run_seconds=10, **options), pool


def test_clients_are_served_in_turn():
    """One slot; client a sends three jobs, then b and c one each: a's later jobs wait behind b's and c's."""
    order: list[str] = []
    gate = threading.Event()

    def job(name: str) -> str:
        gate.wait(5)
        order.append(name)
        return name

    async def main() -> list[str]:
        scheduler, pool = _blocked_slot_scheduler(per_client=4)
        tasks = []
        for client, name in [("a", "a1"), ("a", "a2"), ("a", "a3"), ("b", "b1"), ("c", "c1")]:
            tasks.append(asyncio.create_task(scheduler.run(client, job, name)))
            await asyncio.sleep(0.01)
        gate.set()
        answers = await asyncio.gather(*tasks)
        pool.shutdown()
        return answers

    assert asyncio.run(main()) == ["a1", "a2", "a3", "b1", "c1"]  # every caller gets its own answer
    assert order == ["a1", "b1", "c1", "a2", "a3"]


def test_a_client_that_used_the_engines_longer_waits_behind_those_that_did_not():
    """b ran a long job a moment ago; a slot that frees goes first to c, d and e (short jobs), then to b."""
    order: list[str] = []
    gate = threading.Event()

    def job(name: str, seconds: float = 0.0) -> None:
        gate.wait(5)
        time.sleep(seconds)
        order.append(name)

    async def main() -> None:
        scheduler, pool = _blocked_slot_scheduler(per_client=4)
        gate.set()
        await scheduler.run("b", job, "b long", 0.3)
        gate.clear()
        tasks = [asyncio.create_task(scheduler.run("a", job, "a1"))]  # holds the slot until the gate opens
        await asyncio.sleep(0.01)
        for client in "bcde":
            tasks.append(asyncio.create_task(scheduler.run(client, job, client)))
            await asyncio.sleep(0.01)
        gate.set()
        await asyncio.gather(*tasks)
        assert scheduler.usage.of("b") > 0.25 > scheduler.usage.of("c")
        pool.shutdown()

    asyncio.run(main())
    assert order == ["b long", "a1", "c", "d", "e", "b"]


def test_the_last_free_slot_is_kept_for_light_clients():
    """Two slots, two clients that used the engines for seconds: one runs, the other waits with a slot free,
    and a light client's job takes that slot at once."""
    import concurrent.futures

    gate = threading.Event()

    async def main() -> None:
        pool = concurrent.futures.ThreadPoolExecutor(max_workers=2)
        scheduler = Scheduler([ThreadSlot(pool), ThreadSlot(pool)], run_seconds=10, light_seconds=1.0)
        scheduler.usage.add("heavy 1", 5.0)
        scheduler.usage.add("heavy 2", 5.0)
        first = asyncio.create_task(scheduler.run("heavy 1", gate.wait, 5))
        second = asyncio.create_task(scheduler.run("heavy 2", gate.wait, 5))
        await asyncio.sleep(0.1)
        assert scheduler.load("heavy 2") == 1 and scheduler._queued == 1 and len(scheduler._free) == 1
        assert await asyncio.wait_for(scheduler.run("light", os.getpid), 2) == os.getpid()  # not behind heavy 2
        assert not second.done()
        gate.set()
        assert await asyncio.gather(first, second) == [True, True]
        pool.shutdown()

    asyncio.run(main())


def test_engine_time_is_forgotten_slowly_and_remembered_for_a_bounded_number_of_clients():
    from kalah.web.scheduler import Usage

    usage = Usage(half_life=60, remembered=3)
    usage.add("a", 4.0)
    assert 3.9 < usage.of("a") <= 4.0 and usage.of("a", time.monotonic() + 60) == pytest.approx(2.0, rel=0.01)
    for client in "bcd":
        usage.add(client, 1.0)
    assert len(usage) == 3 and usage.of("a") == 0.0  # the least recently served went first


def test_limits_per_client_and_in_all_answer_429_and_503_and_a_gone_request_leaves_the_queue():
    gate = threading.Event()

    async def main() -> None:
        scheduler, pool = _blocked_slot_scheduler(per_client=2, max_queued=2)
        first = asyncio.create_task(scheduler.run("a", gate.wait, 5))  # runs
        waiting = asyncio.create_task(scheduler.run("a", gate.wait, 5))  # waits
        await asyncio.sleep(0.05)
        with pytest.raises(Refused) as refused:
            await scheduler.run("a", gate.wait, 5)
        assert refused.value.status == 429
        other = asyncio.create_task(scheduler.run("b", gate.wait, 5))
        await asyncio.sleep(0.05)
        with pytest.raises(Refused) as refused:  # two waiting: the queue is full for everyone
            await scheduler.run("c", gate.wait, 5)
        assert refused.value.status == 503 and refused.value.retry_after >= 1
        waiting.cancel()  # its client went away before it ran: its place is free
        await asyncio.sleep(0.05)
        assert scheduler.load("a") == 1
        late = asyncio.create_task(scheduler.run("c", gate.wait, 5))
        gate.set()
        assert await asyncio.gather(first, other, late) == [True, True, True]
        assert scheduler.load("a") == scheduler.load("b") == scheduler.load("c") == 0
        assert scheduler._served == {}  # nothing kept of clients with nothing under way
        pool.shutdown()

    asyncio.run(main())


def test_an_overrunning_job_stops_only_its_own_worker():
    """Two process slots: a job that sleeps past the limit is answered 503 and its worker replaced, while
    another client's job in the other worker finishes (before, the whole pool was killed with it)."""

    async def main() -> None:
        # every client light: the last free slot's rule (tested above) must not send x and y to one worker,
        # as it did when a worker's first job, importing this module, took over a second on a slow machine
        scheduler = Scheduler(make_slots(2, "process"), run_seconds=4.0, per_client=4, light_seconds=3600.0)
        try:
            await scheduler.start()
            # a worker of each slot (and this module imported in both, before any clock matters)
            before = set(
                await asyncio.gather(scheduler.run("x", _sleep_then_pid, 0.3), scheduler.run("y", _sleep_then_pid, 0.3))
            )
            assert len(before) == 2
            stuck = asyncio.create_task(scheduler.run("attacker", time.sleep, 60))
            await asyncio.sleep(1.5)
            honest = asyncio.create_task(scheduler.run("honest", _sleep_then_pid, 3.0))  # running at the kill
            with pytest.raises(Refused) as refused:
                await stuck
            assert refused.value.status == 503 and "ran over" in refused.value.message
            survivor = await honest  # its worker was not killed: it finished its job
            assert survivor in before
            while len(scheduler._free) < 2:  # the new worker is starting
                await asyncio.sleep(0.05)
            after = set(
                await asyncio.gather(scheduler.run("x", _sleep_then_pid, 0.5), scheduler.run("y", _sleep_then_pid, 0.5))
            )
            assert survivor in after and len(after - before) == 1  # the stuck worker alone was replaced
        finally:
            scheduler.stop()

    asyncio.run(main())


def _sleep_then_pid(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


def test_client_keys_group_an_ipv6_host_by_its_network():
    assert address_key("192.0.2.7") == "addr:192.0.2.7"
    assert address_key("2001:db8:1:2::5") == address_key("2001:db8:1:2:ffff::1") == "addr:2001:db8:1:2::/64"
    assert address_key("2001:db8:1:3::5") != address_key("2001:db8:1:2::5")
    assert address_key("::ffff:192.0.2.7") == "addr:192.0.2.7"
    assert address_key(None) == "addr:unknown" and address_key("testclient") == "addr:testclient"


# --- a real server: the worker processes' threads ----------------------------------------------


def _workers_threads(server_pid: int) -> dict[int, int]:
    """The engine worker processes (multiprocessing's spawn_main) of the server, with their threads."""
    from pathlib import Path

    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            command = (entry / "cmdline").read_bytes()
            threads = len(list((entry / "task").iterdir()))
        except OSError:
            continue
        if parent == server_pid and b"spawn_main" in command:
            found[int(entry.name)] = threads
    return found


@pytest.mark.skipif(not os.path.exists("/proc"), reason="counts threads through /proc (Linux)")
def test_the_workers_threads_do_not_grow_with_pondering_games(tmp_path):
    """Computer moves of ponder=on players, one after the other: the worker keeps its number of threads
    (before, every move left a thread pondering for up to a minute: 2 threads grew to 26 in 69 moves)."""
    from helpers import kill_group, start_kalah_serve

    process, url = start_kalah_serve(tmp_path / "games.sqlite", "--workers", "1")
    try:
        with httpx.Client(base_url=url, timeout=30) as client:
            game = client.post("/api/games", json=_game(["pvs:time=0.1,ponder=on"] * 2)).json()
            counts = []
            for moves in range(8):
                response = client.post(f"/api/games/{game['id']}/computer-move", json={"moves": moves})
                assert response.status_code == 200, response.text
                counts.append(sum(_workers_threads(process.pid).values()))
        assert max(counts) - min(counts) <= 1, counts
    finally:
        kill_group(process)
