"""The thread that keeps an index current (memql.index.keeper): the commits that come while a pass gathers
are absorbed by that one pass, a wake during a pass asks for one more, `wait` hurries the pass it waits
for, and `stop` ends the thread after its last pass (with `final_pass`) or at once."""

from __future__ import annotations

import threading
import time

import pytest

from memql.index import keeper as keeper_module
from memql.index.keeper import Keeper


class Passes:
    """A pass that records itself; `block` holds each pass until released."""

    def __init__(self) -> None:
        self.count = 0
        self.started = threading.Event()
        self.release = threading.Event()
        self.release.set()

    def __call__(self, conn: object) -> None:
        self.count += 1
        self.started.set()
        self.release.wait(10)


def keeper(passes: Passes, final_pass: bool = False) -> Keeper:
    return Keeper("test-keeper", lambda: None, passes, (OSError,), final_pass)


def test_the_wakes_of_one_gathering_make_one_pass_and_wait_hurries_it(monkeypatch):
    monkeypatch.setattr(keeper_module, "GATHER", 30.0)  # no pass begins on its own during the test
    passes = Passes()
    k = keeper(passes)
    began = time.monotonic()
    for _ in range(50):  # fifty commits in a row
        k.wake()
    k.wait()
    assert passes.count == 1  # one pass absorbed them all
    assert time.monotonic() - began < 15  # wait did not sit out the gathering
    k.wake()
    k.wait()
    assert passes.count == 2
    k.stop()
    assert k.thread is None


def test_a_pass_begins_by_itself_once_the_gathering_ends(monkeypatch):
    monkeypatch.setattr(keeper_module, "GATHER", 0.01)
    passes = Passes()
    k = keeper(passes)
    k.wake()
    assert passes.started.wait(10)  # nobody waits for it: it runs after GATHER
    k.stop()


def test_a_wake_during_a_pass_asks_for_one_more(monkeypatch):
    monkeypatch.setattr(keeper_module, "GATHER", 0.0)
    passes = Passes()
    passes.release.clear()
    k = keeper(passes)
    k.wake()
    assert passes.started.wait(10)  # the first pass runs, held
    k.wake()
    k.wake()  # (asked for already: no second request)
    passes.release.set()
    k.wait()
    assert passes.count == 2
    k.stop()


@pytest.mark.parametrize("final_pass", [True, False])
def test_stop_makes_the_last_pass_only_when_asked(monkeypatch, final_pass):
    monkeypatch.setattr(keeper_module, "GATHER", 30.0)
    passes = Passes()
    k = keeper(passes, final_pass)
    k.wake()  # gathering: stop ends the wait at once
    began = time.monotonic()
    k.stop()
    assert time.monotonic() - began < 15 and k.thread is None
    assert passes.count == (1 if final_pass else 0)
    k.wake()  # stopped: no thread starts again
    assert k.thread is None
